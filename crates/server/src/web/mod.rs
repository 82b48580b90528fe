//! The web edge: the HTTP API and the pages, the socket, sign-in, and errors as HTTP. It is the top layer: it
//! uses the game layer, the bus and the storage, and nothing uses it but the crate's root, which starts it.
//!
//! - `openapi`: the API's routes and their OpenAPI document; the handlers by subject: `catalog` (the games
//!   as the pages learn them), `challenges` (the lobby, challenges, games against the engine, rematches),
//!   `games` (a game, its replay, hints, analysis and files), `players`, `rules`, `settings` (specs checked
//!   as a person edits them) and `tournaments`;
//! - `assets`: the browser's files and the page every route answers;
//! - `auth`: accounts and sessions; `extract`: ids checked before any lookup; `lang`: a request's language;
//! - `bot`: bot accounts and the bot API (NDJSON streams of a bot's events and games, its actions);
//! - `ws`: a page's socket; `error`: the one JSON error and its HTTP status.

pub mod analysis;
pub mod assets;
pub mod auth;
pub mod bot;
pub mod catalog;
pub mod challenges;
pub mod error;
pub mod extract;
pub mod games;
pub mod health;
pub mod lang;
pub mod moderation;
pub mod openapi;
pub mod players;
pub mod puzzles;
pub mod rules;
mod scopes;
pub mod settings;
mod tokens;
pub mod tournaments;
pub mod ws;

use std::{collections::HashMap, net::SocketAddr, num::NonZeroU32, ops::Deref, sync::Arc};

use axum::{
    Router,
    extract::{DefaultBodyLimit, Request},
    http::{HeaderValue, Method, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::get,
};
use governor::{DefaultKeyedRateLimiter, Quota};
use gridplay_core::Registry;
use tower_http::{
    compression::{
        CompressionLayer,
        predicate::{DefaultPredicate, NotForContentType, Predicate},
    },
    set_header::SetResponseHeaderLayer,
};

use crate::{
    bus,
    config::Config,
    db::{self, Db},
    game::{self, engine_pool::EnginePool, live::GameHub, lobby::Lobby},
};
use error::ApiError;

/// Everything the handlers share.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Shared>);

#[derive(Debug)]
pub struct Shared {
    pub db: Db,
    pub registry: &'static Registry,
    pub hub: GameHub,
    pub lobby: Lobby,
    /// The games' chat rooms.
    pub chat: game::chat::Chat,
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
    /// Set once the server begins to stop: `/readyz` answers 503 so that a load balancer sends no one new.
    draining: std::sync::atomic::AtomicBool,
    /// Every task the server runs in the background, stopped by `Running::stop`.
    pub tasks: crate::tasks::Tasks,
}

impl AppState {
    /// Marks the server as stopping: `/readyz` answers 503 from now on.
    pub fn begin_drain(&self) {
        self.draining.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the server is stopping.
    #[must_use]
    pub fn draining(&self) -> bool {
        self.draining.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Lets the rate limiters forget the addresses and users they no longer limit.
    pub fn forget_limits(&self) {
        for limiter in [&self.auth_limiter, &self.signup_limiter] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        self.hub.forget_limits();
    }
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
    #[error(transparent)]
    Assets(#[from] assets::AssetError),
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
                4
            } else {
                8
            });
        let writers = config
            .db_writers
            .unwrap_or_else(|| default_writers(&config.database));
        let db = Db::connect_with(&config.database, connections, writers, config.schema).await?;
        let registry = if config.with_test_games {
            gridplay_games::registry_with_test_games()
        } else {
            gridplay_games::registry()
        };
        let lobby = Lobby::default();
        let process = crate::ids::short(12);
        let tasks = crate::tasks::Tasks::default();
        let bus = bus::Bus::new(&config.database, &db, &process, &tasks);
        lobby.set_bus(bus.clone());
        let hub = GameHub::new(
            db.clone(),
            registry,
            EnginePool::new(config.engine_threads, config.limits.analysis_threads)
                .with_book(config.engine_book)
                .with_tasks(tasks.clone()),
            lobby.clone(),
            bus.clone(),
            config.limits.clone(),
            tasks.clone(),
        );
        let chat = game::chat::Chat::new(db.clone(), bus.clone());
        game::follow_bus(&hub, &lobby, &chat, bus.listen(config.database.clone()));
        game::tournament::direct(&hub);
        let per_minute = NonZeroU32::new(config.auth_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        Ok(AppState(Arc::new(Shared {
            db,
            registry,
            hub,
            lobby,
            chat,
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
            draining: std::sync::atomic::AtomicBool::new(false),
            tasks,
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

/// The whole application: the API and the socket (`openapi::routes`, which are described by the document at
/// `/api/openapi.json`), the pages and the browser's files.
pub fn router(state: AppState) -> Router {
    let mut site: Router<AppState> = openapi::routes().into();
    for page in openapi::PAGES {
        site = site.route(page, get(assets::page));
    }
    site.route(openapi::ASSETS, get(assets::asset))
        .route_layer(middleware::from_fn_with_state(state.clone(), auth::check_token))
        .fallback(assets::not_found)
        .layer(middleware::from_fn(check_origin))
        .layer(DefaultBodyLimit::max(16 * 1024))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(middleware::from_fn(error::json_errors))
        // The bot API's streams go out line by line, uncompressed: a compressor would hold a line back.
        .layer(
            CompressionLayer::new()
                .gzip(true)
                .br(true)
                .compress_when(DefaultPredicate::new().and(NotForContentType::const_new(bot::NDJSON))),
        )
        .layer(middleware::from_fn(request_span))
        .with_state(state)
}

/// Runs a request in a span that names it: its id (the client's `X-Request-Id` when it is a plausible one, else
/// a new one, answered in `X-Request-Id`), method and path. Every line logged while it is served carries them;
/// at debug level one line a request says its status and time.
async fn request_span(req: Request, next: Next) -> Response {
    use tracing::Instrument;
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| (1..=64).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .map_or_else(|| crate::ids::short(12), str::to_owned);
    let span = tracing::info_span!("request", id = %id, method = %req.method(), path = %req.uri().path());
    let started = std::time::Instant::now();
    let mut res = next.run(req).instrument(span.clone()).await;
    span.in_scope(|| {
        tracing::debug!(
            status = res.status().as_u16(),
            ms = started.elapsed().as_millis() as u64,
            "answered"
        );
    });
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert("x-request-id", v);
    }
    res
}
