//! Players and the games people watch: the list of games in play, a player's profile (ratings, results, the
//! rating history, games), the leaderboards, and "my games".

use std::collections::HashMap;

use axum::{
    Json,
    extract::{Path, Query, State},
};
use serde_json::{Value, json};

use crate::{
    db::{
        GameRow, GameStatus, RatingRow,
        ratings::{PROVISIONAL_DEVIATION, RatingsAfter, START},
    },
    web::AppState,
    web::api::game_summary,
    web::auth::SignedIn,
    web::error::{ApiError, ApiResult},
};

fn rating_json(r: Option<&RatingRow>) -> Value {
    match r {
        Some(r) => json!({ "rating": r.rating.round() as i64, "provisional": r.provisional }),
        None => Value::Null,
    }
}

/// A game summary with each player's current rating in that game and the number of spectators.
async fn with_ratings(state: &AppState, games: &[GameRow], me: Option<&str>) -> ApiResult<Vec<Value>> {
    let mut now: HashMap<(String, String), Option<RatingRow>> = HashMap::new();
    let mut after: HashMap<(String, String), RatingsAfter> = HashMap::new();
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        let mut j = game_summary(g, me);
        let mut ratings = Vec::new();
        for u in &g.users {
            let Some(u) = u else {
                ratings.push(rating_json(None));
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
                    ratings.push(json!({
                        "rating": before.round() as i64,
                        "provisional": deviation >= PROVISIONAL_DEVIATION,
                        "change": (history[k].1 - before).round() as i64,
                    }));
                    continue;
                }
            }
            if !now.contains_key(&key) {
                let r = state.db.rating(&u.id, &g.game).await?;
                now.insert(key.clone(), r);
            }
            ratings.push(rating_json(now[&key].as_ref()));
        }
        let players: Vec<&str> = g.users.iter().flatten().map(|u| u.id.as_str()).collect();
        j["ratings"] = json!(ratings);
        j["spectators"] = json!(state.lobby.spectators(&g.id, &players));
        j["names"] = json!(
            g.users
                .iter()
                .map(|u| u.as_ref().map(|u| u.name.clone()))
                .collect::<Vec<_>>()
        );
        out.push(j);
    }
    Ok(out)
}

/// The games in play, for spectators: players, ratings, time control and how many watch.
pub(crate) async fn live_games(
    State(state): State<AppState>,
    Query(q): Query<LiveQuery>,
) -> ApiResult<Json<Value>> {
    let idle_since = crate::db::now_ms() - IDLE_UNTIMED_MS;
    let games = state.db.live_games(50, idle_since).await?;
    let mut out = with_ratings(&state, &games, None).await?;
    // The first few games with their boards, for the watch page's mini-boards (which the socket's `tv`
    // message then keeps up to date).
    for (g, j) in games.iter().zip(out.iter_mut()).take(q.boards.min(MAX_BOARDS)) {
        match state.hub.state(&g.id).await {
            Ok(s) => j["board"] = json!(MiniBoard::of(&s)),
            Err(e) => tracing::warn!("game {}: no board for the live list: {e:?}", g.id),
        }
    }
    Ok(Json(json!({ "games": out })))
}

/// Untimed games (against the engine) not moved for this long are left out of the games in play.
const IDLE_UNTIMED_MS: i64 = 10 * 60 * 1000;

/// The most mini-boards the live list sends (and a socket follows with `tv`).
pub(crate) const MAX_BOARDS: usize = 12;

#[derive(Debug, serde::Deserialize)]
pub(crate) struct LiveQuery {
    /// How many of the games come with their board (at most [`MAX_BOARDS`]).
    #[serde(default)]
    boards: usize,
}

/// A game's board as a mini-board draws it: the cells and whose turn, without the legal moves.
#[derive(Debug, serde::Serialize)]
struct MiniBoard<'a> {
    game: &'a str,
    version: u64,
    sides: &'a [gridplay_core::SideInfo; 2],
    view: MiniView<'a>,
}

#[derive(Debug, serde::Serialize)]
struct MiniView<'a> {
    width: u32,
    height: u32,
    files: &'a [String],
    ranks: &'a [String],
    cells: &'a [gridplay_core::Cell],
    turn: Option<gridplay_core::Player>,
    score: gridplay_core::Score,
}

impl<'a> MiniBoard<'a> {
    fn of(s: &'a crate::game::live::GameState) -> MiniBoard<'a> {
        MiniBoard {
            game: &s.game,
            version: s.version,
            sides: &s.sides,
            view: MiniView {
                width: s.view.width,
                height: s.view.height,
                files: &s.view.files,
                ranks: &s.view.ranks,
                cells: &s.view.cells,
                turn: s.view.turn,
                score: s.view.score,
            },
        }
    }
}

/// The signed-in player's games: those in play (marked where it is their turn) and the latest finished.
pub(crate) async fn my_games(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
) -> ApiResult<Json<Value>> {
    let active = state.db.games_of(&me.id, GameStatus::Active, 200).await?;
    let finished = state.db.games_of(&me.id, GameStatus::Finished, 30).await?;
    let active = with_ratings(&state, &active, Some(&me.id)).await?;
    let waiting = active.iter().filter(|g| g["my_turn"] == json!(true)).count();
    Ok(Json(json!({
        "waiting": waiting,
        "active": active,
        "finished": with_ratings(&state, &finished, Some(&me.id)).await?,
    })))
}

/// A player's profile: ratings per game (provisional marked), wins, losses, draws and resignations, the rating
/// history of every rated game, the games in play and the latest finished ones.
pub(crate) async fn profile(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    if name.len() > 20 {
        return Err(ApiError::not_found("player"));
    }
    let user = state
        .db
        .user_named(&name)
        .await?
        .ok_or_else(|| ApiError::not_found("player"))?;
    let ratings = state.db.ratings_of(&user.id).await?;
    let mut history = serde_json::Map::new();
    for r in &ratings {
        let points = state.db.rating_history(&user.id, &r.game).await?;
        history.insert(
            r.game.clone(),
            json!(
                points
                    .iter()
                    .map(|(at, rating)| json!([at, rating.round() as i64]))
                    .collect::<Vec<_>>()
            ),
        );
    }
    let active = state.db.games_of(&user.id, GameStatus::Active, 50).await?;
    let finished = state.db.games_of(&user.id, GameStatus::Finished, 20).await?;
    Ok(Json(json!({
        "name": user.name,
        "online": state.lobby.names().iter().any(|n| n == &user.name),
        "ratings": ratings.iter().map(|r| json!({
            "game": r.game,
            "rating": r.rating.round() as i64,
            "deviation": r.deviation.round() as i64,
            "games": r.games,
            "provisional": r.provisional,
        })).collect::<Vec<_>>(),
        "stats": state.db.stats(&user.id).await?,
        "history": history,
        "active": with_ratings(&state, &active, None).await?,
        "recent": with_ratings(&state, &finished, None).await?,
    })))
}

/// The best rated players of one game; provisional ratings come after the established ones.
pub(crate) async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> ApiResult<Json<Value>> {
    let Some(entry) = state.registry.entries().iter().find(|e| e.name == game) else {
        return Err(ApiError::not_found("game"));
    };
    let rows = state.db.leaderboard(entry.name, 100).await?;
    Ok(Json(json!({
        "game": entry.name,
        "title": entry.module.title,
        "players": rows.iter().enumerate().map(|(i, r)| json!({
            "rank": i + 1,
            "name": r.name,
            "rating": r.rating.round() as i64,
            "deviation": r.deviation.round() as i64,
            "games": r.games,
            "provisional": r.provisional,
        })).collect::<Vec<_>>(),
    })))
}
