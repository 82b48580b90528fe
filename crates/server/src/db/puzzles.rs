//! Puzzles and their players: the puzzles (shipped, and mined from the site's finished games) with their
//! ratings; each player's puzzle rating, streak and history per game; and the finished games already mined.
//! How a try changes the ratings and the streak is the game layer's rule (`game::puzzles::rate_try`); this
//! module reads and writes what it decides, in one transaction.

use gridplay_engine::puzzles::{Step, parse_steps, steps_text};
use skillratings::glicko2::Glicko2Rating;

use super::{Db, DbError, GameStatus, columns::Flag, ratings::START};

/// A puzzle to add.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPuzzle {
    pub game: String,
    pub spec: String,
    /// The position text, the solver to move.
    pub position: String,
    /// The solver's moves and the replies between them.
    pub solution: Vec<String>,
    /// How the first move was proved best.
    pub proof: String,
    /// Every legal move of each of the solver's turns, graded: one step for each of the solver's moves.
    pub steps: Vec<Step>,
    /// `shipped`, or `site:GAME` for a puzzle mined from one of the site's games.
    pub source: String,
}

/// A stored puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    pub id: String,
    pub game: String,
    pub spec: String,
    pub position: String,
    pub solution: Vec<String>,
    pub proof: String,
    /// Every legal move of each of the solver's turns, graded.
    pub steps: Vec<Step>,
    pub source: String,
    /// No longer offered (its tries are kept).
    pub retired: bool,
    pub rating: f64,
    pub deviation: f64,
    pub plays: i64,
}

/// A player's puzzles in one game.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct PuzzlePlayer {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub attempts: i64,
    pub solved: i64,
    /// Puzzles solved in a row, to the last one tried.
    pub streak: i64,
    pub best_streak: i64,
}

/// One puzzle a player tried.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AttemptRow {
    pub puzzle_id: String,
    pub at: i64,
    #[sqlx(try_from = "Flag")]
    pub solved: bool,
    /// The player's puzzle rating after it.
    pub rating_after: f64,
    /// The puzzle's rating after it.
    pub puzzle_rating: f64,
}

/// What a first try of a puzzle changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    pub before: f64,
    pub player: PuzzlePlayer,
    pub puzzle_rating: f64,
}

/// A puzzle's id: a hash of its variant and position, the same on every server.
#[must_use]
pub fn puzzle_id(spec: &str, position: &str) -> String {
    let h = super::explorer::key_hash(&format!("{spec}\n{position}"));
    format!("{:016x}", h as u64)
}

const PUZZLE_COLUMNS: &str = "id, game, spec, position, solution, proof, grades, source, retired, rating, deviation, \
     plays FROM puzzles";

/// A row of [`PUZZLE_COLUMNS`], as stored: the solution's moves separated by spaces, the grades as
/// `steps_text` writes them.
#[derive(sqlx::FromRow)]
struct PuzzleRecord {
    id: String,
    game: String,
    spec: String,
    position: String,
    solution: String,
    proof: String,
    grades: String,
    source: String,
    #[sqlx(try_from = "Flag")]
    retired: bool,
    rating: f64,
    deviation: f64,
    plays: i64,
}

impl TryFrom<PuzzleRecord> for PuzzleRow {
    type Error = sqlx::Error;

    fn try_from(r: PuzzleRecord) -> Result<PuzzleRow, sqlx::Error> {
        // A puzzle stored before moves were graded is retired (`store_shipped_set`), and has no steps.
        let steps = if r.grades.is_empty() {
            Vec::new()
        } else {
            parse_steps(&r.grades).map_err(|e| sqlx::Error::Decode(format!("puzzle {}: {e}", r.id).into()))?
        };
        Ok(PuzzleRow {
            steps,
            retired: r.retired,
            id: r.id,
            game: r.game,
            spec: r.spec,
            position: r.position,
            solution: r.solution.split(' ').map(str::to_owned).collect(),
            proof: r.proof,
            source: r.source,
            rating: r.rating,
            deviation: r.deviation,
            plays: r.plays,
        })
    }
}

fn puzzles(query: String) -> sqlx::query::QueryAs<'static, sqlx::Any, PuzzleRecord, sqlx::any::AnyArguments> {
    sqlx::query_as(sqlx::AssertSqlSafe(query))
}

const PLAYER_COLUMNS: &str =
    "rating, deviation, volatility, attempts, solved, streak, best_streak FROM puzzle_players";

/// A player who has tried no puzzle of a game.
#[must_use]
pub fn new_player() -> PuzzlePlayer {
    PuzzlePlayer {
        rating: START.rating,
        deviation: START.deviation,
        volatility: START.volatility,
        attempts: 0,
        solved: 0,
        streak: 0,
        best_streak: 0,
    }
}

/// Inserts puzzles in the caller's transaction, `ON CONFLICT` `conflict`; returns the rows inserted or
/// changed.
async fn insert_puzzles(
    conn: &mut sqlx::AnyConnection,
    puzzles: &[NewPuzzle],
    now: i64,
    conflict: &str,
) -> Result<u64, DbError> {
    const COLUMNS: usize = 14;
    let mut added = 0;
    for part in puzzles.chunks(100) {
        let values = super::placeholders(part.len(), COLUMNS, 1, super::numbered);
        let sql = format!(
            "INSERT INTO puzzles (id, game, spec, position, solution, proof, grades, source, rating, deviation, volatility, \
             created_at, plays, retired) VALUES {values} ON CONFLICT {conflict}"
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for p in part {
            q = q
                .bind(puzzle_id(&p.spec, &p.position))
                .bind(p.game.clone())
                .bind(p.spec.clone())
                .bind(p.position.clone())
                .bind(p.solution.join(" "))
                .bind(p.proof.clone())
                .bind(steps_text(&p.steps))
                .bind(p.source.clone())
                .bind(START.rating)
                .bind(START.deviation)
                .bind(START.volatility)
                .bind(now)
                .bind(0_i64)
                .bind(Flag(false));
        }
        added += q.execute(&mut *conn).await?.rows_affected();
    }
    Ok(added)
}

impl Db {
    /// Adds puzzles, leaving out those whose position is stored already; returns how many were added. They
    /// go 100 to a statement, in one transaction per 1,000.
    pub async fn add_puzzles(&self, puzzles: &[NewPuzzle], now: i64) -> Result<u64, DbError> {
        let mut added = 0;
        for chunk in puzzles.chunks(1000) {
            let mut writing = self.writing().await?;
            let mut tx = writing.begin().await?;
            added += insert_puzzles(&mut tx, chunk, now, "DO NOTHING").await?;
            tx.commit().await?;
        }
        Ok(added)
    }

    /// Stores a shipped set of puzzles whose text hashes to `hash`, unless it is stored already (`None`), in
    /// one transaction: the shipped puzzles stored before and not in the set are retired, and every puzzle
    /// stored before moves were graded (no grades); those in the set are
    /// added or take its solution, proof and grades (their ratings and tries are kept). Returns how many
    /// puzzles were added or changed.
    pub async fn store_shipped_set(
        &self,
        hash: &str,
        puzzles: &[NewPuzzle],
        now: i64,
    ) -> Result<Option<u64>, DbError> {
        let mut writing = self.writing().await?;
        let mut tx = writing.begin().await?;
        let stored = sqlx::query(
            "INSERT INTO shipped_puzzle_sets (hash, stored_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        )
        .bind(hash)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if stored == 0 {
            return Ok(None);
        }
        // Those stored before moves were graded (mined ones among them) have no grades to judge by.
        sqlx::query("UPDATE puzzles SET retired = 1 WHERE source = 'shipped' OR grades = ''")
            .execute(&mut *tx)
            .await?;
        let mut changed = 0;
        for chunk in puzzles.chunks(100) {
            changed += insert_puzzles(
                &mut tx,
                chunk,
                now,
                "(id) DO UPDATE SET solution = excluded.solution, proof = excluded.proof, grades = excluded.grades, \
                 source = excluded.source, retired = 0",
            )
            .await?;
        }
        tx.commit().await?;
        Ok(Some(changed))
    }

    /// How many puzzles a game offers (`None`: every game), and how many of them came from `source` (a
    /// prefix: `shipped`, `site:`). Retired puzzles are not counted.
    pub async fn count_puzzles(&self, game: Option<&str>, source: &str) -> Result<(i64, i64), DbError> {
        Ok(sqlx::query_as(
            "SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN source LIKE $2 THEN 1 ELSE 0 END), 0) AS s FROM puzzles \
             WHERE ($1 = '' OR game = $1) AND retired = 0",
        )
        .bind(game.unwrap_or(""))
        .bind(format!("{source}%"))
        .fetch_one(&self.pool)
        .await?)
    }

    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, DbError> {
        let row = puzzles(format!("SELECT {PUZZLE_COLUMNS} WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(PuzzleRow::try_from).transpose()?)
    }

    /// Up to `n` puzzles of `game` nearest `rating`, leaving out those `user` has tried and those retired.
    pub async fn puzzles_near(
        &self,
        game: &str,
        user: Option<&str>,
        rating: f64,
        n: i64,
    ) -> Result<Vec<PuzzleRow>, DbError> {
        let rows = puzzles(format!(
            "SELECT {PUZZLE_COLUMNS} p WHERE p.game = $1 AND NOT EXISTS \
             (SELECT 1 FROM puzzle_attempts a WHERE a.user_id = $2 AND a.puzzle_id = p.id) AND p.retired = 0 \
             ORDER BY ABS(p.rating - $3), p.id LIMIT $4"
        ))
        .bind(game)
        .bind(user.unwrap_or(""))
        .bind(rating)
        .bind(n)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(PuzzleRow::try_from)
            .collect::<Result<_, _>>()?)
    }

    /// A player's puzzles in a game (a new player's when none tried).
    pub async fn puzzle_player(&self, user: &str, game: &str) -> Result<PuzzlePlayer, DbError> {
        let row: Option<PuzzlePlayer> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {PLAYER_COLUMNS} WHERE user_id = $1 AND game = $2"
        )))
        .bind(user)
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.unwrap_or_else(new_player))
    }

    /// Records `user`'s first try of `puzzle`, solved or not, in one transaction: the player's and the
    /// puzzle's standing as they are at the commit go through `rate` (the game layer's rule), and what it
    /// returns is stored. A puzzle tried before changes nothing (`None`).
    pub async fn record_attempt(
        &self,
        user: &str,
        puzzle: &PuzzleRow,
        solved: bool,
        now: i64,
        rate: impl FnOnce(&PuzzlePlayer, Glicko2Rating) -> (PuzzlePlayer, Glicko2Rating) + Send,
    ) -> Result<Option<Rated>, DbError> {
        let mut writing = self.writing().await?;
        let mut tx = writing.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO puzzle_attempts (user_id, puzzle_id, game, at, solved, rating_after, puzzle_rating) \
             VALUES ($1, $2, $3, $4, $5, 0, 0) ON CONFLICT DO NOTHING",
        )
        .bind(user)
        .bind(&puzzle.id)
        .bind(&puzzle.game)
        .bind(now)
        .bind(Flag(solved))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            return Ok(None);
        }
        // The player's row (made first if missing), then the puzzle's, are locked until the commit by an
        // update that changes nothing (SQLite has no `FOR UPDATE`, and one writer at a time): on PostgreSQL two
        // tries at once, by one player or of one puzzle, then rate one after the other, each from the ratings
        // the other left. Every try locks in that order, so none waits for another that waits for it.
        let start = new_player();
        sqlx::query(
            "INSERT INTO puzzle_players (user_id, game, rating, deviation, volatility, attempts, solved, streak, best_streak) \
             VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0) ON CONFLICT (user_id, game) DO NOTHING",
        )
        .bind(user)
        .bind(&puzzle.game)
        .bind(start.rating)
        .bind(start.deviation)
        .bind(start.volatility)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE puzzle_players SET attempts = attempts WHERE user_id = $1 AND game = $2")
            .bind(user)
            .bind(&puzzle.game)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE puzzles SET plays = plays WHERE id = $1")
            .bind(&puzzle.id)
            .execute(&mut *tx)
            .await?;
        let player: PuzzlePlayer = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {PLAYER_COLUMNS} WHERE user_id = $1 AND game = $2"
        )))
        .bind(user)
        .bind(&puzzle.game)
        .fetch_one(&mut *tx)
        .await?;
        let (rating, deviation, volatility): (f64, f64, f64) =
            sqlx::query_as("SELECT rating, deviation, volatility FROM puzzles WHERE id = $1")
                .bind(&puzzle.id)
                .fetch_one(&mut *tx)
                .await?;
        let before = player.rating;
        let (player, puzzle_after) = rate(
            &player,
            Glicko2Rating {
                rating,
                deviation,
                volatility,
            },
        );
        sqlx::query(
            "UPDATE puzzle_players SET rating = $3, deviation = $4, volatility = $5, attempts = $6, solved = $7, \
             streak = $8, best_streak = $9 WHERE user_id = $1 AND game = $2",
        )
        .bind(user)
        .bind(&puzzle.game)
        .bind(player.rating)
        .bind(player.deviation)
        .bind(player.volatility)
        .bind(player.attempts)
        .bind(player.solved)
        .bind(player.streak)
        .bind(player.best_streak)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4, plays = plays + 1 WHERE id = $1")
            .bind(&puzzle.id)
            .bind(puzzle_after.rating)
            .bind(puzzle_after.deviation)
            .bind(puzzle_after.volatility)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE puzzle_attempts SET rating_after = $3, puzzle_rating = $4 WHERE user_id = $1 AND puzzle_id = $2",
        )
        .bind(user)
        .bind(&puzzle.id)
        .bind(player.rating)
        .bind(puzzle_after.rating)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(Rated {
            before,
            player,
            puzzle_rating: puzzle_after.rating,
        }))
    }

    /// A player's last `limit` puzzles of a game, newest first.
    pub async fn puzzle_history(
        &self,
        user: &str,
        game: &str,
        limit: i64,
    ) -> Result<Vec<AttemptRow>, DbError> {
        Ok(sqlx::query_as(
            "SELECT puzzle_id, at, solved, rating_after, puzzle_rating FROM puzzle_attempts \
             WHERE user_id = $1 AND game = $2 ORDER BY at DESC, puzzle_id LIMIT $3",
        )
        .bind(user)
        .bind(game)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Up to `limit` finished games between two accounts not mined for puzzles yet, the latest first.
    pub async fn unmined_games(&self, limit: i64) -> Result<Vec<String>, DbError> {
        Ok(sqlx::query_scalar(
            "SELECT g.id FROM games g WHERE g.status = $1 AND g.first_user IS NOT NULL AND g.second_user IS NOT NULL \
             AND NOT EXISTS (SELECT 1 FROM puzzle_mined m WHERE m.game_id = g.id) ORDER BY g.updated_at DESC, g.id LIMIT $2",
        )
        .bind(GameStatus::Finished.as_str())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Marks a game as mined for puzzles.
    pub async fn mark_mined(&self, game_id: &str, now: i64) -> Result<(), DbError> {
        sqlx::query("INSERT INTO puzzle_mined (game_id, at) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(game_id)
            .bind(now)
            .execute(self.writing().await?.conn())
            .await?;
        Ok(())
    }
}
