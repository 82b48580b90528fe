//! Checkers' data: positions from a frozen generator, labelled by the engine's search with the endgame
//! databases.

use std::path::Path;

use gridplay_core::{Game, Player, Position};
use gridplay_games::checkers::{
    BALLOTS, Checkers, CheckersPosition,
    bitboard::Board,
    movegen::{self, Moves},
};
use gridplay_search::{Limits, StopFlag};

use super::{DataError, Frozen, Label, Labelled, Recipe, Source, shard};
use crate::checkers::{
    egdb::{self, Database},
    evaluation,
    search::{Table, search_with},
};

/// The frozen generator's version. Its positions are pinned by a test: any change to [`position`] must take a
/// new name.
pub const GENERATOR: &str = "checkers-positions-1";

/// The recipes, shard `seed` taking `RECIPES[seed % 2]`: positions of 7-12 pieces, whose searches reach the
/// databases, and midgames of 13-20 pieces.
pub const RECIPES: &[Recipe] = &[
    Recipe {
        name: "search21-7-12",
        low: 7,
        high: 12,
        label: Label::Search { depth: 21 },
        shard_size: 1000,
    },
    Recipe {
        name: "search19-13-20",
        low: 13,
        high: 20,
        label: Label::Search { depth: 19 },
        shard_size: 1000,
    },
];

/// Plies after which a game that has not come down to its target is drawn again.
const MAX_PLIES: u32 = 250;

/// Position `index` of shard `seed`: a 3-move ballot drawn at random, then 0-6 random plies, then a fixed
/// policy (the most material after the opponent's best reply, a king worth 1.4 men) with 0, 10, 25 or 50%
/// random moves, stopped at the first position with `low..=high` pieces (the target drawn in that range and
/// no more pieces than it) where the side to move has moves and no capture. A game that ends first, or
/// passes below `low` or beyond [`MAX_PLIES`], is drawn again.
#[must_use]
pub fn position(seed: u64, index: u64, low: u32, high: u32) -> CheckersPosition {
    let ballots: Vec<&str> = BALLOTS.lines().filter(|l| !l.trim().is_empty()).collect();
    'attempt: for attempt in 0.. {
        let mut rng = Frozen::new(seed, index, attempt);
        let target = low + rng.below(u64::from(high.saturating_sub(low)) + 1) as u32;
        let random_plies = rng.below(7) as u32;
        let noise = [0, 10, 25, 50][rng.below(4) as usize];
        let mut pos: CheckersPosition = Checkers.start();
        for m in ballots[rng.below(ballots.len() as u64) as usize].split_whitespace() {
            if pos.play_text(m).is_err() {
                continue 'attempt;
            }
        }
        for ply in 0..MAX_PLIES {
            let b = *pos.board();
            let pieces = b.occupied().count_ones();
            if pieces < low {
                continue 'attempt;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue 'attempt;
            }
            if pieces <= target && !moves[0].is_capture() {
                return pos;
            }
            let m = if ply < random_plies || rng.below(100) < noise {
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                policy(&b, pos.turn(), &moves, &mut rng)
            };
            pos.play_unchecked(m);
        }
    }
    unreachable!("the attempts never run out")
}

/// Material for `p`: a man 100, a king 140.
fn material(b: &Board, p: Player) -> i32 {
    let side = |q: Player| {
        let own = b.pieces[q.index()];
        100 * (own & !b.kings).count_ones() as i32 + 140 * (own & b.kings).count_ones() as i32
    };
    side(p) - side(!p)
}

/// The frozen policy's move: the most material for the mover after the opponent's best reply, ties drawn.
fn policy(b: &Board, p: Player, moves: &Moves, rng: &mut Frozen) -> movegen::Move {
    let mut best = i32::MIN;
    let mut tied: Vec<movegen::Move> = Vec::new();
    let mut replies = Moves::new();
    for &m in moves {
        let after = movegen::apply(b, p, m);
        replies.clear();
        movegen::generate(&after, !p, &mut replies);
        let value = replies
            .iter()
            .map(|&r| material(&movegen::apply(&after, !p, r), p))
            .min()
            .unwrap_or(10_000);
        if value > best {
            best = value;
            tied.clear();
        }
        if value == best {
            tied.push(m);
        }
    }
    tied[rng.below(tied.len() as u64) as usize]
}

/// Labels checkers positions with the engine's search, a new table each, and the endgame databases saved by
/// `gridplay egdb` if there are any, else those of 4 pieces built in memory (the manifest records which).
#[derive(Debug)]
pub struct Labeller {
    db: Option<Database>,
}

impl Labeller {
    #[must_use]
    pub fn new() -> Labeller {
        Labeller { db: None }
    }

    fn db(&mut self) -> &Database {
        self.db.get_or_insert_with(|| {
            egdb::default_dir()
                .and_then(|dir| Database::load(&dir).ok())
                .filter(|db| db.pieces() >= egdb::SEARCH_PIECES)
                .unwrap_or_else(|| Database::build(egdb::SEARCH_PIECES))
        })
    }
}

impl Default for Labeller {
    fn default() -> Labeller {
        Labeller::new()
    }
}

/// The label of `pos` under `label`, in hundredths of a man for the side to move (a win the search proved is
/// clamped to +-32,000).
fn label_position(db: Option<&Database>, pos: &CheckersPosition, label: Label) -> i16 {
    let depth = match label {
        Label::Search { depth } => depth,
        Label::Exact => 64,
    };
    let mut table = Table::new(16);
    let found = search_with(
        &mut table,
        evaluation::shipped(),
        db,
        pos,
        &[],
        Limits::depth(depth),
        &StopFlag::new(),
    );
    found.map_or(-32_000, |f| f.score.clamp(-32_000, 32_000)) as i16
}

impl Source for Labeller {
    fn game(&self) -> &'static str {
        "checkers"
    }

    fn generator(&self) -> &'static str {
        GENERATOR
    }

    fn recipes(&self) -> &'static [Recipe] {
        RECIPES
    }

    fn label_source(&mut self) -> String {
        format!(
            "the search with the build's network; endgame databases of {} pieces",
            self.db().pieces()
        )
    }

    fn label(&mut self, seed: u64, index: u64, recipe: &Recipe) -> i16 {
        let pos = position(seed, index, recipe.low, recipe.high);
        label_position(Some(self.db()), &pos, recipe.label)
    }
}

/// Every labelled position of the shards in `folder` (`data/train/checkers`), the positions made again by the
/// generator, with each shard's recipe.
///
/// # Errors
/// A shard that cannot be read, or one made by another generator.
pub fn read(folder: &Path) -> Result<Vec<(Labelled<CheckersPosition>, Label)>, DataError> {
    shard::read_all(folder, GENERATOR, position)
}

/// The fit's samples of the shards in `folder`: each position with the result its label predicts for the side
/// to move ([`crate::checkers::train::predicted_result`]; a proved win is 1, a proved loss 0).
///
/// # Errors
/// As [`read`].
pub fn samples(folder: &Path) -> Result<Vec<crate::checkers::samples::Sample>, DataError> {
    Ok(read(folder)?
        .into_iter()
        .map(|(l, _)| crate::checkers::samples::Sample {
            board: *l.position.board(),
            turn: gridplay_core::Position::turn(&l.position),
            result: crate::checkers::train::predicted_result(i32::from(l.label)),
        })
        .collect())
}

#[cfg(test)]
pub(super) fn label_for_test(pos: &CheckersPosition, depth: u32) -> i16 {
    label_position(None, pos, Label::Search { depth })
}
