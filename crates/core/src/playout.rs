//! Random playouts with a seeded generator, for tests, benchmarks and a random opponent.

use rand::{RngExt, SeedableRng, rngs::SmallRng};

use crate::Position;

/// A random generator that gives the same sequence for the same seed.
#[must_use]
pub fn seeded(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

/// Plays uniformly random legal moves from `pos` until the game ends or `max_plies` moves were made, calling
/// `visit` on every position reached, the start included. Returns the last position and the moves played.
pub fn random_playout<P: Position>(
    pos: &P,
    rng: &mut SmallRng,
    max_plies: usize,
    mut visit: impl FnMut(&P),
) -> (P, Vec<P::Move>) {
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    visit(&pos);
    while moves.len() < max_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.random_range(0..legal.len())];
        pos.play_unchecked(m);
        moves.push(m);
        visit(&pos);
    }
    (pos, moves)
}
