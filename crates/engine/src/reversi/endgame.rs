//! The exact Reversi endgame solver.
//!
//! It finds the final disc difference under perfect play, with empty squares going to the winner (the World
//! Othello Federation rule, which the FFO problems use). The search is principal-variation alpha-beta with:
//! - a transposition table that keeps a lower and an upper bound per position;
//! - fastest-first ordering (the move that leaves the opponent fewest replies first, corners ahead) above
//!   [`SHALLOW`] empties, plus the trained evaluation from 14 empties up, and quadrant parity ordering below
//!   [`SHALLOW`];
//! - a stability cut-off: the opponent's stable discs bound the score from above;
//! - a direct count for the last empty square.

use gridplay_games::reversi::bitboard::{Board, flips, get_moves};

/// At this many empties or fewer the solver stops using the table and sorting moves.
pub const SHALLOW: u32 = 7;
/// From this many empty squares after the move, the ordering also counts the trained evaluation of the
/// position reached (hundredths of a disc, divided by [`EVAL_ORDER_DIVISOR`]; lower is better, as it is the
/// opponent's). On FFO #40-#44 this cut the nodes searched from 716M to 516M (`docs/engines.md`).
const EVAL_ORDER_EMPTIES: u32 = 14;
const EVAL_ORDER_DIVISOR: i32 = 12;

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The solved value of a position and a best move (`None` when the side to move must pass or the game is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    pub best: Option<u8>,
    /// Final disc difference for the side to move, empties to the winner.
    pub score: i32,
    pub nodes: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
}

/// A solver with its transposition table; reuse it across positions to keep the table warm.
#[derive(Debug)]
pub struct Solver {
    table: Vec<Slot>,
    mask: usize,
    nodes: u64,
}

/// The score of a finished game for the side holding `p` (empty squares go to the winner).
pub(crate) fn final_score(p: u64, o: u64) -> i32 {
    let (pc, oc) = (p.count_ones() as i32, o.count_ones() as i32);
    let empties = 64 - pc - oc;
    match pc.cmp(&oc) {
        std::cmp::Ordering::Greater => pc - oc + empties,
        std::cmp::Ordering::Less => pc - oc - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The opponent's discs that can never flip, found from the corners along the edges: a disc is taken when the
/// edge run from a corner to it is all of its colour. A lower bound on true stability, cheap to compute.
fn edge_stable(o: u64) -> u64 {
    // Rays from each corner along its two edges, as steps of bit positions.
    const RAYS: [(u32, i32); 8] = [
        (0, 1),
        (0, 8),
        (7, -1),
        (7, 8),
        (56, 1),
        (56, -8),
        (63, -1),
        (63, -8),
    ];
    let mut stable = 0u64;
    for (start, step) in RAYS {
        let mut sq = start as i32;
        for _ in 0..8 {
            if o & (1u64 << sq) == 0 {
                break;
            }
            stable |= 1u64 << sq;
            sq += step;
        }
    }
    stable
}

/// The squares next to any square of `b`.
fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// Quadrant masks for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

impl Default for Solver {
    fn default() -> Solver {
        Solver::new(64)
    }
}

impl Solver {
    /// A solver with a table of about `megabytes`.
    #[must_use]
    pub fn new(megabytes: usize) -> Solver {
        let wanted = (megabytes * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1024);
        let entries = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Solver {
            table: vec![Slot::default(); entries],
            mask: entries - 1,
            nodes: 0,
        }
    }

    fn index(&self, p: u64, o: u64) -> usize {
        let h =
            (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)).rotate_left(29);
        (h ^ (h >> 32)) as usize & self.mask
    }

    /// Solves `board` (side to move first) exactly.
    pub fn solve(&mut self, board: Board) -> Solution {
        self.nodes = 0;
        let (p, o) = (board.player, board.opponent);
        let moves = get_moves(p, o);
        if moves == 0 {
            let score = if get_moves(o, p) == 0 {
                final_score(p, o)
            } else {
                -self.search(o, p, -64, 64, true)
            };
            return Solution {
                best: None,
                score,
                nodes: self.nodes,
            };
        }
        let ordered = self.order(p, o, moves, None);
        let mut alpha = -65;
        let mut best = ordered[0];
        for (i, &sq) in ordered.iter().enumerate() {
            let f = flips(sq, p, o);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            let score = if i == 0 {
                -self.search(np, no, -64, -alpha, false)
            } else {
                let probe = -self.search(np, no, -alpha - 1, -alpha, false);
                if probe > alpha {
                    (-self.search(np, no, -64, -probe + 1, false)).max(probe)
                } else {
                    probe
                }
            };
            if score > alpha {
                alpha = score;
                best = sq;
            }
        }
        Solution {
            best: Some(best),
            score: alpha,
            nodes: self.nodes,
        }
    }

    /// Moves sorted for search: the table's move, then fewest opponent replies (corners counted as two fewer)
    /// and, far from the end, the trained evaluation.
    fn order(&self, p: u64, o: u64, mut moves: u64, first: Option<u8>) -> arrayvec::ArrayVec<u8, 64> {
        let mut scored: arrayvec::ArrayVec<(i32, u8), 64> = arrayvec::ArrayVec::new();
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            // Fastest first: fewest replies, corners counted heavily, then the opponent's potential mobility
            // (empty squares next to our discs).
            let replies = get_moves(np, no);
            let potential = (neighbours(no) & !(np | no)).count_ones() as i32;
            let mut key = replies.count_ones() as i32 * 32
                + (replies & CORNERS).count_ones() as i32 * 64
                + potential * 4;
            if CORNERS & (1 << sq) != 0 {
                key -= 80;
            }
            if (!(np | no)).count_ones() >= EVAL_ORDER_EMPTIES {
                let w = crate::reversi::pattern::Weights::shipped();
                key += w.evaluate(Board {
                    player: np,
                    opponent: no,
                }) / EVAL_ORDER_DIVISOR;
            }
            if first == Some(sq) {
                key = i32::MIN;
            }
            if scored.try_push((key, sq)).is_err() {
                break;
            }
        }
        scored.sort_unstable_by_key(|&(k, _)| k);
        scored.into_iter().map(|(_, sq)| sq).collect()
    }

    fn search(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, passed: bool) -> i32 {
        self.nodes += 1;
        let empty = !(p | o);
        let n = empty.count_ones();
        if n == 0 {
            return p.count_ones() as i32 * 2 - 64;
        }
        if n == 1 {
            return self.last(p, o, empty);
        }
        // Stability: the opponent keeps its stable discs, so we can score at most 64 - 2 * stable.
        if n >= 10 {
            let upper = 64 - 2 * edge_stable(o).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
            beta = beta.min(upper);
        }
        let moves = get_moves(p, o);
        if moves == 0 {
            if passed {
                return final_score(p, o);
            }
            return -self.search(o, p, -beta, -alpha, true);
        }
        if n <= SHALLOW {
            return self.shallow(p, o, empty, moves, alpha, beta);
        }
        let i = self.index(p, o);
        let slot = self.table[i];
        let mut first = None;
        if slot.player == p && slot.opponent == o {
            let (lower, upper) = (i32::from(slot.lower), i32::from(slot.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if lower == upper {
                return lower;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            first = Some(slot.best);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -65;
        let mut best_sq = 0;
        for (k, sq) in self.order(p, o, moves, first).into_iter().enumerate() {
            let f = flips(sq, p, o);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            let score = if k == 0 {
                -self.search(np, no, -beta, -alpha, false)
            } else {
                let probe = -self.search(np, no, -alpha - 1, -alpha, false);
                if probe > alpha && probe < beta {
                    -self.search(np, no, -beta, -probe, false)
                } else {
                    probe
                }
            };
            if score > best {
                best = score;
                best_sq = sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (mut lower, mut upper) = (-64, 64);
        if best > alpha0 && best < beta0 {
            (lower, upper) = (best, best);
        } else if best >= beta0 {
            lower = best;
        } else {
            upper = best;
        }
        if slot.player == p && slot.opponent == o {
            lower = lower.max(i32::from(slot.lower));
            upper = upper.min(i32::from(slot.upper));
        }
        self.table[i] = Slot {
            player: p,
            opponent: o,
            lower: lower as i8,
            upper: upper.max(lower) as i8,
            best: best_sq,
        };
        best
    }

    /// Few empties: plain alpha-beta, moves in odd quadrants first.
    fn shallow(&mut self, p: u64, o: u64, empty: u64, moves: u64, mut alpha: i32, beta: i32) -> i32 {
        let mut odd = 0u64;
        for q in QUADRANTS {
            if (empty & q).count_ones() % 2 == 1 {
                odd |= q;
            }
        }
        let mut best = -65;
        for set in [moves & odd, moves & !odd] {
            let mut rest = set;
            while rest != 0 {
                let sq = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let f = flips(sq, p, o);
                let score = -self.search(o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, false);
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }

    /// The last empty square: whoever can play there does, else the square goes to the winner.
    fn last(&mut self, p: u64, o: u64, empty: u64) -> i32 {
        let sq = empty.trailing_zeros() as u8;
        let f = flips(sq, p, o);
        if f != 0 {
            return (p | f).count_ones() as i32 * 2 + 2 - 64;
        }
        let g = flips(sq, o, p);
        if g != 0 {
            return 64 - (o | g).count_ones() as i32 * 2 - 2;
        }
        let d = p.count_ones() as i32 * 2 - 63;
        if d > 0 { d + 1 } else { d - 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain minimax to the end: the reference.
    fn minimax(p: u64, o: u64, passed: bool) -> i32 {
        let moves = get_moves(p, o);
        if moves == 0 {
            if passed || get_moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -minimax(o, p, true);
        }
        let mut best = -65;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips(sq, p, o);
            best = best.max(-minimax(o ^ f, p ^ f ^ (1 << sq), false));
        }
        best
    }

    #[test]
    fn agrees_with_minimax_on_random_endgames() {
        use gridplay_core::{Game, Position};
        let mut rng = gridplay_core::playout::seeded(21);
        let mut solver = Solver::new(4);
        let mut checked = 0;
        while checked < 60 {
            let (pos, _) = gridplay_core::playout::random_playout(
                &gridplay_games::reversi::Reversi::default().start(),
                &mut rng,
                52,
                |_| {},
            );
            if pos.is_over() {
                continue;
            }
            let b = pos.board();
            let solution = solver.solve(b);
            assert_eq!(
                solution.score,
                minimax(b.player, b.opponent, false),
                "{}",
                pos.to_text()
            );
            if let Some(sq) = solution.best {
                let f = flips(sq, b.player, b.opponent);
                assert_ne!(f, 0, "the best move is legal");
                assert_eq!(
                    -minimax(b.opponent ^ f, b.player ^ f ^ (1 << sq), false),
                    solution.score
                );
            }
            checked += 1;
        }
    }
}
