//! The server's settings. The `gridplay serve` command fills them from flags and the environment; the defaults
//! here are the documented ones.

use std::{net::SocketAddr, path::PathBuf};

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Where to answer `/metrics` (Prometheus's text format), apart from the site; `None`: nowhere.
    pub metrics_addr: Option<SocketAddr>,
    /// `sqlite://FILE`, `sqlite::memory:` or `postgres://...`.
    pub database: String,
    /// Database connections for reads and the other writes; `None` picks 4 for a SQLite file (its writes take
    /// turns, `db::WriteGate`; a memory database has one) and 8 for PostgreSQL.
    pub db_connections: Option<u32>,
    /// Writers of game actions, each with a connection of its own; `None` picks 1 for SQLite (the only value
    /// it takes) and one per four cores, from 1 to 4, for PostgreSQL.
    pub db_writers: Option<u32>,
    /// The engine's replies in games that may be searched at once; more wait their turn.
    pub engine_threads: usize,
    /// Whether the engine plays from its opening book at levels 6-8 (Reversi's), for varied games.
    pub engine_book: bool,
    /// Mark the session cookie `Secure` (set this behind HTTPS).
    pub secure_cookies: bool,
    /// The reverse proxies (nginx, Caddy) in front of the server: a request from one of these addresses is
    /// counted against the limits of the client its `X-Forwarded-For` names, not the proxy's. Empty: every
    /// request is its peer's.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Sign-up and sign-in attempts allowed per client address per minute.
    pub auth_per_minute: u32,
    /// WebSocket messages a connection may send per second on average...
    pub ws_per_second: u32,
    /// ...and in a burst.
    pub ws_burst: u32,
    /// Offer the registry's test games beside the real ones: for development and tests.
    pub with_test_games: bool,
    /// The migrations this server applies and expects: every one of this build (always, outside the tests of
    /// a rolling upgrade, which make an earlier or a later build of this one).
    pub schema: SchemaPlan,
    /// What one user or one address may do: beyond these, requests are answered `429 too-many`.
    pub limits: Limits,
}

/// The quotas that keep one user or one address from starving or flooding the site for others. Each is a flag
/// of `gridplay serve` (docs/web.md, "Limits").
#[derive(Clone, Debug)]
pub struct Limits {
    /// Analyses and hints searched at once (the engine lane beside the games' lane).
    pub analysis_threads: usize,
    /// Analyses one user may have waiting or running at once.
    pub analyses_per_user: u32,
    /// Hints one user may ask for per minute.
    pub hints_per_minute: u32,
    /// The longest the analysis board's engine searches one position, in seconds (an analysis under way,
    /// counted in `analyses_per_user` while it runs).
    pub lines_seconds: u32,
    /// How often, in seconds, the server mines a few of the site's finished games for puzzles (0: never).
    pub puzzle_mining_seconds: u32,
    /// How often, in seconds, the server reviews a few finished games between people for engine use (0:
    /// never).
    pub review_seconds: u32,
    /// The fewest recent rated games of one game in which the engine-use review may flag a player.
    pub review_min_games: u32,
    /// Open challenges one user may have at once.
    pub open_challenges: u32,
    /// Tournaments one user may create per day.
    pub tournaments_per_day: u32,
    /// Moves that must be played after a player's draw offer before that player may offer again.
    pub draw_offer_plies: u32,
    /// The least time, in seconds, that all of a player's pages must be gone from a live game before the
    /// opponent may claim it (the clock sets more: `TimeControl::claim_after_ms`).
    pub claim_floor_seconds: u32,
    /// WebSockets open at once from one address, and for one signed-in user.
    pub sockets_per_address: u32,
    pub sockets_per_user: u32,
    /// New accounts per address per hour.
    pub signups_per_hour: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            analysis_threads: 1,
            analyses_per_user: 2,
            hints_per_minute: 10,
            lines_seconds: 30,
            puzzle_mining_seconds: 600,
            review_seconds: 20,
            review_min_games: 10,
            open_challenges: 20,
            tournaments_per_day: 5,
            draw_offer_plies: 10,
            claim_floor_seconds: 10,
            sockets_per_address: 50,
            sockets_per_user: 10,
            signups_per_hour: 10,
        }
    }
}

impl Limits {
    /// No quota worth the name: for load tests and test suites that act as many users from one address.
    #[must_use]
    pub fn lenient() -> Limits {
        Limits {
            analysis_threads: 1,
            analyses_per_user: 1000,
            hints_per_minute: 100_000,
            lines_seconds: 30,
            puzzle_mining_seconds: 0,
            review_seconds: 0,
            review_min_games: 10,
            open_challenges: 100_000,
            tournaments_per_day: 100_000,
            draw_offer_plies: 0,
            claim_floor_seconds: 10,
            sockets_per_address: 1_000_000,
            sockets_per_user: 1_000_000,
            signups_per_hour: 1_000_000,
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            metrics_addr: None,
            database: default_database(),
            db_connections: None,
            db_writers: None,
            engine_threads: 2,
            engine_book: true,
            secure_cookies: false,
            trusted_proxies: Vec::new(),
            auth_per_minute: 20,
            ws_per_second: 5,
            ws_burst: 100,
            with_test_games: false,
            schema: SchemaPlan::default(),
            limits: Limits::default(),
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

/// Which migrations a server applies and expects. Always the default (every migration of this build) but
/// in the tests of a rolling upgrade, which play two builds with one binary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemaPlan {
    /// The last of this build's migrations to apply, as a build made before the later ones would.
    pub up_to: Option<i64>,
    /// One more migration after them, as a build made after this one would add: additive SQL that this
    /// build's queries do not read.
    pub rehearsal: Option<&'static str>,
}
