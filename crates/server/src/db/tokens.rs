//! Personal API tokens: kept by their SHA-256 (`session_key`), with their name, scopes (words separated by
//! spaces) and when each was made and last used.

use super::{Db, DbError, User, now_ms, session_key};
use crate::ids;

/// A token as its owner's list shows it (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TokenRow {
    pub id: String,
    pub name: String,
    /// Its scopes, separated by spaces.
    pub scopes: String,
    pub created_at: i64,
    /// 0: never used.
    pub last_used_at: i64,
}

/// The user a token acts for, and what it may do.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TokenUser {
    #[sqlx(flatten)]
    pub user: User,
    pub token_id: String,
    pub scopes: String,
}

/// How often a token's last use is written, at most (ms): a program that sends a request a second does not
/// write a row a second.
const TOUCH_MS: i64 = 60_000;

/// A token's user, with when the token was last used.
#[derive(sqlx::FromRow)]
struct Found {
    #[sqlx(flatten)]
    found: TokenUser,
    last_used_at: i64,
}

impl Db {
    /// Keeps a new token of `user` (its SHA-256 only) and returns its id.
    pub async fn add_token(
        &self,
        user: &str,
        name: &str,
        scopes: &str,
        token: &str,
    ) -> Result<String, DbError> {
        let id = ids::short(12);
        sqlx::query(
            "INSERT INTO api_tokens (id, user_id, name, scopes, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(user)
        .bind(name)
        .bind(scopes)
        .bind(session_key(token))
        .bind(now_ms())
        .execute(self.writing().await?.conn())
        .await?;
        Ok(id)
    }

    /// A user's tokens that are not revoked, newest first.
    pub async fn tokens(&self, user: &str) -> Result<Vec<TokenRow>, DbError> {
        Ok(sqlx::query_as(
            "SELECT id, name, scopes, created_at, last_used_at FROM api_tokens \
             WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Revokes one of a user's tokens; `false` if the user has no such token in use.
    pub async fn revoke_token(&self, user: &str, id: &str) -> Result<bool, DbError> {
        let r = sqlx::query(
            "UPDATE api_tokens SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL",
        )
        .bind(id)
        .bind(user)
        .bind(now_ms())
        .execute(self.writing().await?.conn())
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The user a token acts for (not revoked, its account not closed), its last use recorded.
    pub async fn token_user(&self, token: &str) -> Result<Option<TokenUser>, DbError> {
        let row: Option<Found> = sqlx::query_as(
            "SELECT t.id AS token_id, t.scopes, t.last_used_at, u.id, u.name, u.bot FROM api_tokens t \
             JOIN users u ON u.id = t.user_id WHERE t.hash = $1 AND t.revoked_at IS NULL AND u.closed = 0",
        )
        .bind(session_key(token))
        .fetch_optional(&self.pool)
        .await?;
        let Some(Found { found, last_used_at }) = row else {
            return Ok(None);
        };
        let now = now_ms();
        if last_used_at < now - TOUCH_MS {
            sqlx::query("UPDATE api_tokens SET last_used_at = $2 WHERE id = $1")
                .bind(&found.token_id)
                .bind(now)
                .execute(self.writing().await?.conn())
                .await?;
        }
        Ok(Some(found))
    }
}
