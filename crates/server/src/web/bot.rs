//! Bot accounts and the bot API, through which a program plays on the site as lichess's bot API lets one:
//! an account with no games becomes a bot (`POST /api/account/bot`), and from then on it moves only through
//! these routes, never a page's socket. Its token needs the `bot` scope here, `play` for challenges and
//! `read` for the other GETs.
//!
//! - `GET /api/bot/stream/event`: one NDJSON stream of the bot's events: challenges to it (and their going),
//!   its games started (every game in play when the stream opens) and finished.
//! - `GET /api/bot/game/{id}/stream`: one NDJSON stream of a game's whole state at each version, with the
//!   server's time for the clocks; it ends after the state that ends the game.
//! - `POST /api/bot/game/{id}/move/{move}`, `/resign`, `/abort`, `/draw/{answer}`: the game's actions, each
//!   answered after its commit, refused with the rules library's reason like any other.
//!
//! Both streams send an empty line every few seconds when nothing happens, so that a client sees a dead
//! connection, and end when the server begins to stop, so that the client reconnects to another.

use std::{collections::HashSet, convert::Infallible, sync::Arc, time::Duration};

use axum::{
    Json,
    body::{Body, Bytes},
    extract::{Path, Query, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};
use utoipa::{IntoParams, ToSchema};

use crate::game::codes::ErrorCode;
use crate::{
    clock::TimeControl,
    db::{ChallengeRow, GameStatus, User},
    game::{live::Action, state::GameState},
    web::{
        AppState,
        auth::SignedIn,
        error::{ApiError, ApiResult, ErrorBody},
        extract::GameId,
        games::GameSummary,
    },
};

/// The content type of both streams: one JSON object a line.
pub(crate) const NDJSON: &str = "application/x-ndjson";
/// A stream's empty line when nothing happened for this long.
const KEEP_ALIVE: Duration = Duration::from_secs(7);
/// The event stream looks again at the bot's challenges and games this often even when no notice came.
const LOOK_AGAIN: Duration = Duration::from_secs(5);
/// How often a stream checks whether the server is stopping.
const TICK: Duration = Duration::from_secs(1);

/// A signed-in bot account; any other user is refused with `403 not-bot`.
pub(crate) struct Bot(pub User);

impl axum::extract::FromRequestParts<AppState> for Bot {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let SignedIn(user) = SignedIn::from_request_parts(parts, state).await?;
        if !user.bot {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                ErrorCode::NotBot,
                "only a bot account uses the bot API: make the account a bot first (POST /api/account/bot)",
            ));
        }
        Ok(Bot(user))
    }
}

/// The account, now a bot.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct BotMade {
    name: String,
    bot: bool,
}

/// Makes the signed-in account a bot account. Only an account that has never played may become one, and it
/// stays one: its games are played through the bot API, and its ratings go to the bots' leaderboards.
#[utoipa::path(post, path = "/account/bot", tag = "bots", security(("session" = [])),
    responses((status = 200, body = BotMade), (status = "4XX", body = ErrorBody,
        description = "Signed out, a bot already (`already-bot`), or an account that has played (`has-games`)")))]
pub(crate) async fn make_bot(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
) -> ApiResult<Json<BotMade>> {
    if me.bot {
        return Err(ApiError::conflict(
            ErrorCode::AlreadyBot,
            "this account is a bot already",
        ));
    }
    if !state.db.make_bot(&me.id).await? {
        return Err(ApiError::conflict(
            ErrorCode::HasGames,
            "only an account that has never played can become a bot: make a new account for the bot",
        ));
    }
    // The lobby shows the mark.
    state.lobby.changed();
    Ok(Json(BotMade {
        name: me.name,
        bot: true,
    }))
}

/// A challenge to the bot, as its event stream tells it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct BotChallenge {
    id: String,
    /// Who made it.
    from: String,
    /// Whether that is a bot account.
    from_bot: bool,
    /// The game and its settings (`reversi`, `cornered:size=10`).
    spec: String,
    /// The game's registry name.
    game: String,
    /// The side the challenger takes (`random`: drawn when the game starts); the bot gets the other.
    color: crate::db::ChallengeColor,
    rated: bool,
    /// Whether both players may ask the engine for hints.
    help: bool,
    time: TimeControl,
    /// Unix ms.
    created_at: i64,
}

impl BotChallenge {
    fn of(c: &ChallengeRow) -> BotChallenge {
        BotChallenge {
            id: c.id.clone(),
            from: c.creator.name.clone(),
            from_bot: c.creator.bot,
            spec: c.spec.clone(),
            game: c
                .spec
                .parse::<gridplay_core::GameSpec>()
                .map(|s| s.name().to_owned())
                .unwrap_or_default(),
            color: c.color,
            rated: c.rated,
            help: c.help,
            time: c.time,
            created_at: c.created_at,
        }
    }
}

/// A line of the bot's event stream.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub(crate) enum BotEvent {
    /// A challenge to the bot: accept it (`POST /api/challenges/{id}/accept`) or decline it.
    Challenge { challenge: BotChallenge },
    /// A challenge to the bot is no longer open: accepted, declined or cancelled.
    ChallengeGone { id: String },
    /// A game of the bot is in play: follow it with `GET /api/bot/game/{id}/stream`. Every game in play is
    /// told when the stream opens.
    GameStart { game: GameSummary },
    /// A game of the bot ended.
    GameFinish { game: GameSummary },
}

/// A line of a game's stream.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub(crate) enum BotGameLine {
    /// The game's whole state at its version `state.version`: its moves, the board with every legal move,
    /// the clocks (a running clock's time left is `remaining - (now - since)`), offers and the result.
    State {
        /// The server's time, Unix ms.
        now: i64,
        #[schema(value_type = GameState)]
        state: Arc<GameState>,
    },
}

/// An NDJSON answer whose lines come from `rx`: it ends when the sender goes.
pub(crate) fn ndjson(rx: mpsc::Receiver<Bytes>) -> Response {
    let lines = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx))
    });
    (
        [
            (header::CONTENT_TYPE, NDJSON),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(lines),
    )
        .into_response()
}

/// One line of a stream.
pub(crate) fn line<T: Serialize>(value: &T) -> Bytes {
    let mut text = serde_json::to_vec(value).unwrap_or_default();
    text.push(b'\n');
    Bytes::from(text)
}

/// The bot's events, as NDJSON: challenges to it, its games started and finished.
#[utoipa::path(get, path = "/bot/stream/event", tag = "bots", security(("session" = [])),
    responses((status = 200, content_type = "application/x-ndjson", body = BotEvent,
        description = "One `BotEvent` a line, and an empty line every 7 s when nothing happens"),
        (status = "4XX", body = ErrorBody, description = "Signed out, or not a bot (`not-bot`)")))]
pub(crate) async fn event_stream(State(state): State<AppState>, Bot(me): Bot) -> Response {
    let (tx, rx) = mpsc::channel(32);
    state.tasks.clone().spawn_edge(events(state, me, tx));
    ndjson(rx)
}

/// The bot's presence while its event stream is open: it is online as a page would make it.
struct Online<'a>(&'a AppState, &'a User);

impl Drop for Online<'_> {
    fn drop(&mut self) {
        self.0.lobby.leave(self.1);
    }
}

/// What the event stream told the bot so far.
#[derive(Default)]
struct Told {
    challenges: HashSet<String>,
    games: HashSet<String>,
}

impl Told {
    /// The events since the last look: new and gone challenges, games started and finished.
    async fn look(&mut self, state: &AppState, me: &User) -> ApiResult<Vec<BotEvent>> {
        let mut out = Vec::new();
        let open: Vec<ChallengeRow> = state
            .db
            .open_challenges(Some(&me.id))
            .await?
            .into_iter()
            .filter(|c| c.target.as_ref().is_some_and(|t| t.id == me.id))
            .collect();
        let now: HashSet<String> = open.iter().map(|c| c.id.clone()).collect();
        for gone in self.challenges.difference(&now) {
            out.push(BotEvent::ChallengeGone { id: gone.clone() });
        }
        for c in &open {
            if !self.challenges.contains(&c.id) {
                out.push(BotEvent::Challenge {
                    challenge: BotChallenge::of(c),
                });
            }
        }
        self.challenges = now;
        let active = state.db.games_of(&me.id, GameStatus::Active, 500).await?;
        let ids: HashSet<&str> = active.iter().map(|g| g.id.as_str()).collect();
        let ended: Vec<String> = self
            .games
            .iter()
            .filter(|id| !ids.contains(id.as_str()))
            .cloned()
            .collect();
        for id in ended {
            self.games.remove(&id);
            if let Some(g) = state.db.game(&id).await? {
                out.push(BotEvent::GameFinish {
                    game: GameSummary::of(&g, Some(&me.id)),
                });
            }
        }
        for g in &active {
            if self.games.insert(g.id.clone()) {
                out.push(BotEvent::GameStart {
                    game: GameSummary::of(g, Some(&me.id)),
                });
            }
        }
        Ok(out)
    }
}

async fn events(state: AppState, me: User, tx: mpsc::Sender<Bytes>) {
    let mut personal = state.lobby.join(&me);
    let _online = Online(&state, &me);
    let mut lobby = state.lobby.subscribe();
    let mut told = Told::default();
    let mut tick = tokio::time::interval(TICK);
    let mut quiet = tokio::time::Instant::now();
    let mut looked = tokio::time::Instant::now();
    let mut look = true;
    loop {
        if look {
            look = false;
            looked = tokio::time::Instant::now();
            match told.look(&state, &me).await {
                Ok(events) => {
                    for e in &events {
                        if tx.send(line(e)).await.is_err() {
                            return;
                        }
                        quiet = tokio::time::Instant::now();
                    }
                }
                Err(e) => tracing::warn!("bot {}: events: {}", me.name, e.message),
            }
        }
        tokio::select! {
            r = personal.recv() => match r {
                Ok(msg) if msg.contains(r#""t":"signed-out""#) => return,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => look = true,
                Err(broadcast::error::RecvError::Closed) => return,
            },
            r = lobby.recv() => match r {
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => look = true,
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = tick.tick() => {
                if state.draining() || tx.is_closed() {
                    return;
                }
                if looked.elapsed() >= LOOK_AGAIN {
                    look = true;
                }
                if quiet.elapsed() >= KEEP_ALIVE {
                    if tx.send(Bytes::from_static(b"\n")).await.is_err() {
                        return;
                    }
                    quiet = tokio::time::Instant::now();
                }
            }
        }
    }
}

/// A game of the bot, as NDJSON: its whole state now, then at each new version, until it ends.
#[utoipa::path(get, path = "/bot/game/{id}/stream", tag = "bots", security(("session" = [])),
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, content_type = "application/x-ndjson", body = BotGameLine,
        description = "One `BotGameLine` a line, and an empty line every 7 s when nothing happens; it ends after the state that ends the game"),
        (status = "4XX", body = ErrorBody, description = "Signed out, not a bot (`not-bot`), no such game, or not the bot's (`not-a-player`)")))]
pub(crate) async fn game_stream(
    State(state): State<AppState>,
    Bot(me): Bot,
    GameId(id): GameId,
) -> ApiResult<Response> {
    let first = state.hub.state(&id).await?;
    if !first
        .players
        .iter()
        .any(|p| p.id.as_deref() == Some(me.id.as_str()))
    {
        return Err(crate::game::live::LiveError::NotAPlayer.into());
    }
    let (tx, rx) = mpsc::channel(16);
    state.tasks.clone().spawn_edge(follow_game(state, id, tx));
    Ok(ndjson(rx))
}

async fn follow_game(state: AppState, id: String, tx: mpsc::Sender<Bytes>) {
    let mut sent = None;
    let mut feed = None;
    let mut tick = tokio::time::interval(TICK);
    let mut quiet = tokio::time::Instant::now();
    let mut fresh = true;
    loop {
        if feed.is_none() {
            // Followed before the state is read, so that no version falls between the two.
            match state.hub.watch(&id, None).await {
                Ok(w) => feed = Some(w.feed),
                Err(_) => return,
            }
            fresh = true;
        }
        if fresh {
            fresh = false;
            let Ok(s) = state.hub.state(&id).await else {
                return;
            };
            if sent.is_none_or(|v| s.version > v) {
                sent = Some(s.version);
                let over = s.over.is_some();
                let text = line(&BotGameLine::State {
                    now: crate::db::now_ms(),
                    state: s,
                });
                if tx.send(text).await.is_err() {
                    return;
                }
                quiet = tokio::time::Instant::now();
                if over {
                    return;
                }
            }
        }
        let Some(rx) = feed.as_mut() else {
            continue;
        };
        tokio::select! {
            r = rx.recv() => match r {
                Ok(p) => fresh = sent.is_none_or(|v| p.version > v),
                Err(broadcast::error::RecvError::Lagged(_)) => fresh = true,
                // The game's actor stopped (unloaded when no one watched): watch it again.
                Err(broadcast::error::RecvError::Closed) => feed = None,
            },
            _ = tick.tick() => {
                if state.draining() || tx.is_closed() {
                    return;
                }
                if quiet.elapsed() >= KEEP_ALIVE {
                    if tx.send(Bytes::from_static(b"\n")).await.is_err() {
                        return;
                    }
                    quiet = tokio::time::Instant::now();
                }
            }
        }
    }
}

/// The version the bot saw, so that an action on an older one is refused as `stale`.
#[derive(Debug, Deserialize, IntoParams)]
pub(crate) struct Seen {
    /// The game's version the bot saw (the state's `version`). When given, an action on an older version is
    /// refused with `409 stale`, which makes a resent move safe.
    v: Option<u64>,
}

/// An action committed: the game is now at version `v`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Acted {
    v: u64,
}

async fn act(
    state: &AppState,
    me: &User,
    id: &str,
    action: Action,
    seen: Option<u64>,
) -> ApiResult<Json<Acted>> {
    match state.hub.act(id, me, action, None, seen).await {
        Ok(v) => Ok(Json(Acted { v })),
        Err(e) => Err(refusal(&e)),
    }
}

/// A refused action as HTTP: the game layer's code and sentence.
fn refusal(e: &crate::game::live::LiveError) -> ApiError {
    use crate::game::live::LiveError;
    match e {
        LiveError::NotFound | LiveError::Internal | LiveError::TooMany(_) => e.clone().into(),
        LiveError::NotAPlayer => ApiError::new(StatusCode::FORBIDDEN, e.code(), e.message()),
        LiveError::NotYourTurn | LiveError::Stale { .. } => ApiError::conflict(e.code(), e.message()),
        LiveError::Refused(_) => ApiError::bad_request(e.code(), e.message()),
    }
}

/// Plays a move in the game, in the game's notation (`d3`, `11-15`, the texts of the state's legal moves). It
/// is answered once the move is stored.
#[utoipa::path(post, path = "/bot/game/{id}/move/{move}", tag = "bots", security(("session" = [])),
    params(("id" = String, Path, description = "The game's id"), ("move" = String, Path, description = "The move's text"), Seen),
    responses((status = 200, body = Acted), (status = "4XX", body = ErrorBody,
        description = "Signed out; not a bot; no such game; not the bot's (`not-a-player`); not its turn (`not-your-turn`); an older version (`stale`); an illegal move or a game over (`refused`, with the reason)")))]
pub(crate) async fn make_move(
    State(state): State<AppState>,
    Bot(me): Bot,
    Path((id, mv)): Path<(String, String)>,
    Query(seen): Query<Seen>,
) -> ApiResult<Json<Acted>> {
    let id = checked_id(&id)?;
    if mv.is_empty() || mv.len() > 200 {
        return Err(ApiError::bad_request(
            ErrorCode::BadMove,
            "a move's text has 1 to 200 characters",
        ));
    }
    act(&state, &me, &id, Action::Move(mv), seen.v).await
}

/// Resigns the game.
#[utoipa::path(post, path = "/bot/game/{id}/resign", tag = "bots", security(("session" = [])),
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, body = Acted), (status = "4XX", body = ErrorBody,
        description = "Signed out; not a bot; no such game; not the bot's; over (`refused`)")))]
pub(crate) async fn resign(
    State(state): State<AppState>,
    Bot(me): Bot,
    GameId(id): GameId,
) -> ApiResult<Json<Acted>> {
    act(&state, &me, &id, Action::Resign, None).await
}

/// Aborts the game, before both sides have moved (never a tournament game).
#[utoipa::path(post, path = "/bot/game/{id}/abort", tag = "bots", security(("session" = [])),
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, body = Acted), (status = "4XX", body = ErrorBody,
        description = "Signed out; not a bot; no such game; not the bot's; too late to abort (`refused`)")))]
pub(crate) async fn abort(
    State(state): State<AppState>,
    Bot(me): Bot,
    GameId(id): GameId,
) -> ApiResult<Json<Acted>> {
    act(&state, &me, &id, Action::Abort, None).await
}

/// Offers a draw, or accepts or declines the opponent's offer.
#[utoipa::path(post, path = "/bot/game/{id}/draw/{answer}", tag = "bots", security(("session" = [])),
    params(("id" = String, Path, description = "The game's id"),
        ("answer" = String, Path, description = "`offer`, `accept` or `decline`")),
    responses((status = 200, body = Acted), (status = "4XX", body = ErrorBody,
        description = "Signed out; not a bot; no such game; not the bot's; a bad answer (`bad-answer`); no offer to answer or too soon to offer again (`refused`)")))]
pub(crate) async fn draw(
    State(state): State<AppState>,
    Bot(me): Bot,
    Path((id, answer)): Path<(String, String)>,
) -> ApiResult<Json<Acted>> {
    let id = checked_id(&id)?;
    let action = match answer.as_str() {
        "offer" => Action::OfferDraw,
        "accept" => Action::AcceptDraw,
        "decline" => Action::DeclineDraw,
        _ => {
            return Err(ApiError::bad_request(
                ErrorCode::BadAnswer,
                format!("“{answer}” is no answer to a draw: offer, accept or decline"),
            ));
        }
    };
    act(&state, &me, &id, action, None).await
}

/// A game id from a path with two parts, checked as `GameId` checks one.
fn checked_id(id: &str) -> ApiResult<String> {
    if crate::ids::plausible(id) {
        Ok(id.to_owned())
    } else {
        Err(ApiError::not_found("game"))
    }
}
