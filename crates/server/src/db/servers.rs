//! What several servers on one PostgreSQL database share besides the games: the leases on games' timed work,
//! and who is online and watching on each server.

use super::{Db, DbError};

/// How long a lease lasts unless renewed; the holder renews it every second.
const LEASE_MS: i64 = 3_000;

/// Who holds a game's lease after a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lease {
    /// The claiming server.
    Held,
    /// Another server, until this time (ms) unless it renews the lease; 0 where the time is not known.
    Elsewhere { until_ms: i64 },
}

impl Db {
    /// Takes the lease on `game` for `process` until `now + LEASE_MS`, if it is free, expired or already
    /// `process`'s. A lease that another server holds is only read, not written: a claim that cannot succeed
    /// takes no lock and waits for no commit, so that a copy of the game on a server that does not hold it
    /// costs a read when it tries, not a write.
    pub async fn claim_lease(&self, game: &str, process: &str, now: i64) -> Result<Lease, DbError> {
        let held: Option<(String, i64)> =
            sqlx::query_as("SELECT process, until_ms FROM leases WHERE game_id = $1")
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
        if let Some((holder, until_ms)) = held
            && holder != process
            && until_ms >= now
        {
            return Ok(Lease::Elsewhere { until_ms });
        }
        let row = sqlx::query(
            "INSERT INTO leases (game_id, process, until_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id) DO UPDATE SET process = excluded.process, until_ms = excluded.until_ms \
             WHERE leases.until_ms < $4 OR leases.process = excluded.process \
             RETURNING process",
        )
        .bind(game)
        .bind(process)
        .bind(now + LEASE_MS)
        .bind(now)
        .fetch_optional(self.writing().await?.conn())
        .await?;
        // None: another server claimed it between the two statements.
        Ok(if row.is_some() {
            Lease::Held
        } else {
            Lease::Elsewhere { until_ms: 0 }
        })
    }

    /// Gives up `process`'s lease on `game`, if it holds it.
    pub async fn release_lease(&self, game: &str, process: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM leases WHERE game_id = $1 AND process = $2")
            .bind(game)
            .bind(process)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// Drops an expired lease on `game` whoever held it (the game needs no timed work any more).
    pub async fn drop_expired_lease(&self, game: &str, now: i64) -> Result<(), DbError> {
        sqlx::query("DELETE FROM leases WHERE game_id = $1 AND until_ms < $2")
            .bind(game)
            .bind(now)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// Extends every lease `process` holds.
    pub async fn renew_leases(&self, process: &str, now: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE leases SET until_ms = $1 WHERE process = $2")
            .bind(now + LEASE_MS)
            .bind(process)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// Gives up every lease of `process` (it is stopping): they expire now, rather than go, so that every
    /// other server's next sweep ([`Db::expired_leases`]) finds the games and takes them over, also those
    /// whose copies no move will wake.
    pub async fn release_leases(&self, process: &str) -> Result<(), DbError> {
        sqlx::query("UPDATE leases SET until_ms = 0 WHERE process = $1")
            .bind(process)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// The games whose lease has expired (their server stopped without giving them up).
    pub async fn expired_leases(&self, now: i64) -> Result<Vec<String>, DbError> {
        Ok(
            sqlx::query_scalar("SELECT game_id FROM leases WHERE until_ms < $1")
                .bind(now)
                .fetch_all(&self.pool)
                .await?,
        )
    }

    /// Records that `user` has a page open on `process` (`online`) or no longer has.
    pub async fn set_presence(
        &self,
        process: &str,
        user: &str,
        name: &str,
        online: bool,
    ) -> Result<(), DbError> {
        let q = if online {
            sqlx::query(
                "INSERT INTO presence (process, user_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(process)
            .bind(user)
            .bind(name)
        } else {
            sqlx::query("DELETE FROM presence WHERE process = $1 AND user_id = $2")
                .bind(process)
                .bind(user)
        };
        q.execute(self.writing().await?.conn()).await?;
        Ok(())
    }

    /// Records that `viewer` watches `game` on `process` (`watching`) or no longer does.
    pub async fn set_viewer(
        &self,
        process: &str,
        game: &str,
        viewer: &str,
        watching: bool,
    ) -> Result<(), DbError> {
        let q = if watching {
            "INSERT INTO viewers (process, game_id, viewer) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM viewers WHERE process = $1 AND game_id = $2 AND viewer = $3"
        };
        sqlx::query(q)
            .bind(process)
            .bind(game)
            .bind(viewer)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// The users online on the other servers that showed a sign of life after `alive_after`: (id, name).
    pub async fn remote_presence(
        &self,
        me: &str,
        alive_after: i64,
    ) -> Result<Vec<(String, String)>, DbError> {
        Ok(sqlx::query_as(
            "SELECT p.user_id, p.name FROM presence p JOIN heartbeats h ON h.process = p.process \
             WHERE p.process <> $1 AND h.at > $2",
        )
        .bind(me)
        .bind(alive_after)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The viewers of games on the other servers that showed a sign of life after `alive_after`: (game,
    /// viewer), of one game or of all.
    pub async fn remote_viewers(
        &self,
        me: &str,
        alive_after: i64,
        game: Option<&str>,
    ) -> Result<Vec<(String, String)>, DbError> {
        Ok(sqlx::query_as(
            "SELECT v.game_id, v.viewer FROM viewers v JOIN heartbeats h ON h.process = v.process \
             WHERE v.process <> $1 AND h.at > $2 AND ($3 = '' OR v.game_id = $3)",
        )
        .bind(me)
        .bind(alive_after)
        .bind(game.unwrap_or(""))
        .fetch_all(&self.pool)
        .await?)
    }

    /// Removes the presence and viewer rows of servers with no sign of life after `alive_after`.
    pub async fn purge_gone_servers(&self, alive_after: i64) -> Result<u64, DbError> {
        let mut n = 0;
        for table in ["presence", "viewers"] {
            n += sqlx::query(sqlx::AssertSqlSafe(format!(
                "DELETE FROM {table} WHERE process NOT IN (SELECT process FROM heartbeats WHERE at > $1)"
            )))
            .bind(alive_after)
            .execute(self.writing().await?.conn())
            .await?
            .rows_affected();
        }
        Ok(n)
    }
}

/// The PostgreSQL channel on which the servers of one database tell each other what they committed (the
/// notices' format is the bus's, `bus.rs`; the writer sends them in the transactions they tell of).
pub const CHANNEL: &str = "gridplay";

/// The most bytes of notices sent in one `pg_notify` (PostgreSQL takes payloads under 8,000 bytes).
const NOTICE_BYTES: usize = 7_000;

/// Notices (each one or more whole lines) joined one a line into as few payloads as fit in [`NOTICE_BYTES`];
/// a notice is never split, so one longer than that goes alone (and PostgreSQL refuses it if it is too long).
pub fn pack<S: AsRef<str>>(notices: &[S]) -> Vec<String> {
    let mut payloads = Vec::new();
    let mut payload = String::new();
    for notice in notices.iter().map(AsRef::as_ref) {
        if !payload.is_empty() && payload.len() + 1 + notice.len() > NOTICE_BYTES {
            payloads.push(std::mem::take(&mut payload));
        }
        if !payload.is_empty() {
            payload.push('\n');
        }
        payload.push_str(notice);
    }
    if !payload.is_empty() {
        payloads.push(payload);
    }
    payloads
}

#[cfg(test)]
mod tests {
    use super::{NOTICE_BYTES, pack};

    #[test]
    fn notices_are_packed_whole_into_payloads_that_fit() {
        assert!(pack::<&str>(&[]).is_empty());
        assert_eq!(pack(&["a", "b\nc", "d"]), ["a\nb\nc\nd"]);
        let long = "x".repeat(4_000);
        let payloads = pack(&[long.as_str(), "y", long.as_str(), long.as_str()]);
        assert_eq!(payloads, [format!("{long}\ny"), long.clone(), long]);
        assert!(payloads.iter().all(|p| p.len() <= NOTICE_BYTES));
        let huge = "z".repeat(NOTICE_BYTES + 1);
        assert_eq!(pack(&["a", huge.as_str(), "b"]), ["a", huge.as_str(), "b"]);
    }
}
