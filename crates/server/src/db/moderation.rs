//! Moderation: admins, reports, and the actions admins take on accounts, each recorded with who took it and
//! why.

use super::{Db, DbError, ModKind, columns::Flag, now_ms};
use crate::ids;

/// One moderation action to take: what, why, and what it needs.
#[derive(Clone, Debug)]
pub struct Act<'a> {
    pub kind: ModKind,
    /// Why, as the history shows it (the player reads a warning's).
    pub reason: &'a str,
    /// What it did, as the history shows it: a mute's length, the old and new names, the report closed.
    pub detail: String,
    /// A mute's end, Unix ms.
    pub until: Option<i64>,
    /// A rename's new name.
    pub new_name: Option<&'a str>,
}

impl<'a> Act<'a> {
    #[must_use]
    pub fn new(kind: ModKind, reason: &'a str) -> Act<'a> {
        Act {
            kind,
            reason,
            detail: String::new(),
            until: None,
            new_name: None,
        }
    }
}

/// An account as moderation sees it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Standing {
    pub id: String,
    pub name: String,
    #[sqlx(try_from = "Flag")]
    pub admin: bool,
    #[sqlx(try_from = "Flag")]
    pub closed: bool,
    #[sqlx(try_from = "Flag")]
    pub engine: bool,
    /// A bot account.
    #[sqlx(try_from = "Flag")]
    pub bot: bool,
    /// Unix ms until which the player may not chat; 0 or past: not muted.
    pub muted_until: i64,
}

/// One recorded action.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ModAction {
    pub id: String,
    /// The admin's name, or `None` for the server's command line.
    #[sqlx(rename = "admin_name")]
    pub admin: Option<String>,
    pub kind: ModKind,
    pub reason: String,
    pub detail: String,
    #[sqlx(rename = "created_at")]
    pub at: i64,
}

/// A report, with the names it refers to.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Report {
    pub id: String,
    pub reporter: String,
    #[sqlx(rename = "target")]
    pub target_id: String,
    #[sqlx(rename = "target_name")]
    pub target: String,
    pub game: Option<String>,
    /// The chat line reported, if any (its id).
    #[sqlx(rename = "chat_line")]
    pub line: Option<String>,
    pub reason: String,
    #[sqlx(rename = "created_at")]
    pub at: i64,
    pub closed_at: Option<i64>,
}

impl Db {
    /// An account's standing, by name in any case.
    pub async fn standing(&self, name: &str) -> Result<Option<Standing>, DbError> {
        Ok(sqlx::query_as(
            "SELECT id, name, admin, closed, engine, bot, muted_until FROM users WHERE name_key = $1",
        )
        .bind(name.to_lowercase())
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Whether a user is an admin (a closed account is not).
    pub async fn is_admin(&self, user_id: &str) -> Result<bool, DbError> {
        self.user_flag(
            "SELECT admin AS flag FROM users WHERE id = $1 AND closed = 0",
            user_id,
        )
        .await
    }

    /// Whether a user is marked as an engine user.
    pub async fn is_engine(&self, user_id: &str) -> Result<bool, DbError> {
        self.user_flag("SELECT engine AS flag FROM users WHERE id = $1", user_id)
            .await
    }

    /// Whether a user is closed.
    pub async fn is_closed(&self, user_id: &str) -> Result<bool, DbError> {
        self.user_flag("SELECT closed AS flag FROM users WHERE id = $1", user_id)
            .await
    }

    /// One flag of a user, read by `sql` (which names it `flag`); `false` for no such user.
    async fn user_flag(&self, sql: &'static str, user_id: &str) -> Result<bool, DbError> {
        let flag: Option<Flag> = sqlx::query_scalar(sql)
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(flag.is_some_and(bool::from))
    }

    /// The admins' names, in order.
    pub async fn admins(&self) -> Result<Vec<String>, DbError> {
        Ok(
            sqlx::query_scalar("SELECT name FROM users WHERE admin = 1 AND closed = 0 ORDER BY name_key")
                .fetch_all(&self.pool)
                .await?,
        )
    }

    /// Takes a moderation action on the account `target` (a user id) and records it in the same transaction:
    /// `admin` is the admin's user id (`None`: the server's command line). Returns the recorded action's id.
    pub async fn moderate(
        &self,
        target: &str,
        admin: Option<&str>,
        act: &Act<'_>,
    ) -> Result<String, DbError> {
        let Act {
            kind,
            reason,
            detail,
            until,
            new_name,
        } = act;
        let kind = *kind;
        let mut writing = self.writing().await?;
        let mut tx = writing.begin().await?;
        let set = |sql: &'static str| sqlx::query(sql).bind(target);
        match kind {
            ModKind::Grant => {
                set("UPDATE users SET admin = 1 WHERE id = $1")
                    .execute(&mut *tx)
                    .await?;
            }
            ModKind::Revoke => {
                set("UPDATE users SET admin = 0 WHERE id = $1")
                    .execute(&mut *tx)
                    .await?;
            }
            ModKind::Engine => {
                set("UPDATE users SET engine = 1 WHERE id = $1")
                    .execute(&mut *tx)
                    .await?;
            }
            ModKind::Mute => {
                sqlx::query("UPDATE users SET muted_until = $2 WHERE id = $1")
                    .bind(target)
                    .bind(until.unwrap_or(0))
                    .execute(&mut *tx)
                    .await?;
            }
            ModKind::Rename => {
                let name = new_name.unwrap_or_default();
                sqlx::query("UPDATE users SET name = $2, name_key = $3 WHERE id = $1")
                    .bind(target)
                    .bind(name)
                    .bind(name.to_lowercase())
                    .execute(&mut *tx)
                    .await?;
            }
            ModKind::Close => {
                set("UPDATE users SET closed = 1, admin = 0 WHERE id = $1")
                    .execute(&mut *tx)
                    .await?;
                set("DELETE FROM sessions WHERE user_id = $1")
                    .execute(&mut *tx)
                    .await?;
                set("UPDATE challenges SET status = 'cancelled' WHERE status = 'open' AND (creator = $1 OR target = $1)")
                    .execute(&mut *tx)
                    .await?;
            }
            ModKind::Warn | ModKind::CloseReport => {}
        }
        let id = ids::short(12);
        // Each action on an account later than the one before, so that the history has one order.
        let last: Option<i64> =
            sqlx::query_scalar("SELECT MAX(created_at) AS last FROM mod_actions WHERE target = $1")
                .bind(target)
                .fetch_one(&mut *tx)
                .await?;
        let at = now_ms().max(last.map_or(0, |l| l + 1));
        sqlx::query(
            "INSERT INTO mod_actions (id, target, admin, kind, reason, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&id)
        .bind(target)
        .bind(admin.unwrap_or(""))
        .bind(kind.as_str())
        .bind(*reason)
        .bind(detail.as_str())
        .bind(at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The actions taken on an account, newest first.
    pub async fn moderation_history(&self, target: &str) -> Result<Vec<ModAction>, DbError> {
        Ok(sqlx::query_as(
            "SELECT m.id, u.name AS admin_name, m.kind, m.reason, m.detail, m.created_at FROM mod_actions m \
             LEFT JOIN users u ON u.id = m.admin WHERE m.target = $1 ORDER BY m.created_at DESC, m.id LIMIT 200",
        )
        .bind(target)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Files a report about an account, in a game or about one of its chat lines.
    pub async fn add_report(
        &self,
        reporter: &str,
        target: &str,
        game: Option<&str>,
        line: Option<&str>,
        reason: &str,
    ) -> Result<String, DbError> {
        let id = ids::short(12);
        sqlx::query(
            "INSERT INTO reports (id, reporter, target, game, chat_line, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&id)
        .bind(reporter)
        .bind(target)
        .bind(game)
        .bind(line)
        .bind(reason)
        .bind(now_ms())
        .execute(self.writing().await?.conn())
        .await?;
        Ok(id)
    }

    /// How many reports a user filed since `since` (Unix ms).
    pub async fn reports_filed_since(&self, reporter: &str, since: i64) -> Result<i64, DbError> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) AS n FROM reports WHERE reporter = $1 AND created_at >= $2")
                .bind(reporter)
                .bind(since)
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// Reports: the open ones oldest first, or every report about one account (`about`, a user id) newest
    /// first.
    pub async fn reports(&self, about: Option<&str>) -> Result<Vec<Report>, DbError> {
        let base = "SELECT r.id, a.name AS reporter, r.target, t.name AS target_name, r.game, r.chat_line, r.reason, \
                    r.created_at, r.closed_at FROM reports r JOIN users a ON a.id = r.reporter JOIN users t ON t.id = r.target";
        let rows = match about {
            Some(target) => {
                sqlx::query_as(sqlx::AssertSqlSafe(format!(
                    "{base} WHERE r.target = $1 ORDER BY r.created_at DESC, r.id LIMIT 200"
                )))
                .bind(target)
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query_as(sqlx::AssertSqlSafe(format!(
                    "{base} WHERE r.closed_at IS NULL ORDER BY r.created_at, r.id LIMIT 200"
                )))
                .fetch_all(&self.pool)
                .await?
            }
        };
        Ok(rows)
    }

    /// An open report, by id.
    pub async fn open_report(&self, id: &str) -> Result<Option<Report>, DbError> {
        Ok(sqlx::query_as(
            "SELECT r.id, a.name AS reporter, r.target, t.name AS target_name, r.game, r.chat_line, r.reason, \
             r.created_at, r.closed_at FROM reports r JOIN users a ON a.id = r.reporter JOIN users t ON t.id = r.target \
             WHERE r.id = $1 AND r.closed_at IS NULL",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Closes an open report; `false` if there is no open report of that id.
    pub async fn close_report(&self, id: &str, admin: &str) -> Result<bool, DbError> {
        let r = sqlx::query(
            "UPDATE reports SET closed_at = $2, closed_by = $3 WHERE id = $1 AND closed_at IS NULL",
        )
        .bind(id)
        .bind(now_ms())
        .bind(admin)
        .execute(self.writing().await?.conn())
        .await?;
        Ok(r.rows_affected() == 1)
    }
}
