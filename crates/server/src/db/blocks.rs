//! Blocks between accounts: who blocks whom, kept until lifted.

use super::{Db, DbError};

impl Db {
    /// `blocker` blocks `blocked` (again: nothing changes).
    pub async fn block(&self, blocker: &str, blocked: &str, now: i64) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO blocks (blocker, blocked, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (blocker, blocked) DO NOTHING",
        )
        .bind(blocker)
        .bind(blocked)
        .bind(now)
        .execute(self.writing().await?.conn())
        .await?;
        Ok(())
    }

    /// `blocker` lifts its block of `blocked`, if any.
    pub async fn unblock(&self, blocker: &str, blocked: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
            .bind(blocker)
            .bind(blocked)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// Whether `blocker` blocks `blocked`.
    pub async fn blocks(&self, blocker: &str, blocked: &str) -> Result<bool, DbError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM blocks WHERE blocker = $1 AND blocked = $2")
            .bind(blocker)
            .bind(blocked)
            .fetch_one(&self.pool)
            .await?;
        Ok(n > 0)
    }

    /// Whether either of `a` and `b` blocks the other.
    pub async fn blocked_between(&self, a: &str, b: &str) -> Result<bool, DbError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM blocks WHERE (blocker = $1 AND blocked = $2) OR (blocker = $2 AND blocked = $1)",
        )
        .bind(a)
        .bind(b)
        .fetch_one(&self.pool)
        .await?;
        Ok(n > 0)
    }

    /// The accounts `user` blocks.
    pub async fn blocked_by(&self, user: &str) -> Result<Vec<String>, DbError> {
        Ok(
            sqlx::query_scalar("SELECT blocked FROM blocks WHERE blocker = $1")
                .bind(user)
                .fetch_all(&self.pool)
                .await?,
        )
    }

    /// The accounts `user` blocks or is blocked by.
    pub async fn blocked_either_way(&self, user: &str) -> Result<Vec<String>, DbError> {
        Ok(sqlx::query_scalar(
            "SELECT blocked FROM blocks WHERE blocker = $1 UNION SELECT blocker FROM blocks WHERE blocked = $1",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?)
    }
}
