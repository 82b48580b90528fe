//! Pattern indices kept move by move: the search carries each node's indices down the tree, so that a
//! leaf's evaluation reads its weights without reading the patterns afresh.

use super::Layout;

/// Pattern instances of a position (the base patterns in all their distinct images).
pub const INSTANCES: usize = 46;

/// The instances' indices padded to a whole number of 256-bit vectors (the last two lanes stay 0), so that a
/// move updates all of them in a few vector additions.
pub const LANES: usize = 48;

/// One number per pattern instance (and two lanes of padding).
pub type Lanes = [u16; LANES];

/// `a + b` lane by lane (modulo 2^16: an index read after a whole move is always below 3^10).
#[inline(always)]
fn add(mut a: Lanes, b: &Lanes) -> Lanes {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.wrapping_add(*y);
    }
    a
}

/// `a - b` lane by lane (modulo 2^16).
#[inline(always)]
fn sub(mut a: Lanes, b: &Lanes) -> Lanes {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.wrapping_sub(*y);
    }
    a
}

/// `start` plus what the discs `squares` of the side to move add to each instance's index.
#[inline(always)]
fn plus_powers_of(mut start: Lanes, mut squares: u64) -> Lanes {
    let powers = &Layout::get().powers;
    while squares != 0 {
        start = add(start, &powers[squares.trailing_zeros() as usize]);
        squares &= squares - 1;
    }
    start
}

/// What the discs `squares` of the side to move add to each instance's index.
fn powers_of(squares: u64) -> Lanes {
    plus_powers_of([0; LANES], squares)
}

/// Every pattern instance's index of a position, from the side to move's view (`mine`: its discs count 1,
/// the opponent's 2) and from the opponent's (`theirs`), kept up to date move by move in the search so
/// that the evaluation does not read the patterns afresh at each leaf ([`super::Weights::evaluate_indices`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indices {
    mine: Lanes,
    theirs: Lanes,
}

impl Indices {
    /// The indices of the position where the side to move holds `p` and the opponent `o`, read afresh.
    #[must_use]
    pub fn new(p: u64, o: u64) -> Indices {
        let (p, o) = (powers_of(p), powers_of(o));
        Indices {
            mine: add(add(p, &o), &o),
            theirs: add(add(o, &p), &p),
        }
    }

    /// The indices after the side to move plays `sq`, turning the discs `flipped`: seen from the opponent,
    /// who is then to move.
    #[inline]
    #[must_use]
    pub fn play(&self, sq: u8, flipped: u64) -> Indices {
        // The child's side to move is this node's opponent: its view is this node's `theirs`, where the
        // placed disc counts 2 and each flipped one goes from 1 to 2; in this node's view the placed disc
        // counts 1 and each flipped one goes from 2 to 1.
        let placed = &Layout::get().powers[usize::from(sq)];
        let turned = plus_powers_of([0; LANES], flipped);
        Indices {
            mine: add(add(add(self.theirs, placed), placed), &turned),
            theirs: sub(add(self.mine, placed), &turned),
        }
    }

    /// The side to move's view alone of [`Indices::play`]: what the evaluation of the position after the
    /// move reads (a leaf needs no more).
    #[inline]
    #[must_use]
    pub fn view_after(&self, sq: u8, flipped: u64) -> Lanes {
        let placed = &Layout::get().powers[usize::from(sq)];
        plus_powers_of(add(add(self.theirs, placed), placed), flipped)
    }

    /// The side to move's view: each instance's index with its discs counting 1, the opponent's 2.
    #[inline]
    #[must_use]
    pub fn view(&self) -> &Lanes {
        &self.mine
    }

    /// The indices after a pass: the same position, the other side to move.
    #[inline]
    #[must_use]
    pub fn pass(&self) -> Indices {
        Indices {
            mine: self.theirs,
            theirs: self.mine,
        }
    }
}

#[cfg(test)]
mod tests {
    use gridplay_games::reversi::bitboard::{Board, flips};

    use super::*;
    use crate::reversi::pattern::Weights;

    #[test]
    fn indices_kept_move_by_move_give_the_evaluation_read_afresh() {
        use rand::{RngExt, SeedableRng, seq::IndexedRandom};
        // Random weights: every configuration's weight differs, so a wrong index shows.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        let mut w = Weights::zero();
        for v in &mut w.values {
            *v = rng.random_range(-3000..3000);
        }
        let (mut positions, mut passes) = (0, 0);
        for _ in 0..60 {
            let mut board = Board::START;
            let mut ix = Indices::new(board.player, board.opponent);
            while !board.is_over() {
                assert_eq!(ix, Indices::new(board.player, board.opponent), "{board:?}");
                assert_eq!(
                    w.evaluate_indices(board, ix.view()),
                    w.evaluate(board),
                    "{board:?}"
                );
                positions += 1;
                if board.must_pass() {
                    board = board.pass();
                    ix = ix.pass();
                    passes += 1;
                    continue;
                }
                let moves: Vec<u8> = (0..64u8).filter(|&sq| board.moves() & (1 << sq) != 0).collect();
                let &sq = moves.choose(&mut rng).unwrap();
                let f = flips(sq, board.player, board.opponent);
                assert_eq!(&ix.view_after(sq, f), ix.play(sq, f).view());
                ix = ix.play(sq, f);
                board = board.play(sq);
            }
            assert_eq!(ix, Indices::new(board.player, board.opponent), "{board:?}");
        }
        assert!(
            positions > 3000 && passes > 0,
            "{positions} positions, {passes} passes"
        );
    }
}
