//! A game's API: its state, a replay's positions, hints, the engine's analysis, its spectators, and its file
//! to download or a file to import. Live actions go over the socket (`ws.rs`).

use std::sync::Arc;

use axum::{
    Json,
    extract::{Path, State},
    http::header,
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::game::codes::ErrorCode;
use crate::{
    db::{EndReason, GameRow, GameStatus, Winner},
    game::live::{Analysis, GameState, LiveError, PlyJson},
    game::messages::ChatJson,
    web::{
        AppState,
        auth::{ClientIp, MaybeUser, SignedIn, asker},
        error::{ApiError, ApiResult, ErrorBody},
        extract::GameId,
    },
};

/// A game in a list (the lobby, a profile, a tournament round).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct GameSummary {
    id: String,
    spec: String,
    game: String,
    /// The players' names, first player first (an engine as `Engine level N`, for a reader of the JSON: a
    /// page names it from `levels`).
    players: [String; 2],
    /// Each side's engine level, where the engine plays it.
    levels: [Option<u8>; 2],
    /// Which players are bot accounts.
    bots: [bool; 2],
    status: GameStatus,
    turn: Option<gridplay_core::Player>,
    /// Whether the asker is to move.
    my_turn: bool,
    winner: Option<Winner>,
    termination: Option<EndReason>,
    version: i64,
    /// Unix ms.
    updated_at: i64,
    rated: bool,
    help: bool,
    /// The time control (`docs/web.md`: `untimed`, a live clock's `initial_ms` and `increment_ms`, or
    /// `days` a move).
    time: crate::clock::TimeControl,
    /// The tournament's id, for a tournament game.
    tournament: Option<String>,
}

impl GameSummary {
    /// Game `g` as the user `me` sees it in a list.
    pub(crate) fn of(g: &GameRow, me: Option<&str>) -> GameSummary {
        let name = |i: usize| match (&g.users[i], g.levels[i]) {
            (Some(u), _) => u.name.clone(),
            (None, Some(l)) => format!("Engine level {l}"),
            (None, None) => "?".into(),
        };
        let my_turn = match (me, g.turn) {
            (Some(me), Some(side)) => g.users[side.index()].as_ref().is_some_and(|u| u.id == me),
            _ => false,
        };
        GameSummary {
            id: g.id.clone(),
            spec: g.spec.clone(),
            game: g.game.clone(),
            players: [name(0), name(1)],
            levels: [0, 1].map(|i| g.users[i].is_none().then_some(g.levels[i]).flatten()),
            bots: [0, 1].map(|i| g.users[i].as_ref().is_some_and(|u| u.bot)),
            status: g.status,
            turn: g.turn,
            my_turn,
            winner: g.winner,
            termination: g.termination,
            version: g.version,
            updated_at: g.updated_at,
            rated: g.rated,
            help: g.help,
            time: g.time,
            tournament: g.tournament.as_ref().map(|t| t.0.clone()),
        }
    }

    pub(crate) fn my_turn(&self) -> bool {
        self.my_turn
    }
}

/// A game made by a request: the page goes to `/game/{game}`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct GameCreated {
    game: String,
}

impl GameCreated {
    pub(crate) fn new(id: &str) -> Json<GameCreated> {
        Json(GameCreated { game: id.to_owned() })
    }
}

/// A move the engine suggests.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Hint {
    /// The move's text, as the board's legal moves write it.
    #[serde(rename = "move")]
    mv: String,
}

/// How many watch a game.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Spectators {
    /// People with the game open who do not play it.
    spectators: usize,
}

/// A game file to read.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct ImportBody {
    /// The file's text, in its game's format (the export's), at most 256 KiB.
    text: String,
}

/// The state of a game, as its page shows it.
#[utoipa::path(get, path = "/games/{id}", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, body = GameState), (status = 404, body = ErrorBody)))]
pub(crate) async fn game_state(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> ApiResult<Json<Arc<GameState>>> {
    Ok(Json(state.hub.state(&id).await?))
}

/// A game's chat as one reader may read it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct ChatLines {
    /// Oldest first: the players' room for its players (in a game between people), the spectators' room for
    /// everyone else, and for the players too once the game is over.
    lines: Vec<ChatJson>,
}

/// The chat of a game that the reader (signed in or not) may read: a replay shows it. A page that watches a
/// game gets the same lines, and then each new one, over its socket.
#[utoipa::path(get, path = "/games/{id}/chat", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, body = ChatLines), (status = 404, body = ErrorBody)))]
pub(crate) async fn game_chat(
    State(state): State<AppState>,
    MaybeUser(me): MaybeUser,
    GameId(id): GameId,
) -> ApiResult<Json<ChatLines>> {
    let s = state.hub.state(&id).await?;
    let history = state.chat.history(&s, me.as_ref().map(|u| u.id.as_str())).await?;
    Ok(Json(ChatLines {
        lines: history.lines.iter().map(ChatJson::from).collect(),
    }))
}

/// How many watch a game besides its players (the game page shows it).
#[utoipa::path(get, path = "/games/{id}/spectators", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, body = Spectators), (status = 404, body = ErrorBody)))]
pub(crate) async fn game_spectators(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> ApiResult<Json<Spectators>> {
    let s = state.hub.state(&id).await?;
    let players: Vec<&str> = s.players.iter().filter_map(|p| p.id.as_deref()).collect();
    Ok(Json(Spectators {
        spectators: state.lobby.spectators(&id, &players),
    }))
}

/// The board after `n` moves, for replays.
#[utoipa::path(get, path = "/games/{id}/ply/{n}", tag = "games",
    params(("id" = String, Path, description = "The game's id"), ("n" = usize, Path, description = "Moves from the start")),
    responses((status = 200, body = PlyJson), (status = 404, body = ErrorBody)))]
pub(crate) async fn game_ply(
    State(state): State<AppState>,
    GameId(id): GameId,
    Path((_, n)): Path<(String, usize)>,
) -> ApiResult<Json<PlyJson>> {
    state
        .hub
        .ply(&id, n)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found("move number"))
}

/// The engine's suggested move after `n` moves of a game that is over, for replays (`409 refused` while the
/// game is in play).
#[utoipa::path(get, path = "/games/{id}/ply/{n}/hint", tags = ["games", "engine"], security(("session" = [])),
    params(("id" = String, Path, description = "The game's id"), ("n" = usize, Path, description = "Moves from the start")),
    responses((status = 200, body = Hint), (status = "4XX", body = ErrorBody,
        description = "Signed out, no such game or move number, or the game is not over")))]
pub(crate) async fn replay_hint(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    ip: ClientIp,
    GameId(id): GameId,
    Path((_, n)): Path<(String, usize)>,
) -> ApiResult<Json<Hint>> {
    let asker = asker(Some(&me), ip);
    match state.hub.replay_hint(&id, n, &me, &asker).await? {
        Some(mv) => Ok(Json(Hint { mv })),
        None => Err(ApiError::not_found("move number")),
    }
}

/// The engine's suggested move (level 6, in the analysis lane) for the signed-in player to move, where the
/// game allows hints (`GameState.hints`: games against the engine, and casual games whose players both agreed
/// to help). `409 not-your-turn`, `409 not-a-player` or `409 refused` where it may not; `429 too-many` past
/// the hints a user may ask for per minute.
#[utoipa::path(get, path = "/games/{id}/hint", tags = ["games", "engine"], security(("session" = [])),
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, body = Hint), (status = "4XX", body = ErrorBody,
        description = "Signed out, no such game, not the asker's turn, or a game without hints")))]
pub(crate) async fn game_hint(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    ip: ClientIp,
    GameId(id): GameId,
) -> ApiResult<Json<Hint>> {
    let asker = asker(Some(&me), ip);
    Ok(Json(Hint {
        mv: state.hub.hint(&id, &me, &asker).await?,
    }))
}

/// The game as a file to download, in its game's format.
#[utoipa::path(get, path = "/games/{id}/export", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, content_type = "text/plain", body = String, description = "The game file, as an attachment"),
        (status = 404, body = ErrorBody)))]
pub(crate) async fn game_export(
    State(state): State<AppState>,
    MaybeUser(me): MaybeUser,
    ip: ClientIp,
    GameId(id): GameId,
) -> ApiResult<Response> {
    state.hub.check_export(&asker(me.as_ref(), ip), &id).await?;
    let (name, text) = state.hub.export(&id).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// Reads a game file into a new replay (`400 bad-file` says which line or move is wrong).
#[utoipa::path(post, path = "/import", tag = "games", security(("session" = [])), request_body = ImportBody,
    responses((status = 200, body = GameCreated, description = "The replay made: `/replay/{game}`"),
        (status = "4XX", body = ErrorBody, description = "Signed out, or the file is not a game (`bad-file`: the message says where)")))]
pub(crate) async fn import_game(
    State(state): State<AppState>,
    SignedIn(_me): SignedIn,
    Json(body): Json<ImportBody>,
) -> ApiResult<Json<GameCreated>> {
    use crate::game::import::{ImportError, import};
    match import(&state.db, state.registry, &body.text).await {
        Ok(id) => Ok(GameCreated::new(&id)),
        Err(ImportError::Db(e)) => Err(e.into()),
        Err(e) => Err(ApiError::bad_request(ErrorCode::BadFile, e.to_string())),
    }
}

/// The engine's analysis of a game that is not in play (finished, or an imported file), for signed-in users:
/// a score for the first player after every move, and the moves that lost 2 game units or more against the
/// best move (`?`) or 5 or more (`??`), both scores from one search of the position. Computed on the first
/// request (at most about 30 s of search, in the analysis lane, so never delaying a game's engine) and stored;
/// requests at the same time share one computation. `429 too-many` past the analyses a user may have under
/// way. `409 refused` where the fair-play rule guards a position of the game from the asker, and for an
/// imported game that shares its first 10 moves or more with a game in play until that game is over.
#[utoipa::path(get, path = "/games/{id}/analysis", tags = ["games", "engine"], security(("session" = [])),
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, body = Analysis), (status = "4XX", body = ErrorBody,
        description = "Signed out, no such game, the game is in play (`ongoing`), or the fair-play rule refuses it (`refused`)")))]
pub(crate) async fn game_analysis(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    ip: ClientIp,
    GameId(id): GameId,
) -> ApiResult<Json<Arc<Analysis>>> {
    let asker = asker(Some(&me), ip);
    if state.hub.in_play(&id).await? {
        return Err(ApiError::conflict(
            ErrorCode::Ongoing,
            "the engine analyses a game once it is over",
        ));
    }
    Ok(Json(state.hub.analysis(&id, &me, &asker).await?))
}

/// A finished game's analysis if one was computed before (anyone may read it), so that a replay shows it
/// again without asking for a new one: `404` when none is stored.
#[utoipa::path(get, path = "/games/{id}/analysis/stored", tags = ["games", "engine"],
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, body = Analysis), (status = 404, body = ErrorBody, description = "No such game, or no analysis yet")))]
pub(crate) async fn stored_analysis(
    State(state): State<AppState>,
    MaybeUser(me): MaybeUser,
    ip: ClientIp,
    GameId(id): GameId,
) -> ApiResult<Json<Arc<Analysis>>> {
    match state.hub.stored_analysis_for(&id, &asker(me.as_ref(), ip)).await {
        Ok(Some(a)) => Ok(Json(a)),
        Ok(None) => Err(ApiError::not_found("analysis")),
        Err(LiveError::NotFound) => Err(ApiError::not_found("game")),
        Err(e) => Err(e.into()),
    }
}
