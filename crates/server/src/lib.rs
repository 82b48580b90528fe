//! gridplay's web platform: accounts, the lobby, and live play of every registered game in the browser, against
//! people or the engine. It runs on embedded SQLite by default and on PostgreSQL when asked.
//!
//! The server knows the rules only through `gridplay-core`'s interface: it asks the rules library for the board
//! view, with the legal moves, and the browser draws what it is sent.

#![forbid(unsafe_code)]

// The layers, from the bottom (docs/ARCHITECTURE.md, "The server's layers"; `crates/layers` checks that no
// module uses one above it): the foundations (`clock`, `config`, `ids`, `text`, `transcript`), the storage
// (`db`), the bus between servers (`bus`), the game layer (`game`), and the web edge (`web`). This root only
// wires them and runs the server.
pub mod bus;
pub mod clock;
pub mod config;
pub mod db;
pub mod game;
pub mod ids;
pub mod tasks;
pub mod telemetry;
mod text;
pub mod transcript;
pub mod web;

use std::{net::SocketAddr, time::Duration};

use axum::serve::ListenerExt;

pub use crate::{
    config::Config,
    db::Db,
    game::messages::{apply_delta, delta},
    web::{
        AppState, ServeError, auth::COOKIE as SESSION_COOKIE, openapi::document as openapi_document, router,
        ws,
    },
};

/// How often a running server records that it is alive.
const HEARTBEAT_MS: i64 = 2_000;
/// A start that finds no heartbeat younger than this counts the span since the last one as downtime.
const HEARTBEAT_SLACK_MS: i64 = 3_000;
/// How often expired rows are purged.
const PURGE_EVERY: Duration = Duration::from_secs(3_600);

/// The server's background upkeep: a heartbeat every two seconds (from which the next start measures the
/// time no server ran); every minute, the rate limiters forget addresses and users they no longer limit;
/// every hour, the purge of expired sessions and other expired rows. Puzzle mining and the engine-use review
/// run at their own intervals, one round at a time.
async fn upkeep(state: AppState) {
    let db = state.db.clone();
    let process = state.process.clone();
    let mut leases = tokio::time::interval(Duration::from_secs(1));
    leases.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut forget = tokio::time::interval(Duration::from_secs(60));
    forget.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut beat = tokio::time::interval(Duration::from_millis(HEARTBEAT_MS as u64));
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut purge = tokio::time::interval(PURGE_EVERY);
    purge.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mining_every = state.config.limits.puzzle_mining_seconds;
    let mut mine = tokio::time::interval(Duration::from_secs(u64::from(mining_every.max(1))));
    mine.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mining = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let review_every = state.config.limits.review_seconds;
    let mut review = tokio::time::interval(Duration::from_secs(u64::from(review_every.max(1))));
    review.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let reviewing = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    loop {
        tokio::select! {
            _ = beat.tick() => {
                if let Err(e) = db.heartbeat(&process, db::now_ms()).await {
                    tracing::error!("heartbeat: {e}");
                }
                if let Some(bus::Heard::Others { online, viewers }) = state.bus.reload().await {
                    state.lobby.set_remote_online(online);
                    state.lobby.set_remote_viewers(viewers);
                }
            }
            _ = leases.tick(), if state.bus.is_shared() => {
                for id in state.bus.tick().await {
                    state.hub.take_over(&id).await;
                }
            }
            _ = forget.tick() => state.forget_limits(),
            // A few finished games mined for puzzles, in the engine's analysis lane, one round at a time.
            _ = mine.tick(), if mining_every > 0 => {
                if !mining.swap(true, std::sync::atomic::Ordering::AcqRel) {
                    let (hub, mining) = (state.hub.clone(), mining.clone());
                    state.tasks.spawn(async move {
                        match game::puzzles::mine_site(&hub, 3, 6).await {
                            Ok(m) if m.games == 0 => {}
                            Ok(m) => tracing::info!("mined {} games of the site: {} puzzles found, {} new", m.games, m.found, m.added),
                            Err(e) => tracing::error!("mining puzzles: {e}"),
                        }
                        mining.store(false, std::sync::atomic::Ordering::Release);
                    });
                }
            }
            // A few finished games between people reviewed for engine use, in the analysis lane.
            _ = review.tick(), if review_every > 0 => {
                if !reviewing.swap(true, std::sync::atomic::Ordering::AcqRel) {
                    let (hub, reviewing) = (state.hub.clone(), reviewing.clone());
                    state.tasks.spawn(async move {
                        match game::review::review_site(&hub, 3).await {
                            Ok(0) => {}
                            Ok(n) => tracing::info!("reviewed {n} games for engine use"),
                            Err(e) => tracing::error!("engine-use review: {e}"),
                        }
                        reviewing.store(false, std::sync::atomic::Ordering::Release);
                    });
                }
            }
            _ = purge.tick() => {
                match db.purge(db::now_ms()).await {
                    Ok(p) => tracing::info!("purged {} expired sessions, {} old heartbeats, {} old downtimes, {} old addresses", p.sessions, p.heartbeats, p.downtimes, p.addresses),
                    Err(e) => tracing::error!("purge: {e}"),
                }
                state.bus.purge().await;
            }
        }
    }
}

/// A running server.
#[derive(Debug)]
pub struct Running {
    pub addr: SocketAddr,
    /// Where `/metrics` is answered, if anywhere (`Config::metrics_addr`).
    pub metrics_addr: Option<SocketAddr>,
    pub state: AppState,
    shutdown: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<Result<(), std::io::Error>>,
}

impl Running {
    /// Stops accepting, lets open requests finish, and waits. From the start `/readyz` says it is draining.
    pub async fn stop(self) {
        self.state.begin_drain();
        let _ = self.shutdown.send(());
        let _ = tokio::time::timeout(Duration::from_secs(5), self.task).await;
        // Every background task ends: the games' actors, the engine's searches for them, the upkeep.
        if !self.state.tasks.stop(Duration::from_secs(5)).await {
            tracing::warn!(
                "{} background tasks did not stop within 5 s",
                self.state.tasks.len()
            );
        }
        // Another server takes this one's games over at once.
        self.state.bus.release_all().await;
        // The last sign of life: the downtime that the next start measures begins now.
        if let Err(e) = self.state.db.heartbeat(&self.state.process, db::now_ms()).await {
            tracing::error!("heartbeat: {e}");
        }
    }
}

/// Answers `/metrics` at `at` (port 0 picks a free port), apart from the site: its address.
async fn serve_metrics(at: SocketAddr, tasks: &tasks::Tasks) -> Result<SocketAddr, ServeError> {
    telemetry::install();
    let listener = tokio::net::TcpListener::bind(at)
        .await
        .map_err(|source| ServeError::Listen { addr: at, source })?;
    let addr = listener.local_addr()?;
    let app = axum::Router::new().route(
        "/metrics",
        axum::routing::get(|| async {
            (
                [(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")],
                telemetry::render(),
            )
        }),
    );
    tasks.spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!("metrics: {e}");
        }
    });
    tracing::info!("metrics at http://{addr}/metrics");
    Ok(addr)
}

/// Starts the server on `config.addr` (port 0 picks a free port) and returns once it listens.
pub async fn start(config: Config) -> Result<Running, ServeError> {
    web::assets::check()?;
    let addr = config.addr;
    let state = AppState::new(config).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Listen { addr, source })?;
    let addr = listener.local_addr()?;
    // Moves are small messages: send each at once (without TCP_NODELAY, Nagle's algorithm and delayed ACKs
    // hold a watcher's event back by up to 40 ms).
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY: {e}");
        }
    });
    // Time while no server ran is given back to the clocks: note the span before any game loads.
    match state.db.record_downtime(db::now_ms(), HEARTBEAT_SLACK_MS).await {
        Ok(Some((from, to))) => tracing::info!(
            "no server ran for {} s: no clock is charged for it",
            (to - from) / 1000
        ),
        Ok(None) => {}
        Err(e) => tracing::error!("cannot record the downtime: {e}"),
    }
    match game::puzzles::store_shipped(&state.db, state.registry).await {
        Ok(0) => {}
        Ok(n) => tracing::info!("stored {n} shipped puzzles"),
        Err(e) => tracing::error!("the shipped puzzles: {e}"),
    }
    state.tasks.spawn(upkeep(state.clone()));
    state.hub.wake_engine_games().await;
    let app = router(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    let (shutdown, signal) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = signal.await;
            })
            .await
    });
    tracing::info!("gridplay listens on http://{addr}");
    let metrics_addr = match state.config.metrics_addr {
        Some(at) => Some(serve_metrics(at, &state.tasks).await?),
        None => None,
    };
    Ok(Running {
        addr,
        metrics_addr,
        state,
        shutdown,
        task,
    })
}
