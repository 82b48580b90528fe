//! The tournament pages' API: create, join, withdraw, start, and a tournament's rounds and standings.

use axum::{Json, extract::State};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::game::tournament::{round_robin_rounds, standings};
use crate::{
    clock::TimeInput,
    db::{GameStatus, TournamentRow, now_ms},
    game::live::Action,
    ids,
    web::AppState,
    web::api::{check_spec, game_summary, people_time},
    web::auth::{MaybeUser, SignedIn},
    web::error::{ApiError, ApiResult},
    web::extract::TournamentId,
};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Kind {
    Swiss,
    RoundRobin,
}

#[derive(Debug, Deserialize)]
pub(crate) struct NewTournament {
    name: String,
    spec: String,
    kind: Kind,
    /// Swiss only: 1 to 15 rounds (3 if not given). A round-robin has as many as it needs.
    rounds: Option<i64>,
    #[serde(default)]
    rated: bool,
    time: Option<TimeInput>,
}

fn summary(t: &TournamentRow, players: usize) -> Value {
    json!({
        "id": t.id,
        "name": t.name,
        "spec": t.spec,
        "game": t.game,
        "kind": t.kind,
        "rounds": t.rounds,
        "round": t.round,
        "rated": t.rated,
        "time": t.time.label(),
        "status": t.status,
        "creator": t.creator.name,
        "players": players,
        "created_at": t.created_at,
    })
}

pub(crate) async fn list(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let mut out = Vec::new();
    for t in state.db.tournaments(50).await? {
        let n = state.db.tournament_players(&t.id).await?.len();
        out.push(summary(&t, n));
    }
    Ok(Json(json!({ "tournaments": out })))
}

pub(crate) async fn create(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Json(t): Json<NewTournament>,
) -> ApiResult<Json<Value>> {
    let name = crate::text::clean(&t.name, 60)
        .map_err(|e| ApiError::bad_request("bad-name", format!("the tournament's name {e}")))?;
    let name = name.as_str();
    let (spec, game) = check_spec(&state, &t.spec)?;
    let time = people_time(t.time)?;
    let (kind, rounds) = match t.kind {
        Kind::Swiss => {
            let rounds = t.rounds.unwrap_or(3);
            if !(1..=15).contains(&rounds) {
                return Err(ApiError::bad_request("bad-rounds", "a Swiss has 1 to 15 rounds"));
            }
            ("swiss", rounds)
        }
        // Set at the start, from the number of players.
        Kind::RoundRobin => ("round-robin", 0),
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
        kind: kind.into(),
        rounds,
        rated: t.rated,
        time,
        creator: me,
        status: "open".into(),
        round: 0,
        created_at: now,
    };
    state.db.create_tournament(&row).await?;
    state.lobby.changed();
    Ok(Json(json!({ "id": row.id })))
}

async fn load(state: &AppState, id: &str) -> ApiResult<TournamentRow> {
    state
        .db
        .tournament(id)
        .await?
        .ok_or_else(|| ApiError::not_found("tournament"))
}

/// A tournament: its settings, players, rounds (games, byes and forfeits) and standings.
pub(crate) async fn show(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<Value>> {
    let t = load(&state, &id).await?;
    let players = state.db.tournament_players(&id).await?;
    let games = state.db.tournament_games(&id).await?;
    let byes = state.db.tournament_byes(&id).await?;
    let table = standings(&t.kind, &players, &games, &byes);
    let name_of = |uid: &str| {
        players
            .iter()
            .find(|p| p.user.id == uid)
            .map_or_else(|| "?".to_owned(), |p| p.user.name.clone())
    };
    let rounds: Vec<Value> = (1..=t.round)
        .map(|r| {
            json!({
                "round": r,
                "games": games.iter().filter(|g| g.tournament.as_ref().is_some_and(|x| x.1 == r))
                    .map(|g| game_summary(g, user.as_ref().map(|u| u.id.as_str()))).collect::<Vec<_>>(),
                "byes": byes.iter().filter(|b| b.round == r).map(|b| json!({
                    "player": name_of(&b.user_id), "kind": b.kind, "points": b.half_points as f64 / 2.0,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let me = user.as_ref().map(|u| u.id.as_str());
    let mine = players.iter().find(|p| Some(p.user.id.as_str()) == me);
    let mut body = summary(&t, players.len());
    body["players_list"] = json!(
        players
            .iter()
            .map(|p| json!({
                "name": p.user.name,
                "withdrawn": p.withdrawn.is_some(),
            }))
            .collect::<Vec<_>>()
    );
    body["standings"] = json!(table);
    body["rounds_played"] = json!(rounds);
    body["joined"] = json!(mine.is_some_and(|p| p.withdrawn.is_none()));
    body["is_creator"] = json!(me == Some(t.creator.id.as_str()));
    body["tie_breaks"] = json!(if t.kind == "swiss" {
        ["Buchholz", "Sonneborn-Berger"]
    } else {
        ["Sonneborn-Berger", "Buchholz"]
    });
    Ok(Json(body))
}

pub(crate) async fn join(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<Value>> {
    let t = load(&state, &id).await?;
    if t.status != "open" {
        return Err(ApiError::conflict(
            "started",
            "the tournament has started: joining is closed",
        ));
    }
    if !state.db.join_tournament(&id, &me.id).await? {
        return Err(ApiError::conflict("joined", "you are in this tournament already"));
    }
    state.lobby.changed();
    Ok(Json(json!({ "joined": true })))
}

/// Leaves before the start; after it, withdraws: the player's game in play is resigned and later rounds
/// pair without them (a round-robin opponent wins by forfeit).
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<Value>> {
    let t = load(&state, &id).await?;
    if t.status == "finished" {
        return Err(ApiError::conflict("finished", "the tournament is over"));
    }
    let started = t.status != "open";
    if !state.db.withdraw(&id, &me.id, started, t.round).await? {
        return Err(ApiError::conflict(
            "not-in",
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
    Ok(Json(json!({ "withdrawn": true })))
}

/// The creator starts the tournament: joining closes and round 1 is paired.
pub(crate) async fn start(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<Value>> {
    let t = load(&state, &id).await?;
    if t.creator.id != me.id {
        return Err(ApiError::forbidden("only the tournament's creator can start it"));
    }
    if t.status != "open" {
        return Err(ApiError::conflict(
            "started",
            "the tournament has started already",
        ));
    }
    let players = state.db.tournament_players(&id).await?;
    if players.len() < 2 {
        return Err(ApiError::conflict(
            "too-few",
            "a tournament needs at least 2 players",
        ));
    }
    let rounds = if t.kind == "round-robin" {
        round_robin_rounds(players.len())
    } else {
        t.rounds
    };
    if !state.db.open_tournament_run(&id, rounds).await? {
        return Err(ApiError::conflict(
            "started",
            "the tournament has started already",
        ));
    }
    crate::game::tournament::advance(&state.hub, &id).await;
    state.lobby.changed();
    Ok(Json(json!({ "started": true })))
}
