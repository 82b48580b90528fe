//! Live games: one actor (a tokio task) per game in play holds its record and is the only writer of its rows.
//!
//! An action (a move, a resignation, a draw offer or answer) goes to the actor, which checks it against the
//! rules library, commits it to the database, and only then broadcasts the new version to every watcher and
//! acknowledges it. A watcher that comes back with the last version it saw gets the events it missed from the
//! actor's recent history, or a full state when the gap is older. Actors load from the database when first
//! needed, so a restart loses nothing that was acknowledged, and stop after a while with no one watching.

use std::{collections::HashMap, sync::Arc, time::Duration};

use gridplay_core::{DynPosition, Registry};
use tokio::sync::{Mutex, OnceCell, broadcast, mpsc, oneshot};

mod action;
mod actor;
mod analyses;
mod help;
mod hints;
mod quotas;
pub(in crate::game) use actor::stored_record;

pub use action::{Action, LiveError};
use actor::Actor;
pub use analyses::{LinesFeed, LinesGuard, SHARED_PLIES};
pub use help::Asker;

pub use crate::game::state::{
    Analysis, GameState, OverJson, PlayerJson, PlyJson, SideReviewJson, TournamentRef,
};

use crate::{
    config::Limits,
    db::{Db, GameStatus, User},
    game::engine_pool::EnginePool,
    game::lobby::Lobby,
};

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
    analyses: std::sync::Mutex<HashMap<String, analyses::PendingAnalysis>>,
    /// Each user's analyses under way and hints asked.
    quotas: quotas::Quotas,
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
            quotas: quotas::Quotas::new(&limits),
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
            Err(e) => metrics::counter!(crate::telemetry::ERRORS, "kind" => e.code().as_str()).increment(1),
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
