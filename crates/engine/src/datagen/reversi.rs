//! Reversi's data: positions from a frozen generator, labelled by the exact solver or a deep search.

use std::path::Path;

use gridplay_games::reversi::bitboard::Board;
use gridplay_search::{Limits, StopFlag};

use super::{DataError, Frozen, Label, Labelled, Recipe, Source, shard};
use crate::reversi::{
    endgame::Solver,
    search::{self, Options, Table},
};

/// The frozen generator's version. Its positions are pinned by a test: any change to [`position`] must take a
/// new name.
pub const GENERATOR: &str = "reversi-positions-1";

/// The recipes, shard `seed` taking `RECIPES[seed % 2]`: exact solves where they cost about a second here, and
/// searches to depth 14 in the midgame (positions of the search's own reach, which the evaluation must
/// predict).
pub const RECIPES: &[Recipe] = &[
    Recipe {
        name: "exact-20-24",
        low: 20,
        high: 24,
        label: Label::Exact,
        shard_size: 1000,
    },
    Recipe {
        name: "search18-25-44",
        low: 25,
        high: 44,
        label: Label::Search { depth: 18 },
        shard_size: 1000,
    },
];

/// Squares next to a corner on the diagonal (b2, g2, b7, g7), which the frozen policy avoids.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Position `index` of shard `seed`: a game from the start whose first 0-12 plies are random, then by a
/// fixed policy (take a corner, else leave the opponent the fewest moves, avoiding X-squares) with 0, 10, 25
/// or 50% random moves, stopped when `low..=high` empty squares (drawn) remain; a side that must pass there
/// passes. A game that ends before is drawn again.
#[must_use]
pub fn position(seed: u64, index: u64, low: u32, high: u32) -> Board {
    for attempt in 0.. {
        let mut rng = Frozen::new(seed, index, attempt);
        let target = low + rng.below(u64::from(high.saturating_sub(low)) + 1) as u32;
        let random_plies = rng.below(13) as u32;
        let noise = [0, 10, 25, 50][rng.below(4) as usize];
        let mut b = Board::START;
        let mut ply = 0u32;
        loop {
            if b.is_over() {
                break;
            }
            if b.must_pass() {
                b = b.pass();
                continue;
            }
            if b.empty().count_ones() <= target {
                return b;
            }
            let moves = b.moves();
            let sq = if ply < random_plies || rng.below(100) < noise {
                nth_bit(moves, rng.below(u64::from(moves.count_ones())) as u32)
            } else {
                policy(b, moves, &mut rng)
            };
            b = b.play(sq);
            ply += 1;
        }
    }
    unreachable!("the attempts never run out")
}

/// The frozen policy's move: a corner if any, else the fewest replies (X-squares count four more), ties drawn.
fn policy(b: Board, moves: u64, rng: &mut Frozen) -> u8 {
    let corners = moves & CORNERS;
    if corners != 0 {
        return nth_bit(corners, rng.below(u64::from(corners.count_ones())) as u32);
    }
    let mut best = u32::MAX;
    let mut tied = 0u64;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        let cost = b.play(sq).moves().count_ones() + if X_SQUARES & (1 << sq) != 0 { 4 } else { 0 };
        if cost < best {
            best = cost;
            tied = 0;
        }
        if cost == best {
            tied |= 1 << sq;
        }
    }
    nth_bit(tied, rng.below(u64::from(tied.count_ones())) as u32)
}

/// The square of the `n`th set bit of `bits`, lowest first.
fn nth_bit(mut bits: u64, n: u32) -> u8 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as u8
}

/// Labels Reversi positions: a solver for exact labels and a table for searches, each emptied per position
/// (the solver's table only speeds, never changes, an exact score).
#[derive(Debug)]
pub struct Labeller {
    solver: Option<Solver>,
    table: Option<Table>,
}

impl Labeller {
    #[must_use]
    pub fn new() -> Labeller {
        Labeller {
            solver: None,
            table: None,
        }
    }
}

impl Default for Labeller {
    fn default() -> Labeller {
        Labeller::new()
    }
}

/// The label of `b` under `label`, in hundredths of a disc for the side to move.
fn label_board(l: &mut Labeller, b: Board, label: Label) -> i16 {
    let hundredths = match label {
        Label::Exact => l.solver.get_or_insert_with(|| Solver::new(64)).solve(b).score * 100,
        Label::Search { depth } => {
            // A new table for each position: a search's score depends on what its table holds.
            let table = l.table.insert(Table::new(16));
            let options = Options::default();
            search::search_in(b, Limits::depth(depth), &StopFlag::new(), options, table).score
        }
    };
    hundredths.clamp(-6400, 6400) as i16
}

impl Source for Labeller {
    fn game(&self) -> &'static str {
        "reversi"
    }

    fn generator(&self) -> &'static str {
        GENERATOR
    }

    fn recipes(&self) -> &'static [Recipe] {
        RECIPES
    }

    fn label_source(&mut self) -> String {
        "the solver; the search with the build's weights and Multi-ProbCut".into()
    }

    fn label(&mut self, seed: u64, index: u64, recipe: &Recipe) -> i16 {
        let b = position(seed, index, recipe.low, recipe.high);
        label_board(self, b, recipe.label)
    }
}

/// Every labelled position of the shards in `folder` (`data/train/reversi`), the positions made again by the
/// generator, with each shard's recipe.
///
/// # Errors
/// A shard that cannot be read, or one made by another generator.
pub fn read(folder: &Path) -> Result<Vec<(Labelled<Board>, Label)>, DataError> {
    shard::read_all(folder, GENERATOR, position)
}

/// The shards' positions in `folder` as the pattern fit's samples: each label in whole discs, as the result
/// and as the search's score alike (an exact label is the result; a search's is the best estimate there is).
///
/// # Errors
/// As [`read`].
pub fn samples(folder: &Path) -> Result<Vec<crate::reversi::train::Sample>, DataError> {
    Ok(read(folder)?
        .into_iter()
        .map(|(l, _)| {
            let discs = (f32::from(l.label) / 100.0).round().clamp(-64.0, 64.0) as i8;
            crate::reversi::train::Sample {
                player: l.position.player,
                opponent: l.position.opponent,
                score: discs,
                searched: discs,
            }
        })
        .collect())
}

#[cfg(test)]
pub(super) fn label_for_test(b: Board, label: Label) -> i16 {
    label_board(&mut Labeller::new(), b, label)
}
