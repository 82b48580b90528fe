//! Pattern indices kept move by move: the search carries each node's indices down the tree, so that a
//! leaf's evaluation reads its weights without reading the patterns afresh.

use super::Layout;

/// Pattern instances of a position (the base patterns in all their distinct images).
pub const INSTANCES: usize = 46;

/// The instances a square is in, and the power of three of its digit in each one's index.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SquareTerms {
    pub(super) len: u8,
    pub(super) terms: [(u8, u16); 8],
}

impl SquareTerms {
    #[inline]
    pub(super) fn terms(&self) -> &[(u8, u16)] {
        &self.terms[..usize::from(self.len)]
    }
}

/// Runs `$placed` for each instance that the played square `$sq` is in and `$flip` for each instance of
/// every flipped square, with `$i` the instance and `$power` the square's power of three in its index (a
/// macro: with closures the search ran 3-4% slower).
macro_rules! each_term {
    ($sq:expr, $flipped:expr, |$i:ident, $power:ident| $placed:expr, $flip:expr) => {{
        let layout = Layout::get();
        for &(i, $power) in layout.by_square[usize::from($sq)].terms() {
            let $i = usize::from(i);
            $placed;
        }
        let mut f = $flipped;
        while f != 0 {
            let terms = layout.by_square[f.trailing_zeros() as usize].terms();
            f &= f - 1;
            for &(i, $power) in terms {
                let $i = usize::from(i);
                $flip;
            }
        }
    }};
}

/// Every pattern instance's index of a position, from the side to move's view (`mine`: its discs count 1,
/// the opponent's 2) and from the opponent's (`theirs`), kept up to date move by move in the search so
/// that the evaluation does not read the patterns afresh at each leaf ([`super::Weights::evaluate_indices`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indices {
    mine: [u16; INSTANCES],
    theirs: [u16; INSTANCES],
}

impl Indices {
    /// The indices of the position where the side to move holds `p` and the opponent `o`, read afresh.
    #[must_use]
    pub fn new(p: u64, o: u64) -> Indices {
        let layout = Layout::get();
        let mut ix = Indices {
            mine: [0; INSTANCES],
            theirs: [0; INSTANCES],
        };
        for (sq, terms) in layout.by_square.iter().enumerate() {
            let (mine, theirs) = match (p >> sq & 1, o >> sq & 1) {
                (1, _) => (1, 2),
                (_, 1) => (2, 1),
                _ => continue,
            };
            for &(i, power) in terms.terms() {
                ix.mine[usize::from(i)] += mine * power;
                ix.theirs[usize::from(i)] += theirs * power;
            }
        }
        ix
    }

    /// The indices after the side to move plays `sq`, turning the discs `flipped`: seen from the opponent,
    /// who is then to move.
    #[inline]
    #[must_use]
    pub fn play(&self, sq: u8, flipped: u64) -> Indices {
        // The child's side to move is this node's opponent: its view is this node's `theirs`.
        let (mut mine, mut theirs) = (self.theirs, self.mine);
        each_term!(
            sq,
            flipped,
            |i, power| {
                mine[i] += 2 * power;
                theirs[i] += power;
            },
            {
                mine[i] += power;
                theirs[i] -= power;
            }
        );
        Indices { mine, theirs }
    }

    /// The side to move's view alone of [`Indices::play`]: what the evaluation of the position after the
    /// move reads (a leaf needs no more).
    #[inline]
    #[must_use]
    pub fn view_after(&self, sq: u8, flipped: u64) -> [u16; INSTANCES] {
        let mut mine = self.theirs;
        each_term!(sq, flipped, |i, power| mine[i] += 2 * power, mine[i] += power);
        mine
    }

    /// The side to move's view: each instance's index with its discs counting 1, the opponent's 2.
    #[inline]
    #[must_use]
    pub fn view(&self) -> &[u16; INSTANCES] {
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
