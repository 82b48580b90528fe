//! The opening explorer's counts: for each position of a variant's first [`PLIES`] plies in the site's
//! finished games between two accounts, each move played from it (counted as the position it reaches, so that
//! moves that reach one position, Reversi's mirror images among them, count together), with the results and
//! the players' mean rating. A game's counts are added by upserts in the transaction that stores its last
//! action, so that they are counted once however many servers share the database.

use sqlx::{AnyConnection, Row};

use super::{Db, DbError, Winner};

/// How many plies from the start of a game the explorer counts.
pub const PLIES: usize = 30;

/// A finished game's counts for the explorer.
#[derive(Clone, Debug)]
pub struct ExploreJob {
    /// The game's variant, as its canonical spec.
    pub spec: String,
    /// The game's registry name, for the players' ratings.
    pub game: String,
    /// The players' ids.
    pub users: [String; 2],
    /// (the position's key hash, the reached position's key hash) for each of the first plies.
    pub steps: Vec<(i64, i64)>,
    pub winner: Winner,
}

/// One move of a position as the explorer counts it.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplorerRow {
    /// The key hash of the position the move reaches.
    pub reached: i64,
    pub games: i64,
    pub first_wins: i64,
    pub second_wins: i64,
    pub draws: i64,
    /// The players' mean rating over the games in which either had a rating.
    pub rating: Option<f64>,
}

/// Counts to add to one position's move, summed over games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ExploreCounts {
    pub position: i64,
    pub reached: i64,
    pub games: i64,
    pub first_wins: i64,
    pub second_wins: i64,
    pub draws: i64,
    pub rating_sum: f64,
    pub rated: i64,
}

/// A stable 64-bit hash of an explorer key (FNV-1a), as the database stores it.
#[must_use]
pub fn key_hash(key: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h as i64
}

/// Adds a finished game to the explorer's counts, in the caller's transaction.
pub(super) async fn record(conn: &mut AnyConnection, job: &ExploreJob) -> Result<(), sqlx::Error> {
    let mut ratings = Vec::with_capacity(2);
    for user in &job.users {
        if let Some(r) = sqlx::query("SELECT rating FROM ratings WHERE user_id = $1 AND game = $2")
            .bind(user)
            .bind(&job.game)
            .fetch_optional(&mut *conn)
            .await?
        {
            ratings.push(r.try_get::<f64, _>("rating")?);
        }
    }
    let (rating_sum, rated) = if ratings.is_empty() {
        (0.0, 0i64)
    } else {
        (ratings.iter().sum::<f64>() / ratings.len() as f64, 1)
    };
    let (first, second, draw) = match job.winner {
        Winner::First => (1i64, 0i64, 0i64),
        Winner::Second => (0, 1, 0),
        Winner::Draw => (0, 0, 1),
    };
    // A position and move met twice in one game (checkers' kings going back and forth) count it once.
    let mut steps = job.steps.clone();
    steps.sort_unstable();
    steps.dedup();
    for (position, reached) in steps {
        sqlx::query(
            "INSERT INTO explorer (spec, position, reached, games, first_wins, second_wins, draws, rating_sum, rated) \
             VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8) \
             ON CONFLICT (spec, position, reached) DO UPDATE SET games = explorer.games + 1, \
             first_wins = explorer.first_wins + excluded.first_wins, second_wins = explorer.second_wins + excluded.second_wins, \
             draws = explorer.draws + excluded.draws, rating_sum = explorer.rating_sum + excluded.rating_sum, \
             rated = explorer.rated + excluded.rated",
        )
        .bind(&job.spec)
        .bind(position)
        .bind(reached)
        .bind(first)
        .bind(second)
        .bind(draw)
        .bind(rating_sum)
        .bind(rated)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

impl Db {
    /// The moves counted from the position whose key hashes to `position` in variant `spec`, most played
    /// first.
    pub async fn explorer(&self, spec: &str, position: i64) -> Result<Vec<ExplorerRow>, DbError> {
        let rows = sqlx::query(
            "SELECT reached, games, first_wins, second_wins, draws, rating_sum, rated FROM explorer \
             WHERE spec = $1 AND position = $2 ORDER BY games DESC, reached LIMIT 200",
        )
        .bind(spec)
        .bind(position)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let rated: i64 = r.try_get("rated")?;
                let sum: f64 = r.try_get("rating_sum")?;
                Ok(ExplorerRow {
                    reached: r.try_get("reached")?,
                    games: r.try_get("games")?,
                    first_wins: r.try_get("first_wins")?,
                    second_wins: r.try_get("second_wins")?,
                    draws: r.try_get("draws")?,
                    rating: (rated > 0).then(|| sum / rated as f64),
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }

    /// Adds counts summed over many games at once (position, reached, and the counts to add), by multi-row
    /// upserts in one transaction per 20,000 rows: the benchmark's loader. A pair must appear once.
    pub async fn explore_bulk(&self, spec: &str, rows: &[ExploreCounts]) -> Result<(), DbError> {
        const PER_STATEMENT: usize = 200;
        for chunk in rows.chunks(20_000) {
            let mut tx = self.pool.begin().await?;
            for part in chunk.chunks(PER_STATEMENT) {
                let values: Vec<String> = (0..part.len())
                    .map(|i| {
                        let b = i * 9;
                        format!(
                            "(${}, ${}, ${}, ${}, ${}, ${}, ${}, ${}, ${})",
                            b + 1,
                            b + 2,
                            b + 3,
                            b + 4,
                            b + 5,
                            b + 6,
                            b + 7,
                            b + 8,
                            b + 9
                        )
                    })
                    .collect();
                let sql = format!(
                    "INSERT INTO explorer (spec, position, reached, games, first_wins, second_wins, draws, rating_sum, rated) \
                     VALUES {} ON CONFLICT (spec, position, reached) DO UPDATE SET games = explorer.games + excluded.games, \
                     first_wins = explorer.first_wins + excluded.first_wins, second_wins = explorer.second_wins + excluded.second_wins, \
                     draws = explorer.draws + excluded.draws, rating_sum = explorer.rating_sum + excluded.rating_sum, \
                     rated = explorer.rated + excluded.rated",
                    values.join(", ")
                );
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
                for r in part {
                    q = q
                        .bind(spec)
                        .bind(r.position)
                        .bind(r.reached)
                        .bind(r.games)
                        .bind(r.first_wins)
                        .bind(r.second_wins)
                        .bind(r.draws)
                        .bind(r.rating_sum)
                        .bind(r.rated);
                }
                q.execute(&mut *tx).await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }
}
