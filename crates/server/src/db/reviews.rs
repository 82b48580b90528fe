//! The engine-use review's rows: each side's figures in each finished game between two people, and the
//! reviewer's claims on the games it takes.

use gridplay_core::Player;
use sqlx::AssertSqlSafe;

use super::{Db, DbError, GameStatus, Side, columns::Flag};

/// One side's figures in one reviewed game.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ReviewRow {
    pub game_id: String,
    #[sqlx(try_from = "Side")]
    pub side: Player,
    pub user_id: String,
    /// The game's registry name.
    pub game: String,
    #[sqlx(try_from = "Flag")]
    pub rated: bool,
    pub finished_at: i64,
    pub accuracy: f64,
    pub counted: i64,
    pub agreed: i64,
    pub inaccuracies: i64,
    pub mistakes: i64,
    pub blunders: i64,
    pub moves: i64,
    pub move_ms_median: Option<i64>,
    pub move_ms_iqr: Option<i64>,
}

const REVIEW_COLUMNS: &str = "game_id, side, user_id, game, rated, finished_at, accuracy, counted, agreed, \
     inaccuracies, mistakes, blunders, moves, move_ms_median, move_ms_iqr";

impl Db {
    /// Takes the oldest finished game between two people (two accounts, neither a bot, no engine side)
    /// updated after `since` that has no review and no claim younger than `stale`: its id, now claimed at
    /// `now`. Two servers never take the same game while its claim is young.
    pub async fn claim_review(&self, since: i64, stale: i64, now: i64) -> Result<Option<String>, DbError> {
        let candidates: Vec<String> = sqlx::query_scalar(
            "SELECT g.id FROM games g JOIN users a ON a.id = g.first_user JOIN users b ON b.id = g.second_user \
             WHERE g.status = $1 AND g.updated_at > $2 AND g.first_user <> g.second_user \
             AND a.bot = 0 AND b.bot = 0 AND g.first_level IS NULL AND g.second_level IS NULL \
             AND NOT EXISTS (SELECT 1 FROM review_jobs j WHERE j.game_id = g.id AND (j.done = 1 OR j.claimed_at > $3)) \
             ORDER BY g.updated_at LIMIT 5",
        )
        .bind(GameStatus::Finished.as_str())
        .bind(since)
        .bind(stale)
        .fetch_all(&self.pool)
        .await?;
        for id in candidates {
            let taken = sqlx::query(
                "INSERT INTO review_jobs (game_id, claimed_at, done) VALUES ($1, $2, 0) \
                 ON CONFLICT (game_id) DO UPDATE SET claimed_at = excluded.claimed_at \
                 WHERE review_jobs.done = 0 AND review_jobs.claimed_at <= $3",
            )
            .bind(&id)
            .bind(now)
            .bind(stale)
            .execute(self.writing().await?.conn())
            .await?
            .rows_affected();
            if taken == 1 {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// Stores a game's figures (none: the game has nothing to review) and marks its review done, in one
    /// transaction; a second store of the same game keeps the first.
    pub async fn store_review(&self, game_id: &str, rows: &[ReviewRow]) -> Result<(), DbError> {
        let mut writing = self.writing().await?;
        let mut tx = writing.begin().await?;
        for r in rows {
            sqlx::query(AssertSqlSafe(format!(
                "INSERT INTO reviews ({REVIEW_COLUMNS}) VALUES \
                 ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
                 ON CONFLICT (game_id, side) DO NOTHING"
            )))
            .bind(&r.game_id)
            .bind(r.side.as_str())
            .bind(&r.user_id)
            .bind(&r.game)
            .bind(i64::from(r.rated))
            .bind(r.finished_at)
            .bind(r.accuracy)
            .bind(r.counted)
            .bind(r.agreed)
            .bind(r.inaccuracies)
            .bind(r.mistakes)
            .bind(r.blunders)
            .bind(r.moves)
            .bind(r.move_ms_median)
            .bind(r.move_ms_iqr)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "INSERT INTO review_jobs (game_id, claimed_at, done) VALUES ($1, 0, 1) \
             ON CONFLICT (game_id) DO UPDATE SET done = 1",
        )
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A player's reviewed games, newest first, at most `limit`; rated ones only when `rated_only`.
    pub async fn reviews_of(
        &self,
        user_id: &str,
        rated_only: bool,
        limit: i64,
    ) -> Result<Vec<ReviewRow>, DbError> {
        Ok(sqlx::query_as(AssertSqlSafe(format!(
            "SELECT {REVIEW_COLUMNS} FROM reviews WHERE user_id = $1 AND rated >= $2 \
             ORDER BY finished_at DESC, game_id LIMIT $3"
        )))
        .bind(user_id)
        .bind(i64::from(rated_only))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The players with at least `min_games` reviewed rated games of `game` finished after `since`.
    pub async fn reviewed_players(
        &self,
        game: &str,
        since: i64,
        min_games: i64,
    ) -> Result<Vec<String>, DbError> {
        Ok(sqlx::query_scalar(
            "SELECT user_id FROM reviews WHERE game = $1 AND rated = 1 AND finished_at > $2 \
             GROUP BY user_id HAVING COUNT(*) >= $3",
        )
        .bind(game)
        .bind(since)
        .bind(min_games)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The name of the account `user_id`.
    pub async fn name_of(&self, user_id: &str) -> Result<Option<String>, DbError> {
        Ok(sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?)
    }
}
