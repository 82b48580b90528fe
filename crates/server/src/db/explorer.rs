//! The opening explorer's counts: for each position of a variant's first [`PLIES`] plies in the site's
//! finished games between two accounts, each move played from it (counted as the position it reaches, so that
//! moves that reach one position, Reversi's mirror images among them, count together), with the results and
//! the players' mean rating. A game's counts are added by upserts in the transaction that stores its last
//! action, so that they are counted once however many servers share the database.

use std::collections::HashMap;

use sqlx::AnyConnection;

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

/// One move of a position as stored: the sums that [`ExplorerRow`] is made of.
#[derive(sqlx::FromRow)]
struct ExplorerRecord {
    reached: i64,
    games: i64,
    first_wins: i64,
    second_wins: i64,
    draws: i64,
    rating_sum: f64,
    rated: i64,
}

impl From<ExplorerRecord> for ExplorerRow {
    fn from(r: ExplorerRecord) -> ExplorerRow {
        ExplorerRow {
            reached: r.reached,
            games: r.games,
            first_wins: r.first_wins,
            second_wins: r.second_wins,
            draws: r.draws,
            rating: (r.rated > 0).then(|| r.rating_sum / r.rated as f64),
        }
    }
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

impl ExploreCounts {
    /// Counts for move `reached` of `position`, none yet.
    #[must_use]
    pub fn new(position: i64, reached: i64) -> ExploreCounts {
        ExploreCounts {
            position,
            reached,
            ..ExploreCounts::default()
        }
    }

    /// Adds one game of result `winner`, whose players' mean rating is `rating` (`None`: neither had one).
    pub fn add(&mut self, winner: Winner, rating: Option<f64>) {
        self.games += 1;
        match winner {
            Winner::First => self.first_wins += 1,
            Winner::Second => self.second_wins += 1,
            Winner::Draw => self.draws += 1,
        }
        if let Some(r) = rating {
            self.rating_sum += r;
            self.rated += 1;
        }
    }
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

/// Adds finished games to the explorer's counts, in the caller's transaction: each game's moves counted once
/// (a position and move met twice in one game, checkers' kings going back and forth, count once), summed over
/// the games, and written by multi-row upserts, so that a group of games ending together costs a few
/// statements rather than one per move.
pub(super) async fn record(conn: &mut AnyConnection, jobs: &[&ExploreJob]) -> Result<(), sqlx::Error> {
    if jobs.is_empty() {
        return Ok(());
    }
    // The players' ratings before these games change them.
    let mut users: Vec<&str> = jobs
        .iter()
        .flat_map(|j| j.users.iter().map(String::as_str))
        .collect();
    users.sort_unstable();
    users.dedup();
    // One row of all the users: `($1, ..., $N)`.
    let sql = format!(
        "SELECT user_id, game, rating FROM ratings WHERE user_id IN {}",
        super::placeholders(1, users.len(), 1, super::numbered)
    );
    let mut q = sqlx::query_as::<_, (String, String, f64)>(sqlx::AssertSqlSafe(sql));
    for u in &users {
        q = q.bind(*u);
    }
    let mut ratings: HashMap<(String, String), f64> = HashMap::new();
    for (user, game, rating) in q.fetch_all(&mut *conn).await? {
        ratings.insert((user, game), rating);
    }
    let mut counts: HashMap<(&str, i64, i64), ExploreCounts> = HashMap::new();
    for job in jobs {
        let known: Vec<f64> = job
            .users
            .iter()
            .filter_map(|u| ratings.get(&(u.clone(), job.game.clone())).copied())
            .collect();
        let rating = (!known.is_empty()).then(|| known.iter().sum::<f64>() / known.len() as f64);
        let mut steps = job.steps.clone();
        steps.sort_unstable();
        steps.dedup();
        for (position, reached) in steps {
            counts
                .entry((job.spec.as_str(), position, reached))
                .or_insert_with(|| ExploreCounts::new(position, reached))
                .add(job.winner, rating);
        }
    }
    let rows: Vec<(&str, ExploreCounts)> = counts.into_iter().map(|((spec, _, _), c)| (spec, c)).collect();
    upsert(conn, &rows).await
}

/// Adds `rows` (each a variant's spec and the counts of one of its position's moves; a pair at most once) to
/// the explorer by multi-row upserts.
async fn upsert(conn: &mut AnyConnection, rows: &[(&str, ExploreCounts)]) -> Result<(), sqlx::Error> {
    // SQLite looks a parameter up by a walk of the statement's list: a statement of many parameters costs their
    // square, so a statement holds 32 rows (288 parameters), as the writer's own statements do.
    const PER_STATEMENT: usize = 32;
    for part in rows.chunks(PER_STATEMENT) {
        let values = super::placeholders(part.len(), 9, 1, super::numbered);
        let sql = format!(
            "INSERT INTO explorer (spec, position, reached, games, first_wins, second_wins, draws, rating_sum, rated) \
             VALUES {values} ON CONFLICT (spec, position, reached) DO UPDATE SET games = explorer.games + excluded.games, \
             first_wins = explorer.first_wins + excluded.first_wins, second_wins = explorer.second_wins + excluded.second_wins, \
             draws = explorer.draws + excluded.draws, rating_sum = explorer.rating_sum + excluded.rating_sum, \
             rated = explorer.rated + excluded.rated"
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (spec, r) in part {
            q = q
                .bind(*spec)
                .bind(r.position)
                .bind(r.reached)
                .bind(r.games)
                .bind(r.first_wins)
                .bind(r.second_wins)
                .bind(r.draws)
                .bind(r.rating_sum)
                .bind(r.rated);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

impl Db {
    /// The moves counted from the position whose key hashes to `position` in variant `spec`, most played
    /// first.
    pub async fn explorer(&self, spec: &str, position: i64) -> Result<Vec<ExplorerRow>, DbError> {
        let rows: Vec<ExplorerRecord> = sqlx::query_as(
            "SELECT reached, games, first_wins, second_wins, draws, rating_sum, rated FROM explorer \
             WHERE spec = $1 AND position = $2 ORDER BY games DESC, reached LIMIT 200",
        )
        .bind(spec)
        .bind(position)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(ExplorerRow::from).collect())
    }

    /// Adds counts summed over many games at once (position, reached, and the counts to add), by multi-row
    /// upserts in one transaction per 20,000 rows: the benchmark's loader. A pair must appear once.
    pub async fn explore_bulk(&self, spec: &str, rows: &[ExploreCounts]) -> Result<(), DbError> {
        for chunk in rows.chunks(20_000) {
            let mut writing = self.writing().await?;
            let mut tx = writing.begin().await?;
            let part: Vec<(&str, ExploreCounts)> = chunk.iter().map(|c| (spec, *c)).collect();
            upsert(&mut tx, &part).await?;
            tx.commit().await?;
        }
        Ok(())
    }
}
