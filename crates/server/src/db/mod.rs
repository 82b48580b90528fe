//! The database: one schema and one set of queries for SQLite and PostgreSQL, through sqlx's `Any` driver.
//!
//! Queries use `$1` placeholders, which both backends read (the writer's statements, built at run time, use
//! `Backend::placeholder`). Every write that a player waits for is committed before the player hears of it.

use std::{
    path::Path,
    str::FromStr,
    sync::{Arc, atomic::Ordering},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use gridplay_core::Player;
use sqlx::{
    AnyPool, AssertSqlSafe, Row,
    any::{AnyPoolOptions, AnyRow},
    sqlite::SqliteConnectOptions,
};
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};

use crate::clock::TimeControl;

pub(crate) mod kinds;
pub(crate) mod ratings;
mod servers;
mod tournaments;
mod upkeep;
mod writer;

pub use upkeep::Purged;
use writer::{GROUP_MAX, WriteError, WriteJob};
pub use writer::{WriterCounts, WriterStats};

pub use kinds::{ActionKind, EndReason, GameStatus, Winner};
pub use ratings::{RateJob, RatingRow, StatsRow};
pub use servers::{CHANNEL, Lease, pack};
pub use tournaments::{TournamentBye, TournamentPlayer, TournamentRow};

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
}

/// Milliseconds since the Unix epoch.
#[must_use]
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A pool of connections with the schema migrated.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    /// Game actions go through a writer task that commits whatever is waiting in one transaction (group
    /// commit): under load, many games' moves share a commit; alone, a move is committed at once. On
    /// PostgreSQL there may be several writers, each with its own connection; a game's actions always go to
    /// the same one (by a hash of its id), so they are committed in order.
    writers: Arc<[mpsc::Sender<WriteJob>]>,
    /// What the writer has done, for the load benchmark.
    writes: Arc<WriterStats>,
}

async fn insert_action<'e, E>(executor: E, game_id: &str, a: &ActionRow) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "INSERT INTO actions (game_id, seq, side, kind, body, created_at, clock) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game_id)
    .bind(a.seq)
    .bind(a.side.as_str())
    .bind(a.kind.as_str())
    .bind(&a.body)
    .bind(a.at)
    .bind(a.clock)
    .execute(executor)
    .await?;
    Ok(())
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

/// A user as the other parts of the server see one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub name: String,
}

/// A row of `games`, with the players' names.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub spec: String,
    pub game: String,
    pub users: [Option<User>; 2],
    pub levels: [Option<u8>; 2],
    /// Names for sides without a user (imported games).
    pub labels: [Option<String>; 2],
    pub status: GameStatus,
    /// The side to move; `None` once the game is over.
    pub turn: Option<Player>,
    pub winner: Option<Winner>,
    pub termination: Option<EndReason>,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub rated: bool,
    /// Whether both players agreed to engine hints (a casual game between people; `hints` in the state).
    pub help: bool,
    pub time: TimeControl,
    /// The tournament and round of a tournament game.
    pub tournament: Option<(String, i64)>,
}

impl GameRow {
    /// A new game in play, untimed and casual until the caller says otherwise, with a fresh id.
    #[must_use]
    pub fn new(spec: String, game: String, users: [Option<User>; 2], levels: [Option<u8>; 2]) -> GameRow {
        let now = now_ms();
        GameRow {
            id: crate::ids::short(8),
            spec,
            game,
            users,
            levels,
            labels: [None, None],
            status: GameStatus::Active,
            turn: Some(Player::First),
            winner: None,
            termination: None,
            version: 0,
            created_at: now,
            updated_at: now,
            rated: false,
            help: false,
            time: TimeControl::Untimed,
            tournament: None,
        }
    }
}

/// A row of `actions`: one move or one decision of a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRow {
    pub seq: i64,
    pub side: Player,
    pub kind: ActionKind,
    pub body: String,
    /// When it was played, in Unix ms.
    pub at: i64,
    /// The mover's time left after a move, with a live clock.
    pub clock: Option<i64>,
}

/// What an action changes in its game's row.
#[derive(Clone, Debug)]
pub struct GameUpdate {
    pub status: GameStatus,
    pub turn: Option<Player>,
    pub winner: Option<Winner>,
    pub termination: Option<EndReason>,
}

/// A row of `challenges`, with names.
#[derive(Clone, Debug)]
pub struct ChallengeRow {
    pub id: String,
    pub creator: User,
    pub target: Option<User>,
    pub spec: String,
    pub color: String,
    pub status: String,
    pub game_id: Option<String>,
    pub created_at: i64,
    pub rated: bool,
    /// Whether the game allows engine hints to both players (casual challenges only).
    pub help: bool,
    pub time: TimeControl,
}

const GAME_COLUMNS: &str = "g.id, g.spec, g.game, g.first_user, u1.name AS first_name, g.second_user, \
     u2.name AS second_name, g.first_level, g.second_level, g.first_label, g.second_label, g.status, g.turn, g.winner, g.termination, g.version, \
     g.created_at, g.updated_at, g.rated, g.help, g.clock_initial, g.clock_increment, g.days_per_move, g.tournament_id, \
     g.round FROM games g LEFT JOIN users u1 ON u1.id = g.first_user \
     LEFT JOIN users u2 ON u2.id = g.second_user";

const CHALLENGE_COLUMNS: &str = "c.id, c.creator, u1.name AS creator_name, c.target, u2.name AS target_name, \
     c.spec, c.color, c.status, c.game_id, c.created_at, c.rated, c.help, c.clock_initial, c.clock_increment, \
     c.days_per_move FROM challenges c JOIN users u1 ON u1.id = c.creator \
     LEFT JOIN users u2 ON u2.id = c.target";

fn user_of(row: &AnyRow, id: &str, name: &str) -> Result<Option<User>, sqlx::Error> {
    let id: Option<String> = row.try_get(id)?;
    let name: Option<String> = row.try_get(name)?;
    Ok(id.zip(name).map(|(id, name)| User { id, name }))
}

fn level_of(row: &AnyRow, col: &str) -> Result<Option<u8>, sqlx::Error> {
    let level: Option<i64> = row.try_get(col)?;
    Ok(level.and_then(|l| u8::try_from(l).ok()))
}

fn time_of(row: &AnyRow) -> Result<TimeControl, sqlx::Error> {
    Ok(TimeControl::from_columns(
        row.try_get("clock_initial")?,
        row.try_get("clock_increment")?,
        row.try_get("days_per_move")?,
    ))
}

pub(crate) fn game_row(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    let tournament: Option<String> = row.try_get("tournament_id")?;
    let round: Option<i64> = row.try_get("round")?;
    Ok(GameRow {
        id: row.try_get("id")?,
        spec: row.try_get("spec")?,
        game: row.try_get("game")?,
        users: [
            user_of(row, "first_user", "first_name")?,
            user_of(row, "second_user", "second_name")?,
        ],
        levels: [level_of(row, "first_level")?, level_of(row, "second_level")?],
        labels: [row.try_get("first_label")?, row.try_get("second_label")?],
        status: GameStatus::parse(row.try_get("status")?)?,
        turn: row
            .try_get::<Option<&str>, _>("turn")?
            .map(kinds::side)
            .transpose()?,
        winner: row
            .try_get::<Option<&str>, _>("winner")?
            .map(Winner::parse)
            .transpose()?,
        termination: row
            .try_get::<Option<&str>, _>("termination")?
            .map(EndReason::parse)
            .transpose()?,
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        help: row.try_get::<i64, _>("help")? != 0,
        time: time_of(row)?,
        tournament: tournament.map(|t| (t, round.unwrap_or(0))),
    })
}

fn challenge_row(row: &AnyRow) -> Result<ChallengeRow, sqlx::Error> {
    Ok(ChallengeRow {
        id: row.try_get("id")?,
        creator: User {
            id: row.try_get("creator")?,
            name: row.try_get("creator_name")?,
        },
        target: user_of(row, "target", "target_name")?,
        spec: row.try_get("spec")?,
        color: row.try_get("color")?,
        status: row.try_get("status")?,
        game_id: row.try_get("game_id")?,
        created_at: row.try_get("created_at")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        help: row.try_get::<i64, _>("help")? != 0,
        time: time_of(row)?,
    })
}

/// What the database keeps of a session token: its SHA-256, in hex. The token itself lives only in the user's
/// cookie, so a copy of the database hands over no session.
#[must_use]
pub fn session_key(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether an error is a unique-constraint violation (a name already taken).
fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

impl Db {
    /// Connects to `url` (`sqlite://FILE`, `sqlite::memory:` or `postgres://...`) and runs the migrations.
    ///
    /// A SQLite file's directory is created if missing. SQLite runs in WAL mode with `synchronous = FULL` (a
    /// commit is on disk before anyone hears of it) through `connections` connections for reads and the other
    /// writes (1 by default: those writes never wait for each other), and one more for the writer of game
    /// actions. `writers`: the writers of game actions, each with a connection of its own; SQLite takes only
    /// one (it lets one transaction write at a time).
    pub async fn connect(url: &str, connections: u32, writers: u32) -> Result<Db, DbError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(DbError::Url(url.to_owned()));
        };
        if backend == Backend::Sqlite && !url.contains(":memory:") {
            let options = SqliteConnectOptions::from_str(url)?;
            if let Some(dir) = options
                .get_filename()
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
            {
                create_dir(dir)?;
            }
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
        let pool = pool_options(backend, connections).connect(&url).await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        // The writer has a connection of its own, so that its transactions never wait for the reads queued
        // on the shared ones, nor they for it (on SQLite, WAL lets them run side by side), and a thread of its
        // own (`writer::start_thread`). A memory database is one connection, which the writer shares.
        let writes = Arc::new(WriterStats::default());
        let mut senders = Vec::new();
        for _ in 0..writers {
            let (writer_tx, rx) = mpsc::channel(4 * GROUP_MAX);
            if memory {
                tokio::spawn(writer::run(pool.clone(), false, backend, rx, writes.clone()));
            } else {
                writer::start_thread(url.clone(), backend, rx, writes.clone()).await?;
            }
            senders.push(writer_tx);
        }
        Ok(Db {
            pool,
            writers: senders.into(),
            writes,
        })
    }

    /// Creates a user. Returns `false` if the name (in any case) is taken.
    pub async fn create_user(&self, user: &User, hash: &str) -> Result<bool, DbError> {
        let r = sqlx::query(
            "INSERT INTO users (id, name, name_key, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&user.id)
        .bind(&user.name)
        .bind(user.name.to_lowercase())
        .bind(hash)
        .bind(now_ms())
        .execute(&self.pool)
        .await;
        match r {
            Ok(_) => Ok(true),
            Err(e) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// The user of that name (in any case) with the password hash.
    pub async fn user_by_name(&self, name: &str) -> Result<Option<(User, String)>, DbError> {
        let row = sqlx::query("SELECT id, name, password_hash FROM users WHERE name_key = $1")
            .bind(name.to_lowercase())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok((
                User {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                },
                r.try_get("password_hash")?,
            ))
        })
        .transpose()
    }

    /// Stores a session under the hash of its token (`session_key`).
    pub async fn create_session(&self, token: &str, user_id: &str, expires_at: i64) -> Result<(), DbError> {
        sqlx::query("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
            .bind(session_key(token))
            .bind(user_id)
            .bind(now_ms())
            .bind(expires_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The user of a session that has not expired.
    pub async fn session_user(&self, token: &str) -> Result<Option<User>, DbError> {
        let row = sqlx::query(
            "SELECT u.id, u.name FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.id = $1 AND s.expires_at > $2",
        )
        .bind(session_key(token))
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(User {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
            })
        })
        .transpose()
    }

    /// Sets a user's password hash.
    pub async fn set_password(&self, user_id: &str, hash: &str) -> Result<(), DbError> {
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(hash)
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every session of a user but `keep` (the one making the request, where it stays signed in).
    pub async fn delete_sessions_of(&self, user_id: &str, keep: Option<&str>) -> Result<u64, DbError> {
        let r = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
            .bind(user_id)
            .bind(keep.map(session_key).unwrap_or_default())
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// Deletes an account: the user can no longer sign in, every session ends, open challenges made by or to
    /// the user are cancelled, and the name becomes `tombstone` (`deleted-…`, a name no one can sign up
    /// with), so that the user's games stay, shown as a deleted player's, and the old name is free again.
    pub async fn delete_account(&self, user_id: &str, tombstone: &str) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET name = $1, name_key = $2, password_hash = '' WHERE id = $3")
            .bind(tombstone)
            .bind(tombstone.to_lowercase())
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE challenges SET status = 'cancelled' WHERE status = 'open' AND (creator = $1 OR target = $1)",
        )
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn delete_session(&self, token: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(session_key(token))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Inserts a new game with version 0.
    pub async fn create_game(&self, g: &GameRow) -> Result<(), DbError> {
        insert_game(&self.pool, g).await
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, DbError> {
        let row = sqlx::query(AssertSqlSafe(format!("SELECT {GAME_COLUMNS} WHERE g.id = $1")))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(game_row).transpose()?)
    }

    /// The games of a user in a status (`active` or `finished`), the latest first.
    pub async fn games_of(
        &self,
        user_id: &str,
        status: GameStatus,
        limit: i64,
    ) -> Result<Vec<GameRow>, DbError> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {GAME_COLUMNS} WHERE (g.first_user = $1 OR g.second_user = $1) AND g.status = $2 \
             ORDER BY g.updated_at DESC LIMIT $3"
        )))
        .bind(user_id)
        .bind(status.as_str())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// A game's actions in order.
    pub async fn actions(&self, game_id: &str) -> Result<Vec<ActionRow>, DbError> {
        self.actions_after(game_id, 0).await
    }

    /// A game's actions numbered above `seq`, in order.
    pub async fn actions_after(&self, game_id: &str, seq: i64) -> Result<Vec<ActionRow>, DbError> {
        let rows = sqlx::query(
            "SELECT seq, side, kind, body, created_at, clock FROM actions WHERE game_id = $1 AND seq > $2 \
             ORDER BY seq",
        )
        .bind(game_id)
        .bind(seq)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ActionRow {
                    seq: r.try_get("seq")?,
                    side: kinds::side(r.try_get("side")?)?,
                    kind: ActionKind::parse(r.try_get("kind")?)?,
                    body: r.try_get("body")?,
                    at: r.try_get("created_at")?,
                    clock: r.try_get("clock")?,
                })
            })
            .collect()
    }

    /// Appends action number `action.seq` (the game's new version) and updates the game, in one transaction
    /// (shared with other games' actions waiting at the same moment). Fails if another writer got there first:
    /// the primary key forbids two actions with one number.
    pub async fn append_action(
        &self,
        game_id: &str,
        action: &ActionRow,
        update: &GameUpdate,
        rate: Option<RateJob>,
        notice: Option<String>,
    ) -> Result<(), DbError> {
        let (done, result) = oneshot::channel();
        let job = WriteJob {
            game_id: game_id.to_owned(),
            action: action.clone(),
            status: update.status,
            turn: update.turn,
            winner: update.winner,
            termination: update.termination,
            rate,
            notice,
            done,
        };
        self.writer_of(game_id)
            .send(job)
            .await
            .map_err(|_| DbError::Writer("the writer has stopped".into()))?;
        result
            .await
            .map_err(|_| DbError::Writer("the writer has stopped".into()))?
            .map_err(|e| match e {
                WriteError::Conflict => DbError::Conflict,
                WriteError::Other(e) => DbError::Writer(e),
            })
    }

    /// The writer of a game's actions: always the same one for one game.
    fn writer_of(&self, game_id: &str) -> &mpsc::Sender<WriteJob> {
        let lane = if self.writers.len() == 1 {
            0
        } else {
            // Any hash that stays the same within the process would do; this one needs no state.
            let hash = std::hash::BuildHasher::hash_one(
                &std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default(),
                game_id,
            );
            usize::try_from(hash % self.writers.len() as u64).unwrap_or(0)
        };
        &self.writers[lane]
    }

    /// Stores an imported game and its actions in one transaction.
    pub async fn create_imported(&self, g: &GameRow, actions: &[ActionRow]) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        insert_game(&mut *tx, g).await?;
        for a in actions {
            insert_action(&mut *tx, &g.id, a).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn create_challenge(&self, c: &ChallengeRow) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO challenges (id, creator, target, spec, color, status, game_id, created_at, rated, \
             clock_initial, clock_increment, days_per_move, help) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&c.id)
        .bind(&c.creator.id)
        .bind(c.target.as_ref().map(|t| t.id.clone()))
        .bind(&c.spec)
        .bind(&c.color)
        .bind(&c.status)
        .bind(c.game_id.clone())
        .bind(c.created_at)
        .bind(i64::from(c.rated))
        .bind(c.time.columns()[0])
        .bind(c.time.columns()[1])
        .bind(c.time.columns()[2])
        .bind(i64::from(c.help))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, DbError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {CHALLENGE_COLUMNS} WHERE c.id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(challenge_row).transpose()?)
    }

    /// The open challenges a user may see: open to all, or from or to them. Visitors see the public ones.
    pub async fn open_challenges(&self, user_id: Option<&str>) -> Result<Vec<ChallengeRow>, DbError> {
        // The user's own challenges and those addressed to the user always come, whatever else is open; of
        // the open challenges to anyone, the newest 200.
        let mut rows = Vec::new();
        if let Some(me) = user_id {
            rows = sqlx::query(AssertSqlSafe(format!(
                "SELECT {CHALLENGE_COLUMNS} WHERE c.status = 'open' AND (c.creator = $1 OR c.target = $1) \
                 ORDER BY c.created_at DESC LIMIT 500"
            )))
            .bind(me)
            .fetch_all(&self.pool)
            .await?;
        }
        rows.extend(
            sqlx::query(AssertSqlSafe(format!(
                "SELECT {CHALLENGE_COLUMNS} WHERE c.status = 'open' AND c.target IS NULL AND c.creator <> $1 \
                 ORDER BY c.created_at DESC LIMIT 200"
            )))
            .bind(user_id.unwrap_or(""))
            .fetch_all(&self.pool)
            .await?,
        );
        let mut challenges = rows.iter().map(challenge_row).collect::<Result<Vec<_>, _>>()?;
        challenges.sort_by_key(|c| std::cmp::Reverse(c.created_at));
        Ok(challenges)
    }

    /// Closes an open challenge with a new status. Returns `false` if it was no longer open.
    pub async fn close_challenge(&self, id: &str, status: &str) -> Result<bool, DbError> {
        let r = sqlx::query("UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'")
            .bind(status)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Accepts an open challenge and creates its game, in one transaction. Returns `false` if the challenge
    /// was no longer open (someone else accepted it, or its creator cancelled it).
    pub async fn accept_challenge(&self, id: &str, game: &GameRow) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        let r = sqlx::query(
            "UPDATE challenges SET status = 'accepted', game_id = $1 WHERE id = $2 AND status = 'open'",
        )
        .bind(&game.id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Ok(false);
        }
        insert_game(&mut *tx, game).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Active games with an engine on one side or a live clock: at start the server wakes them so that
    /// engines to move move and clocks flag.
    pub async fn active_engine_games(&self) -> Result<Vec<String>, DbError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'active' AND (first_level IS NOT NULL OR second_level IS NOT NULL \
             OR clock_initial IS NOT NULL)",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get("id")).collect::<Result<_, _>>()?)
    }

    /// How many moves all games hold (the load benchmark checks that none was lost).
    pub async fn count_moves(&self) -> Result<u64, DbError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM actions WHERE kind = 'move'")
            .fetch_one(&self.pool)
            .await?;
        let n: i64 = row.try_get("n")?;
        Ok(u64::try_from(n).unwrap_or(0))
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

    /// How many moves one game holds.
    pub async fn count_game_moves(&self, game_id: &str) -> Result<u64, DbError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM actions WHERE game_id = $1 AND kind = 'move'")
            .bind(game_id)
            .fetch_one(&self.pool)
            .await?;
        let n: i64 = row.try_get("n")?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// A user by exact name in any case.
    pub async fn user_named(&self, name: &str) -> Result<Option<User>, DbError> {
        Ok(self.user_by_name(name).await?.map(|(u, _)| u))
    }
}

pub(crate) async fn insert_game<'e, E>(executor: E, g: &GameRow) -> Result<(), DbError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "INSERT INTO games (id, spec, game, first_user, second_user, first_level, second_level, status, turn, \
         winner, termination, version, created_at, updated_at, first_label, second_label, rated, clock_initial, \
         clock_increment, days_per_move, tournament_id, round, help) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, \
         $23)",
    )
    .bind(&g.id)
    .bind(&g.spec)
    .bind(&g.game)
    .bind(g.users[0].as_ref().map(|u| u.id.clone()))
    .bind(g.users[1].as_ref().map(|u| u.id.clone()))
    .bind(g.levels[0].map(i64::from))
    .bind(g.levels[1].map(i64::from))
    .bind(g.status.as_str())
    .bind(g.turn.map(Player::as_str))
    .bind(g.winner.map(Winner::as_str))
    .bind(g.termination.map(EndReason::as_str))
    .bind(g.version)
    .bind(g.created_at)
    .bind(g.updated_at)
    .bind(g.labels[0].clone())
    .bind(g.labels[1].clone())
    .bind(i64::from(g.rated))
    .bind(g.time.columns()[0])
    .bind(g.time.columns()[1])
    .bind(g.time.columns()[2])
    .bind(g.tournament.as_ref().map(|t| t.0.clone()))
    .bind(g.tournament.as_ref().map(|t| t.1))
    .bind(i64::from(g.help))
    .execute(executor)
    .await?;
    Ok(())
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
