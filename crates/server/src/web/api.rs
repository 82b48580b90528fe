//! The JSON API behind the pages: the game catalog, the lobby, challenges, games against the engine, and a
//! game's state. Live actions go over the WebSocket (`ws.rs`).

use axum::{
    Json,
    extract::{Path, State},
};
use gridplay_core::{GameSpec, Look, MoveEntry, SideInfo};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::{
    clock::{TimeControl, TimeInput},
    db::{ActionKind, ChallengeRow, GameRow, GameStatus, Winner, now_ms},
    game::live::LiveError,
    ids,
    web::AppState,
    web::auth::{MaybeUser, SignedIn},
    web::error::{ApiError, ApiResult},
    web::extract::GameId,
    web::lang::Lang,
};

/// A game as the pages learn it: everything they show about a game comes from here.
#[derive(Debug, Serialize)]
pub(crate) struct CatalogGame {
    name: &'static str,
    title: &'static str,
    about: &'static str,
    /// The module's words in the request's language, English to translation (empty in English), for the
    /// texts of a game's state: side names, piece kinds, information lines.
    words: Value,
    settings: Vec<crate::web::settings::CatalogSetting>,
    sides: [SideInfo; 2],
    /// The engine's levels, 1 to `levels`; 0 where no engine plays the game.
    levels: usize,
    entry: MoveEntry,
    look: Look,
    /// Labels of the kinds of move a player chooses between.
    move_kinds: Value,
    /// The languages of the rules document.
    rules: Vec<&'static str>,
    /// Piece kind and the words that explain it.
    legend: Vec<(&'static str, &'static str)>,
}

/// The games and their settings, for the lobby's forms, and how each is shown and played.
pub(crate) async fn catalog(
    State(state): State<AppState>,
    Lang(lang): Lang,
) -> ApiResult<([(axum::http::HeaderName, &'static str); 1], String)> {
    let text = catalog_text(&state, lang)?;
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        text.to_string(),
    ))
}

/// The catalog in `lang` as JSON text, made once per language: `GET /api/catalog` answers it and every
/// page's first response carries it.
pub(crate) fn catalog_text(state: &AppState, lang: &'static str) -> ApiResult<std::sync::Arc<str>> {
    let cell = state.catalogs.get(lang).ok_or_else(ApiError::internal)?;
    if let Some(t) = cell.get() {
        return Ok(t.clone());
    }
    let text: std::sync::Arc<str> = catalog_of(state, lang)?.to_string().into();
    Ok(cell.get_or_init(|| text).clone())
}

/// The catalog in `lang`.
fn catalog_of(state: &AppState, lang: &'static str) -> ApiResult<Value> {
    let mut games = Vec::new();
    for e in state.registry.entries() {
        let game = state.registry.game(e.name).map_err(|_| ApiError::internal())?;
        let module = e.module;
        let word = |english: &'static str| module.word(lang, english);
        let mut sides = game.info().sides;
        for side in &mut sides {
            side.name = module.word(lang, &side.name).to_owned();
        }
        games.push(CatalogGame {
            name: e.name,
            title: word(module.title),
            about: word(module.about),
            words: module
                .words(lang)
                .iter()
                .map(|(en, there)| ((*en).to_owned(), json!(there)))
                .collect::<serde_json::Map<String, Value>>()
                .into(),
            settings: module
                .settings
                .iter()
                .map(|s| crate::web::settings::catalog_setting(module, s, lang))
                .collect(),
            sides,
            levels: gridplay_engine::engine(e.name).map_or(0, |g| g.levels.len()),
            entry: module.entry,
            look: module.look,
            move_kinds: module
                .move_kinds
                .iter()
                .map(|(k, label)| ((*k).to_owned(), json!(word(label))))
                .collect::<serde_json::Map<String, Value>>()
                .into(),
            rules: module.rules.iter().map(|d| d.language).collect(),
            legend: module
                .legend
                .iter()
                .map(|(kind, words)| (*kind, word(words)))
                .collect(),
        });
    }
    Ok(json!({ "games": games, "language": lang }))
}

fn challenge_json(c: &ChallengeRow) -> Value {
    json!({
        "id": c.id,
        "creator": c.creator.name,
        "target": c.target.as_ref().map(|t| t.name.clone()),
        "spec": c.spec,
        "color": c.color,
        "created_at": c.created_at,
        "rated": c.rated,
        "help": c.help,
        "time": c.time.label(),
    })
}

pub(crate) fn game_summary(g: &GameRow, me: Option<&str>) -> Value {
    let name = |i: usize| match (&g.users[i], g.levels[i]) {
        (Some(u), _) => u.name.clone(),
        (None, Some(l)) => format!("Engine level {l}"),
        (None, None) => "?".into(),
    };
    let my_turn = match (me, g.turn) {
        (Some(me), Some(side)) => g.users[side.index()].as_ref().is_some_and(|u| u.id == me),
        _ => false,
    };
    json!({
        "id": g.id,
        "spec": g.spec,
        "game": g.game,
        "players": [name(0), name(1)],
        "status": g.status,
        "turn": g.turn,
        "my_turn": my_turn,
        "winner": g.winner,
        "termination": g.termination,
        "version": g.version,
        "updated_at": g.updated_at,
        "rated": g.rated,
        "help": g.help,
        "time": g.time.label(),
        "tournament": g.tournament.as_ref().map(|t| t.0.clone()),
    })
}

/// The lobby as the asker may see it: visitors get the number of players online, signed-in users their names.
pub(crate) async fn lobby(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
) -> ApiResult<Json<Value>> {
    let me = user.as_ref().map(|u| u.id.as_str());
    let challenges = state.db.open_challenges(me).await?;
    let mut body = json!({
        "online_count": state.lobby.count(),
        "challenges": challenges.iter().map(|c| {
            let mut j = challenge_json(c);
            j["mine"] = json!(me == Some(c.creator.id.as_str()));
            j["to_me"] = json!(c.target.as_ref().is_some_and(|t| Some(t.id.as_str()) == me));
            j
        }).collect::<Vec<_>>(),
    });
    if let Some(u) = &user {
        body["online"] = json!(state.lobby.names());
        let active = state.db.games_of(&u.id, GameStatus::Active, 50).await?;
        let finished = state.db.games_of(&u.id, GameStatus::Finished, 10).await?;
        body["games"] = json!(active.iter().map(|g| game_summary(g, me)).collect::<Vec<_>>());
        body["finished"] = json!(finished.iter().map(|g| game_summary(g, me)).collect::<Vec<_>>());
    }
    Ok(Json(body))
}

/// A game spec from a client, parsed and built by the registry.
pub(crate) fn build_spec(state: &AppState, spec: &str) -> ApiResult<Box<dyn gridplay_core::DynGame>> {
    if spec.len() > 200 {
        return Err(ApiError::bad_request(
            "bad-spec",
            "a game spec has at most 200 characters",
        ));
    }
    let refused = |e: gridplay_core::SpecError| {
        ApiError::bad_request(
            "bad-spec",
            crate::web::settings::spec_sentence(state.registry, &e),
        )
    };
    let parsed: GameSpec = spec.parse().map_err(refused)?;
    state.registry.build(&parsed).map_err(refused)
}

/// A game spec from a client, written back in canonical form, with the game's name.
pub(crate) fn check_spec(state: &AppState, spec: &str) -> ApiResult<(String, String)> {
    let game = build_spec(state, spec)?;
    Ok((game.spec().to_string(), game.info().name))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Color {
    First,
    Second,
    Random,
}

impl Color {
    fn as_str(&self) -> &'static str {
        match self {
            Color::First => "first",
            Color::Second => "second",
            Color::Random => "random",
        }
    }

    /// Whether the chooser plays first, drawing lots for `random`.
    fn chooser_first(text: &str) -> bool {
        match text {
            "first" => true,
            "second" => false,
            _ => rand::rng().random_bool(0.5),
        }
    }
}

#[derive(Debug, Deserialize)]
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
}

/// The time control of a game between people: a clock or days per move, never untimed (a game must be
/// claimable if one side leaves).
pub(crate) fn people_time(time: Option<TimeInput>) -> ApiResult<TimeControl> {
    let tc = time
        .unwrap_or(TimeInput::Correspondence { days: 3 })
        .check()
        .map_err(|e| ApiError::bad_request("bad-time", e))?;
    if tc == TimeControl::Untimed {
        return Err(ApiError::bad_request(
            "bad-time",
            "a game between people needs a clock or days per move",
        ));
    }
    Ok(tc)
}

pub(crate) async fn create_challenge(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Json(c): Json<NewChallenge>,
) -> ApiResult<Json<Value>> {
    let (spec, _) = check_spec(&state, &c.spec)?;
    let time = people_time(c.time)?;
    if c.help && c.rated {
        return Err(ApiError::bad_request(
            "bad-help",
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
            let u = u.ok_or_else(|| ApiError::bad_request("no-such-player", "no player has that name"))?;
            if u.id == me.id {
                return Err(ApiError::bad_request(
                    "self-challenge",
                    "you cannot challenge yourself",
                ));
            }
            Some(u)
        }
    };
    let row = ChallengeRow {
        id: ids::short(8),
        creator: me,
        target,
        spec,
        color: c.color.as_str().to_owned(),
        status: "open".into(),
        game_id: None,
        created_at: now_ms(),
        rated: c.rated,
        help: c.help,
        time,
    };
    state.db.create_challenge(&row).await?;
    state.lobby.changed();
    Ok(Json(challenge_json(&row)))
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
        .filter(|c| c.status == "open")
        .ok_or_else(|| ApiError::not_found("open challenge"))
}

pub(crate) async fn accept_challenge(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let c = open_challenge(&state, &id).await?;
    if c.creator.id == me.id {
        return Err(ApiError::bad_request(
            "own-challenge",
            "you cannot accept your own challenge",
        ));
    }
    if c.target.as_ref().is_some_and(|t| t.id != me.id) {
        return Err(ApiError::forbidden("this challenge is for another player"));
    }
    let (spec, name) = check_spec(&state, &c.spec)?;
    let creator_first = Color::chooser_first(&c.color);
    let users = if creator_first {
        [Some(c.creator.clone()), Some(me.clone())]
    } else {
        [Some(me.clone()), Some(c.creator.clone())]
    };
    let mut game = GameRow::new(spec, name, users, [None, None]);
    game.rated = c.rated;
    game.help = c.help && !c.rated;
    game.time = c.time;
    if !state.db.accept_challenge(&c.id, &game).await? {
        return Err(ApiError::conflict("taken", "the challenge is no longer open"));
    }
    state.lobby.started(&game.id, &[&c.creator.id, &me.id]);
    Ok(Json(json!({ "game": game.id })))
}

pub(crate) async fn decline_challenge(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let c = open_challenge(&state, &id).await?;
    let status = if c.creator.id == me.id {
        "cancelled"
    } else if c.target.as_ref().is_some_and(|t| t.id == me.id) {
        "declined"
    } else {
        return Err(ApiError::forbidden(
            "only its creator or the challenged player can close a challenge",
        ));
    };
    if !state.db.close_challenge(&c.id, status).await? {
        return Err(ApiError::conflict("taken", "the challenge is no longer open"));
    }
    state.lobby.changed();
    Ok(Json(json!({ "status": status })))
}

#[derive(Debug, Deserialize)]
pub(crate) struct NewComputerGame {
    spec: String,
    level: u8,
    color: Color,
    /// Untimed when not given.
    time: Option<TimeInput>,
}

pub(crate) async fn play_computer(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Json(c): Json<NewComputerGame>,
) -> ApiResult<Json<Value>> {
    let (spec, name) = check_spec(&state, &c.spec)?;
    let top = gridplay_engine::engine(&name).map_or(0, |e| e.levels.len());
    if top == 0 {
        return Err(ApiError::bad_request(
            "no-engine",
            format!("no engine plays {name}"),
        ));
    }
    if !(1..=top).contains(&usize::from(c.level)) {
        return Err(ApiError::bad_request(
            "bad-level",
            format!("this game's levels are 1 to {top}"),
        ));
    }
    let me_first = Color::chooser_first(c.color.as_str());
    let (users, levels) = if me_first {
        ([Some(me), None], [None, Some(c.level)])
    } else {
        ([None, Some(me)], [Some(c.level), None])
    };
    let mut game = GameRow::new(spec, name, users, levels);
    game.time = c
        .time
        .unwrap_or(TimeInput::Untimed)
        .check()
        .map_err(|e| ApiError::bad_request("bad-time", e))?;
    state.db.create_game(&game).await?;
    if let Err(e) = state.hub.wake(&game.id).await {
        tracing::error!("game {}: {e:?}", game.id);
    }
    Ok(Json(json!({ "game": game.id })))
}

pub(crate) async fn game_state(State(state): State<AppState>, GameId(id): GameId) -> ApiResult<Json<Value>> {
    match state.hub.state(&id).await {
        Ok(s) => Ok(Json(json!(&*s))),
        Err(LiveError::NotFound) => Err(ApiError::not_found("game")),
        Err(_) => Err(ApiError::internal()),
    }
}

/// How many watch a game besides its players (the game page shows it).
pub(crate) async fn game_spectators(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> ApiResult<Json<Value>> {
    let s = match state.hub.state(&id).await {
        Ok(s) => s,
        Err(LiveError::NotFound) => return Err(ApiError::not_found("game")),
        Err(_) => return Err(ApiError::internal()),
    };
    let players: Vec<&str> = s.players.iter().filter_map(|p| p.id.as_deref()).collect();
    Ok(Json(
        json!({ "spectators": state.lobby.spectators(&id, &players) }),
    ))
}

fn live_error(e: &LiveError) -> ApiError {
    match e {
        LiveError::NotFound => ApiError::not_found("game"),
        LiveError::Internal => ApiError::internal(),
        LiveError::TooMany(why) => ApiError::too_many(why.clone()),
        e => ApiError::conflict(e.code(), e.message()),
    }
}

/// The board after `n` moves, for replays.
pub(crate) async fn game_ply(
    State(state): State<AppState>,
    GameId(id): GameId,
    Path((_, n)): Path<(String, usize)>,
) -> ApiResult<Json<Value>> {
    match state.hub.ply(&id, n).await {
        Ok(Some(p)) => Ok(Json(json!(p))),
        Ok(None) => Err(ApiError::not_found("move number")),
        Err(e) => Err(live_error(&e)),
    }
}

/// The engine's suggested move after `n` moves of a finished game, for replays.
pub(crate) async fn replay_hint(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    GameId(id): GameId,
    Path((_, n)): Path<(String, usize)>,
) -> ApiResult<Json<Value>> {
    match state.hub.replay_hint(&id, n, &me).await {
        Ok(Some(mv)) => Ok(Json(json!({ "move": mv }))),
        Ok(None) => Err(ApiError::not_found("move number")),
        Err(e) => Err(live_error(&e)),
    }
}

/// The game as a file to download, in its game's format.
pub(crate) async fn game_export(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> Result<axum::response::Response, ApiError> {
    use axum::{http::header, response::IntoResponse};
    let (name, text) = state.hub.export(&id).await.map_err(|e| live_error(&e))?;
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

#[derive(Debug, Deserialize)]
pub(crate) struct ImportBody {
    text: String,
}

/// Reads a game file into a new replay.
pub(crate) async fn import_game(
    State(state): State<AppState>,
    SignedIn(_me): SignedIn,
    Json(body): Json<ImportBody>,
) -> ApiResult<Json<Value>> {
    let imported = crate::transcript::import(state.registry, &body.text)
        .map_err(|e| ApiError::bad_request("bad-file", e.to_string()))?;
    let mut record = imported.record;
    let mut actions: Vec<(gridplay_core::Player, ActionKind, String)> = Vec::new();
    {
        // Replay the moves to know who played each.
        let mut pos = record.start().box_clone();
        for m in record.moves() {
            actions.push((pos.turn(), ActionKind::Move, m.clone()));
            let _ = pos.play(m);
        }
    }
    // A result the moves do not reach (a resignation, an agreed draw) is recorded as those decisions.
    if record.outcome().is_none() {
        match imported.result {
            Some(gridplay_core::Outcome::Win { winner }) => {
                record.resign(!winner).map_err(|_| ApiError::internal())?;
                actions.push((!winner, ActionKind::Resign, String::new()));
            }
            Some(gridplay_core::Outcome::Draw) => {
                let p = record.position().turn();
                record.offer_draw(p).map_err(|_| ApiError::internal())?;
                record.accept_draw(!p).map_err(|_| ApiError::internal())?;
                actions.push((p, ActionKind::OfferDraw, String::new()));
                actions.push((!p, ActionKind::AcceptDraw, String::new()));
            }
            None => {}
        }
    }
    // The players' names from the file are shown to others: the rule of free text, cut to 40 characters.
    let mut labels = [None, None];
    for (i, name) in imported.names.iter().enumerate() {
        labels[i] = match name.as_deref().map(|n| crate::text::clean(n, usize::MAX)) {
            None | Some(Err(crate::text::TextError::Empty)) => None,
            Some(Ok(n)) => Some(n.chars().take(40).collect::<String>()),
            Some(Err(e)) => {
                let which = if i == 0 { "first" } else { "second" };
                return Err(ApiError::bad_request(
                    "bad-file",
                    format!("the {which} player's name in the file {e}"),
                ));
            }
        };
    }
    let end = record.outcome();
    let now = now_ms();
    let row = GameRow {
        id: ids::short(8),
        spec: imported.spec,
        game: imported.game.info().name,
        users: [None, None],
        levels: [None, None],
        labels,
        status: GameStatus::Imported,
        turn: None,
        winner: end.map(|(o, _)| Winner::from(o)),
        termination: None,
        version: actions.len() as i64,
        created_at: now,
        updated_at: now,
        rated: false,
        help: false,
        time: TimeControl::Untimed,
        tournament: None,
    };
    let rows: Vec<crate::db::ActionRow> = actions
        .into_iter()
        .enumerate()
        .map(|(i, (side, kind, body))| crate::db::ActionRow {
            seq: i as i64 + 1,
            side,
            kind,
            body,
            at: now,
            clock: None,
        })
        .collect();
    state.db.create_imported(&row, &rows).await?;
    Ok(Json(json!({ "game": row.id })))
}

/// The engine's analysis of a finished game, for signed-in users (computed on the first request, which may
/// take up to about 30 s, and stored).
pub(crate) async fn game_analysis(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    GameId(id): GameId,
) -> ApiResult<Json<Value>> {
    let game = state.hub.state(&id).await.map_err(|e| live_error(&e))?;
    if game.over.is_none() {
        return Err(ApiError::conflict(
            "ongoing",
            "the engine analyses a game once it is over",
        ));
    }
    let a = state.hub.analysis(&id, &me).await.map_err(|e| live_error(&e))?;
    Ok(Json(json!(&*a)))
}

/// A finished game's analysis if one was computed before (anyone may read it), so that a replay shows it
/// again without asking for a new one: `404` when none is stored.
pub(crate) async fn stored_analysis(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> ApiResult<Json<Value>> {
    match state.hub.stored_analysis(&id).await {
        Ok(Some(a)) => Ok(Json(json!(&*a))),
        Ok(None) => Err(ApiError::not_found("analysis")),
        Err(e) => Err(live_error(&e)),
    }
}

/// The engine's suggested move for the player to move, where the game allows hints (`live::state::hints_allowed`).
pub(crate) async fn game_hint(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    GameId(id): GameId,
) -> ApiResult<Json<Value>> {
    match state.hub.hint(&id, &me).await {
        Ok(mv) => Ok(Json(json!({ "move": mv }))),
        Err(LiveError::NotFound) => Err(ApiError::not_found("game")),
        Err(e) => Err(live_error(&e)),
    }
}

/// A rematch of a finished game, colours swapped: against the engine a new game at once; against a person a
/// direct challenge with the same settings, which the opponent's pages hear of.
pub(crate) async fn rematch(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    GameId(id): GameId,
) -> ApiResult<Json<Value>> {
    let g = state
        .db
        .game(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let Some(mine) = g
        .users
        .iter()
        .position(|u| u.as_ref().is_some_and(|u| u.id == me.id))
    else {
        return Err(ApiError::forbidden("you did not play this game"));
    };
    if g.status == GameStatus::Active {
        return Err(ApiError::conflict("ongoing", "the game is not over yet"));
    }
    if g.tournament.is_some() {
        return Err(ApiError::conflict(
            "tournament",
            "tournament games are paired by the tournament",
        ));
    }
    let other = 1 - mine;
    if let Some(level) = g.levels[other] {
        // The engine accepts at once: the player takes the other side.
        let mut users = [None, None];
        let mut levels = [None, None];
        users[other] = Some(me);
        levels[mine] = Some(level);
        let mut game = GameRow::new(g.spec.clone(), g.game.clone(), users, levels);
        game.time = g.time;
        state.db.create_game(&game).await?;
        if let Err(e) = state.hub.wake(&game.id).await {
            tracing::error!("game {}: {e:?}", game.id);
        }
        return Ok(Json(json!({ "game": game.id })));
    }
    let Some(opponent) = g.users[other].clone() else {
        return Err(ApiError::conflict(
            "no-opponent",
            "this game has no opponent to ask",
        ));
    };
    check_open_challenges(&state, &me.id).await?;
    let row = ChallengeRow {
        id: ids::short(8),
        creator: me.clone(),
        target: Some(opponent.clone()),
        spec: g.spec.clone(),
        // The rematch swaps colours: the asker takes the side the opponent had.
        color: if other == 0 { "first" } else { "second" }.into(),
        status: "open".into(),
        game_id: None,
        created_at: now_ms(),
        rated: g.rated,
        help: g.help,
        time: g.time,
    };
    state.db.create_challenge(&row).await?;
    state.lobby.rematch(&opponent.id, &g.id, &row.id, &me.name);
    state.lobby.changed();
    Ok(Json(json!({ "challenge": row.id })))
}
