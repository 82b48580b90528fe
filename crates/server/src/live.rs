//! Live games: one actor (a tokio task) per game in play holds its record and is the only writer of its rows.
//!
//! An action (a move, a resignation, a draw offer or answer) goes to the actor, which checks it against the
//! rules library, commits it to the database, and only then broadcasts the new version to every watcher and
//! acknowledges it. A watcher that comes back with the last version it saw gets the events it missed from the
//! actor's recent history, or a full state when the gap is older. Actors load from the database when first
//! needed, so a restart loses nothing that was acknowledged, and stop after a while with no one watching.

use std::{
    collections::{HashMap, VecDeque},
    sync::Arc,
    time::Duration,
};

use gridplay_core::{
    BoardView, DynGame, DynPosition, GameRecord, MoveView, Outcome, Player, RecordError, Registry, SideInfo,
    Termination,
};
use serde::Serialize;
use tokio::sync::{Mutex, broadcast, mpsc, oneshot};

use crate::{
    db::{ActionRow, Db, GameRow, GameUpdate, User},
    engines::EnginePool,
    lobby::Lobby,
};

/// How many recent events an actor keeps for watchers that reconnect.
const KEEP_EVENTS: usize = 32;
/// How many acknowledged action ids an actor remembers, to answer a resent action without playing it twice.
const KEEP_ACKS: usize = 64;
/// An actor with no watcher and nothing to do stops after this long.
const IDLE: Duration = Duration::from_secs(300);
/// The engine never answers faster than this, so that its moves can be seen.
const ENGINE_MIN: Duration = Duration::from_millis(250);

/// What a player asks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move(String),
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
}

impl Action {
    fn kind(&self) -> &'static str {
        match self {
            Action::Move(_) => "move",
            Action::Resign => "resign",
            Action::OfferDraw => "offer-draw",
            Action::AcceptDraw => "accept-draw",
            Action::DeclineDraw => "decline-draw",
        }
    }

    fn from_row(kind: &str, body: &str) -> Option<Action> {
        Some(match kind {
            "move" => Action::Move(body.to_owned()),
            "resign" => Action::Resign,
            "offer-draw" => Action::OfferDraw,
            "accept-draw" => Action::AcceptDraw,
            "decline-draw" => Action::DeclineDraw,
            _ => return None,
        })
    }
}

/// Why an action or a watch was refused; `code` is stable for clients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveError {
    NotFound,
    NotAPlayer,
    NotYourTurn,
    /// The action was made on an older version than the game's.
    Stale {
        version: u64,
    },
    Refused(String),
    Internal,
}

impl LiveError {
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            LiveError::NotFound => "not-found",
            LiveError::NotAPlayer => "not-a-player",
            LiveError::NotYourTurn => "not-your-turn",
            LiveError::Stale { .. } => "stale",
            LiveError::Refused(_) => "refused",
            LiveError::Internal => "internal",
        }
    }

    #[must_use]
    pub fn message(&self) -> String {
        match self {
            LiveError::NotFound => "no such game".into(),
            LiveError::NotAPlayer => "you are not a player of this game".into(),
            LiveError::NotYourTurn => "it is not your turn".into(),
            LiveError::Stale { version } => {
                format!("the game has moved on to version {version}: look again and retry")
            }
            LiveError::Refused(why) => why.clone(),
            LiveError::Internal => "internal error".into(),
        }
    }
}

impl From<RecordError> for LiveError {
    fn from(e: RecordError) -> LiveError {
        LiveError::Refused(e.to_string())
    }
}

/// One player slot as clients see it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerJson {
    pub id: Option<String>,
    pub name: Option<String>,
    /// The engine's level when the engine plays this side.
    pub level: Option<u8>,
}

/// How a game ended, in words and in data.
#[derive(Clone, Debug, Serialize)]
pub struct OverJson {
    /// `None` for a draw.
    pub winner: Option<Player>,
    pub termination: Termination,
    pub text: String,
}

/// Everything a page needs to show a game: the board view from the rules library, the players, the moves.
#[derive(Clone, Debug, Serialize)]
pub struct GameState {
    pub id: String,
    pub spec: String,
    pub game: String,
    pub title: String,
    pub sides: [SideInfo; 2],
    pub players: [PlayerJson; 2],
    pub version: u64,
    pub moves: Vec<String>,
    pub view: BoardView,
    pub last_move: Option<MoveView>,
    pub over: Option<OverJson>,
    pub draw_offer: Option<Player>,
    /// For each side, whether its player sees the board turned half a turn, so that its own pieces start at
    /// the bottom (read from where the start position puts each side's pieces).
    pub rotate: [bool; 2],
}

/// One committed action as watchers receive it.
#[derive(Debug, Serialize)]
struct EventJson<'a> {
    t: &'static str,
    game: &'a str,
    v: u64,
    action: ActionJson<'a>,
    state: &'a GameState,
}

#[derive(Debug, Serialize)]
struct ActionJson<'a> {
    kind: &'a str,
    side: Player,
    text: &'a str,
}

/// A message for watchers, serialized once for all of them.
#[derive(Clone, Debug)]
pub struct Published {
    pub version: u64,
    pub json: Arc<str>,
}

/// What a new watcher gets: messages to send first (missed events, or one full state), then the live feed.
#[derive(Debug)]
pub struct Watch {
    pub catchup: Vec<Arc<str>>,
    pub feed: broadcast::Receiver<Published>,
    pub version: u64,
}

enum Cmd {
    Watch {
        since: Option<u64>,
        reply: oneshot::Sender<Watch>,
    },
    State {
        reply: oneshot::Sender<Arc<GameState>>,
    },
    Act {
        user: String,
        action: Action,
        ack: Option<String>,
        base: Option<u64>,
        reply: oneshot::Sender<Result<u64, LiveError>>,
    },
    Engine {
        version: u64,
        best: Option<String>,
    },
    Ply {
        n: usize,
        reply: oneshot::Sender<Option<PlyJson>>,
    },
    Export {
        reply: oneshot::Sender<(String, String)>,
    },
    Positions {
        reply: oneshot::Sender<GameLine>,
    },
}

/// An engine's look at a whole game: a score for the first player after each move, and the moves that lost
/// much.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// `scores[n]` is the position after `n` moves, for the first player, in hundredths of a game unit.
    pub scores: Vec<i32>,
    /// Per move (index `n` is move `n + 1`): `null`, `"?"` (a mistake) or `"??"` (a blunder).
    pub marks: Vec<Option<&'static str>>,
    /// The bound of the scores (a won position scores this).
    pub clamp: i32,
    pub per_position_ms: u64,
}

/// Scores lost by a move that make it a mistake, and a blunder.
pub const MISTAKE: i32 = 200;
pub const BLUNDER: i32 = 500;

/// Every position of a game from its start, and the moves played between them.
type GameLine = (Vec<Box<dyn DynPosition>>, Vec<String>);

/// A position of a game's replay: the board after `n` moves and the move that led there.
#[derive(Clone, Debug, Serialize)]
pub struct PlyJson {
    pub n: usize,
    pub view: BoardView,
    pub last_move: Option<MoveView>,
}

/// The live games of this server.
#[derive(Clone, Debug)]
pub struct GameHub(Arc<HubInner>);

#[derive(Debug)]
struct HubInner {
    db: Db,
    registry: &'static Registry,
    engines: EnginePool,
    lobby: Lobby,
    games: Mutex<HashMap<String, mpsc::Sender<Cmd>>>,
    analyses: Mutex<HashMap<String, Arc<Analysis>>>,
}

impl GameHub {
    #[must_use]
    pub fn new(db: Db, registry: &'static Registry, engines: EnginePool, lobby: Lobby) -> GameHub {
        GameHub(Arc::new(HubInner {
            db,
            registry,
            engines,
            lobby,
            games: Mutex::new(HashMap::new()),
            analyses: Mutex::new(HashMap::new()),
        }))
    }

    async fn sender(&self, id: &str) -> Result<mpsc::Sender<Cmd>, LiveError> {
        let mut games = self.0.games.lock().await;
        if let Some(tx) = games.get(id).filter(|tx| !tx.is_closed()) {
            return Ok(tx.clone());
        }
        let (tx, rx) = mpsc::channel(256);
        let actor = Actor::load(self.clone(), id, tx.downgrade()).await?;
        games.insert(id.to_owned(), tx.clone());
        tokio::spawn(actor.run(rx));
        Ok(tx)
    }

    /// Sends a command to the game's actor, loading it if needed, and waits for the answer.
    async fn ask<T>(&self, id: &str, make: impl Fn(oneshot::Sender<T>) -> Cmd) -> Result<T, LiveError> {
        // An actor may stop between the lookup and the send; then load it again once.
        for _ in 0..2 {
            let tx = self.sender(id).await?;
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).await.is_err() {
                self.0.games.lock().await.remove(id);
                continue;
            }
            if let Ok(a) = answer.await {
                return Ok(a);
            }
        }
        Err(LiveError::Internal)
    }

    /// Watches a game from version `since` (the last one the client saw), or from scratch.
    pub async fn watch(&self, id: &str, since: Option<u64>) -> Result<Watch, LiveError> {
        self.ask(id, |reply| Cmd::Watch { since, reply }).await
    }

    /// The game's current state.
    pub async fn state(&self, id: &str) -> Result<Arc<GameState>, LiveError> {
        self.ask(id, |reply| Cmd::State { reply }).await
    }

    /// `user` acts in a game. `ack` names the action so that a resent one is answered, not replayed; `base` is
    /// the version the player saw, and an action on an older one is refused as stale. Returns the new version.
    pub async fn act(
        &self,
        id: &str,
        user: &User,
        action: Action,
        ack: Option<String>,
        base: Option<u64>,
    ) -> Result<u64, LiveError> {
        self.ask(id, |reply| Cmd::Act {
            user: user.id.clone(),
            action: action.clone(),
            ack: ack.clone(),
            base,
            reply,
        })
        .await?
    }

    /// The position after `n` moves, or `None` past the last move.
    pub async fn ply(&self, id: &str, n: usize) -> Result<Option<PlyJson>, LiveError> {
        self.ask(id, |reply| Cmd::Ply { n, reply }).await
    }

    /// The engine's analysis of a game, computed once and kept while the server runs.
    pub async fn analysis(&self, id: &str) -> Result<Arc<Analysis>, LiveError> {
        if let Some(a) = self.0.analyses.lock().await.get(id) {
            return Ok(a.clone());
        }
        let (positions, played) = self.ask(id, |reply| Cmd::Positions { reply }).await?;
        // About 30 s of search at most in all, and at least 20 ms a position.
        let per = Duration::from_millis((30_000 / positions.len().max(1) as u64).clamp(20, 150));
        let clamp = 3_000;
        let scored = self
            .0
            .engines
            .analyse(positions, played, per, clamp)
            .await
            .ok_or(LiveError::Internal)?;
        let scores = scored
            .iter()
            .map(|s| if s.turn == Player::First { s.best } else { -s.best })
            .collect();
        // A move's loss: the best move's score minus the played one's, both from the same search.
        let marks = scored
            .iter()
            .take(scored.len().saturating_sub(1))
            .map(|s| {
                let lost = s.played.map_or(0, |p| s.best - p);
                if lost >= BLUNDER {
                    Some("??")
                } else if lost >= MISTAKE {
                    Some("?")
                } else {
                    None
                }
            })
            .collect();
        let analysis = Arc::new(Analysis {
            scores,
            marks,
            clamp,
            per_position_ms: per.as_millis() as u64,
        });
        self.0
            .analyses
            .lock()
            .await
            .insert(id.to_owned(), analysis.clone());
        Ok(analysis)
    }

    /// The game as a file: its name and text (`transcript.rs`).
    pub async fn export(&self, id: &str) -> Result<(String, String), LiveError> {
        self.ask(id, |reply| Cmd::Export { reply }).await
    }

    /// Loads the game's actor, so that an engine to move starts thinking.
    pub async fn wake(&self, id: &str) -> Result<(), LiveError> {
        self.sender(id).await.map(drop)
    }

    /// Wakes every active game with an engine side (after a restart).
    pub async fn wake_engine_games(&self) {
        match self.0.db.active_engine_games().await {
            Ok(ids) => {
                for id in ids {
                    if let Err(e) = self.wake(&id).await {
                        tracing::error!("cannot resume game {id}: {e:?}");
                    }
                }
            }
            Err(e) => tracing::error!("cannot list the engine games to resume: {e}"),
        }
    }
}

struct Actor {
    hub: GameHub,
    me: mpsc::WeakSender<Cmd>,
    row: GameRow,
    game: Box<dyn DynGame>,
    record: GameRecord,
    version: u64,
    state: Arc<GameState>,
    events: VecDeque<Published>,
    feed: broadcast::Sender<Published>,
    acks: VecDeque<(String, String, u64)>,
    engine: Option<(u64, gridplay_search::StopFlag)>,
    rotate: [bool; 2],
}

fn apply(record: &mut GameRecord, side: Player, action: &Action) -> Result<String, LiveError> {
    Ok(match action {
        Action::Move(text) => {
            if record.outcome().is_some() {
                return Err(RecordError::GameOver.into());
            }
            if record.position().turn() != side {
                return Err(LiveError::NotYourTurn);
            }
            record.play(text)?
        }
        Action::Resign => {
            record.resign(side)?;
            String::new()
        }
        Action::OfferDraw => {
            record.offer_draw(side)?;
            String::new()
        }
        Action::AcceptDraw => {
            record.accept_draw(side)?;
            String::new()
        }
        Action::DeclineDraw => {
            record.decline_draw(side)?;
            String::new()
        }
    })
}

fn side_name(p: Player) -> &'static str {
    p.as_str()
}

fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::Rules => "rules",
        Termination::Repetition => "repetition",
        Termination::QuietMoves => "quiet-moves",
        Termination::Agreement => "agreement",
        Termination::Resignation => "resignation",
    }
}

fn over_json(sides: &[SideInfo; 2], end: Option<(Outcome, Termination)>) -> Option<OverJson> {
    let (outcome, termination) = end?;
    let winner = match outcome {
        Outcome::Win { winner } => Some(winner),
        Outcome::Draw => None,
    };
    let how = match termination {
        Termination::Rules => "",
        Termination::Repetition => " by repetition",
        Termination::QuietMoves => " by the quiet-move rule",
        Termination::Agreement => " by agreement",
        Termination::Resignation => " by resignation",
    };
    let text = match winner {
        Some(w) => format!("{} wins{how}", sides[w.index()].name),
        None => format!("Draw{how}"),
    };
    Some(OverJson {
        winner,
        termination,
        text,
    })
}

impl Actor {
    async fn load(hub: GameHub, id: &str, me: mpsc::WeakSender<Cmd>) -> Result<Actor, LiveError> {
        let internal = |what: String| {
            tracing::error!("game {id}: {what}");
            LiveError::Internal
        };
        let db = &hub.0.db;
        let row = db
            .game(id)
            .await
            .map_err(|e| internal(e.to_string()))?
            .ok_or(LiveError::NotFound)?;
        let game = hub
            .0
            .registry
            .game(&row.spec)
            .map_err(|e| internal(format!("bad spec {}: {e}", row.spec)))?;
        let actions = db.actions(id).await.map_err(|e| internal(e.to_string()))?;
        let rotate = rotation(&game.start().view());
        let mut record = GameRecord::new(game.start());
        let mut last_move = None;
        for a in &actions {
            let side = match a.side.as_str() {
                "first" => Player::First,
                "second" => Player::Second,
                s => return Err(internal(format!("action {} has side {s:?}", a.seq))),
            };
            let action = Action::from_row(&a.kind, &a.body)
                .ok_or_else(|| internal(format!("action {} has kind {:?}", a.seq, a.kind)))?;
            let before = matches!(action, Action::Move(_)).then(|| record.position().view());
            let text = apply(&mut record, side, &action)
                .map_err(|e| internal(format!("action {} does not replay: {e:?}", a.seq)))?;
            if let Some(view) = before {
                last_move = view.moves.into_iter().find(|m| m.text == text);
            }
        }
        let version = actions.len() as u64;
        let view = record.position().view();
        let (feed, _) = broadcast::channel(64);
        let mut actor = Actor {
            state: Arc::new(build_state(
                &row,
                game.as_ref(),
                &record,
                version,
                rotate,
                view,
                last_move,
            )),
            hub,
            me,
            row,
            game,
            record,
            version,
            events: VecDeque::new(),
            feed,
            acks: VecDeque::new(),
            engine: None,
            rotate,
        };
        actor.maybe_engine();
        Ok(actor)
    }

    fn ply(&self, n: usize) -> Option<PlyJson> {
        let moves = self.record.moves();
        if n > moves.len() {
            return None;
        }
        let mut pos = self.record.start().box_clone();
        let mut last_move = None;
        for (i, m) in moves[..n].iter().enumerate() {
            if i + 1 == n {
                last_move = pos.view().moves.into_iter().find(|v| &v.text == m);
            }
            pos.play(m).ok()?;
        }
        Some(PlyJson {
            n,
            view: pos.view(),
            last_move,
        })
    }

    fn make_state(&self, view: BoardView, last_move: Option<MoveView>) -> GameState {
        build_state(
            &self.row,
            self.game.as_ref(),
            &self.record,
            self.version,
            self.rotate,
            view,
            last_move,
        )
    }

    fn sync_json(&self) -> Arc<str> {
        let msg = serde_json::json!({ "t": "sync", "game": self.row.id, "state": &*self.state });
        Arc::from(msg.to_string())
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        loop {
            match tokio::time::timeout(IDLE, rx.recv()).await {
                Ok(Some(cmd)) => self.handle(cmd).await,
                Ok(None) => break,
                Err(_) if self.feed.receiver_count() == 0 && self.engine.is_none() => {
                    let mut games = self.hub.0.games.lock().await;
                    if let Some(tx) = self.me.upgrade()
                        && games.get(&self.row.id).is_some_and(|t| t.same_channel(&tx))
                    {
                        games.remove(&self.row.id);
                    }
                    drop(games);
                    rx.close();
                    while let Some(cmd) = rx.recv().await {
                        self.handle(cmd).await;
                    }
                    break;
                }
                Err(_) => {}
            }
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Watch { since, reply } => {
                let feed = self.feed.subscribe();
                let catchup = match since {
                    Some(v) if v == self.version => Vec::new(),
                    Some(v)
                        if v < self.version && self.events.front().is_some_and(|e| e.version <= v + 1) =>
                    {
                        self.events
                            .iter()
                            .filter(|e| e.version > v)
                            .map(|e| e.json.clone())
                            .collect()
                    }
                    _ => vec![self.sync_json()],
                };
                let _ = reply.send(Watch {
                    catchup,
                    feed,
                    version: self.version,
                });
            }
            Cmd::State { reply } => {
                let _ = reply.send(self.state.clone());
            }
            Cmd::Ply { n, reply } => {
                let _ = reply.send(self.ply(n));
            }
            Cmd::Positions { reply } => {
                let mut pos = self.record.start().box_clone();
                let mut all = vec![pos.box_clone()];
                for m in self.record.moves() {
                    if pos.play(m).is_err() {
                        break;
                    }
                    all.push(pos.box_clone());
                }
                let _ = reply.send((all, self.record.moves().to_vec()));
            }
            Cmd::Export { reply } => {
                let names = [0, 1].map(|i| {
                    let p = &self.state.players[i];
                    p.name.clone().unwrap_or_else(|| {
                        p.level
                            .map_or_else(|| "?".into(), |l| format!("gridplay level {l}"))
                    })
                });
                let file = crate::transcript::export(
                    &self.row.id,
                    &self.row.spec,
                    [&names[0], &names[1]],
                    &self.record,
                    self.state.over.as_ref().map(|o| termination_name(o.termination)),
                );
                let _ = reply.send(file);
            }
            Cmd::Act {
                user,
                action,
                ack,
                base,
                reply,
            } => {
                let result = self.act_as_user(&user, action, ack, base).await;
                let _ = reply.send(result);
            }
            Cmd::Engine { version, best } => {
                if self.engine.as_ref().is_some_and(|(v, _)| *v == version) {
                    self.engine = None;
                }
                if version != self.version {
                    return;
                }
                let side = self.record.position().turn();
                match best {
                    Some(mv) if self.row.levels[side.index()].is_some() => {
                        if let Err(e) = self.commit(side, Action::Move(mv)).await {
                            tracing::error!("game {}: the engine's move was refused: {e:?}", self.row.id);
                        }
                    }
                    _ => tracing::error!("game {}: the engine found no move", self.row.id),
                }
            }
        }
    }

    async fn act_as_user(
        &mut self,
        user: &str,
        action: Action,
        ack: Option<String>,
        base: Option<u64>,
    ) -> Result<u64, LiveError> {
        if let Some(ack) = &ack
            && let Some((_, _, v)) = self.acks.iter().find(|(u, a, _)| u == user && a == ack)
        {
            return Ok(*v);
        }
        let sides: Vec<Player> = Player::BOTH
            .into_iter()
            .filter(|p| self.row.users[p.index()].as_ref().is_some_and(|u| u.id == user))
            .collect();
        let side = match (sides.as_slice(), &action) {
            ([], _) => return Err(LiveError::NotAPlayer),
            ([one], _) => *one,
            // One user on both sides (a game against oneself) moves for the side to move.
            (_, _) => self.record.position().turn(),
        };
        if let Some(base) = base
            && base != self.version
        {
            return Err(LiveError::Stale {
                version: self.version,
            });
        }
        let version = self.commit(side, action).await?;
        if let Some(ack) = ack {
            if self.acks.len() == KEEP_ACKS {
                self.acks.pop_front();
            }
            self.acks.push_back((user.to_owned(), ack, version));
        }
        Ok(version)
    }

    /// Checks, commits, publishes.
    async fn commit(&mut self, side: Player, action: Action) -> Result<u64, LiveError> {
        let mut next = self.record.clone();
        let text = apply(&mut next, side, &action)?;
        let version = self.version + 1;
        let end = next.outcome();
        let turn = end.is_none().then(|| next.position().turn());
        let row = ActionRow {
            seq: version as i64,
            side: side_name(side).to_owned(),
            kind: action.kind().to_owned(),
            body: text.clone(),
        };
        let update = GameUpdate {
            status: if end.is_some() { "finished" } else { "active" },
            turn: turn.map(side_name),
            winner: end.map(|(o, _)| match o {
                Outcome::Win { winner } => side_name(winner),
                Outcome::Draw => "draw",
            }),
            termination: end.map(|(_, t)| termination_name(t)),
        };
        if let Err(e) = self.hub.0.db.append_action(&self.row.id, &row, &update).await {
            tracing::error!("game {}: cannot store action {version}: {e}", self.row.id);
            return Err(LiveError::Internal);
        }
        let last_move = match &action {
            Action::Move(_) => self.state.view.moves.iter().find(|m| m.text == text).cloned(),
            _ => self.state.last_move.clone(),
        };
        self.record = next;
        self.version = version;
        self.state = Arc::new(self.make_state(self.record.position().view(), last_move));
        let event = EventJson {
            t: "event",
            game: &self.row.id,
            v: version,
            action: ActionJson {
                kind: action.kind(),
                side,
                text: &text,
            },
            state: &self.state,
        };
        let json: Arc<str> = match serde_json::to_string(&event) {
            Ok(s) => Arc::from(s),
            Err(_) => return Err(LiveError::Internal),
        };
        let published = Published { version, json };
        if self.events.len() == KEEP_EVENTS {
            self.events.pop_front();
        }
        self.events.push_back(published.clone());
        let _ = self.feed.send(published);
        if let Some((_, stop)) = self.engine.take() {
            stop.stop();
        }
        if end.is_some() {
            self.hub.0.lobby.changed();
        } else {
            self.maybe_engine();
        }
        Ok(version)
    }

    /// Starts the engine if it is to move.
    fn maybe_engine(&mut self) {
        if self.record.outcome().is_some() || self.engine.is_some() {
            return;
        }
        let side = self.record.position().turn();
        let Some(level) = self.row.levels[side.index()] else {
            return;
        };
        let stop = gridplay_search::StopFlag::new();
        self.engine = Some((self.version, stop.clone()));
        let pos = self.record.position().box_clone();
        let me = self.me.clone();
        let version = self.version;
        let engines = self.hub.0.engines.clone();
        let seed = seed_of(&self.row.id, version);
        tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            let best = engines.best_move(pos, level, seed, stop).await;
            tokio::time::sleep_until(started + ENGINE_MIN).await;
            if let Some(tx) = me.upgrade() {
                let _ = tx.send(Cmd::Engine { version, best }).await;
            }
        });
    }
}

/// The state clients see, from the game's row, its record and a fresh view.
fn build_state(
    row: &GameRow,
    game: &dyn DynGame,
    record: &GameRecord,
    version: u64,
    rotate: [bool; 2],
    view: BoardView,
    last_move: Option<MoveView>,
) -> GameState {
    let info = game.info();
    GameState {
        id: row.id.clone(),
        spec: row.spec.clone(),
        game: info.name.clone(),
        title: info.title.clone(),
        players: [player_json(row, 0), player_json(row, 1)],
        over: over_json(&info.sides, record.outcome()),
        sides: info.sides,
        version,
        moves: record.moves().to_vec(),
        view,
        last_move,
        draw_offer: record.draw_offer(),
        rotate,
    }
}

fn player_json(row: &GameRow, i: usize) -> PlayerJson {
    PlayerJson {
        id: row.users[i].as_ref().map(|u| u.id.clone()),
        name: row.users[i]
            .as_ref()
            .map(|u| u.name.clone())
            .or_else(|| row.labels[i].clone()),
        level: row.levels[i],
    }
}

/// A seed for the engine from the game and the version: the same game replays the same engine choices.
fn seed_of(id: &str, version: u64) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) ^ version.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Whether each side should see the board turned: when its pieces start nearer the top than the opponent's.
fn rotation(start: &BoardView) -> [bool; 2] {
    let width = start.width.max(1) as usize;
    let mean_row = |p: Player| {
        let rows: Vec<usize> = start
            .cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.piece.as_ref().is_some_and(|pc| pc.owner == Some(p)))
            .map(|(i, _)| i / width)
            .collect();
        (!rows.is_empty()).then(|| rows.iter().sum::<usize>() as f64 / rows.len() as f64)
    };
    match (mean_row(Player::First), mean_row(Player::Second)) {
        (Some(a), Some(b)) if a < b => [true, false],
        (Some(a), Some(b)) if b < a => [false, true],
        _ => [false, false],
    }
}
