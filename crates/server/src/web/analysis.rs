//! The analysis board's API: any position of any game (a start, set up or imported, and moves from it) with
//! its legal moves, the board editor's check of a set-up position, and the engine's best lines streamed as
//! the search deepens. Every position comes from the rules library, so the page computes no rule.

use axum::{Json, body::Bytes, extract::State, response::Response};
use gridplay_core::{BoardView, DynGame, DynPosition, MoveView, Player, SideInfo};
use gridplay_engine::lines::{Line, Lines, Proof};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::game::codes::ErrorCode;
use crate::game::live::LiveError;
use crate::web::{
    AppState,
    auth::{ClientIp, MaybeUser, SignedIn, asker},
    bot::{line, ndjson},
    error::{ApiError, ApiResult, ErrorBody},
    settings::build_spec,
};

/// The most moves a position on the board may have from its start, and the longest a move's text.
const MAX_MOVES: usize = 600;
const MAX_MOVE_TEXT: usize = 200;
/// The longest position text or game file read.
const MAX_TEXT: usize = 64 * 1024;
/// The most lines the engine is asked for.
pub(crate) const MAX_LINES: u8 = 10;

/// A position of the analysis board: a start and moves from it.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct BoardQuery {
    /// The game and its settings, as a spec (`cornered:size=6`).
    spec: String,
    /// The start as the game's position text (a board editor's or an imported position); the game's own
    /// start when left out.
    #[serde(default)]
    start: Option<String>,
    /// Moves from the start.
    #[serde(default)]
    moves: Vec<String>,
}

/// A position on the analysis board with its legal moves.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct BoardPosition {
    /// The spec in canonical form.
    spec: String,
    game: String,
    title: String,
    sides: [SideInfo; 2],
    /// The start as the game's position text.
    start: String,
    /// Whether the start is the game's own.
    standard: bool,
    /// The moves from the start, as the game writes them.
    moves: Vec<String>,
    /// The position reached, as the game's position text: FEN for checkers, the board and the side to move
    /// for Reversi, the game's own notation for the others.
    position: String,
    view: BoardView,
    last_move: Option<MoveView>,
    /// Whether the engine can be asked for lines here: the game goes on and an engine plays it.
    engine: bool,
}

/// A game file or a position text to read onto the board.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct ImportQuery {
    /// The game, for a position text (a game file names its own game).
    spec: String,
    /// A position text of the game, or a game file in the game's format.
    text: String,
}

/// A position set up on the board editor: each cell's piece, by the character the game writes it with.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct SetupQuery {
    spec: String,
    /// The position being edited, as the game's position text (what the pieces left alone keep, such as a
    /// unit's health); the game's start when left out.
    #[serde(default)]
    start: Option<String>,
    /// Every cell row by row from the top-left: the character of one of the game's editor pieces, or `null`
    /// for an empty cell.
    cells: Vec<Option<char>>,
    /// The side to move.
    turn: Player,
}

/// The engine's lines asked for a position of the board.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct LinesQuery {
    spec: String,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// How many of the best moves to follow, 1 to 10.
    lines: u8,
}

/// One update of the engine's lines: the best moves after a complete depth.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LinesUpdate {
    /// Plies searched.
    depth: u32,
    /// Positions searched so far.
    nodes: u64,
    /// Milliseconds since the search began.
    ms: u64,
    /// The position's legal moves.
    moves: usize,
    /// Every move is proved: this is the last update.
    proved: bool,
    /// The best lines, best first.
    lines: Vec<LineJson>,
}

/// One line: a move and the play expected after it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LineJson {
    moves: Vec<String>,
    /// For the side to move, in hundredths of a game unit (Reversi's discs, checkers' men).
    score: i32,
    /// `estimate` (the search's value at its depth), `exact` (an endgame solve: the score is the final margin
    /// with best play), `win` or `loss` (forced).
    proof: &'static str,
    /// Plies to the forced win or loss, where the search knows them.
    #[serde(skip_serializing_if = "Option::is_none")]
    plies: Option<u32>,
}

impl From<&Line> for LineJson {
    fn from(l: &Line) -> LineJson {
        let (proof, plies) = match l.proof {
            Proof::Estimate => ("estimate", None),
            Proof::Exact => ("exact", None),
            Proof::Win { plies } => ("win", plies),
            Proof::Loss { plies } => ("loss", plies),
        };
        LineJson {
            moves: l.moves.clone(),
            score: l.score,
            proof,
            plies,
        }
    }
}

impl From<&Lines> for LinesUpdate {
    fn from(l: &Lines) -> LinesUpdate {
        LinesUpdate {
            depth: l.depth,
            nodes: l.nodes,
            ms: u64::try_from(l.elapsed.as_millis()).unwrap_or(u64::MAX),
            moves: l.moves,
            proved: l.proved,
            lines: l.lines.iter().map(LineJson::from).collect(),
        }
    }
}

fn bad_position(e: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(ErrorCode::BadPosition, e.to_string())
}

/// The start of `game` that `start` writes, or its own.
fn start_of(game: &dyn DynGame, start: Option<&str>) -> ApiResult<Box<dyn DynPosition>> {
    match start {
        None => Ok(game.start()),
        Some(text) if text.len() > MAX_TEXT => Err(bad_position(format!(
            "a position text has at most {MAX_TEXT} characters"
        ))),
        Some(text) => game.parse_position(text).map_err(bad_position),
    }
}

/// The position after `moves` from `start`, each move parsed, checked and played by the rules library.
fn reach(game: &dyn DynGame, start: Box<dyn DynPosition>, moves: &[String]) -> ApiResult<BoardPosition> {
    let start_text = start.to_text();
    let standard = start_text == game.start().to_text();
    let (pos, played, last_move) = walk(start, moves)?;
    let info = game.info();
    Ok(BoardPosition {
        spec: game.spec().to_string(),
        engine: pos.outcome().is_none() && gridplay_engine::top_level(&info.name).is_some(),
        game: info.name,
        title: info.title,
        sides: info.sides,
        start: start_text,
        standard,
        moves: played,
        position: pos.to_text(),
        view: pos.view(),
        last_move,
    })
}

/// A position reached by moves: the position, the moves as the game writes them, and the last as the board
/// showed it.
pub(crate) type Walked = (Box<dyn DynPosition>, Vec<String>, Option<MoveView>);

/// The position after `moves` from `start`, each parsed, checked and played by the rules library, with the
/// moves as the game writes them and the last one as the board showed it.
pub(crate) fn walk(start: Box<dyn DynPosition>, moves: &[String]) -> ApiResult<Walked> {
    if moves.len() > MAX_MOVES || moves.iter().any(|m| m.len() > MAX_MOVE_TEXT) {
        return Err(ApiError::bad_request(
            ErrorCode::TooLong,
            format!("at most {MAX_MOVES} moves of {MAX_MOVE_TEXT} characters each"),
        ));
    }
    let mut pos = start;
    let mut last_move = None;
    let mut played = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let refused = |e: gridplay_core::MoveError| {
            ApiError::bad_request(ErrorCode::BadMove, format!("move {} ({m}): {e}", i + 1))
        };
        let text = pos.normalize_move(m).map_err(refused)?;
        let view = pos.view();
        pos.play(&text).map_err(refused)?;
        last_move = view.moves.into_iter().find(|v| v.text == text);
        played.push(text);
    }
    Ok((pos, played, last_move))
}

/// A position of the analysis board: the start (the game's own, or a position text) and moves from it.
#[utoipa::path(post, path = "/analysis/position", tag = "analysis", request_body = BoardQuery,
    responses((status = 200, body = BoardPosition), (status = 400, body = ErrorBody,
        description = "A bad spec (`bad-spec`), a start that is not a position of the game or is impossible \
(`bad-position`: the rules library's reason), an illegal move (`bad-move`: which and why), or too many moves (`too-long`)")))]
pub(crate) async fn position(
    State(state): State<AppState>,
    Json(q): Json<BoardQuery>,
) -> ApiResult<Json<BoardPosition>> {
    let game = build_spec(&state, &q.spec)?;
    let start = start_of(game.as_ref(), q.start.as_deref())?;
    Ok(Json(reach(game.as_ref(), start, &q.moves)?))
}

/// Reads a position text of the game, or a game file (of any game, which it names), onto the board: a game
/// file's moves follow its start.
#[utoipa::path(post, path = "/analysis/import", tag = "analysis", request_body = ImportQuery,
    responses((status = 200, body = BoardPosition), (status = 400, body = ErrorBody,
        description = "A bad spec (`bad-spec`), or a text that is neither a position of the game nor a game file \
(`bad-position`: why it is neither)")))]
pub(crate) async fn import(
    State(state): State<AppState>,
    Json(q): Json<ImportQuery>,
) -> ApiResult<Json<BoardPosition>> {
    let game = build_spec(&state, &q.spec)?;
    if q.text.len() > MAX_TEXT {
        return Err(bad_position(format!(
            "a text to read has at most {MAX_TEXT} characters"
        )));
    }
    let as_position = match game.parse_position(&q.text) {
        Ok(start) => return Ok(Json(reach(game.as_ref(), start, &[])?)),
        Err(e) => e,
    };
    match crate::transcript::import(state.registry, &q.text) {
        Ok(imported) => {
            let record = imported.record;
            Ok(Json(reach(
                imported.game.as_ref(),
                record.start().box_clone(),
                record.moves(),
            )?))
        }
        Err(as_file) => Err(bad_position(format!(
            "this is neither a position of {} ({as_position}) nor a game file ({as_file})",
            game.info().title
        ))),
    }
}

/// Checks a position set up on the board editor: the rules library builds it from the cells' pieces and
/// refuses an impossible one with the reason.
#[utoipa::path(post, path = "/analysis/setup", tag = "analysis", request_body = SetupQuery,
    responses((status = 200, body = BoardPosition, description = "The position set up, as a start with no moves"),
        (status = 400, body = ErrorBody,
        description = "A bad spec (`bad-spec`), or a position the game cannot have (`bad-position`: the reason)")))]
pub(crate) async fn setup(
    State(state): State<AppState>,
    Json(q): Json<SetupQuery>,
) -> ApiResult<Json<BoardPosition>> {
    let game = build_spec(&state, &q.spec)?;
    let base = start_of(game.as_ref(), q.start.as_deref())?;
    let set = game
        .setup(base.as_ref(), &q.cells, q.turn)
        .map_err(bad_position)?;
    Ok(Json(reach(game.as_ref(), set, &[])?))
}

/// The engine's best lines from a position of the board, as NDJSON: one `LinesUpdate` a line after each
/// complete depth, deeper each time, until every move is proved, the search's time (`--lines-seconds`) is
/// spent, or the client closes the answer, which stops the search. It runs in the analysis lane, which never
/// delays the engine's moves in games, and counts among the user's analyses under way.
#[utoipa::path(post, path = "/analysis/lines", tags = ["analysis", "engine"], security(("session" = [])), request_body = LinesQuery,
    responses((status = 200, content_type = "application/x-ndjson", body = LinesUpdate,
        description = "One `LinesUpdate` a line, as the search deepens"),
        (status = "4XX", body = ErrorBody, description = "Signed out, a bad position or move (as `/analysis/position`), \
a game that is over (`game-over`) or that no engine plays (`no-engine`), a position the fair-play rule guards from the asker (`409 refused`: docs/web.md, \"Fair play\"), or the user's analyses under way at their limit (`429 too-many`)")))]
pub(crate) async fn lines(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    ip: ClientIp,
    Json(q): Json<LinesQuery>,
) -> ApiResult<Response> {
    if !(1..=MAX_LINES).contains(&q.lines) {
        return Err(ApiError::bad_request(
            ErrorCode::BadLines,
            format!("ask for 1 to {MAX_LINES} lines"),
        ));
    }
    let game = build_spec(&state, &q.spec)?;
    let start = start_of(game.as_ref(), q.start.as_deref())?;
    let (pos, _, _) = walk(start, &q.moves)?;
    if pos.outcome().is_some() {
        return Err(ApiError::bad_request(
            ErrorCode::GameOver,
            "the game is over in this position",
        ));
    }
    if gridplay_engine::top_level(&game.info().name).is_none() {
        return Err(ApiError::bad_request(
            ErrorCode::NoEngine,
            "no engine plays this game",
        ));
    }
    let (mut feed, guard) = state
        .hub
        .lines(
            &me,
            &asker(Some(&me), ip),
            &game.info().name,
            pos,
            usize::from(q.lines),
        )
        .await?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    state.tasks.clone().spawn_edge(async move {
        let _guard = guard;
        loop {
            tokio::select! {
                update = feed.recv() => match update {
                    Some(Ok(lines)) => {
                        if tx.send(line(&LinesUpdate::from(&lines))).await.is_err() {
                            break;
                        }
                    }
                    Some(Err(_)) | None => break,
                },
                () = tx.closed() => break,
            }
            if state.draining() {
                break;
            }
        }
    });
    Ok(ndjson(rx))
}

/// The moves played from a position of the board in the site's games, with the book's scores.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ExplorerAnswer {
    /// How many plies from a game's start the explorer counts: a position deeper in every game has no count.
    plies: usize,
    /// Whether the book's scores are in `moves` (the game has an opening book and they are not withheld).
    book: bool,
    /// Whether the fair-play rule withholds the book's scores from the asker: the position bears on a game
    /// the asker plays without help.
    withheld: bool,
    /// The moves, most played first, then the book's moves no one played.
    moves: Vec<ExplorerMove>,
}

/// One move of the explorer: how often it was played here and how those games ended.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ExplorerMove {
    /// The move, as the game writes it (one of the moves that reach the same position, where several do).
    #[serde(rename = "move")]
    mv: String,
    games: i64,
    first_wins: i64,
    second_wins: i64,
    draws: i64,
    /// The players' mean rating over the games in which either had one.
    rating: Option<i64>,
    /// The opening book's score for the side to move, in hundredths of a game unit.
    book: Option<i32>,
}

/// The opening explorer: the moves played from a position in the site's finished games between two accounts
/// (their first 30 plies), each with its count, results and the players' mean rating, and the opening book's
/// score beside them where the game has a book. Moves that reach one position count together, and for
/// Reversi so do mirror images of the board. The book's scores are engine output: they are withheld
/// (`withheld`) where the fair-play rule guards the position from the asker.
#[utoipa::path(post, path = "/analysis/explorer", tags = ["analysis", "engine"], request_body = BoardQuery,
    responses((status = 200, body = ExplorerAnswer), (status = 400, body = ErrorBody,
        description = "A bad spec, start or move, as `/analysis/position`")))]
pub(crate) async fn explorer(
    State(state): State<AppState>,
    MaybeUser(me): MaybeUser,
    ip: ClientIp,
    Json(q): Json<BoardQuery>,
) -> ApiResult<Json<ExplorerAnswer>> {
    use crate::db::explorer::{PLIES, key_hash};
    let game = build_spec(&state, &q.spec)?;
    let start = start_of(game.as_ref(), q.start.as_deref())?;
    let (pos, _, _) = walk(start, &q.moves)?;
    let withheld = match state
        .hub
        .check_help(&asker(me.as_ref(), ip), &game.info().name, &[pos.as_ref()])
        .await
    {
        Ok(()) => false,
        Err(LiveError::Refused(_)) => true,
        Err(e) => return Err(e.into()),
    };
    let book = if withheld {
        None
    } else {
        gridplay_engine::book_moves(pos.as_ref())
    };
    let mut answer = ExplorerAnswer {
        plies: PLIES,
        book: book.is_some(),
        withheld,
        moves: Vec::new(),
    };
    if pos.outcome().is_some() {
        return Ok(Json(answer));
    }
    // Each legal move by the position it reaches: the first move that reaches it stands for them all.
    let mut reached: Vec<(i64, String)> = Vec::new();
    for m in pos.legal_moves() {
        let mut next = pos.box_clone();
        if next.play(&m).is_ok() {
            let key = key_hash(&next.explorer_key());
            if !reached.iter().any(|(k, _)| *k == key) {
                reached.push((key, m));
            }
        }
    }
    let book_of = |key: i64| {
        book.as_ref().and_then(|b| {
            b.iter()
                .filter(|(m, _)| {
                    let mut next = pos.box_clone();
                    next.play(m).is_ok() && key_hash(&next.explorer_key()) == key
                })
                .map(|(_, s)| *s)
                .max()
        })
    };
    let rows = state
        .db
        .explorer(&game.spec().to_string(), key_hash(&pos.explorer_key()))
        .await
        .map_err(|e| {
            tracing::error!("explorer: {e}");
            ApiError::internal()
        })?;
    for row in rows {
        if let Some((key, m)) = reached.iter().find(|(k, _)| *k == row.reached) {
            answer.moves.push(ExplorerMove {
                mv: m.clone(),
                games: row.games,
                first_wins: row.first_wins,
                second_wins: row.second_wins,
                draws: row.draws,
                rating: row.rating.map(|r| r.round() as i64),
                book: book_of(*key),
            });
        }
    }
    let played = answer.moves.len();
    for (key, m) in &reached {
        if answer.moves.iter().any(|x| &x.mv == m) {
            continue;
        }
        if let Some(score) = book_of(*key) {
            answer.moves.push(ExplorerMove {
                mv: m.clone(),
                games: 0,
                first_wins: 0,
                second_wins: 0,
                draws: 0,
                rating: None,
                book: Some(score),
            });
        }
    }
    answer.moves[played..].sort_by_key(|m| std::cmp::Reverse(m.book));
    Ok(Json(answer))
}
