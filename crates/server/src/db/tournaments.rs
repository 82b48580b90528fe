//! Tournaments: their rows, players, games and byes. The pairing and the standings are in `tournament.rs`.

use sqlx::AssertSqlSafe;

use super::{ByeKind, TournamentKind, TournamentStatus};
use super::{
    Db, DbError, GAME_COLUMNS, GameRow, User,
    columns::{Creator, Flag, TimeColumns},
    game_rows, insert_game, now_ms,
};
use crate::clock::TimeControl;

/// A row of `tournaments`, with its creator.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TournamentRow {
    pub id: String,
    pub name: String,
    pub spec: String,
    pub game: String,
    pub kind: TournamentKind,
    pub rounds: i64,
    #[sqlx(try_from = "Flag")]
    pub rated: bool,
    /// Whether bot accounts may join.
    #[sqlx(try_from = "Flag")]
    pub bots: bool,
    /// Whether a player who joins must have a good record of games left ([`super::good_record`]).
    #[sqlx(try_from = "Flag")]
    pub good_record: bool,
    #[sqlx(flatten, try_from = "TimeColumns")]
    pub time: TimeControl,
    #[sqlx(flatten, try_from = "Creator")]
    pub creator: User,
    pub status: TournamentStatus,
    /// The round in play (0 before the start).
    pub round: i64,
    pub created_at: i64,
}

/// A player of a tournament.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TournamentPlayer {
    #[sqlx(flatten)]
    pub user: User,
    pub joined_at: i64,
    /// The round after which the player withdrew (0 before the start).
    pub withdrawn: Option<i64>,
}

/// Points without a game: a bye, or a forfeit win when the opponent withdrew.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentBye {
    pub round: i64,
    pub user_id: String,
    pub kind: ByeKind,
    pub half_points: i64,
}

const TOURNAMENT_COLUMNS: &str = "t.id, t.name, t.spec, t.game, t.kind, t.rounds, t.rated, t.bots, t.good_record, t.clock_initial, \
     t.clock_increment, t.days_per_move, t.creator, u.name AS creator_name, u.bot AS creator_bot, t.status, t.round, t.created_at \
     FROM tournaments t JOIN users u ON u.id = t.creator";

impl Db {
    pub async fn create_tournament(&self, t: &TournamentRow) -> Result<(), DbError> {
        let [initial, increment, days] = t.time.columns();
        let mut writing = self.writing().await?;
        let mut tx = writing.begin().await?;
        sqlx::query(
            "INSERT INTO tournaments (id, name, spec, game, kind, rounds, rated, clock_initial, clock_increment, \
             days_per_move, creator, status, round, created_at, updated_at, bots, good_record) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $16)",
        )
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.spec)
        .bind(&t.game)
        .bind(t.kind.as_str())
        .bind(t.rounds)
        .bind(i64::from(t.rated))
        .bind(initial)
        .bind(increment)
        .bind(days)
        .bind(&t.creator.id)
        .bind(t.status.as_str())
        .bind(t.round)
        .bind(t.created_at)
        .bind(i64::from(t.bots))
        .bind(i64::from(t.good_record))
        .execute(&mut *tx)
        .await?;
        // Its creator plays in it.
        sqlx::query("INSERT INTO tournament_players (tournament_id, user_id, joined_at) VALUES ($1, $2, $3)")
            .bind(&t.id)
            .bind(&t.creator.id)
            .bind(t.created_at)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, DbError> {
        Ok(sqlx::query_as(AssertSqlSafe(format!(
            "SELECT {TOURNAMENT_COLUMNS} WHERE t.id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Open and running tournaments, then the latest finished ones.
    pub async fn tournaments(&self, limit: i64) -> Result<Vec<TournamentRow>, DbError> {
        // Running and open tournaments first, then the latest finished ones: a burst of new tournaments
        // cannot push every finished one off the list.
        let mut rows: Vec<TournamentRow> = sqlx::query_as(AssertSqlSafe(format!(
            "SELECT {TOURNAMENT_COLUMNS} WHERE t.status <> 'finished' \
             ORDER BY CASE t.status WHEN 'running' THEN 0 ELSE 1 END, t.created_at DESC LIMIT $1"
        )))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.extend(
            sqlx::query_as(AssertSqlSafe(format!(
                "SELECT {TOURNAMENT_COLUMNS} WHERE t.status = 'finished' ORDER BY t.updated_at DESC LIMIT $1"
            )))
            .bind(limit / 2)
            .fetch_all(&self.pool)
            .await?,
        );
        Ok(rows)
    }

    /// Adds a player to an open tournament. Returns `false` if it is not open or the player is in already.
    pub async fn join_tournament(&self, id: &str, user: &str) -> Result<bool, DbError> {
        let r = sqlx::query(
            "INSERT INTO tournament_players (tournament_id, user_id, joined_at) SELECT $1, $2, $3 \
             WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND status = 'open') \
             AND NOT EXISTS (SELECT 1 FROM tournament_players WHERE tournament_id = $1 AND user_id = $2)",
        )
        .bind(id)
        .bind(user)
        .bind(now_ms())
        .execute(self.writing().await?.conn())
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Before the start a player leaves the list; after it, the player is marked withdrawn after `round`.
    pub async fn withdraw(&self, id: &str, user: &str, started: bool, round: i64) -> Result<bool, DbError> {
        let r = if started {
            sqlx::query(
                "UPDATE tournament_players SET withdrawn = $3 WHERE tournament_id = $1 AND user_id = $2 \
                 AND withdrawn IS NULL",
            )
            .bind(id)
            .bind(user)
            .bind(round)
            .execute(self.writing().await?.conn())
            .await?
        } else {
            sqlx::query("DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2")
                .bind(id)
                .bind(user)
                .execute(self.writing().await?.conn())
                .await?
        };
        Ok(r.rows_affected() == 1)
    }

    pub async fn tournament_players(&self, id: &str) -> Result<Vec<TournamentPlayer>, DbError> {
        Ok(sqlx::query_as(
            "SELECT p.user_id AS id, u.name, u.bot, p.joined_at, p.withdrawn FROM tournament_players p \
             JOIN users u ON u.id = p.user_id WHERE p.tournament_id = $1 ORDER BY p.joined_at, u.name_key",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The games of a tournament, by round.
    pub async fn tournament_games(&self, id: &str) -> Result<Vec<GameRow>, DbError> {
        let rows = game_rows(format!(
            "SELECT {GAME_COLUMNS} WHERE g.tournament_id = $1 ORDER BY g.round, g.created_at, g.id"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(GameRow::from).collect())
    }

    /// The byes and forfeits of a tournament.
    pub async fn tournament_byes(&self, id: &str) -> Result<Vec<TournamentBye>, DbError> {
        Ok(sqlx::query_as(
            "SELECT round, user_id, kind, half_points FROM tournament_byes WHERE tournament_id = $1 \
             ORDER BY round, user_id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Starts round `round` with its games and byes, in one transaction, if the tournament is still at the
    /// round before (so two directors cannot pair one round twice). Returns whether it did.
    pub async fn start_round(
        &self,
        id: &str,
        round: i64,
        games: &[GameRow],
        byes: &[TournamentBye],
    ) -> Result<bool, DbError> {
        let mut writing = self.writing().await?;
        let mut tx = writing.begin().await?;
        let r = sqlx::query(
            "UPDATE tournaments SET round = $1, status = 'running', updated_at = $3 WHERE id = $2 AND round = $4 \
             AND status <> 'finished'",
        )
        .bind(round)
        .bind(id)
        .bind(now_ms())
        .bind(round - 1)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Ok(false);
        }
        for g in games {
            insert_game(&mut *tx, g).await?;
        }
        for b in byes {
            sqlx::query(
                "INSERT INTO tournament_byes (tournament_id, round, user_id, kind, half_points) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(b.round)
            .bind(&b.user_id)
            .bind(b.kind.as_str())
            .bind(b.half_points)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Closes joining and fixes the number of rounds. Returns `false` if the tournament was not open.
    pub async fn open_tournament_run(&self, id: &str, rounds: i64) -> Result<bool, DbError> {
        let r = sqlx::query(
            "UPDATE tournaments SET status = 'running', rounds = $2, updated_at = $3 WHERE id = $1 AND status = 'open'",
        )
        .bind(id)
        .bind(rounds)
        .bind(now_ms())
        .execute(self.writing().await?.conn())
        .await?;
        Ok(r.rows_affected() == 1)
    }

    pub async fn finish_tournament(&self, id: &str) -> Result<(), DbError> {
        sqlx::query("UPDATE tournaments SET status = 'finished', updated_at = $2 WHERE id = $1")
            .bind(id)
            .bind(now_ms())
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }

    /// Tournaments that are running (after a restart, each is checked for a round to pair).
    pub async fn running_tournaments(&self) -> Result<Vec<String>, DbError> {
        Ok(
            sqlx::query_scalar("SELECT id FROM tournaments WHERE status = 'running'")
                .fetch_all(&self.pool)
                .await?,
        )
    }
}
