//! Game chat: the lines said in a game's players' and spectators' rooms, kept with the game.

use sqlx::Row;

use super::{Db, DbError, Room, now_ms};
use crate::ids;

/// One line of a game's chat, with its author's name as it is now (a renamed or deleted account shows its
/// new name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    pub id: String,
    pub game: String,
    pub room: Room,
    pub user_id: String,
    pub name: String,
    /// Whether the author is a bot account.
    pub bot: bool,
    pub body: String,
    pub at: i64,
}

const LINE_COLUMNS: &str = "c.id, c.game_id, c.room, c.user_id, u.name, u.bot, c.body, c.created_at";

fn line(r: &sqlx::any::AnyRow) -> Result<ChatLine, DbError> {
    Ok(ChatLine {
        id: r.try_get("id")?,
        game: r.try_get("game_id")?,
        room: Room::parse(&r.try_get::<String, _>("room")?)?,
        user_id: r.try_get("user_id")?,
        name: r.try_get("name")?,
        bot: r.try_get::<i64, _>("bot")? != 0,
        body: r.try_get("body")?,
        at: r.try_get("created_at")?,
    })
}

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
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {LINE_COLUMNS} FROM chat_lines c JOIN users u ON u.id = c.user_id \
             WHERE c.game_id = $1 AND (c.room = $2 OR c.room = $3) ORDER BY c.created_at DESC, c.id DESC LIMIT $4"
        )))
        .bind(game)
        .bind(if players { "players" } else { "-" })
        .bind(if spectators { "spectators" } else { "-" })
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut lines = rows.iter().map(line).collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// One line, by id.
    pub async fn chat_line(&self, id: &str) -> Result<Option<ChatLine>, DbError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {LINE_COLUMNS} FROM chat_lines c JOIN users u ON u.id = c.user_id WHERE c.id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(line).transpose()
    }

    /// What a user said in chat since `since` (Unix ms), in every game: how many lines, and the bodies of the
    /// last few in `game`, newest first.
    pub async fn chat_said_since(
        &self,
        user: &str,
        game: &str,
        since: i64,
    ) -> Result<(i64, Vec<String>), DbError> {
        let n: i64 =
            sqlx::query("SELECT COUNT(*) AS n FROM chat_lines WHERE user_id = $1 AND created_at >= $2")
                .bind(user)
                .bind(since)
                .fetch_one(&self.pool)
                .await?
                .try_get("n")?;
        let rows = sqlx::query(
            "SELECT body FROM chat_lines WHERE user_id = $1 AND game_id = $2 AND created_at >= $3 \
             ORDER BY created_at DESC, id DESC LIMIT 3",
        )
        .bind(user)
        .bind(game)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        let last = rows
            .iter()
            .map(|r| r.try_get("body"))
            .collect::<Result<Vec<String>, _>>()?;
        Ok((n, last))
    }

    /// Until when (Unix ms) a user may not chat; 0 when never muted.
    pub async fn muted_until(&self, user: &str) -> Result<i64, DbError> {
        let row = sqlx::query("SELECT muted_until FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("muted_until")?,
            None => 0,
        })
    }
}
