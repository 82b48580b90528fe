//! The writer of game actions: one task that takes every action waiting, and every new game, writes them in
//! one transaction (a group commit) and answers each after the commit.

use std::{
    collections::HashMap,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use gridplay_core::Player;
use sqlx::{Any, AnyConnection, AnyPool, Connection as _, pool::PoolConnection};
use tokio::sync::{mpsc, oneshot};

use super::{
    ActionRow, Backend, EndReason, GameRow, GameStatus, RateJob, Winner, is_unique_violation, placeholders,
    ratings,
};

/// The writer's work so far: its commits, the actions in them, and the time it spent on them.
#[derive(Debug, Default)]
pub struct WriterStats {
    pub(super) commits: AtomicU64,
    pub(super) actions: AtomicU64,
    pub(super) busy_ns: AtomicU64,
}

/// A reading of `WriterStats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriterCounts {
    pub commits: u64,
    pub actions: u64,
    /// Wall time from each group's start to its answers, in ns (time the writer waited for a core included).
    pub busy_ns: u64,
}

impl WriterCounts {
    /// What was done between `before` and `self`.
    #[must_use]
    pub fn since(self, before: WriterCounts) -> WriterCounts {
        WriterCounts {
            commits: self.commits - before.commits,
            actions: self.actions - before.actions,
            busy_ns: self.busy_ns - before.busy_ns,
        }
    }
}

/// What waits for a writer: an action, or a new game (created in the same group as the actions waiting, so
/// that a game made while moves are being written costs no commit of its own).
#[derive(Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "an action is nearly every job: boxing it would cost an allocation a move, for a rare new game"
)]
pub(super) enum Job {
    Action(WriteJob),
    Create(CreateJob),
}

/// A new game waiting to be written.
#[derive(Debug)]
pub(super) struct CreateJob {
    pub(super) game: Box<GameRow>,
    pub(super) done: oneshot::Sender<Result<(), WriteError>>,
}

/// One action waiting to be written.
#[derive(Debug)]
pub(super) struct WriteJob {
    pub(super) game_id: String,
    pub(super) action: ActionRow,
    pub(super) status: GameStatus,
    pub(super) turn: Option<Player>,
    pub(super) winner: Option<Winner>,
    pub(super) termination: Option<EndReason>,
    /// The game ended rated: the players' ratings change in the same transaction.
    pub(super) rate: Option<RateJob>,
    /// The game ended between two accounts: the opening explorer counts it in the same transaction.
    pub(super) explore: Option<super::explorer::ExploreJob>,
    /// A notice for the other servers (its text made by the bus), sent by the same transaction, so that it is delivered when
    /// the action is committed and only then.
    pub(super) notice: Option<String>,
    pub(super) done: oneshot::Sender<Result<(), WriteError>>,
}

/// Why a job was not written: a conflict (the action's number is taken) or anything else.
#[derive(Debug)]
pub(super) enum WriteError {
    Conflict,
    Other(String),
}

impl From<sqlx::Error> for WriteError {
    fn from(e: sqlx::Error) -> WriteError {
        if is_unique_violation(&e) {
            WriteError::Conflict
        } else {
            WriteError::Other(e.to_string())
        }
    }
}

/// The most actions one group commit takes.
pub(super) const GROUP_MAX: usize = 1024;

/// The most rows one of the writer's statements takes. Each size of statement is prepared once per connection,
/// so this also bounds the number of kept statements.
const ROWS_MAX: usize = 32;

/// `INSERT INTO actions ... VALUES ...` for `rows` actions, their parameters numbered from `first`.
fn insert_sql(backend: Backend, rows: usize, first: usize) -> String {
    format!(
        "INSERT INTO actions (game_id, seq, side, kind, body, created_at, clock) VALUES {}",
        placeholders(rows, 7, first, |_, n| backend.placeholder(n))
    )
}

/// Binds the parameters of [`insert_sql`] for `jobs`.
fn bind_inserts<'q>(
    mut q: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments>,
    jobs: &'q [WriteJob],
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments> {
    for job in jobs {
        let a = &job.action;
        q = q
            .bind(&job.game_id)
            .bind(a.seq)
            .bind(a.side.as_str())
            .bind(a.kind.as_str())
            .bind(&a.body)
            .bind(a.at)
            .bind(a.clock);
    }
    q
}

/// Each game's job with the highest number (a game may have several jobs in a group).
fn latest_per_game(jobs: &[WriteJob]) -> Vec<&WriteJob> {
    let mut latest: HashMap<&str, &WriteJob> = HashMap::with_capacity(jobs.len());
    for job in jobs {
        let slot = latest.entry(job.game_id.as_str()).or_insert(job);
        if job.action.seq > slot.action.seq {
            *slot = job;
        }
    }
    latest.into_values().collect()
}

/// `UPDATE games ... FROM (VALUES ...)` (which SQLite and PostgreSQL both read) for `rows` games, their
/// parameters numbered from `first`. A game's row never goes back to an older version (an action committed
/// in a later group than a newer one).
fn update_sql(backend: Backend, rows: usize, first: usize) -> String {
    // The values' types, for PostgreSQL, which does not infer them from the column they are compared to.
    const TYPES: [&str; 7] = ["TEXT", "BIGINT", "TEXT", "TEXT", "TEXT", "BIGINT", "TEXT"];
    format!(
        "UPDATE games SET version = v.column2, status = v.column3, winner = v.column4, \
         termination = v.column5, updated_at = v.column6, turn = v.column7 FROM (VALUES {}) AS v \
         WHERE games.id = v.column1 AND games.version < v.column2",
        placeholders(rows, 7, first, |i, n| format!(
            "CAST({} AS {})",
            backend.placeholder(n),
            TYPES[i]
        ))
    )
}

/// Binds the parameters of [`update_sql`] for `jobs`.
fn bind_updates<'q>(
    mut q: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments>,
    jobs: &[&'q WriteJob],
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments> {
    for job in jobs {
        q = q
            .bind(&job.game_id)
            .bind(job.action.seq)
            .bind(job.status.as_str())
            .bind(job.winner.map(Winner::as_str))
            .bind(job.termination.map(EndReason::as_str))
            .bind(job.action.at)
            .bind(job.turn.map(Player::as_str));
    }
    q
}

/// Inserts the jobs' actions in multi-row statements (a statement's fixed cost, paid once for up to
/// [`ROWS_MAX`] rows, is most of a small row's cost).
async fn insert_actions(
    conn: &mut sqlx::AnyConnection,
    backend: Backend,
    jobs: &[WriteJob],
) -> Result<(), sqlx::Error> {
    for chunk in jobs.chunks(ROWS_MAX) {
        let q = sqlx::query(sqlx::AssertSqlSafe(insert_sql(backend, chunk.len(), 1)));
        bind_inserts(q, chunk).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Updates the jobs' games, several in one statement.
async fn update_games(
    conn: &mut sqlx::AnyConnection,
    backend: Backend,
    jobs: &[WriteJob],
) -> Result<(), sqlx::Error> {
    let last = latest_per_game(jobs);
    for chunk in last.chunks(ROWS_MAX) {
        let q = sqlx::query(sqlx::AssertSqlSafe(update_sql(backend, chunk.len(), 1)));
        bind_updates(q, chunk).execute(&mut *conn).await?;
    }
    Ok(())
}

/// On PostgreSQL, a group of at most [`ROWS_MAX`] actions that changes no ratings and whose notices fit in
/// one payload is written by one statement, its own transaction: the actions inserted, the games updated and
/// the notice sent by data-modifying `WITH` clauses: one round trip instead of five (begin, insert, update,
/// notify, commit), which counts most where several servers make each writer's groups small.
async fn write_in_one_statement(
    conn: &mut AnyConnection,
    jobs: &[WriteJob],
    payload: Option<&str>,
) -> Result<(), sqlx::Error> {
    let last = latest_per_game(jobs);
    let after_inserts = 1 + 7 * jobs.len();
    let after_updates = after_inserts + 7 * last.len();
    let sql = format!(
        "WITH a AS ({}), g AS ({}) SELECT {}",
        insert_sql(Backend::Postgres, jobs.len(), 1),
        update_sql(Backend::Postgres, last.len(), after_inserts),
        if payload.is_some() {
            format!("pg_notify(${after_updates}, ${})", after_updates + 1)
        } else {
            "1".to_owned()
        }
    );
    let mut q = bind_updates(bind_inserts(sqlx::query(sqlx::AssertSqlSafe(sql)), jobs), &last);
    if let Some(p) = payload {
        q = q.bind(super::CHANNEL).bind(p);
    }
    q.execute(conn).await?;
    Ok(())
}

async fn write_group(
    conn: &mut AnyConnection,
    backend: Backend,
    creates: &[CreateJob],
    jobs: &[WriteJob],
) -> Result<(), sqlx::Error> {
    // The group's notices, one a line, in as few payloads as fit.
    let notices: Vec<&str> = jobs.iter().filter_map(|j| j.notice.as_deref()).collect();
    let payloads = super::pack(&notices);
    if backend == Backend::Postgres
        && creates.is_empty()
        && jobs.len() <= ROWS_MAX
        && payloads.len() <= 1
        && jobs.iter().all(|j| j.rate.is_none() && j.explore.is_none())
    {
        return write_in_one_statement(conn, jobs, payloads.first().map(String::as_str)).await;
    }
    let mut tx = conn.begin().await?;
    // A game's first actions may be in the group that creates it.
    for create in creates {
        insert_game(&mut *tx, &create.game).await?;
    }
    insert_actions(&mut tx, backend, jobs).await?;
    update_games(&mut tx, backend, jobs).await?;
    // The explorer reads the players' ratings before the group's rated games change them.
    let explore: Vec<&super::explorer::ExploreJob> = jobs.iter().filter_map(|j| j.explore.as_ref()).collect();
    super::explorer::record(&mut tx, &explore).await?;
    for job in jobs {
        if let Some(rate) = &job.rate {
            ratings::apply(&mut tx, backend, &job.game_id, rate, job.action.at).await?;
        }
    }
    for payload in payloads {
        notify(&mut tx, &payload).await?;
    }
    tx.commit().await
}

pub(super) async fn notify(conn: &mut sqlx::AnyConnection, payload: &str) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(super::CHANNEL)
        .bind(payload)
        .execute(conn)
        .await?;
    Ok(())
}

/// The writer's connection. Where the writer has a pool of its own (a SQLite file, PostgreSQL) it keeps its
/// connection between groups: a connection given back to a pool is put back by a task of the pool's, and on a
/// busy server the next group waited for that task to run longer than for its own statements. A connection
/// idle for [`IDLE_CHECK`] goes back to the pool, which tests it before it is taken again (a database that
/// restarted while the server was quiet costs no one a move), and so does one after an error.
struct Connection {
    pool: AnyPool,
    keep: bool,
    held: Option<(PoolConnection<Any>, Instant)>,
}

/// How long a kept connection may stay unused before the pool tests it again.
const IDLE_CHECK: Duration = Duration::from_secs(1);

impl Connection {
    async fn write(
        &mut self,
        backend: Backend,
        creates: &[CreateJob],
        jobs: &[WriteJob],
    ) -> Result<(), sqlx::Error> {
        // An idle connection is dropped here, which gives it back to the pool before the pool is asked.
        let kept = self.held.take().filter(|(_, used)| used.elapsed() < IDLE_CHECK);
        let mut conn = match kept {
            Some((conn, _)) => conn,
            None => self.pool.acquire().await?,
        };
        let result = write_group(&mut conn, backend, creates, jobs).await;
        if self.keep && result.is_ok() {
            self.held = Some((conn, Instant::now()));
        }
        result
    }
}

/// Starts the writer on a thread of its own, with a runtime and a connection to `url` of its own. Each of the
/// writer's statements is a round trip to the database (to SQLite's worker thread, or PostgreSQL's socket),
/// and on the server's runtime the writer waited after each, behind every other task ready to run, for its
/// turn to send the next: with thousands of pages that wait was most of a group's time.
pub(super) async fn start_thread(
    url: String,
    writer: Writer,
    rx: mpsc::Receiver<Job>,
) -> Result<(), sqlx::Error> {
    let (ready_tx, ready_rx) = oneshot::channel();
    std::thread::Builder::new()
        .name("gridplay-writer".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(runtime) => runtime,
                Err(e) => {
                    let _ = ready_tx.send(Err(sqlx::Error::Io(e)));
                    return;
                }
            };
            runtime.block_on(async move {
                match super::pool_options(writer.backend, 1).connect(&url).await {
                    Ok(pool) => {
                        let _ = ready_tx.send(Ok(()));
                        run(pool.clone(), true, writer, rx).await;
                        pool.close().await;
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                }
            });
        })
        .map_err(sqlx::Error::Io)?;
    ready_rx.await.map_err(|_| sqlx::Error::WorkerCrashed)?
}

/// What a writer task needs besides its connections.
pub(super) struct Writer {
    pub(super) backend: Backend,
    pub(super) stats: Arc<WriterStats>,
    /// On SQLite, the turn to write, which the writer takes for each group as every other write does.
    pub(super) gate: super::WriteGate,
}

/// The writer task: takes every job waiting, commits them together, and answers each. `keep`: the pool is
/// the writer's alone, so it keeps its connection.
pub(super) async fn run(pool: AnyPool, keep: bool, writer: Writer, mut rx: mpsc::Receiver<Job>) {
    let Writer { backend, stats, gate } = writer;
    let mut conn = Connection {
        pool,
        keep,
        held: None,
    };
    let mut taken = Vec::with_capacity(GROUP_MAX);
    let mut creates = Vec::new();
    let mut jobs = Vec::with_capacity(GROUP_MAX);
    while rx.recv_many(&mut taken, GROUP_MAX).await > 0 {
        let started = Instant::now();
        // What waits behind the group a writer takes (with several writers, the one that took a group last).
        metrics::gauge!(crate::telemetry::DB_QUEUE).set(rx.len() as f64);
        for job in taken.drain(..) {
            match job {
                Job::Action(job) => jobs.push(job),
                Job::Create(job) => creates.push(job),
            }
        }
        stats.commits.fetch_add(1, Ordering::Relaxed);
        stats.actions.fetch_add(jobs.len() as u64, Ordering::Relaxed);
        let turn = gate.turn().await;
        let written = conn.write(backend, &creates, &jobs).await;
        // Recorded before anyone hears of the commit, so that a reader who has an ack sees it counted.
        metrics::histogram!(crate::telemetry::DB_COMMIT_SECONDS).record(started.elapsed().as_secs_f64());
        match written {
            Ok(()) => {
                for job in creates.drain(..) {
                    let _ = job.done.send(Ok(()));
                }
                for job in jobs.drain(..) {
                    let _ = job.done.send(Ok(()));
                }
            }
            // One bad job must not sink the others: write each alone, the new games first (a game's
            // actions may follow its creation in the same group).
            Err(_) if creates.len() + jobs.len() > 1 => {
                for job in creates.drain(..) {
                    let r = conn
                        .write(backend, std::slice::from_ref(&job), &[])
                        .await
                        .map_err(WriteError::from);
                    let _ = job.done.send(r);
                }
                for job in jobs.drain(..) {
                    let r = conn
                        .write(backend, &[], std::slice::from_ref(&job))
                        .await
                        .map_err(WriteError::from);
                    let _ = job.done.send(r);
                }
            }
            Err(e) => {
                let conflict = is_unique_violation(&e);
                let error = || {
                    if conflict {
                        WriteError::Conflict
                    } else {
                        WriteError::Other(e.to_string())
                    }
                };
                for job in creates.drain(..) {
                    let _ = job.done.send(Err(error()));
                }
                for job in jobs.drain(..) {
                    let _ = job.done.send(Err(error()));
                }
            }
        }
        drop(turn);
        stats.busy_ns.fetch_add(
            u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }
}

/// Inserts a new game's row (in a transaction of the caller's, or the writer's group).
pub(crate) async fn insert_game<'e, E>(executor: E, g: &GameRow) -> Result<(), sqlx::Error>
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
