//! Glicko-2 ratings, per player and game, and the statistics of a player's games.
//!
//! A rated game's end and the new ratings are written in one transaction (the action writer's), so a rating
//! can never count a game twice or miss one. The maths is skillratings's, with lichess's settings: players start
//! at 1500 with a deviation of 500 and a volatility of 0.09, tau is 0.75, and a rating is provisional while its
//! deviation is 110 or more.

use skillratings::{
    Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2},
};
use sqlx::AssertSqlSafe;

use super::{Backend, Db, DbError, GAME_COLUMNS, GameRow, game_rows};

/// A rating is provisional while its deviation is at least this.
pub(crate) const PROVISIONAL_DEVIATION: f64 = 110.0;

pub(crate) const START: Glicko2Rating = Glicko2Rating {
    rating: 1500.0,
    deviation: 500.0,
    volatility: 0.09,
};

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: 0.75,
        ..Glicko2Config::new()
    }
}

/// A rated game's result, for the writer.
#[derive(Clone, Debug)]
pub struct RateJob {
    /// The game's registry name: ratings are per game.
    pub game: String,
    /// The players' ids, first and second.
    pub users: [String; 2],
    /// The first player's score: 1, 0.5 or 0.
    pub first_score: f64,
}

/// A player's rating and deviation after each rated game of one kind: (game id, rating, deviation).
pub(crate) type RatingsAfter = Vec<(String, f64, f64)>;

/// A player's rating in one game.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RatingRow {
    pub user_id: String,
    pub name: String,
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
    pub provisional: bool,
}

/// A player's results in one game.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema, sqlx::FromRow)]
pub struct StatsRow {
    pub game: String,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    /// Games the player resigned.
    pub resigned: i64,
}

async fn load(
    conn: &mut sqlx::AnyConnection,
    user: &str,
    game: &str,
) -> Result<(Glicko2Rating, i64), sqlx::Error> {
    let row: Option<(f64, f64, f64, i64)> = sqlx::query_as(
        "SELECT rating, deviation, volatility, games FROM ratings WHERE user_id = $1 AND game = $2",
    )
    .bind(user)
    .bind(game)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(match row {
        Some((rating, deviation, volatility, games)) => (
            Glicko2Rating {
                rating,
                deviation,
                volatility,
            },
            games,
        ),
        None => (START, 0),
    })
}

/// On PostgreSQL, where several writers (of one server or several) may rate games of the same player at
/// once, locks the two players' rating rows until the transaction ends, each made first if missing, in the
/// order of their ids (so that a writer may wait for another, but never two for each other): the read that
/// follows sees the rating that the other writer's transaction left, not the one before it. SQLite has one
/// writer at a time.
async fn lock(conn: &mut sqlx::AnyConnection, job: &RateJob, now: i64) -> Result<(), sqlx::Error> {
    let mut users: Vec<&String> = job.users.iter().collect();
    users.sort();
    users.dedup();
    for user in users {
        sqlx::query(
            "INSERT INTO ratings (user_id, game, rating, deviation, volatility, games, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (user_id, game) DO NOTHING",
        )
        .bind(user)
        .bind(&job.game)
        .bind(START.rating)
        .bind(START.deviation)
        .bind(START.volatility)
        .bind(now)
        .execute(&mut *conn)
        .await?;
        sqlx::query("SELECT games FROM ratings WHERE user_id = $1 AND game = $2 FOR UPDATE")
            .bind(user)
            .bind(&job.game)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Applies a rated result inside the writer's transaction.
pub(super) async fn apply(
    conn: &mut sqlx::AnyConnection,
    backend: Backend,
    game_id: &str,
    job: &RateJob,
    now: i64,
) -> Result<(), sqlx::Error> {
    if backend == Backend::Postgres {
        lock(conn, job, now).await?;
    }
    let (a, na) = load(conn, &job.users[0], &job.game).await?;
    let (b, nb) = load(conn, &job.users[1], &job.game).await?;
    let outcome = if job.first_score > 0.75 {
        Outcomes::WIN
    } else if job.first_score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (a2, b2) = glicko2(&a, &b, &outcome, &config());
    for (user, r, n) in [(&job.users[0], a2, na), (&job.users[1], b2, nb)] {
        sqlx::query(
            "INSERT INTO ratings (user_id, game, rating, deviation, volatility, games, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, game) DO UPDATE SET rating = $3, \
             deviation = $4, volatility = $5, games = $6, updated_at = $7",
        )
        .bind(user)
        .bind(&job.game)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(n + 1)
        .bind(now)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO rating_history (user_id, game, game_id, rating, deviation, at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(user)
        .bind(&job.game)
        .bind(game_id)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// A row of [`RATING_COLUMNS`], as stored.
#[derive(sqlx::FromRow)]
struct RatingRecord {
    user_id: String,
    name: String,
    game: String,
    rating: f64,
    deviation: f64,
    games: i64,
}

impl From<RatingRecord> for RatingRow {
    fn from(r: RatingRecord) -> RatingRow {
        RatingRow {
            user_id: r.user_id,
            name: r.name,
            game: r.game,
            rating: r.rating,
            deviation: r.deviation,
            games: r.games,
            provisional: r.deviation >= PROVISIONAL_DEVIATION,
        }
    }
}

fn ratings(query: String) -> sqlx::query::QueryAs<'static, sqlx::Any, RatingRecord, sqlx::any::AnyArguments> {
    sqlx::query_as(AssertSqlSafe(query))
}

const RATING_COLUMNS: &str = "r.user_id, u.name, r.game, r.rating, r.deviation, r.games FROM ratings r JOIN users u ON u.id = r.user_id";

impl Db {
    /// A player's rating in a game, or the starting one (provisional, no games).
    pub async fn rating(&self, user: &str, game: &str) -> Result<Option<RatingRow>, DbError> {
        let row = ratings(format!(
            "SELECT {RATING_COLUMNS} WHERE r.user_id = $1 AND r.game = $2"
        ))
        .bind(user)
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(RatingRow::from))
    }

    /// Every rating of a player.
    pub async fn ratings_of(&self, user: &str) -> Result<Vec<RatingRow>, DbError> {
        let rows = ratings(format!(
            "SELECT {RATING_COLUMNS} WHERE r.user_id = $1 ORDER BY r.game"
        ))
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(RatingRow::from).collect())
    }

    /// A game's leaderboard, of people or of bots (`bots`): established ratings first, best first, then
    /// provisional ones.
    pub async fn leaderboard(&self, game: &str, bots: bool, limit: i64) -> Result<Vec<RatingRow>, DbError> {
        let rows = ratings(format!(
            "SELECT {RATING_COLUMNS} WHERE r.game = $1 AND u.engine = 0 AND u.closed = 0 AND u.bot = $4 \
             ORDER BY CASE WHEN r.deviation < $2 THEN 0 ELSE 1 END, r.rating DESC, u.name_key LIMIT $3"
        ))
        .bind(game)
        .bind(PROVISIONAL_DEVIATION)
        .bind(limit)
        .bind(i64::from(bots))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(RatingRow::from).collect())
    }

    /// A player's ratings over time in one game: (Unix ms, rating), oldest first.
    pub async fn rating_history(&self, user: &str, game: &str) -> Result<Vec<(i64, f64)>, DbError> {
        Ok(sqlx::query_as(
            "SELECT at, rating FROM rating_history WHERE user_id = $1 AND game = $2 ORDER BY at, game_id LIMIT 2000",
        )
        .bind(user)
        .bind(game)
        .fetch_all(&self.pool)
        .await?)
    }

    /// A player's rating and deviation after each rated game of one game kind, oldest first, by game id.
    pub async fn ratings_after_games(
        &self,
        user: &str,
        game: &str,
    ) -> Result<Vec<(String, f64, f64)>, DbError> {
        Ok(sqlx::query_as(
            "SELECT game_id, rating, deviation FROM rating_history WHERE user_id = $1 AND game = $2 \
             ORDER BY at, game_id",
        )
        .bind(user)
        .bind(game)
        .fetch_all(&self.pool)
        .await?)
    }

    /// A player's wins, losses, draws and resignations per game, over every finished game.
    pub async fn stats(&self, user: &str) -> Result<Vec<StatsRow>, DbError> {
        Ok(sqlx::query_as(
            "SELECT game, \
             SUM(CASE WHEN (winner = 'first' AND first_user = $1) OR (winner = 'second' AND second_user = $1) \
                 THEN 1 ELSE 0 END) AS wins, \
             SUM(CASE WHEN (winner = 'first' AND second_user = $1) OR (winner = 'second' AND first_user = $1) \
                 THEN 1 ELSE 0 END) AS losses, \
             SUM(CASE WHEN winner = 'draw' THEN 1 ELSE 0 END) AS draws, \
             SUM(CASE WHEN termination = 'resignation' AND ((winner = 'first' AND second_user = $1) \
                 OR (winner = 'second' AND first_user = $1)) THEN 1 ELSE 0 END) AS resigned \
             FROM games WHERE status = 'finished' AND (first_user = $1 OR second_user = $1) \
             GROUP BY game ORDER BY game",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The games in play, the most recently moved first (for spectators).
    pub async fn live_games(&self, limit: i64, idle_since: i64) -> Result<Vec<GameRow>, DbError> {
        // An untimed game (only games against the engine are untimed) that has not moved since `idle_since`
        // is left, not in play: it is not listed.
        let rows = game_rows(format!(
            "SELECT {GAME_COLUMNS} WHERE g.status = 'active' AND NOT (g.clock_initial IS NULL \
             AND g.days_per_move IS NULL AND g.updated_at < $2) ORDER BY g.updated_at DESC LIMIT $1"
        ))
        .bind(limit)
        .bind(idle_since)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(GameRow::from).collect())
    }

    /// The current ratings of some players in one game, by user id.
    pub async fn ratings_in(
        &self,
        game: &str,
        users: &[&str],
    ) -> Result<std::collections::HashMap<String, RatingRow>, DbError> {
        let mut out = std::collections::HashMap::new();
        // A handful of players per page: one indexed lookup each keeps the query the same on both backends.
        for u in users {
            if out.contains_key(*u) {
                continue;
            }
            if let Some(r) = self.rating(u, game).await? {
                out.insert((*u).to_owned(), r);
            }
        }
        Ok(out)
    }
}
