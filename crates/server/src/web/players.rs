//! Players and the games people watch: the list of games in play, a player's profile (ratings, results, the
//! rating history, games), the leaderboards, and "my games".

use std::collections::{BTreeMap, HashMap};

use axum::{
    Json,
    extract::{Path, Query, State},
};
use gridplay_core::{Cell, Player, Score, SideInfo};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::game::codes::ErrorCode;
use crate::{
    db::{
        GameRow, GameStatus, RatingRow, StatsRow,
        ratings::{PROVISIONAL_DEVIATION, RatingsAfter, START},
    },
    game::live::GameState,
    web::{
        AppState,
        auth::{MaybeUser, SignedIn},
        error::{ApiError, ApiResult, ErrorBody},
        games::GameSummary,
    },
};

/// A player's rating beside a game in a list: the rating now, or for a finished rated game the rating the
/// player had when it was played and the change it made.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct GameRating {
    rating: i64,
    provisional: bool,
    /// What the game changed (finished rated games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    change: Option<i64>,
}

/// A rating with its figures, as a profile and a leaderboard show it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RatingFigures {
    /// Glicko-2 rating, rounded.
    rating: i64,
    /// Its deviation, rounded.
    deviation: i64,
    /// Rated games played.
    games: i64,
    /// Whether the deviation is still 110 or more.
    provisional: bool,
}

impl From<&RatingRow> for RatingFigures {
    fn from(r: &RatingRow) -> RatingFigures {
        RatingFigures {
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            games: r.games,
            provisional: r.provisional,
        }
    }
}

/// A game in a list of games with its players' ratings and its spectators.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ListedGame {
    #[serde(flatten)]
    summary: GameSummary,
    /// Each player's rating in this game; `null` for the engine or an unrated player.
    ratings: Vec<Option<GameRating>>,
    spectators: usize,
    /// The players' account names; `null` for the engine.
    names: Vec<Option<String>>,
    /// The board, for the first games of the live list when asked for (`boards`).
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<MiniBoard>,
    /// A rated game with a player the moderators marked as an engine user: kept, and shown flagged.
    flagged: bool,
}

/// A game's board as a mini-board draws it: the cells and whose turn, without the legal moves.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MiniBoard {
    game: String,
    version: u64,
    sides: [SideInfo; 2],
    view: MiniView,
}

/// The picture of a mini-board.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MiniView {
    width: u32,
    height: u32,
    files: Vec<String>,
    ranks: Vec<String>,
    cells: Vec<Cell>,
    turn: Option<Player>,
    score: Score,
}

impl MiniBoard {
    fn of(s: &GameState) -> MiniBoard {
        MiniBoard {
            game: s.game.clone(),
            version: s.version,
            sides: s.sides.clone(),
            view: MiniView {
                width: s.view.width,
                height: s.view.height,
                files: s.view.files.clone(),
                ranks: s.view.ranks.clone(),
                cells: s.view.cells.clone(),
                turn: s.view.turn,
                score: s.view.score,
            },
        }
    }
}

/// `GET /api/live`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LiveGames {
    games: Vec<ListedGame>,
}

/// `GET /api/my-games`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MyGames {
    /// How many of the games in play wait for the asker's move.
    waiting: usize,
    active: Vec<ListedGame>,
    finished: Vec<ListedGame>,
}

/// A player's profile.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Profile {
    name: String,
    online: bool,
    /// A bot account: it plays through the bot API, and is ranked on the bots' leaderboards.
    bot: bool,
    /// Marked by the moderators as an engine user: off the leaderboards, rated games kept.
    engine: bool,
    ratings: Vec<ProfileRating>,
    stats: Vec<StatsRow>,
    /// Per game, the rating after each rated game: `[unix ms, rating]`.
    history: BTreeMap<String, Vec<[i64; 2]>>,
    active: Vec<ListedGame>,
    recent: Vec<ListedGame>,
    /// Whether the signed-in viewer blocks this player (false for a visitor).
    blocked: bool,
    /// The games between people this player left (lost after leaving, or drawn by the opponent's claim), of
    /// the finished ones.
    left: LeftRecord,
}

/// A player's record of games left.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LeftRecord {
    left: i64,
    finished: i64,
}

/// Whether the signed-in user blocks a player.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct BlockState {
    blocked: bool,
}

/// The player named `name` for `me` to block or unblock: refused for an unknown name, and for oneself.
async fn block_target(state: &AppState, me: &crate::db::User, name: &str) -> ApiResult<crate::db::User> {
    let user = if name.len() > 20 {
        None
    } else {
        state.db.user_named(name).await?
    };
    let user = user.ok_or_else(|| ApiError::not_found("player"))?;
    if user.id == me.id {
        return Err(ApiError::bad_request(
            ErrorCode::SelfBlock,
            "you cannot block yourself",
        ));
    }
    Ok(user)
}

/// Blocks a player: no challenges between the two either way, neither's open challenges shown to the other,
/// and the player's chat lines hidden from the blocker. Kept with the account until lifted.
#[utoipa::path(put, path = "/players/{name}/block", tag = "players", security(("session" = [])),
    params(("name" = String, Path, description = "The player's name")),
    responses((status = 200, body = BlockState), (status = "4XX", body = ErrorBody,
        description = "Signed out, no such player, or oneself (`self-block`)")))]
pub(crate) async fn block(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Path(name): Path<String>,
) -> ApiResult<Json<BlockState>> {
    let user = block_target(&state, &me, &name).await?;
    state.db.block(&me.id, &user.id, crate::db::now_ms()).await?;
    Ok(Json(BlockState { blocked: true }))
}

/// Lifts a block.
#[utoipa::path(delete, path = "/players/{name}/block", tag = "players", security(("session" = [])),
    params(("name" = String, Path, description = "The player's name")),
    responses((status = 200, body = BlockState), (status = "4XX", body = ErrorBody,
        description = "Signed out, no such player, or oneself (`self-block`)")))]
pub(crate) async fn unblock(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Path(name): Path<String>,
) -> ApiResult<Json<BlockState>> {
    let user = block_target(&state, &me, &name).await?;
    state.db.unblock(&me.id, &user.id).await?;
    Ok(Json(BlockState { blocked: false }))
}

/// A profile's rating in one game.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ProfileRating {
    game: String,
    #[serde(flatten)]
    figures: RatingFigures,
}

/// A game's leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Leaderboard {
    game: &'static str,
    title: &'static str,
    /// Whether this is the bots' leaderboard (bots are ranked apart from people).
    bots: bool,
    players: Vec<Ranked>,
}

/// Which leaderboard: the people's, or the bots'.
#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct LeaderboardQuery {
    /// The bots' leaderboard instead of the people's.
    #[serde(default)]
    bots: bool,
}

/// A line of a leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Ranked {
    /// 1 for the best.
    rank: usize,
    name: String,
    #[serde(flatten)]
    figures: RatingFigures,
}

#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct LiveQuery {
    /// How many of the games come with their board (at most 12).
    #[serde(default)]
    boards: usize,
}

/// Untimed games (against the engine) not moved for this long are left out of the games in play.
const IDLE_UNTIMED_MS: i64 = 10 * 60 * 1000;

/// The most mini-boards the live list sends (and a socket follows with `tv`).
pub(crate) const MAX_BOARDS: usize = 12;

/// Games with each player's current rating in that game and the number of spectators.
async fn with_ratings(state: &AppState, games: &[GameRow], me: Option<&str>) -> ApiResult<Vec<ListedGame>> {
    let mut now: HashMap<(String, String), Option<RatingRow>> = HashMap::new();
    let mut after: HashMap<(String, String), RatingsAfter> = HashMap::new();
    let mut engine: HashMap<String, bool> = HashMap::new();
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        let mut ratings = Vec::new();
        for u in &g.users {
            let Some(u) = u else {
                ratings.push(None);
                continue;
            };
            let key = (u.id.clone(), g.game.clone());
            // A finished rated game shows the rating each player had when it was played, and the change.
            if g.rated && g.status == GameStatus::Finished {
                if !after.contains_key(&key) {
                    let h = state.db.ratings_after_games(&u.id, &g.game).await?;
                    after.insert(key.clone(), h);
                }
                let history = &after[&key];
                if let Some(k) = history.iter().position(|(id, _, _)| *id == g.id) {
                    let (before, deviation) = match k {
                        0 => (START.rating, START.deviation),
                        _ => (history[k - 1].1, history[k - 1].2),
                    };
                    ratings.push(Some(GameRating {
                        rating: before.round() as i64,
                        provisional: deviation >= PROVISIONAL_DEVIATION,
                        change: Some((history[k].1 - before).round() as i64),
                    }));
                    continue;
                }
            }
            if !now.contains_key(&key) {
                let r = state.db.rating(&u.id, &g.game).await?;
                now.insert(key.clone(), r);
            }
            ratings.push(now[&key].as_ref().map(|r| GameRating {
                rating: r.rating.round() as i64,
                provisional: r.provisional,
                change: None,
            }));
        }
        let players: Vec<&str> = g.users.iter().flatten().map(|u| u.id.as_str()).collect();
        let mut flagged = false;
        if g.rated {
            for id in &players {
                if !engine.contains_key(*id) {
                    engine.insert((*id).to_owned(), state.db.is_engine(id).await?);
                }
                flagged |= engine[*id];
            }
        }
        out.push(ListedGame {
            summary: GameSummary::of(g, me),
            ratings,
            spectators: state.lobby.spectators(&g.id, &players),
            names: g
                .users
                .iter()
                .map(|u| u.as_ref().map(|u| u.name.clone()))
                .collect(),
            board: None,
            flagged,
        });
    }
    Ok(out)
}

/// The games in play, for spectators: players, ratings, time control and how many watch.
#[utoipa::path(get, path = "/live", tag = "players", params(LiveQuery),
    responses((status = 200, body = LiveGames), (status = "5XX", body = ErrorBody)))]
pub(crate) async fn live_games(
    State(state): State<AppState>,
    Query(q): Query<LiveQuery>,
) -> ApiResult<Json<LiveGames>> {
    let idle_since = crate::db::now_ms() - IDLE_UNTIMED_MS;
    let games = state.db.live_games(50, idle_since).await?;
    let mut out = with_ratings(&state, &games, None).await?;
    // The first few games with their boards, for the watch page's mini-boards (which the socket's `tv`
    // message then keeps up to date).
    for (g, listed) in games.iter().zip(out.iter_mut()).take(q.boards.min(MAX_BOARDS)) {
        match state.hub.state(&g.id).await {
            Ok(s) => listed.board = Some(MiniBoard::of(&s)),
            Err(e) => tracing::warn!("game {}: no board for the live list: {e:?}", g.id),
        }
    }
    Ok(Json(LiveGames { games: out }))
}

/// The signed-in player's games: those in play (marked where it is their turn) and the latest finished.
#[utoipa::path(get, path = "/my-games", tag = "players", security(("session" = [])),
    responses((status = 200, body = MyGames), (status = "4XX", body = ErrorBody, description = "Signed out")))]
pub(crate) async fn my_games(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
) -> ApiResult<Json<MyGames>> {
    let active = state.db.games_of(&me.id, GameStatus::Active, 200).await?;
    let finished = state.db.games_of(&me.id, GameStatus::Finished, 30).await?;
    let active = with_ratings(&state, &active, Some(&me.id)).await?;
    Ok(Json(MyGames {
        waiting: active.iter().filter(|g| g.summary.my_turn()).count(),
        active,
        finished: with_ratings(&state, &finished, Some(&me.id)).await?,
    }))
}

/// A player's profile: ratings per game (provisional marked), wins, losses, draws and resignations, the rating
/// history of every rated game, the games in play and the latest finished ones.
#[utoipa::path(get, path = "/players/{name}", tag = "players",
    params(("name" = String, Path, description = "The player's name")),
    responses((status = 200, body = Profile), (status = 404, body = ErrorBody)))]
pub(crate) async fn profile(
    State(state): State<AppState>,
    MaybeUser(me): MaybeUser,
    Path(name): Path<String>,
) -> ApiResult<Json<Profile>> {
    if name.len() > 20 {
        return Err(ApiError::not_found("player"));
    }
    let user = state
        .db
        .user_named(&name)
        .await?
        .ok_or_else(|| ApiError::not_found("player"))?;
    let ratings = state.db.ratings_of(&user.id).await?;
    let mut history = BTreeMap::new();
    for r in &ratings {
        let points = state.db.rating_history(&user.id, &r.game).await?;
        history.insert(
            r.game.clone(),
            points
                .iter()
                .map(|&(at, rating)| [at, rating.round() as i64])
                .collect(),
        );
    }
    let active = state.db.games_of(&user.id, GameStatus::Active, 50).await?;
    let finished = state.db.games_of(&user.id, GameStatus::Finished, 20).await?;
    let engine = state.db.standing(&user.name).await?.is_some_and(|s| s.engine);
    let (left, finished_count) = state.db.left_record(&user.id).await?;
    Ok(Json(Profile {
        online: state.lobby.names().iter().any(|n| n == &user.name),
        bot: user.bot,
        engine,
        ratings: ratings
            .iter()
            .map(|r| ProfileRating {
                game: r.game.clone(),
                figures: r.into(),
            })
            .collect(),
        stats: state.db.stats(&user.id).await?,
        history,
        active: with_ratings(&state, &active, None).await?,
        recent: with_ratings(&state, &finished, None).await?,
        blocked: match &me {
            Some(me) => state.db.blocks(&me.id, &user.id).await?,
            None => false,
        },
        left: LeftRecord {
            left,
            finished: finished_count,
        },
        name: user.name,
    }))
}

/// The best rated players of one game, people or bots; provisional ratings come after the established ones.
#[utoipa::path(get, path = "/leaderboard/{game}", tag = "players",
    params(("game" = String, Path, description = "The game's registry name"), LeaderboardQuery),
    responses((status = 200, body = Leaderboard), (status = 404, body = ErrorBody)))]
pub(crate) async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(q): Query<LeaderboardQuery>,
) -> ApiResult<Json<Leaderboard>> {
    let Some(entry) = state.registry.entries().iter().find(|e| e.name == game) else {
        return Err(ApiError::not_found("game"));
    };
    let rows = state.db.leaderboard(entry.name, q.bots, 100).await?;
    Ok(Json(Leaderboard {
        game: entry.name,
        title: entry.module.title,
        bots: q.bots,
        players: rows
            .iter()
            .enumerate()
            .map(|(i, r)| Ranked {
                rank: i + 1,
                name: r.name.clone(),
                figures: r.into(),
            })
            .collect(),
    }))
}
