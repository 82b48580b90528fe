//! gridplay's web platform: accounts, the lobby, and live play of every registered game in the browser, against
//! people or the engine. It runs on embedded SQLite by default and on PostgreSQL when asked.
//!
//! The server knows the rules only through `gridplay-core`'s interface: it asks the rules library for the board
//! view, with the legal moves, and the browser draws what it is sent.

#![forbid(unsafe_code)]

mod api;
mod assets;
mod auth;
pub mod bus;
pub mod clock;
pub mod config;
pub mod db;
pub mod engines;
mod error;
pub mod ids;
mod lang;
pub mod live;
pub mod lobby;
mod messages;
mod players;
mod rules;
mod settings;
mod text;
pub mod tournament;
pub mod transcript;
pub mod ws;

use std::{collections::HashMap, net::SocketAddr, num::NonZeroU32, ops::Deref, sync::Arc, time::Duration};

use axum::serve::ListenerExt;
use axum::{
    Router,
    extract::{DefaultBodyLimit, Request},
    http::{HeaderValue, Method, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use governor::{DefaultKeyedRateLimiter, Quota};
use gridplay_core::Registry;
use tower_http::{compression::CompressionLayer, set_header::SetResponseHeaderLayer};

pub use crate::{
    auth::COOKIE as SESSION_COOKIE,
    config::Config,
    db::Db,
    messages::{apply_delta, delta},
};
use crate::{engines::EnginePool, error::ApiError, live::GameHub, lobby::Lobby};

/// Everything the handlers share.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Shared>);

#[derive(Debug)]
pub struct Shared {
    pub db: Db,
    pub registry: &'static Registry,
    pub hub: GameHub,
    pub lobby: Lobby,
    pub config: Config,
    auth_limiter: DefaultKeyedRateLimiter<std::net::IpAddr>,
    signup_limiter: DefaultKeyedRateLimiter<std::net::IpAddr>,
    /// Open WebSockets per client address and per signed-in user.
    sockets: ws::SocketCounts,
    /// This server's id among the servers on the same database (its heartbeat, its leases).
    pub process: String,
    /// The other servers on the same database (PostgreSQL), or none (SQLite).
    pub bus: bus::Bus,
    /// The catalog in each language, made once: every page carries it.
    catalogs: HashMap<&'static str, std::sync::OnceLock<Arc<str>>>,
}

impl Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Db(#[from] db::DbError),
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// Writers of game actions when none are asked for: one for SQLite (the only number it takes); on
/// PostgreSQL one per four cores, from one to four (on 16 cores four writers made 2.1-2.7 times one's moves;
/// on 2 cores they cost 5-15%: `docs/lab/2026-11-28-many-cores.md`).
fn default_writers(database: &str) -> u32 {
    if database.starts_with("sqlite:") {
        return 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    u32::try_from(cores / 4).unwrap_or(4).clamp(1, 4)
}

impl AppState {
    /// Connects the database (running the migrations) and builds the shared state.
    pub async fn new(config: Config) -> Result<AppState, ServeError> {
        let connections = config
            .db_connections
            .unwrap_or(if config.database.starts_with("sqlite:") {
                1
            } else {
                8
            });
        let writers = config
            .db_writers
            .unwrap_or_else(|| default_writers(&config.database));
        let db = Db::connect(&config.database, connections, writers).await?;
        let registry = if config.with_test_games {
            gridplay_games::registry_with_test_games()
        } else {
            gridplay_games::registry()
        };
        let lobby = Lobby::default();
        let process = ids::short(12);
        let bus = bus::Bus::new(&config.database, &db, &process);
        lobby.set_bus(bus.clone());
        let hub = GameHub::new(
            db.clone(),
            registry,
            EnginePool::new(config.engine_threads, config.limits.analysis_threads)
                .with_book(config.engine_book),
            lobby.clone(),
            bus.clone(),
            config.limits.clone(),
        );
        bus.listen(config.database.clone(), hub.clone(), lobby.clone());
        let per_minute = NonZeroU32::new(config.auth_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        Ok(AppState(Arc::new(Shared {
            db,
            registry,
            hub,
            lobby,
            auth_limiter: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_minute)),
            signup_limiter: DefaultKeyedRateLimiter::keyed(Quota::per_hour(
                NonZeroU32::new(config.limits.signups_per_hour.max(1)).unwrap_or(NonZeroU32::MIN),
            )),
            sockets: ws::SocketCounts::default(),
            process,
            bus,
            config,
            catalogs: lang::LANGUAGES
                .iter()
                .map(|l| (*l, std::sync::OnceLock::new()))
                .collect(),
        })))
    }
}

/// Refuses a state-changing request whose `Origin` is another site's (with SameSite cookies, this closes CSRF).
async fn check_origin(req: Request, next: Next) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD && !ws::same_origin(req.headers()) {
        return ApiError::forbidden("cross-origin request refused").into_response();
    }
    next.run(req).await
}

/// The whole application.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/me", get(auth::me))
        .route("/signup", post(auth::signup))
        .route("/signin", post(auth::signin))
        .route("/signout", post(auth::signout))
        .route("/account/password", post(auth::change_password))
        .route("/account/signout-everywhere", post(auth::signout_everywhere))
        .route("/account/delete", post(auth::delete_account))
        .route("/catalog", get(api::catalog))
        .route("/specs/check", post(settings::check))
        .route("/lobby", get(api::lobby))
        .route("/challenges", post(api::create_challenge))
        .route("/challenges/{id}/accept", post(api::accept_challenge))
        .route("/challenges/{id}/decline", post(api::decline_challenge))
        .route("/computer", post(api::play_computer))
        .route("/games/{id}", get(api::game_state))
        .route("/games/{id}/ply/{n}", get(api::game_ply))
        .route("/games/{id}/ply/{n}/hint", get(api::replay_hint))
        .route("/games/{id}/export", get(api::game_export))
        .route("/games/{id}/analysis", get(api::game_analysis))
        .route("/games/{id}/analysis/stored", get(api::stored_analysis))
        .route("/games/{id}/hint", get(api::game_hint))
        .route("/games/{id}/spectators", get(api::game_spectators))
        .route("/games/{id}/rematch", post(api::rematch))
        .route("/live", get(players::live_games))
        .route("/my-games", get(players::my_games))
        .route("/players/{name}", get(players::profile))
        .route("/leaderboard/{game}", get(players::leaderboard))
        .route("/rules/{game}", get(rules::rules))
        .route("/rules-try", post(rules::try_moves))
        .route(
            "/tournaments",
            get(tournament::api::list).post(tournament::api::create),
        )
        .route("/tournaments/{id}", get(tournament::api::show))
        .route("/tournaments/{id}/join", post(tournament::api::join))
        .route("/tournaments/{id}/withdraw", post(tournament::api::withdraw))
        .route("/tournaments/{id}/start", post(tournament::api::start))
        .route(
            "/import",
            post(api::import_game).layer(DefaultBodyLimit::max(300 * 1024)),
        )
        .fallback(|| async { ApiError::not_found("API route") });
    // The site's policy on every answer but a page (which sets its own, allowing its import map by hash) and
    // the browser's files (which are no documents).
    let csp = SetResponseHeaderLayer::if_not_present(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
        ),
    );
    Router::new()
        .nest("/api", api.layer(csp.clone()))
        .route("/ws", get(ws::upgrade).layer(csp))
        .route("/", get(assets::page))
        .route("/game/{id}", get(assets::page))
        .route("/replay/{id}", get(assets::page))
        .route("/games", get(assets::page))
        .route("/account", get(assets::page))
        .route("/watch", get(assets::page))
        .route("/player/{name}", get(assets::page))
        .route("/leaderboard", get(assets::page))
        .route("/leaderboard/{game}", get(assets::page))
        .route("/rules/{game}", get(assets::page))
        .route("/tournaments", get(assets::page))
        .route("/tournament/{id}", get(assets::page))
        .route("/assets/{*path}", get(assets::asset))
        .fallback(assets::not_found)
        .layer(middleware::from_fn(check_origin))
        .layer(DefaultBodyLimit::max(16 * 1024))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(middleware::from_fn(error::json_errors))
        .layer(CompressionLayer::new().gzip(true).br(true))
        .with_state(state)
}

/// How often a running server records that it is alive.
const HEARTBEAT_MS: i64 = 2_000;
/// A start that finds no heartbeat younger than this counts the span since the last one as downtime.
const HEARTBEAT_SLACK_MS: i64 = 3_000;
/// How often expired rows are purged.
const PURGE_EVERY: Duration = Duration::from_secs(3_600);

/// The server's background upkeep: a heartbeat every two seconds (from which the next start measures the
/// time no server ran); every minute, the rate limiters forget addresses and users they no longer limit;
/// every hour, the purge of expired sessions and other expired rows.
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
    loop {
        tokio::select! {
            _ = beat.tick() => {
                if let Err(e) = db.heartbeat(&process, db::now_ms()).await {
                    tracing::error!("heartbeat: {e}");
                }
                state.bus.reload(&state.lobby).await;
            }
            _ = leases.tick(), if state.bus.is_shared() => state.bus.tick(&state.hub).await,
            _ = forget.tick() => {
                for limiter in [&state.auth_limiter, &state.signup_limiter] {
                    limiter.retain_recent();
                    limiter.shrink_to_fit();
                }
                state.hub.forget_limits();
            }
            _ = purge.tick() => {
                match db.purge(db::now_ms()).await {
                    Ok(p) => tracing::info!("purged {} expired sessions, {} old heartbeats, {} old downtimes", p.sessions, p.heartbeats, p.downtimes),
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
    pub state: AppState,
    shutdown: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<Result<(), std::io::Error>>,
    upkeep: tokio::task::JoinHandle<()>,
}

impl Running {
    /// Stops accepting, lets open requests finish, and waits.
    pub async fn stop(self) {
        let _ = self.shutdown.send(());
        let _ = tokio::time::timeout(Duration::from_secs(5), self.task).await;
        self.upkeep.abort();
        // Another server takes this one's games over at once.
        self.state.bus.release_all().await;
        // The last sign of life: the downtime that the next start measures begins now.
        if let Err(e) = self.state.db.heartbeat(&self.state.process, db::now_ms()).await {
            tracing::error!("heartbeat: {e}");
        }
    }
}

/// Starts the server on `config.addr` (port 0 picks a free port) and returns once it listens.
pub async fn start(config: Config) -> Result<Running, ServeError> {
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
    let upkeep = tokio::spawn(upkeep(state.clone()));
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
    Ok(Running {
        addr,
        state,
        shutdown,
        task,
        upkeep,
    })
}
