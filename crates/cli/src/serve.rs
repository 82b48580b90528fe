//! `gridplay serve`: the web platform.

use std::net::SocketAddr;

use clap::Args;
use gridplay_server::{Config, config::Limits};

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "GRIDPLAY_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// How log lines are written to standard error: `text` for people, `json` (one object a line, with the
    /// request's and the game's span fields) for a log collector.
    #[arg(long, env = "GRIDPLAY_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Where to answer `/metrics` in Prometheus's text format (docs/operations.md), apart from the site; off
    /// unless given.
    #[arg(long, env = "GRIDPLAY_METRICS_ADDR")]
    metrics_addr: Option<SocketAddr>,
    /// Database: `sqlite://FILE` or `postgres://USER@HOST/DB`. The default is a SQLite file in
    /// $XDG_DATA_HOME/gridplay (or ~/.local/share/gridplay), created if missing.
    #[arg(long, env = "GRIDPLAY_DATABASE")]
    database: Option<String>,
    /// Database connections for reads and the other writes [default: 4 for a SQLite file, 8 for PostgreSQL]; each
    /// writer of game actions has one more of its own.
    #[arg(long, env = "GRIDPLAY_DB_CONNECTIONS")]
    db_connections: Option<u32>,
    /// Writers of game actions, each committing its own groups on a connection of its own [default: 1 for
    /// SQLite, the only value it takes; for PostgreSQL one per four cores, from 1 to 4: more writers let one
    /// process commit on more cores (docs/web.md, "Load")].
    #[arg(long, env = "GRIDPLAY_DB_WRITERS", value_parser = clap::value_parser!(u32).range(1..=64))]
    db_writers: Option<u32>,
    /// The engine's replies in games searched at once; further ones queue.
    #[arg(long, env = "GRIDPLAY_ENGINE_THREADS", default_value_t = 2)]
    engine_threads: usize,
    /// Whether the engine plays from its opening book at levels 6-8 (Reversi, checkers), drawing among
    /// near-best moves so that games differ: `true` or `false`.
    #[arg(long, env = "GRIDPLAY_ENGINE_BOOK", default_value_t = true, action = clap::ArgAction::Set)]
    engine_book: bool,
    /// Analyses and hints searched at once, in their own lane: they never delay a game's engine.
    #[arg(long, env = "GRIDPLAY_ANALYSIS_THREADS", default_value_t = Limits::default().analysis_threads)]
    analysis_threads: usize,
    /// Analyses one user may have waiting or running at once.
    #[arg(long, env = "GRIDPLAY_ANALYSES_PER_USER", default_value_t = Limits::default().analyses_per_user)]
    analyses_per_user: u32,
    /// Hints one user may ask for per minute.
    #[arg(long, env = "GRIDPLAY_HINTS_PER_MINUTE", default_value_t = Limits::default().hints_per_minute)]
    hints_per_minute: u32,
    /// The longest the analysis board's engine searches one position, in seconds.
    #[arg(long, env = "GRIDPLAY_LINES_SECONDS", default_value_t = Limits::default().lines_seconds)]
    lines_seconds: u32,
    /// How often, in seconds, a few of the site's finished games are mined for puzzles (0: never).
    #[arg(long, env = "GRIDPLAY_PUZZLE_MINING_SECONDS", default_value_t = Limits::default().puzzle_mining_seconds)]
    puzzle_mining_seconds: u32,
    /// How often, in seconds, a few finished games between people are reviewed for engine use (0: never).
    #[arg(long, env = "GRIDPLAY_REVIEW_SECONDS", default_value_t = Limits::default().review_seconds)]
    review_seconds: u32,
    /// The fewest recent rated games of one game in which the engine-use review may flag a player.
    #[arg(long, env = "GRIDPLAY_REVIEW_MIN_GAMES", default_value_t = Limits::default().review_min_games,
          value_parser = clap::value_parser!(u32).range(1..=20))]
    review_min_games: u32,
    /// Open challenges one user may have at once.
    #[arg(long, env = "GRIDPLAY_OPEN_CHALLENGES", default_value_t = Limits::default().open_challenges)]
    open_challenges: u32,
    /// Tournaments one user may create per day.
    #[arg(long, env = "GRIDPLAY_TOURNAMENTS_PER_DAY", default_value_t = Limits::default().tournaments_per_day)]
    tournaments_per_day: u32,
    /// Moves to be played after a player's draw offer before that player may offer again.
    #[arg(long, env = "GRIDPLAY_DRAW_OFFER_PLIES", default_value_t = Limits::default().draw_offer_plies)]
    draw_offer_plies: u32,
    /// The least time, in seconds, that all of a player's pages must be gone from a live game before the
    /// opponent may claim the win or a draw (the clock sets more: a thirtieth of the initial time and two
    /// increments, up to a minute).
    #[arg(long, env = "GRIDPLAY_CLAIM_FLOOR_SECONDS", default_value_t = Limits::default().claim_floor_seconds)]
    claim_floor_seconds: u32,
    /// WebSockets open at once from one client address.
    #[arg(long, env = "GRIDPLAY_SOCKETS_PER_ADDRESS", default_value_t = Limits::default().sockets_per_address)]
    sockets_per_address: u32,
    /// WebSockets open at once for one signed-in user.
    #[arg(long, env = "GRIDPLAY_SOCKETS_PER_USER", default_value_t = Limits::default().sockets_per_user)]
    sockets_per_user: u32,
    /// New accounts per client address per hour.
    #[arg(long, env = "GRIDPLAY_SIGNUPS_PER_HOUR", default_value_t = Limits::default().signups_per_hour)]
    signups_per_hour: u32,
    /// Mark the session cookie Secure (when served over HTTPS).
    #[arg(long, env = "GRIDPLAY_SECURE_COOKIES")]
    secure_cookies: bool,
    /// A reverse proxy's address (nginx, Caddy on this machine: 127.0.0.1): its requests count against the
    /// limits of the client that its X-Forwarded-For names (docs/operations.md). Repeat it, or separate
    /// addresses by commas in the variable.
    #[arg(
        long = "trusted-proxy",
        env = "GRIDPLAY_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Sign-up and sign-in attempts allowed per client address per minute.
    #[arg(long, env = "GRIDPLAY_AUTH_PER_MINUTE", default_value_t = 20)]
    auth_per_minute: u32,
    /// WebSocket messages a page may send per second, on average.
    #[arg(long, env = "GRIDPLAY_WS_PER_SECOND", default_value_t = 5)]
    ws_per_second: u32,
    /// WebSocket messages a page may send in a burst.
    #[arg(long, env = "GRIDPLAY_WS_BURST", default_value_t = 100)]
    ws_burst: u32,
}

impl ServeArgs {
    fn config(&self) -> Config {
        Config {
            addr: self.addr,
            metrics_addr: self.metrics_addr,
            database: self
                .database
                .clone()
                .unwrap_or_else(gridplay_server::config::default_database),
            db_connections: self.db_connections,
            db_writers: self.db_writers,
            engine_threads: self.engine_threads,
            engine_book: self.engine_book,
            secure_cookies: self.secure_cookies,
            trusted_proxies: self.trusted_proxies.clone(),
            auth_per_minute: self.auth_per_minute,
            ws_per_second: self.ws_per_second,
            ws_burst: self.ws_burst,
            with_test_games: crate::with_test_games(),
            schema: gridplay_server::db::SchemaPlan::default(),
            limits: Limits {
                analysis_threads: self.analysis_threads,
                analyses_per_user: self.analyses_per_user,
                hints_per_minute: self.hints_per_minute,
                lines_seconds: self.lines_seconds,
                puzzle_mining_seconds: self.puzzle_mining_seconds,
                review_seconds: self.review_seconds,
                review_min_games: self.review_min_games,
                open_challenges: self.open_challenges,
                tournaments_per_day: self.tournaments_per_day,
                draw_offer_plies: self.draw_offer_plies,
                claim_floor_seconds: self.claim_floor_seconds,
                sockets_per_address: self.sockets_per_address,
                sockets_per_user: self.sockets_per_user,
                signups_per_hour: self.signups_per_hour,
            },
        }
    }
}

pub(crate) fn run(args: &ServeArgs) -> anyhow::Result<()> {
    init_logging(args.log_format);
    let config = args.config();
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let database = config.database.clone();
        let running = gridplay_server::start(config).await?;
        eprintln!(
            "gridplay serves http://{} (database {})",
            running.addr,
            redact(&database)
        );
        if let Some(at) = running.metrics_addr {
            eprintln!("metrics at http://{at}/metrics");
        }
        stop_signal().await;
        eprintln!("stopping");
        running.stop().await;
        Ok(())
    })
}

/// Waits for SIGINT (Ctrl-C) or SIGTERM (a service manager's stop): both stop the server the same way.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(e) => {
                eprintln!("warning: cannot listen for SIGTERM: {e}");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}

/// Logs to standard error, as text or JSON; `RUST_LOG` chooses what (default: info for gridplay, warnings for
/// the rest). Each line carries the fields of the spans it is in: a request's id, method and path, a game's id.
pub(crate) fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,gridplay_server=info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .try_init(),
    };
}

/// A database address without its password.
fn redact(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}
