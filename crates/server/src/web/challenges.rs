//! The lobby's API: who is online, the open challenges and the asker's games; making, accepting and closing
//! a challenge; a game against the engine; and a rematch.

use axum::{
    Json,
    extract::{Path, State},
};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::game::codes::ErrorCode;
use crate::{
    clock::{TimeControl, TimeInput},
    db::{ChallengeRow, ChallengeStatus, GameRow, GameStatus, now_ms},
    game::rematch::{self, RematchError},
    ids,
    web::{
        AppState,
        auth::{MaybeUser, SignedIn},
        error::{ApiError, ApiResult, ErrorBody},
        extract::GameId,
        games::{GameCreated, GameSummary},
        settings::check_spec,
    },
};

/// The lobby as the asker may see it: visitors get the number of players online, signed-in users their
/// names and their own games.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Lobby {
    online_count: usize,
    challenges: Vec<ChallengeView>,
    /// The names of the players online (signed-in askers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    online: Option<Vec<String>>,
    /// Which of them are bot accounts (signed-in askers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    online_bots: Option<Vec<String>>,
    /// The asker's games in play (signed-in askers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    games: Option<Vec<GameSummary>>,
    /// The asker's latest finished games (signed-in askers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    finished: Option<Vec<GameSummary>>,
}

/// An open challenge.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ChallengeView {
    id: String,
    /// The name of the player who made it.
    creator: String,
    /// Whether its creator is a bot account.
    creator_bot: bool,
    /// The challenged player's name, for a direct challenge.
    target: Option<String>,
    /// Whether the challenged player is a bot account.
    target_bot: bool,
    spec: String,
    /// The side the creator takes.
    color: Color,
    /// Unix ms.
    created_at: i64,
    rated: bool,
    /// Whether both players may ask the engine for hints.
    help: bool,
    /// Whether the player who accepts must have a good record of games left (no more than one in ten).
    good_record: bool,
    /// The time control (`docs/web.md`: `untimed`, a live clock's `initial_ms` and `increment_ms`, or
    /// `days` a move).
    time: crate::clock::TimeControl,
    /// Whether the asker made it.
    mine: bool,
    /// Whether it is addressed to the asker.
    to_me: bool,
}

impl ChallengeView {
    fn of(c: &ChallengeRow, me: Option<&str>) -> ChallengeView {
        ChallengeView {
            id: c.id.clone(),
            creator: c.creator.name.clone(),
            creator_bot: c.creator.bot,
            target: c.target.as_ref().map(|t| t.name.clone()),
            target_bot: c.target.as_ref().is_some_and(|t| t.bot),
            spec: c.spec.clone(),
            color: c.color,
            created_at: c.created_at,
            rated: c.rated,
            help: c.help,
            good_record: c.good_record,
            time: c.time,
            mine: me == Some(c.creator.id.as_str()),
            to_me: c.target.as_ref().is_some_and(|t| Some(t.id.as_str()) == me),
        }
    }
}

/// The side a challenger asks for.
pub(crate) use crate::db::ChallengeColor as Color;

/// Whether the chooser of `color` plays first, drawing lots for `random`.
fn chooser_first(color: Color) -> bool {
    match color {
        Color::First => true,
        Color::Second => false,
        Color::Random => rand::rng().random_bool(0.5),
    }
}

/// A challenge to make.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct NewChallenge {
    spec: String,
    color: Color,
    /// A player's name for a direct challenge; none for an open one.
    opponent: Option<String>,
    #[serde(default)]
    rated: bool,
    /// Engine hints for both players: casual challenges only, and the player who accepts agrees to it.
    #[serde(default)]
    help: bool,
    /// Correspondence, 3 days per move, when not given.
    time: Option<TimeInput>,
    /// Only a player with a good record of games left (no more than one in ten of the finished games between
    /// people) may accept.
    #[serde(default)]
    good_record: bool,
}

/// A challenge closed by its creator (`cancelled`) or by the challenged player (`declined`).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ChallengeClosed {
    status: ChallengeStatus,
}

/// A game against the engine to start.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct NewComputerGame {
    spec: String,
    /// 1 to the game's `levels` in the catalog.
    level: u8,
    color: Color,
    /// Untimed when not given.
    time: Option<TimeInput>,
}

/// What a rematch made: against the engine a game at once, against a person a challenge to them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub(crate) enum Rematch {
    Game { game: String },
    Challenge { challenge: String },
}

/// The lobby: players online, open challenges, and the asker's games.
#[utoipa::path(get, path = "/lobby", tag = "lobby",
    responses((status = 200, body = Lobby), (status = "5XX", body = ErrorBody)))]
pub(crate) async fn lobby(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
) -> ApiResult<Json<Lobby>> {
    let me = user.as_ref().map(|u| u.id.as_str());
    let mut challenges = state.db.open_challenges(me).await?;
    // Neither of two players where one blocks the other sees the other's open challenges.
    if let Some(me) = me {
        let blocked = state.db.blocked_either_way(me).await?;
        challenges.retain(|c| !blocked.contains(&c.creator.id));
    }
    let mut lobby = Lobby {
        online_count: state.lobby.count(),
        challenges: challenges.iter().map(|c| ChallengeView::of(c, me)).collect(),
        online: None,
        online_bots: None,
        games: None,
        finished: None,
    };
    if let Some(u) = &user {
        let active = state.db.games_of(&u.id, GameStatus::Active, 50).await?;
        let finished = state.db.games_of(&u.id, GameStatus::Finished, 10).await?;
        let online = state.lobby.names();
        let bots = state.db.bot_names().await?;
        lobby.online_bots = Some(online.iter().filter(|n| bots.contains(*n)).cloned().collect());
        lobby.online = Some(online);
        lobby.games = Some(active.iter().map(|g| GameSummary::of(g, me)).collect());
        lobby.finished = Some(finished.iter().map(|g| GameSummary::of(g, me)).collect());
    }
    Ok(Json(lobby))
}

/// The time control of a game between people: a clock or days per move, never untimed (a game must be
/// claimable if one side leaves).
pub(crate) fn people_time(time: Option<TimeInput>) -> ApiResult<TimeControl> {
    let tc = time
        .unwrap_or(TimeInput::Correspondence { days: 3 })
        .check()
        .map_err(|e| ApiError::bad_request(ErrorCode::BadTime, e.to_string()))?;
    if tc == TimeControl::Untimed {
        return Err(ApiError::bad_request(
            ErrorCode::BadTime,
            "a game between people needs a clock or days per move",
        ));
    }
    Ok(tc)
}

/// Makes a challenge, open to all or to one player.
#[utoipa::path(post, path = "/challenges", tag = "lobby", security(("session" = [])), request_body = NewChallenge,
    responses((status = 200, body = ChallengeView), (status = "4XX", body = ErrorBody,
        description = "Signed out; a bad spec, time or opponent; hints in a rated game; a player who blocks or is blocked by the asker (`409 blocked`); or too many open challenges")))]
pub(crate) async fn create_challenge(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Json(c): Json<NewChallenge>,
) -> ApiResult<Json<ChallengeView>> {
    let (spec, _) = check_spec(&state, &c.spec)?;
    let time = people_time(c.time)?;
    if c.help && c.rated {
        return Err(ApiError::bad_request(
            ErrorCode::BadHelp,
            "engine hints can be allowed only in casual games: a rated game has none",
        ));
    }
    check_open_challenges(&state, &me.id).await?;
    let target = match c.opponent.as_deref().map(str::trim).filter(|o| !o.is_empty()) {
        None => None,
        Some(name) => {
            let u = if name.len() > 20 {
                None
            } else {
                state.db.user_named(name).await?
            };
            let u =
                u.ok_or_else(|| ApiError::bad_request(ErrorCode::NoSuchPlayer, "no player has that name"))?;
            if u.id == me.id {
                return Err(ApiError::bad_request(
                    ErrorCode::SelfChallenge,
                    "you cannot challenge yourself",
                ));
            }
            check_not_blocked(&state, &me.id, &u.id).await?;
            Some(u)
        }
    };
    let row = ChallengeRow {
        id: ids::short(8),
        creator: me,
        target,
        spec,
        color: c.color,
        status: ChallengeStatus::Open,
        game_id: None,
        created_at: now_ms(),
        rated: c.rated,
        help: c.help,
        time,
        good_record: c.good_record,
    };
    state.db.create_challenge(&row).await?;
    state.lobby.changed();
    Ok(Json(ChallengeView::of(&row, Some(&row.creator.id))))
}

/// Refuses a challenge between two accounts where either blocks the other.
async fn check_not_blocked(state: &AppState, a: &str, b: &str) -> ApiResult<()> {
    if state.db.blocked_between(a, b).await? {
        return Err(ApiError::conflict(
            ErrorCode::Blocked,
            "one of you blocks the other: there are no challenges between you",
        ));
    }
    Ok(())
}

/// Refuses a player whose record of games left is not good (`db::good_record`), where `what` (a challenge, a
/// tournament) asks for a good one: `409 record`, with the figures.
pub(crate) async fn check_good_record(state: &AppState, user_id: &str, what: &str) -> ApiResult<()> {
    let (left, finished) = state.db.left_record(user_id).await?;
    if crate::db::good_record(left, finished) {
        return Ok(());
    }
    Err(ApiError::conflict(
        ErrorCode::Record,
        format!(
            "{what} asks for a good record of games left: you left {left} of {finished} games, more than one in ten"
        ),
    ))
}

/// Refuses a new challenge from a user who has as many open ones as allowed.
async fn check_open_challenges(state: &AppState, user_id: &str) -> ApiResult<()> {
    let limit = state.config.limits.open_challenges;
    if state.db.open_challenges_of(user_id).await? >= u64::from(limit) {
        return Err(ApiError::too_many(format!(
            "you have {limit} open challenges, the most allowed: cancel one first"
        )));
    }
    Ok(())
}

async fn open_challenge(state: &AppState, id: &str) -> ApiResult<ChallengeRow> {
    state
        .db
        .challenge(id)
        .await?
        .filter(|c| c.status == ChallengeStatus::Open)
        .ok_or_else(|| ApiError::not_found("open challenge"))
}

/// Accepts a challenge: the game starts.
#[utoipa::path(post, path = "/challenges/{id}/accept", tag = "lobby", security(("session" = [])),
    params(("id" = String, Path, description = "The challenge's id")),
    responses((status = 200, body = GameCreated), (status = "4XX", body = ErrorBody,
        description = "Signed out; no such open challenge; one's own, another player's, taken already (`taken`), or between players where one blocks the other (`409 blocked`); an accepter whose record of games left is not good enough for the challenge (`409 record`)")))]
pub(crate) async fn accept_challenge(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<GameCreated>> {
    let c = open_challenge(&state, &id).await?;
    if c.creator.id == me.id {
        return Err(ApiError::bad_request(
            ErrorCode::OwnChallenge,
            "you cannot accept your own challenge",
        ));
    }
    if c.target.as_ref().is_some_and(|t| t.id != me.id) {
        return Err(ApiError::forbidden("this challenge is for another player"));
    }
    check_not_blocked(&state, &c.creator.id, &me.id).await?;
    if c.good_record {
        check_good_record(&state, &me.id, "this challenge").await?;
    }
    let (spec, name) = check_spec(&state, &c.spec)?;
    let users = if chooser_first(c.color) {
        [Some(c.creator.clone()), Some(me.clone())]
    } else {
        [Some(me.clone()), Some(c.creator.clone())]
    };
    let mut game = GameRow::new(spec, name, users, [None, None]);
    game.rated = c.rated;
    game.help = c.help && !c.rated;
    game.time = c.time;
    if !state.db.accept_challenge(&c.id, &game).await? {
        return Err(ApiError::conflict(
            ErrorCode::Taken,
            "the challenge is no longer open",
        ));
    }
    state.lobby.started(&game.id, &[&c.creator.id, &me.id]);
    Ok(GameCreated::new(&game.id))
}

/// Closes a challenge: its creator cancels it, the challenged player declines it.
#[utoipa::path(post, path = "/challenges/{id}/decline", tag = "lobby", security(("session" = [])),
    params(("id" = String, Path, description = "The challenge's id")),
    responses((status = 200, body = ChallengeClosed), (status = "4XX", body = ErrorBody,
        description = "Signed out; no such open challenge; not the asker's to close")))]
pub(crate) async fn decline_challenge(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<ChallengeClosed>> {
    let c = open_challenge(&state, &id).await?;
    let status = if c.creator.id == me.id {
        ChallengeStatus::Cancelled
    } else if c.target.as_ref().is_some_and(|t| t.id == me.id) {
        ChallengeStatus::Declined
    } else {
        return Err(ApiError::forbidden(
            "only its creator or the challenged player can close a challenge",
        ));
    };
    if !state.db.close_challenge(&c.id, status).await? {
        return Err(ApiError::conflict(
            ErrorCode::Taken,
            "the challenge is no longer open",
        ));
    }
    state.lobby.changed();
    Ok(Json(ChallengeClosed { status }))
}

/// Starts a game against the engine.
#[utoipa::path(post, path = "/computer", tag = "lobby", security(("session" = [])), request_body = NewComputerGame,
    responses((status = 200, body = GameCreated), (status = "4XX", body = ErrorBody,
        description = "Signed out; a bad spec, level or time; or a game no engine plays")))]
pub(crate) async fn play_computer(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Json(c): Json<NewComputerGame>,
) -> ApiResult<Json<GameCreated>> {
    let (spec, name) = check_spec(&state, &c.spec)?;
    let top = gridplay_engine::engine(&name).map_or(0, |e| e.levels.len());
    if top == 0 {
        return Err(ApiError::bad_request(
            ErrorCode::NoEngine,
            format!("no engine plays {name}"),
        ));
    }
    if !(1..=top).contains(&usize::from(c.level)) {
        return Err(ApiError::bad_request(
            ErrorCode::BadLevel,
            format!("this game's levels are 1 to {top}"),
        ));
    }
    let (users, levels) = if chooser_first(c.color) {
        ([Some(me), None], [None, Some(c.level)])
    } else {
        ([None, Some(me)], [Some(c.level), None])
    };
    let mut game = GameRow::new(spec, name, users, levels);
    game.time = c
        .time
        .unwrap_or(TimeInput::Untimed)
        .check()
        .map_err(|e| ApiError::bad_request(ErrorCode::BadTime, e.to_string()))?;
    state.db.create_game(&game).await?;
    if let Err(e) = state.hub.wake(&game.id).await {
        tracing::error!("game {}: {e:?}", game.id);
    }
    Ok(GameCreated::new(&game.id))
}

/// A rematch of a finished game, colours swapped: against the engine a new game at once; against a person a
/// direct challenge with the same settings, which the opponent's pages hear of.
#[utoipa::path(post, path = "/games/{id}/rematch", tag = "lobby", security(("session" = [])),
    params(("id" = String, Path, description = "The finished game's id")),
    responses((status = 200, body = Rematch), (status = "4XX", body = ErrorBody,
        description = "Signed out; not the asker's game; the game goes on; a tournament game; players where one blocks the other (`409 blocked`); or too many open challenges")))]
pub(crate) async fn rematch(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    GameId(id): GameId,
) -> ApiResult<Json<Rematch>> {
    let limit = state.config.limits.open_challenges;
    let made = rematch::rematch(&state.hub, &me, &id, limit)
        .await
        .map_err(|e| match e {
            RematchError::NoSuchGame => ApiError::not_found("game"),
            RematchError::NotAPlayer => ApiError::forbidden(e.to_string()),
            RematchError::Ongoing => ApiError::conflict(ErrorCode::Ongoing, e.to_string()),
            RematchError::Blocked => ApiError::conflict(ErrorCode::Blocked, e.to_string()),
            RematchError::Tournament => ApiError::conflict(ErrorCode::Tournament, e.to_string()),
            RematchError::NoOpponent => ApiError::conflict(ErrorCode::NoOpponent, e.to_string()),
            RematchError::TooManyChallenges(_) => ApiError::too_many(e.to_string()),
            RematchError::Db(e) => e.into(),
        })?;
    Ok(Json(match made {
        rematch::Rematch::Game(game) => Rematch::Game { game },
        rematch::Rematch::Challenge(challenge) => Rematch::Challenge { challenge },
    }))
}
