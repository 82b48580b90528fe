//! Game chat: the lines said in a game's players' and spectators' rooms, kept with the game.

use super::{Db, DbError, Room, columns::Flag, now_ms};
use crate::ids;

/// One line of a game's chat, with its author's name as it is now (a renamed or deleted account shows its
/// new name).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ChatLine {
    pub id: String,
    #[sqlx(rename = "game_id")]
    pub game: String,
    pub room: Room,
    pub user_id: String,
    pub name: String,
    /// Whether the author is a bot account.
    #[sqlx(try_from = "Flag")]
    pub bot: bool,
    pub body: String,
    #[sqlx(rename = "created_at")]
    pub at: i64,
}

const LINE_COLUMNS: &str = "c.id, c.game_id, c.room, c.user_id, u.name, u.bot, c.body, c.created_at";

impl Db {
    /// Keeps a line said by `user` (whose name is `name`) in a game's room, and returns it.
    pub async fn add_chat_line(
        &self,
        game: &str,
        room: Room,
        user: &super::User,
        body: &str,
    ) -> Result<ChatLine, DbError> {
        let line = ChatLine {
            id: ids::short(12),
            game: game.to_owned(),
            room,
            user_id: user.id.clone(),
            name: user.name.clone(),
            bot: user.bot,
            body: body.to_owned(),
            at: now_ms(),
        };
        sqlx::query(
            "INSERT INTO chat_lines (id, game_id, room, user_id, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&line.id)
        .bind(game)
        .bind(room.as_str())
        .bind(&user.id)
        .bind(body)
        .bind(line.at)
        .execute(self.writing().await?.conn())
        .await?;
        Ok(line)
    }

    /// The last `limit` lines of a game in the rooms `rooms`, oldest first.
    pub async fn chat_lines(&self, game: &str, rooms: &[Room], limit: i64) -> Result<Vec<ChatLine>, DbError> {
        let players = rooms.contains(&Room::Players);
        let spectators = rooms.contains(&Room::Spectators);
        if !players && !spectators {
            return Ok(Vec::new());
        }
        let mut lines: Vec<ChatLine> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {LINE_COLUMNS} FROM chat_lines c JOIN users u ON u.id = c.user_id \
             WHERE c.game_id = $1 AND (c.room = $2 OR c.room = $3) ORDER BY c.created_at DESC, c.id DESC LIMIT $4"
        )))
        .bind(game)
        .bind(if players { "players" } else { "-" })
        .bind(if spectators { "spectators" } else { "-" })
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        lines.reverse();
        Ok(lines)
    }

    /// One line, by id.
    pub async fn chat_line(&self, id: &str) -> Result<Option<ChatLine>, DbError> {
        Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {LINE_COLUMNS} FROM chat_lines c JOIN users u ON u.id = c.user_id WHERE c.id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// What a user said in chat since `since` (Unix ms), in every game: how many lines, and the bodies of the
    /// last few in `game`, newest first.
    pub async fn chat_said_since(
        &self,
        user: &str,
        game: &str,
        since: i64,
    ) -> Result<(i64, Vec<String>), DbError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) AS n FROM chat_lines WHERE user_id = $1 AND created_at >= $2",
        )
        .bind(user)
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        let last: Vec<String> = sqlx::query_scalar(
            "SELECT body FROM chat_lines WHERE user_id = $1 AND game_id = $2 AND created_at >= $3 \
             ORDER BY created_at DESC, id DESC LIMIT 3",
        )
        .bind(user)
        .bind(game)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        Ok((n, last))
    }

    /// Until when (Unix ms) a user may not chat; 0 when never muted.
    pub async fn muted_until(&self, user: &str) -> Result<i64, DbError> {
        let until: Option<i64> = sqlx::query_scalar("SELECT muted_until FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        Ok(until.unwrap_or(0))
    }
}
