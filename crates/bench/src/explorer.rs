//! `gridplay bench explorer`: the opening explorer's answer time with many games stored. It plays `games`
//! seeded games of a variant (each move drawn among the legal ones, the first legal move more often, as real
//! openings concentrate), adds their first plies' counts to the database's explorer (summed in memory, then
//! written by the bulk loader), and times the explorer's query for positions drawn from those games.

use std::{collections::HashMap, time::Instant};

use gridplay_server::db::{
    Db, Winner,
    explorer::{ExploreCounts, PLIES, key_hash},
};
use rand::{RngExt, SeedableRng, rngs::SmallRng};

/// What to measure.
#[derive(Clone, Debug)]
pub struct ExplorerOptions {
    pub games: usize,
    pub spec: String,
    /// Positions whose answer is timed.
    pub samples: usize,
    /// `None`: a new SQLite file in a temporary directory.
    pub database: Option<String>,
    pub seed: u64,
}

/// What was measured.
#[derive(Clone, Debug)]
pub struct ExplorerReport {
    pub games: usize,
    pub rows: usize,
    pub database: String,
    pub load_seconds: f64,
    /// The explorer's query for one position, in milliseconds.
    pub median_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
    pub samples: usize,
    /// The mean number of moves an answer held.
    pub mean_moves: f64,
}

impl std::fmt::Display for ExplorerReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "explorer: {} games stored ({} position-move rows) in {}",
            self.games, self.rows, self.database
        )?;
        writeln!(f, "loaded in {:.1} s", self.load_seconds)?;
        write!(
            f,
            "answer for one position over {} positions: median {:.3} ms, p95 {:.3} ms, max {:.3} ms ({:.1} moves each on average)",
            self.samples, self.median_ms, self.p95_ms, self.max_ms, self.mean_moves
        )
    }
}

/// Plays the games, stores their counts and times the answers.
///
/// # Errors
///
/// A spec the registry does not know, or a database that fails.
pub async fn run(o: ExplorerOptions) -> Result<ExplorerReport, String> {
    let registry = gridplay_games::registry();
    let game = registry.game(&o.spec).map_err(|e| e.to_string())?;
    let spec = game.spec().to_string();
    let dir = std::env::temp_dir().join(format!("gridplay-explorer-{}", std::process::id()));
    let database = o
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}/explorer.db", dir.display()));
    let db = Db::connect(&database, 2, 1).await.map_err(|e| e.to_string())?;
    let mut rng = SmallRng::seed_from_u64(o.seed);
    let mut counts: HashMap<(i64, i64), ExploreCounts> = HashMap::new();
    let mut sampled: Vec<i64> = Vec::with_capacity(o.samples);
    let started = Instant::now();
    for n in 0..o.games {
        let mut pos = game.start();
        let mut key = key_hash(&pos.explorer_key());
        let winner = match rng.random_range(0..10) {
            0..=4 => Winner::First,
            5..=8 => Winner::Second,
            _ => Winner::Draw,
        };
        let mut seen = Vec::with_capacity(PLIES);
        for ply in 0..PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let m = if rng.random_range(0..3) == 0 {
                &moves[0]
            } else {
                &moves[rng.random_range(0..moves.len())]
            };
            pos.play(m).map_err(|e| e.to_string())?;
            let reached = key_hash(&pos.explorer_key());
            if !seen.contains(&(key, reached)) {
                seen.push((key, reached));
                let rating = 1500.0 + f64::from(rng.random_range(-300i32..300));
                counts
                    .entry((key, reached))
                    .or_insert_with(|| ExploreCounts::new(key, reached))
                    .add(winner, Some(rating));
            }
            // Positions to time, drawn across the games and their plies.
            if sampled.len() < o.samples
                && rng.random_range(0..(o.games * PLIES / o.samples.max(1)).max(1)) == 0
            {
                sampled.push(if ply == 0 { key } else { reached });
            }
            key = reached;
        }
        if o.games >= 10 && (n + 1) % (o.games / 10) == 0 {
            eprintln!("played {} of {} games ({} rows)", n + 1, o.games, counts.len());
        }
    }
    let rows: Vec<ExploreCounts> = counts.into_values().collect();
    db.explore_bulk(&spec, &rows).await.map_err(|e| e.to_string())?;
    let load_seconds = started.elapsed().as_secs_f64();
    eprintln!("stored {} rows in {load_seconds:.1} s", rows.len());
    let mut times = Vec::with_capacity(sampled.len());
    let mut moves = 0usize;
    for key in &sampled {
        let t = Instant::now();
        let answer = db.explorer(&spec, *key).await.map_err(|e| e.to_string())?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        moves += answer.len();
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let report = ExplorerReport {
        games: o.games,
        rows: rows.len(),
        database: database.clone(),
        load_seconds,
        median_ms: at(0.5),
        p95_ms: at(0.95),
        max_ms: times.last().copied().unwrap_or(0.0),
        samples: times.len(),
        mean_moves: moves as f64 / times.len().max(1) as f64,
    };
    if o.database.is_none() {
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(report)
}
