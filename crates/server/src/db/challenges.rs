//! Challenges: made, listed, accepted into a game, declined or cancelled.

use sqlx::AssertSqlSafe;

use super::{ChallengeColor, ChallengeStatus};
use super::{
    Db, DbError, GameRow, User,
    columns::{self, Creator, Flag, TimeColumns},
    insert_game,
};
use crate::clock::TimeControl;

/// A row of `challenges`, with names.
#[derive(Clone, Debug)]
pub struct ChallengeRow {
    pub id: String,
    pub creator: User,
    pub target: Option<User>,
    pub spec: String,
    pub color: ChallengeColor,
    pub status: ChallengeStatus,
    pub game_id: Option<String>,
    pub created_at: i64,
    pub rated: bool,
    /// Whether the game allows engine hints to both players (casual challenges only).
    pub help: bool,
    pub time: TimeControl,
    /// Whether the player who accepts must have a good record of games left ([`good_record`]).
    pub good_record: bool,
}

/// Whether a record of `left` games left of `finished` is good: no more than one in ten.
#[must_use]
pub fn good_record(left: i64, finished: i64) -> bool {
    left * 10 <= finished
}

const CHALLENGE_COLUMNS: &str = "c.id, c.creator, u1.name AS creator_name, u1.bot AS creator_bot, c.target, u2.name AS target_name, u2.bot AS target_bot, \
     c.spec, c.color, c.status, c.game_id, c.created_at, c.rated, c.help, c.clock_initial, c.clock_increment, \
     c.days_per_move, c.good_record FROM challenges c JOIN users u1 ON u1.id = c.creator \
     LEFT JOIN users u2 ON u2.id = c.target";

/// A row of [`CHALLENGE_COLUMNS`], as stored.
#[derive(sqlx::FromRow)]
struct ChallengeRecord {
    id: String,
    #[sqlx(flatten, try_from = "Creator")]
    creator: User,
    target: Option<String>,
    target_name: Option<String>,
    target_bot: Option<Flag>,
    spec: String,
    color: ChallengeColor,
    status: ChallengeStatus,
    game_id: Option<String>,
    created_at: i64,
    #[sqlx(try_from = "Flag")]
    rated: bool,
    #[sqlx(try_from = "Flag")]
    help: bool,
    #[sqlx(flatten, try_from = "TimeColumns")]
    time: TimeControl,
    #[sqlx(try_from = "Flag")]
    good_record: bool,
}

impl From<ChallengeRecord> for ChallengeRow {
    fn from(r: ChallengeRecord) -> ChallengeRow {
        ChallengeRow {
            id: r.id,
            creator: r.creator,
            target: columns::user(r.target, r.target_name, r.target_bot),
            spec: r.spec,
            color: r.color,
            status: r.status,
            game_id: r.game_id,
            created_at: r.created_at,
            rated: r.rated,
            help: r.help,
            time: r.time,
            good_record: r.good_record,
        }
    }
}

fn challenges(
    query: String,
) -> sqlx::query::QueryAs<'static, sqlx::Any, ChallengeRecord, sqlx::any::AnyArguments> {
    sqlx::query_as(AssertSqlSafe(query))
}

impl Db {
    pub async fn create_challenge(&self, c: &ChallengeRow) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO challenges (id, creator, target, spec, color, status, game_id, created_at, rated, \
             clock_initial, clock_increment, days_per_move, help, good_record) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        )
        .bind(&c.id)
        .bind(&c.creator.id)
        .bind(c.target.as_ref().map(|t| t.id.clone()))
        .bind(&c.spec)
        .bind(c.color.as_str())
        .bind(c.status.as_str())
        .bind(c.game_id.clone())
        .bind(c.created_at)
        .bind(i64::from(c.rated))
        .bind(c.time.columns()[0])
        .bind(c.time.columns()[1])
        .bind(c.time.columns()[2])
        .bind(i64::from(c.help))
        .bind(i64::from(c.good_record))
        .execute(self.writing().await?.conn())
        .await?;
        Ok(())
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, DbError> {
        let row = challenges(format!("SELECT {CHALLENGE_COLUMNS} WHERE c.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(ChallengeRow::from))
    }

    /// The open challenges a user may see: open to all, or from or to them. Visitors see the public ones.
    pub async fn open_challenges(&self, user_id: Option<&str>) -> Result<Vec<ChallengeRow>, DbError> {
        // The user's own challenges and those addressed to the user always come, whatever else is open; of
        // the open challenges to anyone, the newest 200.
        let mut rows = Vec::new();
        if let Some(me) = user_id {
            rows = challenges(format!(
                "SELECT {CHALLENGE_COLUMNS} WHERE c.status = 'open' AND (c.creator = $1 OR c.target = $1) \
                 ORDER BY c.created_at DESC LIMIT 500"
            ))
            .bind(me)
            .fetch_all(&self.pool)
            .await?;
        }
        rows.extend(
            challenges(format!(
                "SELECT {CHALLENGE_COLUMNS} WHERE c.status = 'open' AND c.target IS NULL AND c.creator <> $1 \
                 ORDER BY c.created_at DESC LIMIT 200"
            ))
            .bind(user_id.unwrap_or(""))
            .fetch_all(&self.pool)
            .await?,
        );
        let mut open: Vec<ChallengeRow> = rows.into_iter().map(ChallengeRow::from).collect();
        open.sort_by_key(|c| std::cmp::Reverse(c.created_at));
        Ok(open)
    }

    /// Closes an open challenge with a new status. Returns `false` if it was no longer open.
    pub async fn close_challenge(&self, id: &str, status: ChallengeStatus) -> Result<bool, DbError> {
        let r = sqlx::query("UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'")
            .bind(status.as_str())
            .bind(id)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Accepts an open challenge and creates its game, in one transaction. Returns `false` if the challenge
    /// was no longer open (someone else accepted it, or its creator cancelled it).
    pub async fn accept_challenge(&self, id: &str, game: &GameRow) -> Result<bool, DbError> {
        let mut writing = self.writing().await?;
        let mut tx = writing.begin().await?;
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
}
