//! Training data that accumulates from one session to the next: labelled positions in shards, made by a
//! resumable, deterministic job (`gridplay datagen`).
//!
//! Only the expensive part is kept. A shard is a manifest (`SEED.json`: the generator, the recipe, the runs
//! that made it and the builds they ran) and its labels (`SEED.labels`: one little-endian `i16` a position, in
//! hundredths of a disc or of a man for the side to move). The positions themselves are not stored: a frozen,
//! versioned generator ([`reversi::GENERATOR`], [`checkers::GENERATOR`]) makes position `i` of a shard again
//! from the shard's seed and recipe alone, with the rules and a fixed random sequence and no evaluation, so
//! that a change to the engine never changes them. Changing a generator means a new version name, and the
//! reader refuses shards of another version.
//!
//! The job appends each label as soon as it is made and rewrites the manifest beside it, so a job killed at
//! any moment loses at most the position it was labelling, and the next job continues the same shard from the
//! labels file's length.

pub mod checkers;
pub mod reversi;
mod shard;

use std::{
    path::{Path, PathBuf},
    sync::atomic::{AtomicBool, Ordering},
    time::Instant,
};

pub use shard::{Manifest, Run, Shard};

/// How a recipe's positions are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Label {
    /// The exact result under perfect play (Reversi: the final disc difference, by the endgame solver).
    Exact,
    /// The score of the engine's own search to this depth, from a fresh table (so the same build gives the same
    /// label), with the endgame databases the manifest names.
    Search { depth: u32 },
}

/// Which positions a shard holds and how they are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Recipe {
    /// A name that says what it is: `exact-20-24`, `search14-25-44`.
    pub name: &'static str,
    /// The positions' range: empty squares for Reversi, pieces on the board for checkers.
    pub low: u32,
    pub high: u32,
    pub label: Label,
    /// Positions a full shard holds, chosen so that a shard takes about half an hour of one core here.
    pub shard_size: u32,
}

/// What can go wrong while making or reading the data.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a shard manifest: {source}")]
    Manifest {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("{path}: {what}")]
    Invalid { path: PathBuf, what: String },
    #[error("unknown game `{0}`: the data job knows `reversi` and `checkers`")]
    UnknownGame(String),
}

/// One game's data: its frozen generator, its recipes, and a labeller.
pub trait Source {
    /// The game's name, which is also the folder of its shards.
    fn game(&self) -> &'static str;
    /// The frozen generator's version.
    fn generator(&self) -> &'static str;
    /// The recipes: shard `seed` follows `recipes()[seed % len]`.
    fn recipes(&self) -> &'static [Recipe];
    /// What the labels depend on besides the build (for checkers, the endgame databases' pieces).
    fn label_source(&mut self) -> String;
    /// The label of position `index` of shard `seed` under `recipe`.
    fn label(&mut self, seed: u64, index: u64, recipe: &Recipe) -> i16;
}

/// The source for `game`.
///
/// # Errors
/// [`DataError::UnknownGame`] for a game without one.
pub fn source(game: &str) -> Result<Box<dyn Source>, DataError> {
    match game {
        "reversi" => Ok(Box::new(reversi::Labeller::new())),
        "checkers" => Ok(Box::new(checkers::Labeller::new())),
        other => Err(DataError::UnknownGame(other.to_string())),
    }
}

/// What one call of [`run`] is told.
#[derive(Debug)]
pub struct Job<'a> {
    /// The folder holding a folder per game (`data/train`).
    pub dir: &'a Path,
    /// The build that labels, recorded in each run (`git describe` of the tree it was built from).
    pub build: &'a str,
    /// Shard seeds this job may open: each machine that makes data at the same time takes its own range.
    pub seeds: std::ops::Range<u64>,
    /// Stop after this many labels in all (`None`: until `stop`).
    pub labels: Option<u64>,
}

/// A label made: the game, the shard and how far it is.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    pub game: &'a str,
    pub seed: u64,
    pub recipe: &'a str,
    pub count: u32,
    pub target: u32,
}

/// Makes labels for `sources` in turn, a shard each, until `stop` is raised or `job.labels` are made: first
/// each game's unfinished shards of `job.seeds`, then new ones at the lowest free seed. Returns the labels made.
///
/// # Errors
/// A shard that cannot be read or written.
pub fn run(
    job: &Job<'_>,
    sources: &mut [Box<dyn Source>],
    stop: &AtomicBool,
    mut progress: impl FnMut(Progress<'_>),
) -> Result<u64, DataError> {
    let mut made = 0u64;
    let budget = job.labels.unwrap_or(u64::MAX);
    while !stop.load(Ordering::Relaxed) && made < budget && !sources.is_empty() {
        for source in sources.iter_mut() {
            if stop.load(Ordering::Relaxed) || made >= budget {
                break;
            }
            let folder = job.dir.join(source.game());
            let mut shard = Shard::next(&folder, &mut **source, job.seeds.clone(), job.build)?;
            let started = Instant::now();
            while !shard.is_full() && !stop.load(Ordering::Relaxed) && made < budget {
                let recipe = shard.recipe;
                let label = source.label(shard.manifest.seed, u64::from(shard.manifest.count), &recipe);
                shard.push(label, started.elapsed().as_secs_f64())?;
                made += 1;
                progress(Progress {
                    game: source.game(),
                    seed: shard.manifest.seed,
                    recipe: recipe.name,
                    count: shard.manifest.count,
                    target: shard.manifest.target,
                });
            }
        }
    }
    Ok(made)
}

/// A labelled position as the reader gives it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled<P> {
    pub position: P,
    pub label: i16,
}

/// A small random sequence (SplitMix64) that never changes: the generators' positions depend on it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frozen(u64);

impl Frozen {
    /// The sequence of position `index` of shard `seed`, at attempt `attempt`.
    pub(crate) fn new(seed: u64, index: u64, attempt: u64) -> Frozen {
        let mut f = Frozen(seed ^ 0x9E37_79B9_7F4A_7C15);
        let a = f.next();
        let mut f = Frozen(a ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let b = f.next();
        Frozen(b ^ attempt.wrapping_mul(0x8CB9_2BA7_2F3D_8DD7))
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

#[cfg(test)]
mod tests;
