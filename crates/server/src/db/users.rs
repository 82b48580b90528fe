//! Accounts and their sessions.

use super::{Db, DbError, columns::Flag, is_unique_violation, now_ms};

/// A user as the other parts of the server see one.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct User {
    pub id: String,
    pub name: String,
    /// A bot account: it plays through the bot API only, and is marked as a bot wherever its name is shown.
    #[sqlx(try_from = "Flag")]
    pub bot: bool,
}

/// A user's row with the password hash.
#[derive(sqlx::FromRow)]
struct WithHash {
    #[sqlx(flatten)]
    user: User,
    password_hash: String,
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

impl Db {
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
        .execute(self.writing().await?.conn())
        .await;
        match r {
            Ok(_) => Ok(true),
            Err(e) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// The user of that name (in any case) with the password hash.
    pub async fn user_by_name(&self, name: &str) -> Result<Option<(User, String)>, DbError> {
        let row: Option<WithHash> =
            sqlx::query_as("SELECT id, name, bot, password_hash FROM users WHERE name_key = $1")
                .bind(name.to_lowercase())
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| (r.user, r.password_hash)))
    }

    /// Stores a session under the hash of its token (`session_key`).
    pub async fn create_session(&self, token: &str, user_id: &str, expires_at: i64) -> Result<(), DbError> {
        sqlx::query("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
            .bind(session_key(token))
            .bind(user_id)
            .bind(now_ms())
            .bind(expires_at)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// The user of a session that has not expired.
    pub async fn session_user(&self, token: &str) -> Result<Option<User>, DbError> {
        Ok(sqlx::query_as(
            "SELECT u.id, u.name, u.bot FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.id = $1 AND s.expires_at > $2 AND u.closed = 0",
        )
        .bind(session_key(token))
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Records that `user_id` was seen at network address `address` now.
    pub async fn see_address(&self, user_id: &str, address: &str, now: i64) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO seen_addresses (user_id, address, seen_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id, address) DO UPDATE SET seen_at = excluded.seen_at",
        )
        .bind(user_id)
        .bind(address)
        .bind(now)
        .execute(self.writing().await?.conn())
        .await?;
        Ok(())
    }

    /// Sets a user's password hash.
    pub async fn set_password(&self, user_id: &str, hash: &str) -> Result<(), DbError> {
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(hash)
            .bind(user_id)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// Ends every session of a user but `keep` (the one making the request, where it stays signed in).
    pub async fn delete_sessions_of(&self, user_id: &str, keep: Option<&str>) -> Result<u64, DbError> {
        let r = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
            .bind(user_id)
            .bind(keep.map(session_key).unwrap_or_default())
            .execute(self.writing().await?.conn())
            .await?;
        Ok(r.rows_affected())
    }

    /// Deletes an account: the user can no longer sign in, every session ends, open challenges made by or to
    /// the user are cancelled, and the name becomes `tombstone` (`deleted-…`, a name no one can sign up
    /// with), so that the user's games stay, shown as a deleted player's, and the old name is free again. What
    /// the user said in games' chats is deleted, and the user's API tokens revoked.
    pub async fn delete_account(&self, user_id: &str, tombstone: &str) -> Result<(), DbError> {
        let mut writing = self.writing().await?;
        let mut tx = writing.begin().await?;
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
        sqlx::query("DELETE FROM chat_lines WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE api_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL")
            .bind(user_id)
            .bind(now_ms())
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
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// A user by exact name in any case.
    pub async fn user_named(&self, name: &str) -> Result<Option<User>, DbError> {
        Ok(self.user_by_name(name).await?.map(|(u, _)| u))
    }

    /// The names of the bot accounts (at most the first 10,000 by name), to mark them in lists of names.
    pub async fn bot_names(&self) -> Result<std::collections::HashSet<String>, DbError> {
        let names: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM users WHERE bot = 1 AND closed = 0 ORDER BY name_key LIMIT 10000",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(names.into_iter().collect())
    }

    /// Makes an account a bot, if it has no games. Returns whether it did.
    pub async fn make_bot(&self, user_id: &str) -> Result<bool, DbError> {
        let r = sqlx::query(
            "UPDATE users SET bot = 1 WHERE id = $1 AND bot = 0 AND NOT EXISTS \
             (SELECT 1 FROM games WHERE first_user = $1 OR second_user = $1)",
        )
        .bind(user_id)
        .execute(self.writing().await?.conn())
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Whether a user has played or is playing any game.
    pub async fn has_games(&self, user_id: &str) -> Result<bool, DbError> {
        let row = sqlx::query("SELECT 1 AS one FROM games WHERE first_user = $1 OR second_user = $1 LIMIT 1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }
}
