//! Stored analyses, the counts behind the quotas, the lines of the games in play, the servers' heartbeats and
//! the spans when none ran, and the purge of expired rows.

use super::{Db, DbError, is_unique_violation};

/// How long the spans when no server ran are kept: longer than any correspondence game waits for a move.
const KEEP_DOWNTIMES_MS: i64 = 90 * 24 * 3_600_000;
/// An account's network address is kept this long after it was last seen there (the fair-play rule's).
const KEEP_ADDRESSES_MS: i64 = 30 * 24 * 3_600_000;
/// A heartbeat older than this belongs to a server that has stopped.
const HEARTBEAT_STALE_MS: i64 = 24 * 3_600_000;

/// What one purge removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Purged {
    pub sessions: u64,
    pub heartbeats: u64,
    pub downtimes: u64,
    pub addresses: u64,
}

impl Db {
    /// Sends a PostgreSQL notice on the bus's channel (delivered to listeners when this statement's
    /// transaction commits).
    pub async fn notify(&self, payload: &str) -> Result<(), DbError> {
        super::writer::notify(&mut *self.pool.acquire().await?, payload).await?;
        Ok(())
    }

    /// The stored analysis of a game (JSON), if it was computed.
    pub async fn stored_analysis(&self, game_id: &str) -> Result<Option<String>, DbError> {
        Ok(sqlx::query_scalar("SELECT body FROM analyses WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Stores a game's analysis; a second store of the same game keeps the first.
    pub async fn store_analysis(&self, game_id: &str, body: &str) -> Result<(), DbError> {
        let r = sqlx::query("INSERT INTO analyses (game_id, body, created_at) VALUES ($1, $2, $3)")
            .bind(game_id)
            .bind(body)
            .bind(super::now_ms())
            .execute(self.writing().await?.conn())
            .await;
        match r {
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// The moves of every game in play with this spec, in the order played (a game with takebacks lists the
    /// moves taken back too).
    pub async fn lines_in_play(&self, spec: &str) -> Result<Vec<(String, Vec<String>)>, DbError> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT a.game_id, a.body FROM actions a JOIN games g ON g.id = a.game_id \
             WHERE g.status = 'active' AND g.spec = $1 AND a.kind = 'move' ORDER BY a.game_id, a.seq",
        )
        .bind(spec)
        .fetch_all(&self.pool)
        .await?;
        let mut lines: Vec<(String, Vec<String>)> = Vec::new();
        for (game, body) in rows {
            match lines.last_mut() {
                Some((g, moves)) if *g == game => moves.push(body),
                _ => lines.push((game, vec![body])),
            }
        }
        Ok(lines)
    }

    /// How many open challenges a user has made.
    pub async fn open_challenges_of(&self, user_id: &str) -> Result<u64, DbError> {
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) AS n FROM challenges WHERE creator = $1 AND status = 'open'")
                .bind(user_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// How many tournaments a user has created since `since` (Unix ms).
    pub async fn tournaments_created_since(&self, user_id: &str, since: i64) -> Result<u64, DbError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) AS n FROM tournaments WHERE creator = $1 AND created_at >= $2",
        )
        .bind(user_id)
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Whether every migration this build knows is applied (for readiness; a newer server may have applied
    /// more). A query that fails means the database cannot be reached.
    pub async fn migrations_applied(&self) -> Result<bool, DbError> {
        let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
            .fetch_all(&self.pool)
            .await?;
        Ok(super::migrator(self.schema)
            .iter()
            .all(|m| !m.migration_type.is_up_migration() || applied.contains(&m.version)))
    }

    /// Records that the server `process` is alive at `at`.
    pub async fn heartbeat(&self, process: &str, at: i64) -> Result<(), DbError> {
        let r = sqlx::query("UPDATE heartbeats SET at = $1 WHERE process = $2")
            .bind(at)
            .bind(process)
            .execute(self.writing().await?.conn())
            .await?;
        if r.rows_affected() == 0 {
            sqlx::query("INSERT INTO heartbeats (process, at) VALUES ($1, $2)")
                .bind(process)
                .bind(at)
                .execute(self.writing().await?.conn())
                .await?;
        }
        Ok(())
    }

    /// At a server's start (`now`): if no server has shown a sign of life for more than `slack` ms, the span
    /// from the last one to `now` is recorded as a downtime and returned.
    pub async fn record_downtime(&self, now: i64, slack: i64) -> Result<Option<(i64, i64)>, DbError> {
        let last: Option<i64> = sqlx::query_scalar("SELECT MAX(at) AS at FROM heartbeats")
            .fetch_one(&self.pool)
            .await?;
        let Some(last) = last else {
            return Ok(None);
        };
        if now - last <= slack {
            return Ok(None);
        }
        sqlx::query("INSERT INTO downtimes (from_ms, to_ms) VALUES ($1, $2)")
            .bind(last)
            .bind(now)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(Some((last, now)))
    }

    /// The time between `from` and `to` when no server ran, in ms.
    pub async fn downtime_between(&self, from: i64, to: i64) -> Result<i64, DbError> {
        let rows: Vec<(i64, i64)> =
            sqlx::query_as("SELECT from_ms, to_ms FROM downtimes WHERE to_ms > $1 AND from_ms < $2")
                .bind(from)
                .bind(to)
                .fetch_all(&self.pool)
                .await?;
        let mut total = 0;
        for (a, b) in rows {
            total += (b.min(to) - a.max(from)).max(0);
        }
        Ok(total)
    }

    /// Removes expired sessions, the heartbeats of servers gone for a day, and downtimes too old to matter.
    pub async fn purge(&self, now: i64) -> Result<Purged, DbError> {
        let sessions = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(self.writing().await?.conn())
            .await?
            .rows_affected();
        let heartbeats = sqlx::query("DELETE FROM heartbeats WHERE at < $1")
            .bind(now - HEARTBEAT_STALE_MS)
            .execute(self.writing().await?.conn())
            .await?
            .rows_affected();
        let downtimes = sqlx::query("DELETE FROM downtimes WHERE to_ms < $1")
            .bind(now - KEEP_DOWNTIMES_MS)
            .execute(self.writing().await?.conn())
            .await?
            .rows_affected();
        let addresses = sqlx::query("DELETE FROM seen_addresses WHERE seen_at < $1")
            .bind(now - KEEP_ADDRESSES_MS)
            .execute(self.writing().await?.conn())
            .await?
            .rows_affected();
        Ok(Purged {
            sessions,
            heartbeats,
            downtimes,
            addresses,
        })
    }
}
