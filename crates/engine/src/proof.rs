//! How much a score that a search gave is known: an estimate, an exact result, or a forced win or loss.

/// How much a line's score is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The search's estimate at its depth.
    Estimate,
    /// The exact result with best play on both sides (an endgame solve): the score is the final margin.
    Exact,
    /// A forced win for the side to move, in `plies` where the search knows it.
    Win { plies: Option<u32> },
    /// A forced loss for the side to move, in `plies` where the search knows it.
    Loss { plies: Option<u32> },
}
