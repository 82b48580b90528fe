//! The database: one schema and one set of queries for SQLite and PostgreSQL, through sqlx's `Any` driver.
//!
//! Queries use `$1` placeholders, which both backends read (the writer's statements, built at run time, use
//! `Backend::placeholder`). Every write that a player waits for is committed before the player hears of it.
//!
//! The storage layer: it knows nothing of HTTP, of the bus or of games in memory. By subject: `users`
//! (accounts and sessions), `games` (games and their actions), `challenges`, `ratings`, `tournaments`,
//! `servers` (what several servers on one database share: presence, viewers, leases, and the NOTIFY channel),
//! `moderation` (admins, reports and the record of admin actions), `chat` (the lines said in games), `tokens` (personal API tokens), `upkeep` (analyses, quotas, heartbeats and purges), `kinds` (the words stored for statuses and results), and
//! `writer` (the group commits of game actions on a connection and thread of their own). This module holds
//! the connection.

use std::{
    path::Path,
    str::FromStr,
    sync::{Arc, atomic::Ordering},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use sqlx::{AnyPool, any::AnyPoolOptions, sqlite::SqliteConnectOptions};
use thiserror::Error;
use tokio::sync::mpsc;

pub mod backup;
mod blocks;
mod challenges;
mod chat;
mod columns;
pub mod explorer;
mod games;
pub(crate) mod kinds;
mod moderation;
pub mod puzzles;
pub(crate) mod ratings;
mod reviews;
mod servers;
mod tokens;
mod tournaments;
mod upkeep;
mod users;
mod writer;

pub use crate::config::SchemaPlan;
pub use upkeep::Purged;
use writer::{GROUP_MAX, Job};
pub use writer::{WriterCounts, WriterStats};

pub use challenges::{ChallengeRow, good_record};
pub use chat::ChatLine;
pub use games::{ActionRow, GameRow, GameUpdate};
pub(crate) use games::{GAME_COLUMNS, game_rows};
pub use kinds::{
    ActionKind, ByeKind, ChallengeColor, ChallengeStatus, EndReason, GameStatus, ModKind, Room, Side,
    TournamentKind, TournamentStatus, Winner,
};
pub use moderation::{Act, ModAction, Report, Standing};
pub use ratings::{RateJob, RatingRow, StatsRow};
pub use reviews::ReviewRow;
pub use servers::{CHANNEL, Lease, pack};
pub use tokens::{TokenRow, TokenUser};
pub use tournaments::{TournamentBye, TournamentPlayer, TournamentRow};
pub use users::{User, session_key};
pub(crate) use writer::insert_game;

/// A database failure. Its text goes to the log, never to a client.
#[derive(Debug, Error)]
pub enum DbError {
    #[error("database: {0}")]
    Sqlx(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("cannot create the data directory {path}: {source}")]
    Dir { path: String, source: std::io::Error },
    #[error("writing actions: {0}")]
    Writer(String),
    /// Another writer (another server on the same database) stored this game's action of that number first.
    #[error("another server stored this action first")]
    Conflict,
    #[error("unsupported database address {0:?}: use sqlite://FILE or postgres://...")]
    Url(String),
    #[error("{0} writers of game actions: a SQLite database takes exactly one, PostgreSQL one or more")]
    Writers(u32),
    /// The SQLite file is being restored, or its lock file cannot be opened.
    #[error("{0}")]
    Locked(#[from] backup::BackupError),
}

/// Milliseconds since the Unix epoch.
#[must_use]
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The versions of this build's migrations (`migrations/`), oldest first.
#[must_use]
pub fn schema_versions() -> Vec<i64> {
    migrator(SchemaPlan::default())
        .iter()
        .map(|m| m.version)
        .collect()
}

/// The migrations this build applies: every one, or those up to `up_to` (the migrations of a build before,
/// for the test of a rolling upgrade). A migration applied by a newer build is left alone, so that during a
/// rolling upgrade a server of the build before still starts on the database that the new build has moved
/// on: every migration is one that the build before can run beside (tables, columns with defaults and
/// indexes added; none taken away or renamed: `tests/upgrade.rs` reads each).
fn migrator(plan: SchemaPlan) -> sqlx::migrate::Migrator {
    let mut m = sqlx::migrate!("./migrations");
    let mut migrations: Vec<_> = m
        .migrations
        .iter()
        .filter(|x| plan.up_to.is_none_or(|v| x.version <= v))
        .cloned()
        .collect();
    if let Some(sql) = plan.rehearsal {
        use sqlx::SqlSafeStr;
        let next = migrations.last().map_or(1, |x| x.version + 1);
        migrations.push(sqlx::migrate::Migration::new(
            next,
            "rehearsal".into(),
            sqlx::migrate::MigrationType::Simple,
            sql.into_sql_str(),
            false,
        ));
    }
    m.migrations = migrations.into();
    m.set_ignore_missing(true);
    m
}

/// A pool of connections with the schema migrated.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    /// Game actions go through a writer task that commits whatever is waiting in one transaction (group
    /// commit): under load, many games' moves share a commit; alone, a move is committed at once. On
    /// PostgreSQL there may be several writers, each with its own connection; a game's actions always go to
    /// the same one (by a hash of its id), so they are committed in order.
    writers: Arc<[mpsc::Sender<Job>]>,
    /// What the writer has done, for the load benchmark.
    writes: Arc<WriterStats>,
    /// On SQLite, the turn to write (`Db::writing`).
    gate: WriteGate,
    /// On a SQLite file, the shared lock that keeps a restore from replacing it (`backup`).
    _in_use: Option<Arc<backup::InUse>>,
    /// The migrations this server applies (`Db::connect_with`): by default, every one of this build.
    schema: SchemaPlan,
}

/// SQLite lets one transaction write at a time, and a connection that finds another writing sleeps in its busy
/// handler (for longer each time it tries again), while it keeps one of the pool's few connections from the
/// reads. Under load the writer of game actions takes the file again at once, so another connection's write
/// could wait a hundred milliseconds or more. Every write on SQLite therefore takes its turn here first, in
/// the order asked, the writer's groups included. PostgreSQL has no gate.
#[derive(Clone, Debug, Default)]
pub(crate) struct WriteGate(Option<Arc<tokio::sync::Mutex<()>>>);

impl WriteGate {
    fn for_backend(backend: Backend) -> WriteGate {
        WriteGate((backend == Backend::Sqlite).then(|| Arc::new(tokio::sync::Mutex::new(()))))
    }

    /// Waits for the turn to write; it lasts as long as the guard.
    async fn turn(&self) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        match &self.0 {
            Some(gate) => Some(gate.clone().lock_owned().await),
            None => None,
        }
    }
}

/// A connection with the turn to write (`Db::writing`).
pub(crate) struct Writing {
    conn: sqlx::pool::PoolConnection<sqlx::Any>,
    _turn: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Writing {
    /// The connection, to execute statements or begin a transaction on.
    pub(crate) fn conn(&mut self) -> &mut sqlx::AnyConnection {
        &mut self.conn
    }

    /// Begins a transaction on the connection.
    pub(crate) async fn begin(&mut self) -> Result<sqlx::Transaction<'_, sqlx::Any>, sqlx::Error> {
        sqlx::Connection::begin(&mut *self.conn).await
    }
}

impl Db {
    /// A connection to write on: on SQLite, once it is this caller's turn (`WriteGate`), which lasts until the
    /// `Writing` is dropped. The turn comes before the connection, so that a write waiting for its turn holds
    /// none of the reads' connections.
    pub(crate) async fn writing(&self) -> Result<Writing, sqlx::Error> {
        let turn = self.gate.turn().await;
        Ok(Writing {
            conn: self.pool.acquire().await?,
            _turn: turn,
        })
    }
}

/// Which database runs underneath.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// Parameter `n` (from 1) of a statement built at run time. SQLite takes a bare `?` as the next
    /// parameter, which it binds without looking the parameter up by name (a look-up whose cost grows with the
    /// statement's parameters, so that the writer's long statements would pay for it squared).
    fn placeholder(self, n: usize) -> String {
        match self {
            Backend::Sqlite => "?".to_owned(),
            Backend::Postgres => format!("${n}"),
        }
    }
}

/// The values of a multi-row statement, `(p1, ..., pW), (...)`: `rows` rows of `width` parameters numbered
/// from `first`, each written by `param(column, number)` (`Backend::placeholder`, or `$N`, which both
/// backends read). Every multi-row statement is built by it: sqlx's `QueryBuilder` writes the `Any` driver's
/// parameters as `?`, which PostgreSQL refuses.
fn placeholders(rows: usize, width: usize, first: usize, param: impl Fn(usize, usize) -> String) -> String {
    (0..rows)
        .map(|r| {
            let row: Vec<String> = (0..width).map(|c| param(c, first + r * width + c)).collect();
            format!("({})", row.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `$N`: a parameter as both backends read it.
fn numbered(_column: usize, n: usize) -> String {
    format!("${n}")
}

/// Whether an error is a unique-constraint violation (a name already taken, an action stored twice).
fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

impl Db {
    /// Connects to `url` (`sqlite://FILE`, `sqlite::memory:` or `postgres://...`) and runs the migrations.
    ///
    /// A SQLite file's directory is created if missing. SQLite runs in WAL mode with `synchronous = FULL` (a
    /// commit is on disk before anyone hears of it) through `connections` connections for reads and the other
    /// writes (on SQLite every write waits for its turn first, `WriteGate`, so that none holds a connection
    /// while it waits), and one more for the writer of game actions; a memory database has one connection.
    /// `writers`: the writers of game actions, each with a connection of its own; SQLite takes only
    /// one (it lets one transaction write at a time).
    pub async fn connect(url: &str, connections: u32, writers: u32) -> Result<Db, DbError> {
        Db::connect_with(url, connections, writers, SchemaPlan::default()).await
    }

    /// `connect`, applying the migrations `schema` names (an earlier or a later build's): for the tests of a
    /// rolling upgrade.
    pub async fn connect_with(
        url: &str,
        connections: u32,
        writers: u32,
        schema: SchemaPlan,
    ) -> Result<Db, DbError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(DbError::Url(url.to_owned()));
        };
        let mut in_use = None;
        if backend == Backend::Sqlite && !url.contains(":memory:") {
            let options = SqliteConnectOptions::from_str(url)?;
            if let Some(dir) = options
                .get_filename()
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
            {
                create_dir(dir)?;
            }
            in_use = Some(Arc::new(backup::hold(options.get_filename())?));
        }
        let url = if backend == Backend::Sqlite && !url.contains('?') && !url.contains(":memory:") {
            format!("{url}?mode=rwc")
        } else {
            url.to_owned()
        };
        if writers == 0 || (backend == Backend::Sqlite && writers > 1) {
            return Err(DbError::Writers(writers));
        }
        let memory = url.contains(":memory:");
        // A memory database is one connection's: a second would open another, empty database.
        let connections = if memory { 1 } else { connections };
        let pool = pool_options(backend, connections).connect(&url).await?;
        migrator(schema).run(&pool).await?;
        // The writer has a connection of its own, so that its transactions never wait for the reads queued
        // on the shared ones, nor they for it (on SQLite, WAL lets them run side by side), and a thread of its
        // own (`writer::start_thread`). A memory database is one connection, which the writer shares.
        let writes = Arc::new(WriterStats::default());
        let gate = WriteGate::for_backend(backend);
        let mut senders = Vec::new();
        for _ in 0..writers {
            let (writer_tx, rx) = mpsc::channel(4 * GROUP_MAX);
            let writer = writer::Writer {
                backend,
                stats: writes.clone(),
                gate: gate.clone(),
            };
            if memory {
                // Not among the server's tasks (`crate::tasks`, a layer above): the writer ends when the last
                // `Db` that can send it a job is dropped, as the writer thread of a file does.
                tokio::spawn(writer::run(pool.clone(), false, writer, rx));
            } else {
                writer::start_thread(url.clone(), writer, rx).await?;
            }
            senders.push(writer_tx);
        }
        Ok(Db {
            pool,
            writers: senders.into(),
            writes,
            gate,
            _in_use: in_use,
            schema,
        })
    }

    /// How many writers of game actions there are.
    #[must_use]
    pub fn writers(&self) -> u32 {
        u32::try_from(self.writers.len()).unwrap_or(u32::MAX)
    }

    /// What the writer has done since the start.
    #[must_use]
    pub fn writer_counts(&self) -> WriterCounts {
        WriterCounts {
            commits: self.writes.commits.load(Ordering::Relaxed),
            actions: self.writes.actions.load(Ordering::Relaxed),
            busy_ns: self.writes.busy_ns.load(Ordering::Relaxed),
        }
    }
}

/// The pool's settings: for SQLite, connections that stay open (a memory database lives as long as its one
/// connection) in WAL mode with `synchronous = FULL` (a commit is on disk before anyone hears of it).
fn pool_options(backend: Backend, connections: u32) -> AnyPoolOptions {
    let options = AnyPoolOptions::new().max_connections(connections.max(1));
    match backend {
        Backend::Sqlite => options
            // A connection to a file in this process cannot hang up.
            .test_before_acquire(false)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    sqlx::raw_sql(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                         PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
                    )
                    .execute(conn)
                    .await?;
                    Ok(())
                })
            }),
        Backend::Postgres => options
            .acquire_timeout(Duration::from_secs(10))
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for < CHECK_IDLE_FOR {
                        return Ok(true);
                    }
                    Ok(sqlx::Connection::ping(conn).await.is_ok())
                })
            }),
    }
}

/// A PostgreSQL connection idle this long is pinged before it is lent (a dead one is dropped and another
/// taken), as the writer checks its own after an idle second; one used more recently is lent as it is: a
/// ping on every loan cost a round trip per query.
const CHECK_IDLE_FOR: Duration = Duration::from_secs(1);

fn create_dir(dir: &Path) -> Result<(), DbError> {
    std::fs::create_dir_all(dir).map_err(|source| DbError::Dir {
        path: dir.display().to_string(),
        source,
    })
}
