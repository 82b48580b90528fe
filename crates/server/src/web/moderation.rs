//! Moderation over HTTP: players report a player, a game or a chat line; admins (made by `gridplay admin grant`) read the
//! queue of open reports with each account's standing and history, act on accounts (warn, mute, rename, mark
//! as an engine user, close), and close reports. Every action is recorded with who took it and why. They also
//! read the engine-use review's queue, and each account's figures (`game::review`).

use std::collections::HashMap;

use axum::{
    Json,
    extract::{FromRequestParts, Path, State},
    http::{StatusCode, request::Parts},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::game::codes::ErrorCode;
use crate::{
    db::{Act, ModAction, ModKind, Report, Room, Standing, User, now_ms},
    game::{
        messages::ChatJson,
        moderation::{self, ActError, Sanction},
        review,
    },
    ids, text,
    web::{
        AppState,
        auth::SignedIn,
        error::{ApiError, ApiResult, ErrorBody},
    },
};

/// Reports one player may file in an hour.
const REPORTS_PER_HOUR: i64 = 10;
/// A reason's length, in characters.
const REASON_MAX: usize = 500;
/// The lines of a reported game's chat shown with the report.
const CONTEXT_LINES: i64 = 200;

/// A signed-in admin; anyone else is refused (401 signed out, 403 `not-admin`).
pub(crate) struct Admin(pub User);

impl FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let SignedIn(user) = SignedIn::from_request_parts(parts, state).await?;
        if state.db.is_admin(&user.id).await? {
            Ok(Admin(user))
        } else {
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                ErrorCode::NotAdmin,
                "only the site's admins may do this",
            ))
        }
    }
}

fn reason(raw: &str) -> ApiResult<String> {
    text::clean(raw, REASON_MAX)
        .map_err(|e| ApiError::bad_request(ErrorCode::BadReason, format!("the reason {e}")))
}

/// A player or a game reported, with why.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct NewReport {
    /// The player reported (in a game, one of its players).
    user: String,
    /// The game the report is about, if any.
    game: Option<String>,
    /// The chat line reported, if any (its id): said by `user`, in `game` when a game is named.
    line: Option<String>,
    /// Why, 1 to 500 characters.
    reason: String,
}

/// A report filed.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Filed {
    id: String,
}

/// Reports a player, a player's conduct in a game, or a line they said in a game's chat, to the site's admins.
#[utoipa::path(post, path = "/reports", tag = "moderation", security(("session" = [])), request_body = NewReport,
    responses((status = 200, body = Filed), (status = "4XX", body = ErrorBody,
        description = "Signed out, no such player, game or line, oneself reported (`own-report`), a line not theirs (`not-their-line`), a bad reason, or too many reports")))]
pub(crate) async fn report(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Json(r): Json<NewReport>,
) -> ApiResult<Json<Filed>> {
    let why = reason(&r.reason)?;
    if r.user.len() > 20 {
        return Err(ApiError::not_found("player"));
    }
    let target = state
        .db
        .user_named(&r.user)
        .await?
        .ok_or_else(|| ApiError::not_found("player"))?;
    if target.id == me.id {
        return Err(ApiError::bad_request(
            ErrorCode::OwnReport,
            "you cannot report yourself",
        ));
    }
    let mut game = r.game.clone();
    if let Some(id) = &r.line {
        let line = if id.len() <= 64 {
            state.db.chat_line(id).await?
        } else {
            None
        };
        let line = line.ok_or_else(|| ApiError::not_found("chat line"))?;
        if line.user_id != target.id || game.as_ref().is_some_and(|g| *g != line.game) {
            return Err(ApiError::bad_request(
                ErrorCode::NotTheirLine,
                format!("{} did not say that line in that game", target.name),
            ));
        }
        game = Some(line.game);
    } else if let Some(g) = &r.game {
        let row = if ids::plausible(g) {
            state.db.game(g).await?
        } else {
            None
        };
        let row = row.ok_or_else(|| ApiError::not_found("game"))?;
        if !row.users.iter().flatten().any(|p| p.id == target.id) {
            return Err(ApiError::bad_request(
                ErrorCode::NotInGame,
                format!("{} did not play that game", target.name),
            ));
        }
    }
    if state.db.reports_filed_since(&me.id, now_ms() - 3_600_000).await? >= REPORTS_PER_HOUR {
        return Err(ApiError::too_many(format!(
            "at most {REPORTS_PER_HOUR} reports an hour: try again later"
        )));
    }
    let id = state
        .db
        .add_report(&me.id, &target.id, game.as_deref(), r.line.as_deref(), &why)
        .await?;
    Ok(Json(Filed { id }))
}

/// An account as the admins see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub(crate) struct AccountStanding {
    name: String,
    admin: bool,
    closed: bool,
    /// Marked as an engine user: off the leaderboards.
    engine: bool,
    /// A bot account.
    bot: bool,
    /// Unix ms until which the player may not chat; absent when not muted.
    muted_until: Option<i64>,
    /// The actions taken on the account, newest first.
    history: Vec<ActionJson>,
    /// Every report about the account, newest first.
    reports: Vec<ReportJson>,
    /// The engine-use review's running figures of the account's recent rated games, one entry per game.
    review: Vec<ProfileJson>,
}

/// A player's engine-use figures over their most recent reviewed rated games of one game (at most 20).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub(crate) struct ProfileJson {
    /// The game's registry name.
    game: String,
    /// Games in the window.
    games: usize,
    /// Moves counted toward agreement (neither from the opening book nor the only move), and of those the
    /// engine's best.
    counted: usize,
    agreed: usize,
    /// `agreed / counted`, in percent, one decimal.
    agreement: f64,
    /// The mean of the games' accuracies, in percent, one decimal.
    accuracy: f64,
    /// The median of the games' median move times, in ms.
    move_ms_median: Option<i64>,
    /// Whether the window is improbably engine-like by the game's rule.
    flagged: bool,
    /// The game's rule, where one was measured: a window is flagged with at least `min_games` games and both
    /// figures at or above these.
    rule: Option<RuleJson>,
    /// The games, newest first: the evidence.
    recent: Vec<ReviewedGameJson>,
}

/// The engine-use rule of a game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub(crate) struct RuleJson {
    min_games: usize,
    agreement: f64,
    accuracy: f64,
}

/// One side's figures in one reviewed game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub(crate) struct ReviewedGameJson {
    /// The game's id (its replay: `/replay/{id}`).
    id: String,
    rated: bool,
    finished_at: i64,
    /// In percent, one decimal.
    accuracy: f64,
    counted: i64,
    agreed: i64,
    inaccuracies: i64,
    mistakes: i64,
    blunders: i64,
    moves: i64,
    /// The median and the interquartile range of the side's move times, in ms (absent: fewer than two
    /// timed moves).
    move_ms_median: Option<i64>,
    move_ms_iqr: Option<i64>,
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl From<review::Profile> for ProfileJson {
    fn from(p: review::Profile) -> ProfileJson {
        ProfileJson {
            game: p.game,
            games: p.window.games,
            counted: p.window.counted,
            agreed: p.window.agreed,
            agreement: round1(p.window.agreement),
            accuracy: round1(p.window.accuracy),
            move_ms_median: p.move_ms_median,
            flagged: p.flagged,
            rule: p.rule.map(|r| RuleJson {
                min_games: r.min_games,
                agreement: r.agreement,
                accuracy: r.accuracy,
            }),
            recent: p
                .games
                .into_iter()
                .map(|r| ReviewedGameJson {
                    id: r.game_id,
                    rated: r.rated,
                    finished_at: r.finished_at,
                    accuracy: round1(r.accuracy),
                    counted: r.counted,
                    agreed: r.agreed,
                    inaccuracies: r.inaccuracies,
                    mistakes: r.mistakes,
                    blunders: r.blunders,
                    moves: r.moves,
                    move_ms_median: r.move_ms_median,
                    move_ms_iqr: r.move_ms_iqr,
                })
                .collect(),
        }
    }
}

/// One recorded moderation action.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub(crate) struct ActionJson {
    id: String,
    /// The admin who took it; absent when it came from the server's command line.
    admin: Option<String>,
    kind: ModKind,
    reason: String,
    /// What it did: the mute's length, the old and new names, the report closed.
    detail: String,
    at: i64,
}

impl From<ModAction> for ActionJson {
    fn from(a: ModAction) -> ActionJson {
        ActionJson {
            id: a.id,
            admin: a.admin,
            kind: a.kind,
            reason: a.reason,
            detail: a.detail,
            at: a.at,
        }
    }
}

/// A report.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub(crate) struct ReportJson {
    id: String,
    reporter: String,
    user: String,
    game: Option<String>,
    /// The chat line reported, if any (its id).
    line: Option<String>,
    reason: String,
    at: i64,
    closed: bool,
}

impl From<Report> for ReportJson {
    fn from(r: Report) -> ReportJson {
        ReportJson {
            id: r.id,
            reporter: r.reporter,
            user: r.target,
            game: r.game,
            line: r.line,
            reason: r.reason,
            at: r.at,
            closed: r.closed_at.is_some(),
        }
    }
}

async fn standing_json(state: &AppState, s: Standing) -> ApiResult<AccountStanding> {
    let history = state
        .db
        .moderation_history(&s.id)
        .await?
        .into_iter()
        .map(ActionJson::from)
        .collect();
    let reports = state
        .db
        .reports(Some(&s.id))
        .await?
        .into_iter()
        .map(ReportJson::from)
        .collect();
    let min_games = state.config.limits.review_min_games as usize;
    let review = review::profiles(&state.db, &s.id, true, min_games)
        .await?
        .into_iter()
        .map(ProfileJson::from)
        .collect();
    Ok(AccountStanding {
        name: s.name,
        admin: s.admin,
        closed: s.closed,
        engine: s.engine,
        bot: s.bot,
        muted_until: (s.muted_until > now_ms()).then_some(s.muted_until),
        history,
        reports,
        review,
    })
}

/// The engine-use review's queue: the players whose recent rated games are improbably engine-like.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ReviewQueue {
    /// Most engine-like first.
    players: Vec<ReviewedPlayer>,
}

/// A player in the engine-use review's queue, with the evidence.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ReviewedPlayer {
    name: String,
    /// Already marked as an engine user.
    engine: bool,
    /// The flagged windows, one per game, each with its games.
    flagged: Vec<ProfileJson>,
}

/// The players whose most recent rated games of a game (at least `--review-min-games`, at most 20) agree
/// with the engine's best move and reach an accuracy beyond the game's engine-use rule, most engine-like
/// first, each with the figures of every game of the window (docs/web.md, "Engine-use review").
#[utoipa::path(get, path = "/admin/review", tag = "moderation", security(("session" = [])),
    responses((status = 200, body = ReviewQueue), (status = "4XX", body = ErrorBody, description = "Signed out, or not an admin (`not-admin`)")))]
pub(crate) async fn review_queue(
    State(state): State<AppState>,
    Admin(_): Admin,
) -> ApiResult<Json<ReviewQueue>> {
    let min_games = state.config.limits.review_min_games as usize;
    let mut players = Vec::new();
    for (user_id, flagged) in review::queue(&state.db, min_games).await? {
        let Some(name) = state.db.name_of(&user_id).await? else {
            continue;
        };
        let Some(s) = state.db.standing(&name).await? else {
            continue;
        };
        if s.closed {
            continue;
        }
        players.push(ReviewedPlayer {
            name,
            engine: s.engine,
            flagged: flagged.into_iter().map(ProfileJson::from).collect(),
        });
    }
    Ok(Json(ReviewQueue { players }))
}

/// The queue: the open reports, oldest first, each with its account's standing and history.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Queue {
    reports: Vec<QueuedReport>,
}

/// An open report, the account it is about, and the chat of its game.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct QueuedReport {
    report: ReportJson,
    account: AccountStanding,
    /// The last lines of the game's chat, both rooms, oldest first, when the report names a game.
    chat: Vec<ChatJson>,
}

/// The open reports, oldest first, with each reported account's standing, history and other reports, and the
/// chat of the game a report names.
#[utoipa::path(get, path = "/admin/reports", tag = "moderation", security(("session" = [])),
    responses((status = 200, body = Queue), (status = "4XX", body = ErrorBody, description = "Signed out, or not an admin (`not-admin`)")))]
pub(crate) async fn queue(State(state): State<AppState>, Admin(_): Admin) -> ApiResult<Json<Queue>> {
    let mut reports = Vec::new();
    // An account reported several times is read once.
    let mut accounts: HashMap<String, AccountStanding> = HashMap::new();
    for r in state.db.reports(None).await? {
        if !accounts.contains_key(&r.target_id) {
            let Some(s) = state.db.standing(&r.target).await? else {
                continue;
            };
            accounts.insert(r.target_id.clone(), standing_json(&state, s).await?);
        }
        let account = accounts[&r.target_id].clone();
        let chat = match &r.game {
            Some(g) => state
                .db
                .chat_lines(g, &[Room::Players, Room::Spectators], CONTEXT_LINES)
                .await?
                .iter()
                .map(ChatJson::from)
                .collect(),
            None => Vec::new(),
        };
        reports.push(QueuedReport {
            report: r.into(),
            account,
            chat,
        });
    }
    Ok(Json(Queue { reports }))
}

/// Why a report is closed.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct Closing {
    /// What was done or why nothing was, 1 to 500 characters.
    reason: String,
}

/// Closes an open report (dealt with, or dismissed), recorded on the reported account's history.
#[utoipa::path(post, path = "/admin/reports/{id}/close", tag = "moderation", security(("session" = [])), request_body = Closing,
    params(("id" = String, Path, description = "The report's id")),
    responses((status = 200, body = Filed), (status = "4XX", body = ErrorBody,
        description = "Signed out, not an admin, a bad reason, or no open report of that id")))]
pub(crate) async fn close_report(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(id): Path<String>,
    Json(c): Json<Closing>,
) -> ApiResult<Json<Filed>> {
    let why = reason(&c.reason)?;
    let Some(r) = state.db.open_report(&id).await? else {
        return Err(ApiError::not_found("open report"));
    };
    if !state.db.close_report(&id, &admin.id).await? {
        return Err(ApiError::not_found("open report"));
    }
    let act = Act {
        detail: format!("report {id}"),
        ..Act::new(ModKind::CloseReport, &why)
    };
    state.db.moderate(&r.target_id, Some(&admin.id), &act).await?;
    Ok(Json(Filed { id }))
}

/// An account's standing, history and reports.
#[utoipa::path(get, path = "/admin/users/{name}", tag = "moderation", security(("session" = [])),
    params(("name" = String, Path, description = "The account's name")),
    responses((status = 200, body = AccountStanding), (status = "4XX", body = ErrorBody, description = "Signed out, not an admin, or no such player")))]
pub(crate) async fn account(
    State(state): State<AppState>,
    Admin(_): Admin,
    Path(name): Path<String>,
) -> ApiResult<Json<AccountStanding>> {
    let s = state
        .db
        .standing(&name)
        .await?
        .ok_or_else(|| ApiError::not_found("player"))?;
    Ok(Json(standing_json(&state, s).await?))
}

/// An action on an account.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct NewAction {
    /// `warn`, `mute`, `rename`, `engine` or `close`.
    kind: String,
    /// Why, 1 to 500 characters; the player reads it with a warning.
    reason: String,
    /// A mute's length in minutes, 1 to 43,200 (30 days).
    minutes: Option<i64>,
}

/// Acts on an account: warns, mutes in chat for a time, renames to a neutral name, marks as an engine user
/// (off the leaderboards) or closes it (no sign-in, every session ended, its open challenges cancelled).
#[utoipa::path(post, path = "/admin/users/{name}/actions", tag = "moderation", security(("session" = [])), request_body = NewAction,
    params(("name" = String, Path, description = "The account's name")),
    responses((status = 200, body = AccountStanding), (status = "4XX", body = ErrorBody,
        description = "Signed out, not an admin, no such player, an unknown action, a bad reason or length, or an action on oneself")))]
pub(crate) async fn act(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(name): Path<String>,
    Json(a): Json<NewAction>,
) -> ApiResult<Json<AccountStanding>> {
    let sanction = match ModKind::parse(&a.kind).ok() {
        Some(ModKind::Warn) => Sanction::Warn,
        Some(ModKind::Mute) => Sanction::Mute {
            minutes: a.minutes.unwrap_or(0),
        },
        Some(ModKind::Rename) => Sanction::Rename,
        Some(ModKind::Engine) => Sanction::Engine,
        Some(ModKind::Close) => Sanction::Close,
        _ => {
            return Err(ApiError::bad_request(
                ErrorCode::BadAction,
                format!("“{}” is no action: warn, mute, rename, engine or close", a.kind),
            ));
        }
    };
    let why = reason(&a.reason)?;
    let s = moderation::act(&state.db, &state.lobby, &admin, &name, sanction, &why)
        .await
        .map_err(|e| match e {
            ActError::NoSuchPlayer => ApiError::not_found("player"),
            ActError::OwnAccount => ApiError::bad_request(ErrorCode::OwnAccount, e.to_string()),
            ActError::Closed(_) => ApiError::conflict(ErrorCode::AccountClosed, e.to_string()),
            ActError::BadMinutes => ApiError::bad_request(ErrorCode::BadMinutes, e.to_string()),
            ActError::NoFreeName => {
                tracing::error!("rename: {e}");
                ApiError::internal()
            }
            ActError::Db(e) => e.into(),
        })?;
    Ok(Json(standing_json(&state, s).await?))
}

/// The warnings and other actions the moderators took on the signed-in account, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MyStanding {
    /// Unix ms until which the user may not chat; absent when not muted.
    muted_until: Option<i64>,
    history: Vec<ActionJson>,
}

/// What the moderators did to the signed-in account (warnings, mutes, renames), newest first.
#[utoipa::path(get, path = "/account/moderation", tag = "account", security(("session" = [])),
    responses((status = 200, body = MyStanding), (status = "4XX", body = ErrorBody, description = "Signed out")))]
pub(crate) async fn mine(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
) -> ApiResult<Json<MyStanding>> {
    let s = state
        .db
        .standing(&me.name)
        .await?
        .ok_or_else(|| ApiError::not_found("player"))?;
    let history = state
        .db
        .moderation_history(&me.id)
        .await?
        .into_iter()
        .filter(|a| a.kind != ModKind::CloseReport)
        .map(|a| ActionJson {
            admin: None,
            ..a.into()
        })
        .collect();
    Ok(Json(MyStanding {
        muted_until: (s.muted_until > now_ms()).then_some(s.muted_until),
        history,
    }))
}
