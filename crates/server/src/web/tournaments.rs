//! The tournament pages' API: create, join, withdraw, start, and a tournament's rounds and standings.

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::game::codes::ErrorCode;
use crate::{
    clock::TimeInput,
    db::{ByeKind, GameStatus, TournamentKind, TournamentRow, TournamentStatus, now_ms},
    game::live::Action,
    game::tournament::{Standing, round_robin_rounds, standings},
    ids,
    web::{
        AppState,
        auth::{MaybeUser, SignedIn},
        challenges::people_time,
        error::{ApiError, ApiResult, ErrorBody},
        extract::TournamentId,
        games::GameSummary,
        settings::check_spec,
    },
};

/// A tournament to make.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct NewTournament {
    name: String,
    spec: String,
    kind: TournamentKind,
    /// Swiss only: 1 to 15 rounds (3 if not given). A round-robin has as many as it needs.
    rounds: Option<i64>,
    #[serde(default)]
    rated: bool,
    /// Whether bot accounts may join (a bot may make only such a tournament).
    #[serde(default)]
    bots: bool,
    /// Whether a player who joins must have a good record of games left: no more than one in ten of their
    /// finished games between people left.
    #[serde(default)]
    good_record: bool,
    time: Option<TimeInput>,
}

/// A tournament in a list.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TournamentSummary {
    id: String,
    name: String,
    spec: String,
    game: String,
    kind: TournamentKind,
    /// How many rounds (a round-robin's are set at its start).
    rounds: i64,
    /// The round in play; 0 before the start.
    round: i64,
    rated: bool,
    /// Whether bot accounts may join.
    bots: bool,
    /// Whether a player who joins must have a good record of games left.
    good_record: bool,
    /// The time control (`docs/web.md`: `untimed`, a live clock's `initial_ms` and `increment_ms`, or
    /// `days` a move).
    time: crate::clock::TimeControl,
    status: TournamentStatus,
    /// The creator's name.
    creator: String,
    /// How many joined.
    players: usize,
    /// Unix ms.
    created_at: i64,
}

impl TournamentSummary {
    fn of(t: &TournamentRow, players: usize) -> TournamentSummary {
        TournamentSummary {
            id: t.id.clone(),
            name: t.name.clone(),
            spec: t.spec.clone(),
            game: t.game.clone(),
            kind: t.kind,
            rounds: t.rounds,
            round: t.round,
            rated: t.rated,
            bots: t.bots,
            good_record: t.good_record,
            time: t.time,
            status: t.status,
            creator: t.creator.name.clone(),
            players,
            created_at: t.created_at,
        }
    }
}

/// `GET /api/tournaments`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Tournaments {
    tournaments: Vec<TournamentSummary>,
}

/// A tournament made: its page is `/tournament/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TournamentCreated {
    id: String,
}

/// A tournament: its settings, players, rounds and standings, as the asker sees it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TournamentView {
    #[serde(flatten)]
    summary: TournamentSummary,
    players_list: Vec<Entrant>,
    standings: Vec<Standing>,
    rounds_played: Vec<RoundView>,
    /// Whether the asker plays in it (and has not withdrawn).
    joined: bool,
    /// Whether the asker made it (and may start it).
    is_creator: bool,
    /// The tie-breaks of the standings, in the order they apply.
    tie_breaks: [&'static str; 2],
}

/// A player who joined.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Entrant {
    name: String,
    /// A bot account.
    bot: bool,
    withdrawn: bool,
}

/// One round: its games, and the players who sat it out.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RoundView {
    round: i64,
    games: Vec<GameSummary>,
    byes: Vec<ByeView>,
}

/// A player without a game in a round.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ByeView {
    player: String,
    /// `bye` (an odd number of players) or `forfeit` (an opponent who withdrew).
    kind: ByeKind,
    points: f64,
}

/// What a join, a withdrawal or a start did.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Joined {
    joined: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Withdrawn {
    withdrawn: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Started {
    started: bool,
}

/// The latest tournaments.
#[utoipa::path(get, path = "/tournaments", tag = "tournaments",
    responses((status = 200, body = Tournaments), (status = "5XX", body = ErrorBody)))]
pub(crate) async fn list(State(state): State<AppState>) -> ApiResult<Json<Tournaments>> {
    let mut out = Vec::new();
    for t in state.db.tournaments(50).await? {
        let n = state.db.tournament_players(&t.id).await?.len();
        out.push(TournamentSummary::of(&t, n));
    }
    Ok(Json(Tournaments { tournaments: out }))
}

/// Makes a tournament, open for players to join until its creator starts it.
#[utoipa::path(post, path = "/tournaments", tag = "tournaments", security(("session" = [])), request_body = NewTournament,
    responses((status = 200, body = TournamentCreated), (status = "4XX", body = ErrorBody,
        description = "Signed out; a bad name, spec, time or number of rounds; or too many tournaments today")))]
pub(crate) async fn create(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Json(t): Json<NewTournament>,
) -> ApiResult<Json<TournamentCreated>> {
    let name = crate::text::clean(&t.name, 60)
        .map_err(|e| ApiError::bad_request(ErrorCode::BadName, format!("the tournament's name {e}")))?;
    let name = name.as_str();
    if me.bot && !t.bots {
        return Err(no_bots());
    }
    let (spec, game) = check_spec(&state, &t.spec)?;
    let time = people_time(t.time)?;
    let (kind, rounds) = match t.kind {
        TournamentKind::Swiss => {
            let rounds = t.rounds.unwrap_or(3);
            if !(1..=15).contains(&rounds) {
                return Err(ApiError::bad_request(
                    ErrorCode::BadRounds,
                    "a Swiss has 1 to 15 rounds",
                ));
            }
            (TournamentKind::Swiss, rounds)
        }
        // Set at the start, from the number of players.
        TournamentKind::RoundRobin => (TournamentKind::RoundRobin, 0),
    };
    let now = now_ms();
    let per_day = state.config.limits.tournaments_per_day;
    if state
        .db
        .tournaments_created_since(&me.id, now - 86_400_000)
        .await?
        >= u64::from(per_day)
    {
        return Err(ApiError::too_many(format!(
            "at most {per_day} new tournaments a day: try again tomorrow"
        )));
    }
    let row = TournamentRow {
        id: ids::short(8),
        name: name.to_owned(),
        spec,
        game,
        kind,
        rounds,
        rated: t.rated,
        bots: t.bots,
        good_record: t.good_record,
        time,
        creator: me,
        status: TournamentStatus::Open,
        round: 0,
        created_at: now,
    };
    state.db.create_tournament(&row).await?;
    state.lobby.changed();
    Ok(Json(TournamentCreated { id: row.id }))
}

/// A bot's refusal from a tournament for people.
fn no_bots() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::FORBIDDEN,
        ErrorCode::NoBots,
        "this tournament is for people: bots may join only a tournament that allows them",
    )
}

async fn load(state: &AppState, id: &str) -> ApiResult<TournamentRow> {
    state
        .db
        .tournament(id)
        .await?
        .ok_or_else(|| ApiError::not_found("tournament"))
}

/// A tournament: its settings, players, rounds (games, byes and forfeits) and standings.
#[utoipa::path(get, path = "/tournaments/{id}", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 200, body = TournamentView), (status = 404, body = ErrorBody)))]
pub(crate) async fn show(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<TournamentView>> {
    let t = load(&state, &id).await?;
    let players = state.db.tournament_players(&id).await?;
    let games = state.db.tournament_games(&id).await?;
    let byes = state.db.tournament_byes(&id).await?;
    let me = user.as_ref().map(|u| u.id.as_str());
    let name_of = |uid: &str| {
        players
            .iter()
            .find(|p| p.user.id == uid)
            .map_or_else(|| "?".to_owned(), |p| p.user.name.clone())
    };
    let rounds_played = (1..=t.round)
        .map(|r| RoundView {
            round: r,
            games: games
                .iter()
                .filter(|g| g.tournament.as_ref().is_some_and(|x| x.1 == r))
                .map(|g| GameSummary::of(g, me))
                .collect(),
            byes: byes
                .iter()
                .filter(|b| b.round == r)
                .map(|b| ByeView {
                    player: name_of(&b.user_id),
                    kind: b.kind,
                    points: b.half_points as f64 / 2.0,
                })
                .collect(),
        })
        .collect();
    let mine = players.iter().find(|p| Some(p.user.id.as_str()) == me);
    Ok(Json(TournamentView {
        summary: TournamentSummary::of(&t, players.len()),
        players_list: players
            .iter()
            .map(|p| Entrant {
                name: p.user.name.clone(),
                bot: p.user.bot,
                withdrawn: p.withdrawn.is_some(),
            })
            .collect(),
        standings: standings(t.kind, &players, &games, &byes),
        rounds_played,
        joined: mine.is_some_and(|p| p.withdrawn.is_none()),
        is_creator: me == Some(t.creator.id.as_str()),
        tie_breaks: if t.kind == TournamentKind::Swiss {
            ["Buchholz", "Sonneborn-Berger"]
        } else {
            ["Sonneborn-Berger", "Buchholz"]
        },
    }))
}

/// Joins an open tournament.
#[utoipa::path(post, path = "/tournaments/{id}/join", tag = "tournaments", security(("session" = [])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 200, body = Joined), (status = "4XX", body = ErrorBody,
        description = "Signed out; no such tournament; started (`started`) or joined already (`joined`); a bot, where bots are not allowed (`no-bots`); a record of games left past one in ten, where the tournament asks for a good one (`record`)")))]
pub(crate) async fn join(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<Joined>> {
    let t = load(&state, &id).await?;
    if t.status != TournamentStatus::Open {
        return Err(ApiError::conflict(
            ErrorCode::Started,
            "the tournament has started: joining is closed",
        ));
    }
    if me.bot && !t.bots {
        return Err(no_bots());
    }
    if t.good_record {
        super::challenges::check_good_record(&state, &me.id, "this tournament").await?;
    }
    if !state.db.join_tournament(&id, &me.id).await? {
        return Err(ApiError::conflict(
            ErrorCode::Joined,
            "you are in this tournament already",
        ));
    }
    state.lobby.changed();
    Ok(Json(Joined { joined: true }))
}

/// Leaves before the start; after it, withdraws: the player's game in play is resigned and later rounds
/// pair without them (a round-robin opponent wins by forfeit).
#[utoipa::path(post, path = "/tournaments/{id}/withdraw", tag = "tournaments", security(("session" = [])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 200, body = Withdrawn), (status = "4XX", body = ErrorBody,
        description = "Signed out; no such tournament; over (`finished`) or not the asker's (`not-in`)")))]
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<Withdrawn>> {
    let t = load(&state, &id).await?;
    if t.status == TournamentStatus::Finished {
        return Err(ApiError::conflict(ErrorCode::Finished, "the tournament is over"));
    }
    let started = t.status != TournamentStatus::Open;
    if !state.db.withdraw(&id, &me.id, started, t.round).await? {
        return Err(ApiError::conflict(
            ErrorCode::NotIn,
            "you are not playing in this tournament",
        ));
    }
    if started {
        for g in state.db.tournament_games(&id).await? {
            let plays = g.users.iter().flatten().any(|u| u.id == me.id);
            if g.status == GameStatus::Active
                && plays
                && let Err(e) = state.hub.act(&g.id, &me, Action::Resign, None, None).await
            {
                tracing::error!("tournament {id}: cannot resign game {}: {e:?}", g.id);
            }
        }
        state.hub.tournament_changed(&id);
    }
    state.lobby.changed();
    Ok(Json(Withdrawn { withdrawn: true }))
}

/// The creator starts the tournament: joining closes and round 1 is paired.
#[utoipa::path(post, path = "/tournaments/{id}/start", tag = "tournaments", security(("session" = [])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses((status = 200, body = Started), (status = "4XX", body = ErrorBody,
        description = "Signed out; no such tournament; not the creator; started already; fewer than 2 players")))]
pub(crate) async fn start(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<Started>> {
    let t = load(&state, &id).await?;
    if t.creator.id != me.id {
        return Err(ApiError::forbidden("only the tournament's creator can start it"));
    }
    if t.status != TournamentStatus::Open {
        return Err(ApiError::conflict(
            ErrorCode::Started,
            "the tournament has started already",
        ));
    }
    let players = state.db.tournament_players(&id).await?;
    if players.len() < 2 {
        return Err(ApiError::conflict(
            ErrorCode::TooFew,
            "a tournament needs at least 2 players",
        ));
    }
    let rounds = if t.kind == TournamentKind::RoundRobin {
        round_robin_rounds(players.len())
    } else {
        t.rounds
    };
    if !state.db.open_tournament_run(&id, rounds).await? {
        return Err(ApiError::conflict(
            ErrorCode::Started,
            "the tournament has started already",
        ));
    }
    crate::game::tournament::advance(&state.hub, &id).await;
    state.lobby.changed();
    Ok(Json(Started { started: true }))
}
