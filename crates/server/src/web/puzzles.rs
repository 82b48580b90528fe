//! Puzzles: the next puzzle of a game near the player's puzzle rating, each answer graded by the puzzle's proof
//! (every move that keeps the proved result is right: the solution's move gets the engine's reply, another
//! right move ends the puzzle solved; a wrong move gets the line that refutes it), and a player's rating,
//! streak and history. A signed-in player's first try of a puzzle changes both ratings (Glicko-2,
//! `db/puzzles.rs`).

use axum::{
    Json,
    extract::{Path, State},
};
use gridplay_core::{BoardView, SideInfo};
use gridplay_engine::puzzles::HowProved;
use rand::RngExt;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::game::codes::ErrorCode;
use crate::{
    db::{
        DbError,
        puzzles::{PuzzlePlayer, PuzzleRow},
        ratings::PROVISIONAL_DEVIATION,
    },
    game::{
        live::LiveError,
        puzzles::{AnswerError, Verdict, verdict},
    },
    web::{
        AppState,
        auth::{ClientIp, MaybeUser, SignedIn, asker},
        error::{ApiError, ApiResult, ErrorBody},
    },
};

/// A puzzle to solve: the position, with the solver to move.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PuzzleJson {
    id: String,
    game: String,
    spec: String,
    title: String,
    sides: [SideInfo; 2],
    /// The position text (the start of the analysis board's "analyse" link).
    position: String,
    view: BoardView,
    /// The puzzle's rating, and how often it was tried.
    rating: i64,
    plays: i64,
    /// How the first move was proved best, in English (`exact solve of every move (16 empty squares)`,
    /// `forced win; ...`, `ahead of every refused move by 150 or more at depths 12 and 14`).
    proof: String,
    /// The same as figures, for a page to say in its language; absent for words of another kind.
    how: Option<HowProvedJson>,
    /// The moves the solver has to find.
    solver_moves: usize,
    /// The game's puzzles in all.
    count: i64,
    /// No longer offered: it cannot be answered.
    retired: bool,
    /// The signed-in player's puzzles in this game.
    player: Option<PuzzlePlayerJson>,
}

/// A player's puzzles in one game.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PuzzlePlayerJson {
    rating: i64,
    provisional: bool,
    attempts: i64,
    solved: i64,
    streak: i64,
    best_streak: i64,
}

impl From<&PuzzlePlayer> for PuzzlePlayerJson {
    fn from(p: &PuzzlePlayer) -> PuzzlePlayerJson {
        PuzzlePlayerJson {
            rating: p.rating.round() as i64,
            provisional: p.deviation >= PROVISIONAL_DEVIATION,
            attempts: p.attempts,
            solved: p.solved,
            streak: p.streak,
            best_streak: p.best_streak,
        }
    }
}

/// The moves played on a puzzle so far, the solver's last.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct PuzzleMoves {
    /// From the puzzle's position: the solver's moves and the replies the server gave, then the new move.
    moves: Vec<String>,
}

/// What an answer to a puzzle did.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PuzzleAnswer {
    /// `continue` (right, and the puzzle goes on after `reply`), `solved` or `failed`.
    result: &'static str,
    /// The move was right but not the solution's: it keeps the result the puzzle proved, and ends it solved.
    also_right: bool,
    /// The engine's reply, to play before the solver's next move.
    reply: Option<String>,
    /// The whole solution, once the puzzle is over.
    solution: Option<Vec<String>>,
    /// After a wrong move: the engine's line that refutes it, from the position the move reached.
    refutation: Vec<String>,
    /// The refutation is withheld: the position bears on a game in play that the asker may get no engine
    /// help on (docs/web.md, "Fair play").
    withheld: bool,
    /// The player's puzzle rating before and after, where this was the player's first try.
    rating_before: Option<i64>,
    /// The player after this puzzle (signed in).
    player: Option<PuzzlePlayerJson>,
    /// The puzzle's rating after this try, where it changed.
    puzzle_rating: Option<i64>,
    /// The puzzle's rating and tries, once it is over.
    puzzle: Option<PuzzleStats>,
}

/// A puzzle's rating and how often it was tried.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PuzzleStats {
    rating: i64,
    plays: i64,
}

/// One puzzle of a player's history.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PuzzleAttemptJson {
    puzzle: String,
    /// Unix ms.
    at: i64,
    solved: bool,
    rating_after: i64,
    puzzle_rating: i64,
}

/// A player's puzzles in a game: rating, streaks and the last tries.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PuzzleHistory {
    player: PuzzlePlayerJson,
    attempts: Vec<PuzzleAttemptJson>,
}

fn internal(e: &DbError) -> ApiError {
    tracing::error!("puzzles: {e}");
    ApiError::internal()
}

fn check_game(state: &AppState, game: &str) -> ApiResult<()> {
    state
        .registry
        .entry(game)
        .map(|_| ())
        .ok_or_else(|| ApiError::not_found("game"))
}

/// The next puzzle of a game: one the signed-in player has not tried, near the player's puzzle rating (near
/// 1500 for a visitor), drawn among the nearest few.
#[utoipa::path(get, path = "/puzzles/{game}/next", tag = "puzzles",
    params(("game" = String, Path, description = "The game's registry name")),
    responses((status = 200, body = PuzzleJson), (status = 404, body = ErrorBody, description = "No such game, or it has no puzzle")))]
pub(crate) async fn next(
    State(state): State<AppState>,
    MaybeUser(me): MaybeUser,
    Path(game): Path<String>,
) -> ApiResult<Json<PuzzleJson>> {
    check_game(&state, &game)?;
    let player = player_of(&state, me.as_ref(), &game).await?;
    let near = player.as_ref().map_or(1500.0, |p| p.rating);
    let user = me.as_ref().map(|u| u.id.as_str());
    let mut choice = state
        .db
        .puzzles_near(&game, user, near, 12)
        .await
        .map_err(|e| internal(&e))?;
    if choice.is_empty() {
        // Every puzzle tried: they come round again.
        choice = state
            .db
            .puzzles_near(&game, None, near, 12)
            .await
            .map_err(|e| internal(&e))?;
    }
    if choice.is_empty() {
        return Err(ApiError::not_found("puzzle"));
    }
    let k = rand::rng().random_range(0..choice.len());
    let p = choice.swap_remove(k);
    Ok(Json(puzzle_json(&state, p, player).await?))
}

/// One puzzle by its id (a puzzle's own page, `/puzzles/{game}/{id}`), retired or not, with the signed-in
/// player's figures in its game.
#[utoipa::path(get, path = "/puzzle/{id}", tag = "puzzles",
    params(("id" = String, Path, description = "The puzzle's id")),
    responses((status = 200, body = PuzzleJson), (status = 404, body = ErrorBody, description = "No such puzzle")))]
pub(crate) async fn one(
    State(state): State<AppState>,
    MaybeUser(me): MaybeUser,
    Path(id): Path<String>,
) -> ApiResult<Json<PuzzleJson>> {
    if id.len() > 32 {
        return Err(ApiError::not_found("puzzle"));
    }
    let p = state
        .db
        .puzzle(&id)
        .await
        .map_err(|e| internal(&e))?
        .ok_or_else(|| ApiError::not_found("puzzle"))?;
    let player = player_of(&state, me.as_ref(), &p.game).await?;
    Ok(Json(puzzle_json(&state, p, player).await?))
}

/// The signed-in player's puzzles in `game` (`None` for a visitor).
async fn player_of(
    state: &AppState,
    me: Option<&crate::db::User>,
    game: &str,
) -> ApiResult<Option<PuzzlePlayer>> {
    match me {
        Some(u) => Ok(Some(
            state
                .db
                .puzzle_player(&u.id, game)
                .await
                .map_err(|e| internal(&e))?,
        )),
        None => Ok(None),
    }
}

async fn puzzle_json(state: &AppState, p: PuzzleRow, player: Option<PuzzlePlayer>) -> ApiResult<PuzzleJson> {
    let g = state.registry.game(&p.spec).map_err(|_| ApiError::internal())?;
    let pos = g.parse_position(&p.position).map_err(|_| ApiError::internal())?;
    let info = g.info();
    let (count, _) = state
        .db
        .count_puzzles(Some(&p.game), "")
        .await
        .map_err(|e| internal(&e))?;
    Ok(PuzzleJson {
        solver_moves: p.solution.len().div_ceil(2),
        view: pos.view(),
        title: info.title,
        sides: info.sides,
        id: p.id,
        game: p.game,
        spec: p.spec,
        position: p.position,
        rating: p.rating.round() as i64,
        plays: p.plays,
        how: p.proof.parse::<HowProved>().ok().map(HowProvedJson::from),
        proof: p.proof,
        retired: p.retired,
        count,
        player: player.as_ref().map(PuzzlePlayerJson::from),
    })
}

/// How a puzzle's first move was proved best ([`HowProved`]).
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum HowProvedJson {
    /// Every move solved exactly.
    Exact { empties: u32 },
    /// A forced win; every other move proved not to win by a search to `depth`.
    WinProved { depth: u32 },
    /// A forced win; every other move searched not to win at two depths.
    WinSearched { depths: [u32; 2] },
    /// Ahead of every refused move by `margin` hundredths of a game unit or more, at two depths.
    Margin { margin: i32, depths: [u32; 2] },
}

impl From<HowProved> for HowProvedJson {
    fn from(h: HowProved) -> HowProvedJson {
        match h {
            HowProved::Exact { empties } => HowProvedJson::Exact { empties },
            HowProved::WinProved { depth } => HowProvedJson::WinProved { depth },
            HowProved::WinSearched { depths } => HowProvedJson::WinSearched { depths },
            HowProved::Margin { margin, depths } => HowProvedJson::Margin { margin, depths },
        }
    }
}

/// The solver's move on a puzzle, graded by the puzzle's proof. The solution's move gets the engine's reply
/// (or the puzzle is solved); another move that keeps the proved result ends it solved (`also_right`); a move
/// that loses it fails the puzzle, with the engine's line that refutes it and the solution. A signed-in
/// player's first try of a puzzle changes the player's and the puzzle's ratings and the streak.
#[utoipa::path(post, path = "/puzzles/{id}/move", tags = ["puzzles", "engine"], request_body = PuzzleMoves,
    params(("id" = String, Path, description = "The puzzle's id")),
    responses((status = 200, body = PuzzleAnswer), (status = "4XX", body = ErrorBody,
        description = "No such puzzle; a puzzle no longer offered (410 `retired`); moves that are not the solution's so far (`bad-moves`); an illegal move (`bad-move`)")))]
pub(crate) async fn answer(
    State(state): State<AppState>,
    MaybeUser(me): MaybeUser,
    ip: ClientIp,
    Path(id): Path<String>,
    Json(body): Json<PuzzleMoves>,
) -> ApiResult<Json<PuzzleAnswer>> {
    if id.len() > 32 {
        return Err(ApiError::not_found("puzzle"));
    }
    let puzzle = state
        .db
        .puzzle(&id)
        .await
        .map_err(|e| internal(&e))?
        .ok_or_else(|| ApiError::not_found("puzzle"))?;
    if puzzle.retired {
        return Err(ApiError::new(
            axum::http::StatusCode::GONE,
            ErrorCode::Retired,
            "this puzzle is no longer offered: take the next one",
        ));
    }
    let bad = |e: AnswerError| match e {
        AnswerError::Stored => ApiError::internal(),
        AnswerError::Illegal { .. } => ApiError::bad_request(ErrorCode::BadMove, e.to_string()),
        AnswerError::Count | AnswerError::NotSoFar(_) => {
            ApiError::bad_request(ErrorCode::BadMoves, e.to_string())
        }
    };
    let how = match verdict(&puzzle, state.registry, &body.moves).map_err(bad)? {
        Verdict::Continue { reply } => {
            return Ok(Json(PuzzleAnswer {
                result: "continue",
                also_right: false,
                reply: Some(reply),
                solution: None,
                refutation: Vec::new(),
                withheld: false,
                rating_before: None,
                player: None,
                puzzle_rating: None,
                puzzle: None,
            }));
        }
        Verdict::Solved => Try::Solved,
        Verdict::AlsoRight => Try::AlsoRight,
        Verdict::Failed { reached } => {
            let guarded = match state
                .hub
                .check_help(&asker(me.as_ref(), ip), &puzzle.game, &[reached.as_ref()])
                .await
            {
                Ok(()) => false,
                Err(LiveError::Refused(_)) => true,
                Err(e) => return Err(e.into()),
            };
            if guarded {
                Try::Withheld
            } else if reached.outcome().is_none() {
                Try::Failed(state.hub.engines().refutation(reached).await)
            } else {
                Try::Failed(Vec::new())
            }
        }
    };
    Ok(Json(finish(&state, me.as_ref(), &puzzle, how).await?))
}

/// How a try ended.
enum Try {
    /// The solution found.
    Solved,
    /// Another move that keeps the proved result.
    AlsoRight,
    /// A wrong move, and the engine's line that refutes it.
    Failed(Vec<String>),
    /// A wrong move whose refutation the fair-play rule withholds from the asker.
    Withheld,
}

/// The end of a try: recorded for a signed-in player.
async fn finish(
    state: &AppState,
    me: Option<&crate::db::User>,
    puzzle: &PuzzleRow,
    how: Try,
) -> ApiResult<PuzzleAnswer> {
    let withheld = matches!(how, Try::Withheld);
    let (solved, also_right, refutation) = match how {
        Try::Solved => (true, false, Vec::new()),
        Try::AlsoRight => (true, true, Vec::new()),
        Try::Failed(line) => (false, false, line),
        Try::Withheld => (false, false, Vec::new()),
    };
    let mut answer = PuzzleAnswer {
        result: if solved { "solved" } else { "failed" },
        also_right,
        reply: None,
        solution: Some(puzzle.solution.clone()),
        refutation,
        withheld,
        rating_before: None,
        player: None,
        puzzle_rating: None,
        puzzle: None,
    };
    if let Some(u) = me {
        match crate::game::puzzles::record_try(&state.db, &u.id, puzzle, solved)
            .await
            .map_err(|e| internal(&e))?
        {
            Some(rated) => {
                answer.rating_before = Some(rated.before.round() as i64);
                answer.player = Some(PuzzlePlayerJson::from(&rated.player));
                answer.puzzle_rating = Some(rated.puzzle_rating.round() as i64);
            }
            None => {
                let p = state
                    .db
                    .puzzle_player(&u.id, &puzzle.game)
                    .await
                    .map_err(|e| internal(&e))?;
                answer.player = Some(PuzzlePlayerJson::from(&p));
            }
        }
    }
    // The puzzle as it stands after the try, for the panel.
    let now = state
        .db
        .puzzle(&puzzle.id)
        .await
        .map_err(|e| internal(&e))?
        .unwrap_or_else(|| puzzle.clone());
    answer.puzzle = Some(PuzzleStats {
        rating: now.rating.round() as i64,
        plays: now.plays,
    });
    Ok(answer)
}

/// The signed-in player's puzzles in a game: rating, streaks, and the last 50 tries, newest first.
#[utoipa::path(get, path = "/puzzles/{game}/history", tag = "puzzles", security(("session" = [])),
    params(("game" = String, Path, description = "The game's registry name")),
    responses((status = 200, body = PuzzleHistory), (status = "4XX", body = ErrorBody, description = "Signed out, or no such game")))]
pub(crate) async fn history(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Path(game): Path<String>,
) -> ApiResult<Json<PuzzleHistory>> {
    check_game(&state, &game)?;
    let player = state
        .db
        .puzzle_player(&me.id, &game)
        .await
        .map_err(|e| internal(&e))?;
    let attempts = state
        .db
        .puzzle_history(&me.id, &game, 50)
        .await
        .map_err(|e| internal(&e))?
        .into_iter()
        .map(|a| PuzzleAttemptJson {
            puzzle: a.puzzle_id,
            at: a.at,
            solved: a.solved,
            rating_after: a.rating_after.round() as i64,
            puzzle_rating: a.puzzle_rating.round() as i64,
        })
        .collect();
    Ok(Json(PuzzleHistory {
        player: PuzzlePlayerJson::from(&player),
        attempts,
    }))
}
