//! The server's settings. The `gridplay serve` command fills them from flags and the environment; the defaults
//! here are the documented ones.

use std::{net::SocketAddr, path::PathBuf};

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// `sqlite://FILE`, `sqlite::memory:` or `postgres://...`.
    pub database: String,
    /// Database connections; `None` picks 1 for SQLite (one writer, no lock waits) and 8 for PostgreSQL.
    pub db_connections: Option<u32>,
    /// Engine searches that may run at once; more requests wait their turn.
    pub engine_threads: usize,
    /// Mark the session cookie `Secure` (set this behind HTTPS).
    pub secure_cookies: bool,
    /// Sign-up and sign-in attempts allowed per client address per minute.
    pub auth_per_minute: u32,
    /// WebSocket messages a connection may send per second on average...
    pub ws_per_second: u32,
    /// ...and in a burst.
    pub ws_burst: u32,
    /// Offer the registry's test games beside the real ones: for development and tests.
    pub with_test_games: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: default_database(),
            db_connections: None,
            engine_threads: 2,
            secure_cookies: false,
            auth_per_minute: 20,
            ws_per_second: 5,
            ws_burst: 100,
            with_test_games: false,
        }
    }
}

/// `sqlite://` + `$XDG_DATA_HOME/gridplay/gridplay.db`, or `~/.local/share/gridplay/gridplay.db`, or
/// `./gridplay.db` when there is no home.
#[must_use]
pub fn default_database() -> String {
    let dir = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")));
    let file = match dir {
        Some(d) => d.join("gridplay").join("gridplay.db"),
        None => PathBuf::from("gridplay.db"),
    };
    format!("sqlite://{}", file.display())
}
