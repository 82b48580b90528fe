//! `gridplay serve`: the web platform.

use std::net::SocketAddr;

use clap::Args;
use gridplay_server::Config;

#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "GRIDPLAY_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Database: `sqlite://FILE` or `postgres://USER@HOST/DB`. The default is a SQLite file in
    /// $XDG_DATA_HOME/gridplay (or ~/.local/share/gridplay), created if missing.
    #[arg(long, env = "GRIDPLAY_DATABASE")]
    database: Option<String>,
    /// Database connections [default: 1 for SQLite, 8 for PostgreSQL].
    #[arg(long, env = "GRIDPLAY_DB_CONNECTIONS")]
    db_connections: Option<u32>,
    /// Engine searches allowed at once; further requests queue.
    #[arg(long, env = "GRIDPLAY_ENGINE_THREADS", default_value_t = 2)]
    engine_threads: usize,
    /// Mark the session cookie Secure (when served over HTTPS).
    #[arg(long, env = "GRIDPLAY_SECURE_COOKIES")]
    secure_cookies: bool,
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
            database: self
                .database
                .clone()
                .unwrap_or_else(gridplay_server::config::default_database),
            db_connections: self.db_connections,
            engine_threads: self.engine_threads,
            secure_cookies: self.secure_cookies,
            auth_per_minute: self.auth_per_minute,
            ws_per_second: self.ws_per_second,
            ws_burst: self.ws_burst,
            with_test_games: crate::with_test_games(),
        }
    }
}

pub(crate) fn run(args: &ServeArgs) -> Result<(), String> {
    init_logging();
    let config = args.config();
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let database = config.database.clone();
        let running = gridplay_server::start(config).await.map_err(|e| e.to_string())?;
        eprintln!(
            "gridplay serves http://{} (database {})",
            running.addr,
            redact(&database)
        );
        let _ = tokio::signal::ctrl_c().await;
        eprintln!("stopping");
        running.stop().await;
        Ok(())
    })
}

/// Logs to standard error; `RUST_LOG` chooses what (default: info for gridplay, warnings for the rest).
pub(crate) fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,gridplay_server=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
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
