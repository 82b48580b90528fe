//! Search that knows no game: it sees only [`gridplay_core::Position`] and an [`Evaluator`].
//!
//! - [`alphabeta`]: negamax alpha-beta with iterative deepening, principal-variation search, a transposition
//!   table and move ordering (table move first, then the evaluator's hints). Games in which a side may move
//!   several times in a row (Grid Tactics) are handled: the score changes sign only when the side changes.
//! - [`mcts`]: UCT with random playouts, for games whose static evaluation is weak.
//! - [`Limits`]: depth, nodes and time; a [`StopFlag`] cancels a search from another thread.
//! - [`Report`]: best move, score, depth, nodes, nodes per second and principal variation.

mod alphabeta;
mod limits;
mod mcts;
mod tt;

pub use alphabeta::{Report, RootScore, Search, score_root_moves};
pub use limits::{Limits, StopFlag};
pub use mcts::{MAX_PLAYOUT, mcts};
pub use tt::TranspositionTable;

use gridplay_core::{Outcome, Position};

/// The score of a won game, before the distance to it is taken off.
pub const WIN: i32 = 1_000_000;
/// Scores at or beyond this are wins or losses found by search.
pub const WIN_THRESHOLD: i32 = WIN - 10_000;

/// A game's static knowledge for search.
pub trait Evaluator<P: Position>: Send + Sync {
    /// The value of a position for the side to move; larger is better. Keep it well inside
    /// `-WIN_THRESHOLD..WIN_THRESHOLD`.
    fn evaluate(&self, pos: &P) -> i32;

    /// A hint for move ordering: moves with larger hints are searched first.
    fn order_hint(&self, _pos: &P, _m: P::Move) -> i32 {
        0
    }

    /// The hints of `moves` in `pos`, in order. An evaluator that can hint a whole node's moves faster than
    /// one at a time (Grid Tactics scores each child from what its move changed) overrides this.
    fn order_hints(&self, pos: &P, moves: &[P::Move]) -> Vec<i32> {
        moves.iter().map(|&m| self.order_hint(pos, m)).collect()
    }

    /// Whether a move's hint is exactly [`Evaluator::evaluate`] of the position it reaches, for the side that
    /// makes it. If so, a node one ply from the horizon takes its unfinished children's scores from the hints
    /// instead of evaluating each child a second time.
    fn hints_are_evaluations(&self) -> bool {
        false
    }

    /// How many moves, best hints first, a node below the root searches when two or more plies remain;
    /// `None` (the default) searches them all. A game with too many moves per position for a full-width
    /// search (Grid Tactics) prunes the rest and trusts its hints. The root is never pruned, and a node one
    /// ply from the horizon searches every move, as its children are only evaluated.
    fn width(&self, _pos: &P) -> Option<usize> {
        None
    }

    /// The value of a finished game for the side to move, `ply` moves from the root: a win is worth more the
    /// sooner it comes, and the game's own margin breaks ties between wins.
    fn terminal(&self, pos: &P, outcome: Outcome, ply: u32) -> i32 {
        let margin = pos.score().margin(pos.turn()).clamp(-999, 999);
        match outcome.value_for(pos.turn()) {
            1 => WIN - ply as i32 * 1000 + margin,
            -1 => -WIN + ply as i32 * 1000 + margin,
            _ => 0,
        }
    }
}
