//! Live games: one actor (a tokio task) per game in play holds its record and is the only writer of its rows.
//!
//! An action (a move, a resignation, a draw offer or answer) goes to the actor, which checks it against the
//! rules library, commits it to the database, and only then broadcasts the new version to every watcher and
//! acknowledges it. A watcher that comes back with the last version it saw gets the events it missed from the
//! actor's recent history, or a full state when the gap is older. Actors load from the database when first
//! needed, so a restart loses nothing that was acknowledged, and stop after a while with no one watching.

use std::{collections::HashMap, num::NonZeroU32, sync::Arc, time::Duration};

use futures_util::{
    FutureExt,
    future::{BoxFuture, Shared},
};
use governor::{DefaultKeyedRateLimiter, Quota};
use gridplay_core::{DynPosition, Player, RecordError, Registry};
use tokio::sync::{Mutex, OnceCell, broadcast, mpsc, oneshot};

mod actor;
mod help;
pub(in crate::game) use actor::stored_record;

use actor::Actor;
pub use help::Asker;

pub use crate::game::state::{
    Analysis, GameState, OverJson, PlayerJson, PlyJson, SideReviewJson, TournamentRef,
};

use crate::{
    config::Limits,
    db::{ActionKind, Db, GameStatus, User},
    game::engine_pool::{EnginePool, Lane},
    game::lobby::Lobby,
};

/// An analysis under way, which every request for it awaits.
type PendingAnalysis = Shared<BoxFuture<'static, Result<Arc<Analysis>, LiveError>>>;

/// An imported game sharing this many opening moves or more with a game in play is not analysed meanwhile.
pub const SHARED_PLIES: usize = 10;

fn internal(e: &dyn std::fmt::Display) -> LiveError {
    tracing::error!("{e}");
    LiveError::Internal
}

/// How many recent events an actor keeps for watchers that reconnect.
const KEEP_EVENTS: usize = 32;
/// How many acknowledged action ids an actor remembers, to answer a resent action without playing it twice.
const KEEP_ACKS: usize = 64;
/// An actor with no watcher and nothing to do stops after this long...
const IDLE: Duration = Duration::from_secs(300);
/// ...and sooner once its game is over: a finished game is read again from the database when asked for.
const IDLE_OVER: Duration = Duration::from_secs(30);
/// The engine never answers faster than this, so that its moves can be seen.
const ENGINE_MIN: Duration = Duration::from_millis(250);

/// The stored body of a timeout while the side's pages were all gone.
const TIMEOUT_GONE: &str = "gone";

/// What a player asks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move(String),
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// Ends the game without result, before both sides have moved.
    Abort,
    /// Claims the game when the opponent has let a correspondence deadline pass, or has left a live game (all
    /// of the opponent's pages gone for the claim's time).
    Claim,
    /// Claims a draw when the opponent has left a live game.
    ClaimDraw,
    /// The server's: the side's live clock ran out (`gone`: while all of the side's pages were gone, which
    /// counts as leaving the game).
    Timeout {
        gone: bool,
    },
    /// Asks to take back one's last move (casual games).
    OfferTakeback,
    /// Agrees to the opponent's takeback: the moves back to and including the opponent's last are undone.
    AcceptTakeback,
    DeclineTakeback,
}

impl Action {
    fn kind(&self) -> ActionKind {
        match self {
            Action::Move(_) => ActionKind::Move,
            Action::Resign => ActionKind::Resign,
            Action::OfferDraw => ActionKind::OfferDraw,
            Action::AcceptDraw => ActionKind::AcceptDraw,
            Action::DeclineDraw => ActionKind::DeclineDraw,
            Action::Abort => ActionKind::Abort,
            Action::Claim => ActionKind::Claim,
            Action::ClaimDraw => ActionKind::ClaimDraw,
            Action::Timeout { .. } => ActionKind::Timeout,
            Action::OfferTakeback => ActionKind::OfferTakeback,
            Action::AcceptTakeback => ActionKind::Takeback,
            Action::DeclineTakeback => ActionKind::DeclineTakeback,
        }
    }

    fn from_row(kind: ActionKind, body: &str) -> Action {
        match kind {
            ActionKind::Move => Action::Move(body.to_owned()),
            ActionKind::Resign => Action::Resign,
            ActionKind::OfferDraw => Action::OfferDraw,
            ActionKind::AcceptDraw => Action::AcceptDraw,
            ActionKind::DeclineDraw => Action::DeclineDraw,
            ActionKind::Abort => Action::Abort,
            ActionKind::Claim => Action::Claim,
            ActionKind::ClaimDraw => Action::ClaimDraw,
            ActionKind::Timeout => Action::Timeout {
                gone: body == TIMEOUT_GONE,
            },
            ActionKind::OfferTakeback => Action::OfferTakeback,
            ActionKind::Takeback => Action::AcceptTakeback,
            ActionKind::DeclineTakeback => Action::DeclineTakeback,
        }
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
    /// A quota is reached; the sentence says which.
    TooMany(String),
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
            LiveError::TooMany(_) => "too-many",
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
            LiveError::Refused(why) | LiveError::TooMany(why) => why.clone(),
            LiveError::Internal => "internal error".into(),
        }
    }
}

impl From<RecordError> for LiveError {
    fn from(e: RecordError) -> LiveError {
        LiveError::Refused(e.to_string())
    }
}

/// A message for watchers, serialized once for all of them.
#[derive(Clone, Debug)]
pub struct Published {
    pub version: u64,
    pub json: Arc<str>,
    /// This event ended the game (a page's player may now read the spectators' chat room).
    pub ended: bool,
}

/// What a new watcher gets: messages to send first (missed events, or one full state), then the live feed.
#[derive(Debug)]
pub struct Watch {
    pub catchup: Vec<Arc<str>>,
    pub feed: broadcast::Receiver<Published>,
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
    Current {
        reply: oneshot::Sender<Box<dyn DynPosition>>,
    },
    /// Another server committed this game's action `version` (this action, when the notice carried it).
    Refresh {
        version: u64,
        action: Option<crate::db::ActionRow>,
    },
    /// The game's lease expired: take its timed work over if it has any.
    TakeOver {
        reply: oneshot::Sender<()>,
    },
}

/// Every position of a game from its start, and the moves played between them.
type GameLine = (Vec<Box<dyn DynPosition>>, Vec<String>);

/// A game's place in the hub: empty until its actor is loaded.
type Slot = Arc<OnceCell<mpsc::Sender<Cmd>>>;

/// The analysis board's lines as the search deepens.
pub type LinesFeed = mpsc::Receiver<Result<gridplay_engine::lines::Lines, gridplay_engine::EngineError>>;

/// Holds one analysis board search: when it goes, the search stops and no longer counts in its user's quota.
#[derive(Debug)]
pub struct LinesGuard {
    hub: GameHub,
    user: String,
    stop: gridplay_search::StopFlag,
}

impl Drop for LinesGuard {
    fn drop(&mut self) {
        self.stop.stop();
        self.hub.release_analysis(&self.user);
    }
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
    /// The other servers on the same database, and the leases on games' timed work.
    bus: crate::bus::Bus,
    /// Each game in play: its actor's channel, once loaded. The map's lock is held only to find or add a
    /// slot; a game loads outside it, so that the first load of one game delays only the requests for that
    /// game, which wait for the load in the slot.
    games: std::sync::Mutex<HashMap<String, Slot>>,
    /// Analyses being computed, by game: a second request for the same game waits for the same result. Done
    /// analyses are in the database, not here.
    analyses: std::sync::Mutex<HashMap<String, PendingAnalysis>>,
    /// Analyses each user has started that are not done yet.
    analysing: std::sync::Mutex<HashMap<String, u32>>,
    /// Hints asked per user.
    hints: DefaultKeyedRateLimiter<String>,
    /// Accounts' addresses this server wrote lately (the fair-play rule's).
    seen: help::Seen,
    limits: Limits,
    /// Pairs tournament rounds one at a time.
    director: Mutex<()>,
    /// Tournaments whose game ended or whose player withdrew, for the director (`game::tournament::direct`),
    /// which takes the receiving end once.
    tournaments: mpsc::UnboundedSender<String>,
    tournament_feed: std::sync::Mutex<Option<mpsc::UnboundedReceiver<String>>>,
    /// The server's background tasks.
    tasks: crate::tasks::Tasks,
}

impl HubInner {
    /// The map of games in play, locked (a panic elsewhere cannot leave it half-changed: each change is one
    /// call on the map).
    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Slot>> {
        self.games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl GameHub {
    #[must_use]
    pub fn new(
        db: Db,
        registry: &'static Registry,
        engines: EnginePool,
        lobby: Lobby,
        bus: crate::bus::Bus,
        limits: Limits,
        tasks: crate::tasks::Tasks,
    ) -> GameHub {
        let per_minute = NonZeroU32::new(limits.hints_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        // Unbounded: a game's actor tells the director of its end without waiting for a round being paired;
        // one tournament id per game that ends in a tournament.
        let (tournaments, feed) = mpsc::unbounded_channel();
        GameHub(Arc::new(HubInner {
            db,
            registry,
            engines,
            lobby,
            bus,
            games: std::sync::Mutex::new(HashMap::new()),
            analyses: std::sync::Mutex::new(HashMap::new()),
            analysing: std::sync::Mutex::new(HashMap::new()),
            hints: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_minute)),
            seen: help::Seen::default(),
            limits,
            director: Mutex::new(()),
            tournaments,
            tournament_feed: std::sync::Mutex::new(Some(feed)),
            tasks,
        }))
    }

    /// The server's background tasks (`crate::tasks`).
    #[must_use]
    pub fn tasks(&self) -> &crate::tasks::Tasks {
        &self.0.tasks
    }

    #[must_use]
    pub fn db(&self) -> &Db {
        &self.0.db
    }

    /// The engine's searches.
    #[must_use]
    pub fn engines(&self) -> &EnginePool {
        &self.0.engines
    }

    /// The registry of games.
    #[must_use]
    pub fn registry(&self) -> &'static Registry {
        self.0.registry
    }

    #[must_use]
    pub fn lobby(&self) -> &Lobby {
        &self.0.lobby
    }

    /// The tournament director's lock.
    pub(crate) async fn director(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.0.director.lock().await
    }

    /// A tournament game ended, or a player withdrew: the director pairs the next round if the current one is
    /// over.
    pub fn tournament_changed(&self, id: &str) {
        let _ = self.0.tournaments.send(id.to_owned());
    }

    /// The tournaments the director is told of, once (`None` after the first call).
    pub(crate) fn tournament_feed(&self) -> Option<mpsc::UnboundedReceiver<String>> {
        self.0
            .tournament_feed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }

    async fn sender(&self, id: &str) -> Result<mpsc::Sender<Cmd>, LiveError> {
        let slot = {
            let mut games = self.0.games();
            match games.get_mut(id) {
                Some(slot) => {
                    if slot.get().is_some_and(mpsc::Sender::is_closed) {
                        *slot = Slot::default();
                    }
                    slot.clone()
                }
                None => games.entry(id.to_owned()).or_default().clone(),
            }
        };
        let loaded = slot
            .get_or_try_init(|| async {
                let (tx, rx) = mpsc::channel(256);
                let actor = Actor::load(self.clone(), id, tx.downgrade()).await?;
                // Every line about the game carries its id.
                self.0.tasks.spawn(tracing::Instrument::instrument(
                    actor.run(rx),
                    tracing::info_span!("game", id = %id),
                ));
                Ok::<_, LiveError>(tx)
            })
            .await;
        match loaded {
            Ok(tx) => Ok(tx.clone()),
            Err(e) => {
                // A game that did not load (unknown, or the database failed) leaves no slot behind.
                let mut games = self.0.games();
                if games
                    .get(id)
                    .is_some_and(|s| Arc::ptr_eq(s, &slot) && s.get().is_none())
                {
                    games.remove(id);
                }
                Err(e)
            }
        }
    }

    /// Sends a command to the game's actor, loading it if needed, and waits for the answer.
    async fn ask<T>(&self, id: &str, make: impl Fn(oneshot::Sender<T>) -> Cmd) -> Result<T, LiveError> {
        // An actor may stop between the lookup and the send; then load it again once.
        for _ in 0..2 {
            let tx = self.sender(id).await?;
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).await.is_err() {
                self.0.games().remove(id);
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
        let asked = std::time::Instant::now();
        let result = self
            .ask(id, |reply| Cmd::Act {
                user: user.id.clone(),
                action: action.clone(),
                ack: ack.clone(),
                base,
                reply,
            })
            .await?;
        match &result {
            Ok(_) => metrics::histogram!(crate::telemetry::ACK_SECONDS).record(asked.elapsed().as_secs_f64()),
            Err(e) => metrics::counter!(crate::telemetry::ERRORS, "kind" => e.code()).increment(1),
        }
        result
    }

    /// The position after `n` moves, or `None` past the last move.
    pub async fn ply(&self, id: &str, n: usize) -> Result<Option<PlyJson>, LiveError> {
        self.ask(id, |reply| Cmd::Ply { n, reply }).await
    }

    /// Game `id`'s row.
    async fn row(&self, id: &str) -> Result<crate::db::GameRow, LiveError> {
        self.0
            .db
            .game(id)
            .await
            .map_err(|e| internal(&e))?
            .ok_or(LiveError::NotFound)
    }

    /// Whether game `id` is in play (not over, and not an imported file).
    pub async fn in_play(&self, id: &str) -> Result<bool, LiveError> {
        Ok(self.row(id).await?.status == GameStatus::Active)
    }

    /// Whether the engine may look at a game: once it is over (refused with `why` while it is in play), and
    /// for an imported game, once no game in play shares its opening.
    async fn check_over(&self, id: &str, why: &str) -> Result<(), LiveError> {
        let row = self.row(id).await?;
        if row.status == GameStatus::Active {
            return Err(LiveError::Refused(why.into()));
        }
        if row.status == GameStatus::Imported {
            self.check_not_in_play(id, &row.spec).await?;
        }
        Ok(())
    }

    /// The engine's analysis of a finished game for `user`: stored once computed, and computed once however
    /// many ask at the same time. Each user may have `analyses_per_user` computations under way. An imported
    /// game that has the opening moves of a game in play (`SHARED_PLIES` or more, as a prefix either way) is
    /// not analysed while that game is in play.
    pub async fn analysis(&self, id: &str, user: &User, asker: &Asker) -> Result<Arc<Analysis>, LiveError> {
        self.check_over(id, "the engine analyses a game once it is over")
            .await?;
        self.check_game_help(id, asker).await?;
        if let Some(a) = self.stored_analysis(id).await? {
            return Ok(a);
        }
        let pending = {
            let mut pending = self
                .0
                .analyses
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(p) = pending.get(id) {
                p.clone()
            } else {
                let limit = self.0.limits.analyses_per_user;
                {
                    let mut counts = self
                        .0
                        .analysing
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    let n = counts.entry(user.id.clone()).or_default();
                    if *n >= limit {
                        return Err(LiveError::TooMany(format!(
                            "you have {limit} analyses under way: wait for one to finish"
                        )));
                    }
                    *n += 1;
                }
                // The computation is its own task: a page that leaves does not cancel it, and it is stored.
                let hub = self.clone();
                let (game, asker) = (id.to_owned(), user.id.clone());
                let task = self.0.tasks.spawn_with_result(async move {
                    let result = hub.compute_analysis(&game).await;
                    hub.analysis_done(&game, &asker);
                    result
                });
                let shared = async move { task.await.ok().flatten().unwrap_or(Err(LiveError::Internal)) }
                    .boxed()
                    .shared();
                pending.insert(id.to_owned(), shared.clone());
                shared
            }
        };
        pending.await
    }

    /// How many analyses of `user_id`'s asking are under way (each user may have `analyses_per_user`).
    #[must_use]
    pub fn analyses_under_way(&self, user_id: &str) -> u32 {
        self.0
            .analysing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(user_id)
            .copied()
            .unwrap_or(0)
    }

    /// Refuses engine output on game `id` where the fair-play rule guards any of its positions from `asker`.
    async fn check_game_help(&self, id: &str, asker: &Asker) -> Result<(), LiveError> {
        let game = self.state(id).await?.game.clone();
        let (positions, _) = self.ask(id, |reply| Cmd::Positions { reply }).await?;
        let refs: Vec<&dyn DynPosition> = positions.iter().map(AsRef::as_ref).collect();
        self.check_help(asker, &game, &refs).await
    }

    /// The analysis stored for a game, for `asker`, if any: refused where the fair-play rule guards the game's
    /// positions from them.
    pub async fn stored_analysis_for(
        &self,
        id: &str,
        asker: &Asker,
    ) -> Result<Option<Arc<Analysis>>, LiveError> {
        let found = self.stored_analysis(id).await?;
        if found.is_some() {
            self.check_game_help(id, asker).await?;
        }
        Ok(found)
    }

    /// The analysis stored for a game, if any.
    pub async fn stored_analysis(&self, id: &str) -> Result<Option<Arc<Analysis>>, LiveError> {
        let Some(body) = self.0.db.stored_analysis(id).await.map_err(|e| internal(&e))? else {
            return Ok(None);
        };
        serde_json::from_str(&body)
            .map(|a| Some(Arc::new(a)))
            .map_err(|e| internal(&format!("stored analysis of {id}: {e}")))
    }

    fn analysis_done(&self, id: &str, user: &str) {
        self.0
            .analyses
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
        self.release_analysis(user);
    }

    /// One of `user`'s analyses under way is over.
    fn release_analysis(&self, user: &str) {
        let mut counts = self
            .0
            .analysing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = counts.get_mut(user) {
            *n -= 1;
            if *n == 0 {
                counts.remove(user);
            }
        }
    }

    /// Counts one more analysis under way for `user`, or refuses it past `analyses_per_user`.
    fn count_analysis(&self, user: &str) -> Result<(), LiveError> {
        let limit = self.0.limits.analyses_per_user;
        let mut counts = self
            .0
            .analysing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = counts.entry(user.to_owned()).or_default();
        if *n >= limit {
            return Err(LiveError::TooMany(format!(
                "you have {limit} analyses under way: wait for one to finish or stop one"
            )));
        }
        *n += 1;
        Ok(())
    }

    /// The analysis board's engine lines of `pos` (a position of the game named `game`) for `user`: the best
    /// `n` moves, sent after each complete depth, searched in the analysis lane for at most
    /// `Limits::lines_seconds`. The search counts among the user's analyses under way (`analyses_per_user`)
    /// until the returned guard goes, and stops then. A position the fair-play rule guards from `asker` gets no
    /// lines (`help.rs`).
    pub async fn lines(
        &self,
        user: &User,
        asker: &Asker,
        game: &str,
        pos: Box<dyn DynPosition>,
        n: usize,
    ) -> Result<(LinesFeed, LinesGuard), LiveError> {
        self.check_help(asker, game, &[pos.as_ref()]).await?;
        self.count_analysis(&user.id)?;
        let stop = gridplay_search::StopFlag::new();
        let limits = gridplay_search::Limits::time(std::time::Duration::from_secs(u64::from(
            self.0.limits.lines_seconds.max(1),
        )));
        let feed = self.0.engines.lines(pos, n, limits, stop.clone());
        Ok((
            feed,
            LinesGuard {
                hub: self.clone(),
                user: user.id.clone(),
                stop,
            },
        ))
    }

    /// Refuses the analysis of an imported game whose moves are those of a game in play.
    async fn check_not_in_play(&self, id: &str, spec: &str) -> Result<(), LiveError> {
        let (_, played) = self.ask(id, |reply| Cmd::Positions { reply }).await?;
        let lines = self.0.db.lines_in_play(spec).await.map_err(|e| internal(&e))?;
        for (_, line) in lines {
            let n = line.len().min(played.len());
            if n >= SHARED_PLIES && line[..n] == played[..n] {
                return Err(LiveError::Refused(
                    "a game in play has these moves: the engine analyses this copy once that game is over"
                        .into(),
                ));
            }
        }
        Ok(())
    }

    /// The analysis of a finished game for the engine-use review (`game::review`): the stored one, or one
    /// computed and stored now.
    pub(crate) async fn analysis_for_review(&self, id: &str) -> Result<Arc<Analysis>, LiveError> {
        self.compute_analysis(id).await
    }

    /// Searches every position of a game (`gridplay_engine::review::PER_POSITION` each) and stores the result.
    async fn compute_analysis(&self, id: &str) -> Result<Arc<Analysis>, LiveError> {
        if let Some(a) = self.stored_analysis(id).await? {
            return Ok(a);
        }
        let (positions, played) = self.ask(id, |reply| Cmd::Positions { reply }).await?;
        let positions_start = positions.first().ok_or(LiveError::Internal)?.box_clone();
        // The engine-use review's rule was measured on figures from this much search a position.
        let per = gridplay_engine::review::PER_POSITION;
        let clamp = 3_000;
        let scored = self
            .0
            .engines
            .analyse(positions, played, per, clamp)
            .await
            .ok_or(LiveError::Internal)?;
        let review = gridplay_engine::review::review_scored(positions_start.as_ref(), &scored);
        let scores: Vec<i32> = scored
            .iter()
            .map(|s| if s.turn == Player::First { s.best } else { -s.best })
            .collect();
        let marks = review
            .judgements
            .iter()
            .map(|j| j.map(|j| j.mark().to_owned()))
            .collect();
        let analysis = Analysis {
            scores,
            marks,
            clamp,
            per_position_ms: per.as_millis() as u64,
            sides: Some([
                SideReviewJson::from(&review.sides[0]),
                SideReviewJson::from(&review.sides[1]),
            ]),
        };
        let body = serde_json::to_string(&analysis).map_err(|e| internal(&e))?;
        self.0
            .db
            .store_analysis(id, &body)
            .await
            .map_err(|e| internal(&e))?;
        Ok(Arc::new(analysis))
    }

    /// Another server committed action `version` of a game (`action`, when the notice carried it): a copy
    /// held here plays the actions it lacks from the database, as if they had been committed here, or, if it
    /// cannot, stops so that the next request and its watching pages load the game afresh.
    pub async fn heard(&self, id: &str, version: u64, action: Option<crate::db::ActionRow>) {
        let tx = self.0.games().get(id).and_then(|slot| slot.get().cloned());
        if let Some(tx) = tx {
            let _ = tx.send(Cmd::Refresh { version, action }).await;
        }
    }

    /// The lease on a game's timed work expired (its server stopped): load the game here and take the work
    /// over, or drop the lease if the game has none left.
    pub(crate) async fn take_over(&self, id: &str) {
        match self.ask(id, |reply| Cmd::TakeOver { reply }).await {
            Ok(()) => {}
            Err(LiveError::NotFound) => {
                if let Err(e) = self.0.db.drop_expired_lease(id, crate::db::now_ms()).await {
                    tracing::warn!("game {id}: cannot drop its lease: {e}");
                }
            }
            Err(e) => tracing::warn!("game {id}: cannot take it over: {e:?}"),
        }
    }

    /// Notices may have been lost: every copy held here stops and loads afresh when next needed.
    pub(crate) async fn heard_nothing(&self) {
        let senders: Vec<mpsc::Sender<Cmd>> = self
            .0
            .games()
            .values()
            .filter_map(|slot| slot.get().cloned())
            .collect();
        for tx in senders {
            let _ = tx
                .send(Cmd::Refresh {
                    version: u64::MAX,
                    action: None,
                })
                .await;
        }
    }

    /// Lets the hint limiter forget users it no longer limits.
    pub(crate) fn forget_limits(&self) {
        self.0.hints.retain_recent();
        self.0.hints.shrink_to_fit();
    }

    /// The engine's suggestion for `user`, whose turn it must be: the move's text. It searches at level 6.
    pub async fn hint(&self, id: &str, user: &User, asker: &Asker) -> Result<String, LiveError> {
        let state = self.state(id).await?;
        let side = state
            .players
            .iter()
            .position(|p| p.id.as_deref() == Some(user.id.as_str()))
            .ok_or(LiveError::NotAPlayer)?;
        if state.over.is_some() {
            return Err(RecordError::GameOver.into());
        }
        if !state.hints {
            return Err(LiveError::Refused(
                "the engine gives hints only in games against it, and in casual games whose two players both \
                 allowed help when the challenge was made and accepted"
                    .into(),
            ));
        }
        if state.view.turn != Some(Player::BOTH[side]) {
            return Err(LiveError::NotYourTurn);
        }
        let pos = self.ask(id, |reply| Cmd::Current { reply }).await?;
        self.check_help(asker, &state.game, &[pos.as_ref()]).await?;
        self.count_hint(user)?;
        self.suggest(pos, state.version).await
    }

    /// The engine's suggestion in the position after `n` moves of a game that is over (a replay): anyone
    /// signed in may ask, within the hint quota. An imported game that has the opening moves of a game in play
    /// is refused while that game is in play, as its analysis is.
    pub async fn replay_hint(
        &self,
        id: &str,
        n: usize,
        user: &User,
        asker: &Asker,
    ) -> Result<Option<String>, LiveError> {
        self.check_over(id, "the engine suggests moves in a replay once the game is over")
            .await?;
        let (mut positions, _) = self.ask(id, |reply| Cmd::Positions { reply }).await?;
        if n >= positions.len() {
            return Ok(None);
        }
        let pos = positions.swap_remove(n);
        if pos.outcome().is_some() {
            return Err(LiveError::Refused("the game is over in this position".into()));
        }
        let game = self.state(id).await?.game.clone();
        self.check_help(asker, &game, &[pos.as_ref()]).await?;
        self.count_hint(user)?;
        self.suggest(pos, n as u64).await.map(Some)
    }

    /// Counts a hint against the user's quota, or refuses it.
    fn count_hint(&self, user: &User) -> Result<(), LiveError> {
        if self.0.hints.check_key(&user.id).is_err() {
            return Err(LiveError::TooMany(format!(
                "at most {} hints a minute: wait a moment",
                self.0.limits.hints_per_minute
            )));
        }
        Ok(())
    }

    /// The engine's move in `pos` at level 6, searched in the analysis lane.
    async fn suggest(&self, pos: Box<dyn DynPosition>, seed: u64) -> Result<String, LiveError> {
        self.0
            .engines
            .best_move(
                Lane::Analysis,
                gridplay_core::GameRecord::new(pos),
                6,
                seed,
                gridplay_search::StopFlag::new(),
            )
            .await
            .ok_or(LiveError::Internal)
    }

    /// The game as a file: its name and text (`transcript.rs`).
    pub async fn export(&self, id: &str) -> Result<(String, String), LiveError> {
        self.ask(id, |reply| Cmd::Export { reply }).await
    }

    /// Loads the game's actor, so that an engine to move starts thinking.
    pub async fn wake(&self, id: &str) -> Result<(), LiveError> {
        self.sender(id).await.map(drop)
    }

    /// Wakes every active game with an engine side or a live clock (after a restart).
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
