//! The exact Reversi endgame solver.
//!
//! It finds the final disc difference under perfect play, with empty squares going to the winner (the World
//! Othello Federation rule, which the FFO problems use). Such scores are always even. The search is:
//! - at the root, MTD(f): null-window tests at odd bounds, starting from a 4-ply midgame estimate, each
//!   settling the score above or below an even value;
//! - below it, principal-variation alpha-beta with a transposition table of two-slot buckets (a lower and an
//!   upper bound per position, deeper entries kept) from [`SHALLOW`] + 1 empties, prefetched while the
//!   parent orders its moves, and enhanced transposition cut-offs from [`ETC_EMPTIES`];
//! - fastest-first ordering (the move that leaves the opponent fewest replies first, corners ahead), plus the
//!   trained evaluation of the position reached from [`EVAL_ORDER_EMPTIES`] empties and a short midgame
//!   search of it from [`SORT_SEARCH_EMPTIES`], whose window stops telling moves apart well below alpha;
//! - the table's move searched before the other moves are sorted, so a cut-off by it saves the sorting;
//! - a stability cut-off: the opponent's stable discs ([`super::stability`]) bound the score from above,
//!   tried when alpha is high enough for it to cut;
//! - quadrant-parity ordering at [`SHALLOW`] empties and fewer (and as a small bonus up to 14), and at
//!   [`SMALL`] and fewer no move generation: each empty square next to an opponent disc is tried directly;
//! - two empties played out directly, and at the last empty square the flips counted line by line from a
//!   table, not made.
//!
//! It also settles only win, loss or draw ([`Solver::solve_wld`]: two null-window tests at +1 and -1), and
//! either solve can be bounded by a deadline and a stop flag ([`Solver::solve_within`],
//! [`Solver::solve_wld_within`]), which the engine uses near the end of a timed search; those two are in
//! `endgame/bounded.rs`.
//!
//! `docs/performance.md` has the figures on the FFO problems; `docs/lab/2026-11-26-engines-notebook.md` what each step gained.

mod bounded;
mod table;

use gridplay_games::reversi::bitboard::{Board, flips, get_moves};

use bounded::CHECK_EVERY;
pub use bounded::{Bounds, Wld, WldSolution};

use std::sync::atomic::Ordering::Relaxed;

use crate::parallel::{self, Split};
use table::{Slot, Table};

use super::pattern::Weights;
use super::stability::stable;

/// At this many empties or fewer the solver stops using the table and sorting moves.
pub const SHALLOW: u32 = 7;
/// At this many empties or fewer it stops generating moves and tries each empty square.
pub const SMALL: u32 = 4;
/// From this many empty squares after the move, the ordering also counts the trained evaluation of the
/// position reached (hundredths of a disc, divided by [`EVAL_ORDER_DIVISOR`]; lower is better, as it is the
/// opponent's).
pub const EVAL_ORDER_EMPTIES: u32 = 12;
const EVAL_ORDER_DIVISOR: i32 = 12;

/// Positions with this many empties also order moves into a quadrant with an odd number of empty squares
/// half a reply ahead ([`PARITY_WEIGHT`]; one reply counts 32), as Edax does at middle depths.
const PARITY_ORDER_EMPTIES: std::ops::RangeInclusive<u32> = SHALLOW + 1..=14;
const PARITY_WEIGHT: i32 = 16;

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The stability bound is tried only when alpha is at least this, by empties (thresholds modelled on
/// Edax's): below them the bound rarely cuts and counting stable discs costs more than it saves. They
/// decide only when to look, never the bound itself.
const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 48, 50,
    50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

/// Enhanced transposition cut-offs (a child's stored bound that already refutes the parent) are looked for
/// from this many empties.
pub const ETC_EMPTIES: u32 = 12;

/// Moves of positions with at least this many empties after the move are ordered by a midgame search of the
/// position reached, two plies deep and one more per [`SORT_DEPTH_STEP`] more empties.
pub const SORT_SEARCH_EMPTIES: u32 = 16;
const SORT_DEPTH_STEP: u32 = 3;

/// The solved value of a position and a best move (`None` when the side to move must pass or the game is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    pub best: Option<u8>,
    /// Final disc difference for the side to move, empties to the winner.
    pub score: i32,
    pub nodes: u64,
}

/// A solver with its transposition table; reuse it across positions to keep the table warm.
#[derive(Debug)]
pub struct Solver {
    table: Table,
    threads: usize,
}

/// One thread's part of a solve: the table is the solver's, the counts and the giving up its own.
struct Worker<'a> {
    table: &'a Table,
    threads: usize,
    nodes: u64,
    bounds: Option<&'a Bounds>,
    /// The split point this thread works under, if any: a cut there makes it give up.
    split: Option<&'a Split<'a>>,
    until_check: u32,
    /// A bounded solve gave up, or the split above was cut: every score from then on is meaningless, and
    /// nothing more is stored.
    aborted: bool,
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

/// The squares next to any square of `b`.
const fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// The stability cut-off: the opponent keeps its stable discs, so the side to move scores at most
/// 64 - 2 * their number. Counting them costs, so only when alpha is high enough for the bound to have a
/// chance of cutting. Returns the bound when it cuts, else lowers `beta` to it.
fn stability_cut(p: u64, o: u64, n: u32, alpha: i32, beta: &mut i32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[n as usize] {
        return None;
    }
    let upper = 64 - 2 * stable(o, p).count_ones() as i32;
    if upper <= alpha {
        return Some(upper);
    }
    *beta = (*beta).min(upper);
    None
}

/// `LAST_FLIPS[x][line]` is twice the number of discs flipped along one line of eight squares by a disc
/// placed at place `x` of it, when `line` holds the mover's discs and every other square of the line but `x`
/// holds an opponent's: the last empty square of a full board (Edax's `count_last_flip`).
static LAST_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut x = 0;
    while x < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Towards higher places, then lower: the run of opponent discs up to the mover's first disc.
            let mut i = x + 1;
            while i < 8 && line & (1 << i) == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - x - 1;
            }
            let mut i = x as i32 - 1;
            while i >= 0 && line & (1 << i) == 0 {
                i -= 1;
            }
            if i >= 0 {
                count += x - i as usize - 1;
            }
            t[x][line] = 2 * count as u8;
            line += 1;
        }
        x += 1;
    }
    t
};

/// The two diagonals through each square (x - y constant, then x + y constant), square included.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut d = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (u, v) = (other % 8, other / 8);
            if u - v == x - y {
                d[sq][0] |= 1 << other;
            }
            if u + v == x + y {
                d[sq][1] |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    d
};

/// Twice the number of discs flipped by `p` at `sq` on a board full but for `sq` (every other square not in
/// `p` is the opponent's). Each line through `sq` is gathered into one byte, indexed by column (by row for
/// the column), and looked up in [`LAST_FLIPS`]. A diagonal's bits land at their own columns; the columns
/// it does not reach read as 0, as opponent discs beyond its end, which never flip.
#[inline]
fn last_flips(sq: usize, p: u64) -> i32 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    let (x, y) = (sq & 7, sq >> 3);
    let row = (p >> (8 * y)) as u8;
    let col = (((p >> x) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let diag = ((p & DIAGONALS[sq][0]).wrapping_mul(FILE_A) >> 56) as u8;
    let anti = ((p & DIAGONALS[sq][1]).wrapping_mul(FILE_A) >> 56) as u8;
    i32::from(LAST_FLIPS[x][row as usize])
        + i32::from(LAST_FLIPS[y][col as usize])
        + i32::from(LAST_FLIPS[x][diag as usize])
        + i32::from(LAST_FLIPS[x][anti as usize])
}

const MID_INF: i32 = 100_000;
/// Discs below alpha under which the sort search no longer tells moves apart.
const SORT_ALPHA_DELTA: i32 = 8;
/// The sort search's score (hundredths of a disc) is divided by this in the ordering key, where one
/// opponent reply counts 32.
const SORT_DIVISOR: i32 = 4;

/// A fail-soft alpha-beta midgame search to `depth` plies with the trained evaluation (hundredths of a disc,
/// for the side holding `p`), used only to order moves. From two plies up it tries the replies that leave
/// the opponent fewest moves first.
fn midgame(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return Weights::shipped().evaluate(Board {
            player: p,
            opponent: o,
        });
    }
    let mut moves = get_moves(p, o);
    if moves == 0 {
        if get_moves(o, p) == 0 {
            return final_score(p, o) * 100;
        }
        return -midgame(o, p, depth, -beta, -alpha);
    }
    // From two plies up, fewest replies first; at one ply the order does not pay for itself.
    let mut children: arrayvec::ArrayVec<(u32, u64, u64), 64> = arrayvec::ArrayVec::new();
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let f = flips(sq, p, o);
        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
        let key = if depth >= 2 {
            get_moves(np, no).count_ones() * 2 + u32::from(CORNERS & (1 << sq) == 0)
        } else {
            0
        };
        children.push((key, np, no));
    }
    if depth >= 2 {
        children.sort_unstable_by_key(|c| c.0);
    }
    let mut best = -MID_INF;
    for (_, np, no) in children {
        let score = -midgame(np, no, depth - 1, -beta, -alpha);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// For each square, its neighbours: a move there needs an opponent disc among them.
const NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = neighbours(1 << sq);
        sq += 1;
    }
    t
};

/// The quadrants holding an odd number of empty squares.
fn odd_quadrants(empty: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empty & q).count_ones() % 2 == 1 {
            odd |= q;
        }
    }
    odd
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
    /// A solver with a table of about `megabytes`, on one thread.
    #[must_use]
    pub fn new(megabytes: usize) -> Solver {
        Solver {
            table: Table::new(megabytes),
            threads: 1,
        }
    }

    /// Solves with `threads` threads from now on (young-brothers-wait, [`crate::parallel`]).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A worker on this solver's table, within `bounds` if any.
    fn worker<'a>(&'a self, bounds: Option<&'a Bounds>) -> Worker<'a> {
        Worker {
            table: &self.table,
            threads: self.threads,
            nodes: 0,
            bounds,
            split: None,
            until_check: 1,
            aborted: false,
        }
    }

    /// Solves `board` (side to move first) exactly.
    pub fn solve(&mut self, board: Board) -> Solution {
        let mut w = self.worker(None);
        parallel::run(self.threads, || w.solve(board))
    }
}

/// Interior nodes from this many empties split among the threads of a parallel solve.
const SPLIT_EMPTIES: u32 = 12;

impl Worker<'_> {
    /// Solves `board` (side to move first) exactly.
    fn solve(&mut self, board: Board) -> Solution {
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
        let ordered = self.order(p, o, moves, -64);
        // MTD(f): null-window tests from a midgame estimate. Final scores are always even (empties go to
        // the winner), so each test is at an odd bound and settles one even score or more.
        let guess = midgame(p, o, 4, -MID_INF, MID_INF) / 100;
        let (mut lo, mut hi) = (-64, 64);
        let mut best = ordered[0];
        let mut bound = (guess & !1) + 1;
        loop {
            let bound_now = bound.clamp(lo + 1, hi - 1);
            let (score, sq) = self.root_test(p, o, &ordered, bound_now);
            if self.aborted {
                break;
            }
            if score >= bound_now {
                lo = score;
                best = sq;
                bound = score + 1;
            } else {
                hi = score.max(lo);
                bound = score - 1;
            }
            if lo >= hi {
                break;
            }
        }
        Solution {
            best: Some(best),
            score: lo,
            nodes: self.nodes,
        }
    }

    /// Stores `slot` unless this worker gave up.
    fn store(&self, slot: Slot) {
        if !self.aborted {
            self.table.store(slot);
        }
    }

    /// Whether the root scores at least `bound`: a null-window search of each move until one reaches it.
    /// Returns the best score found (fail-soft) and its move.
    fn root_test(&mut self, p: u64, o: u64, ordered: &[u8], bound: i32) -> (i32, u8) {
        let (mut best, mut best_sq) = (-65, ordered[0]);
        for &sq in ordered {
            let f = flips(sq, p, o);
            let score = -self.search(o ^ f, p ^ f ^ (1 << sq), -bound, -bound + 1, false);
            if score > best {
                (best, best_sq) = (score, sq);
                if score >= bound {
                    break;
                }
            }
        }
        (best, best_sq)
    }

    /// Moves sorted for search: fewest opponent replies (corners counted as two fewer), a small bonus for
    /// odd quadrants at [`PARITY_ORDER_EMPTIES`] and, far from the end, the trained evaluation or a short
    /// midgame search of the position reached, windowed at `alpha` - [`SORT_ALPHA_DELTA`].
    fn order(&self, p: u64, o: u64, mut moves: u64, alpha: i32) -> arrayvec::ArrayVec<u8, 64> {
        // The sort search tells apart the moves that may reach `alpha` - SORT_ALPHA_DELTA; below that
        // it may stop at a bound (Edax's sort window).
        let sort_beta = -100 * (alpha - SORT_ALPHA_DELTA).max(-64);
        let empty = !(p | o);
        let odd = if PARITY_ORDER_EMPTIES.contains(&empty.count_ones()) {
            odd_quadrants(empty)
        } else {
            0
        };
        let mut scored: arrayvec::ArrayVec<(i32, u8), 64> = arrayvec::ArrayVec::new();
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            if (!(np | no)).count_ones() > SHALLOW {
                self.table.prefetch(np, no);
            }
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
            if odd & (1 << sq) != 0 {
                key -= PARITY_WEIGHT;
            }
            let empties = (!(np | no)).count_ones();
            if empties >= SORT_SEARCH_EMPTIES {
                let depth = 2 + (empties - SORT_SEARCH_EMPTIES) / SORT_DEPTH_STEP;
                key += midgame(np, no, depth, -MID_INF, sort_beta) / SORT_DIVISOR;
            } else if empties >= EVAL_ORDER_EMPTIES {
                key += Weights::shipped().evaluate(Board {
                    player: np,
                    opponent: no,
                }) / EVAL_ORDER_DIVISOR;
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
        if n <= SMALL {
            return self.small(p, o, alpha, beta, empty, n);
        }
        if self.out_of_bounds() {
            return 0;
        }
        if let Some(cut) = stability_cut(p, o, n, alpha, &mut beta) {
            return cut;
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
        let slot = self.table.find(p, o);
        let mut first = None;
        if let Some(slot) = slot {
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
        if n >= ETC_EMPTIES
            && let Some(cut) = self.etc_cut(p, o, moves, beta)
        {
            return cut;
        }
        // The table's move is searched before the others are sorted: when it cuts, as it mostly does,
        // the sort searches are saved.
        let mut rest = moves;
        let mut k = 0;
        if let Some(sq) = first.filter(|&sq| moves & (1 << sq) != 0) {
            rest ^= 1 << sq;
            let score = self.child(p, o, sq, k, alpha, beta);
            k += 1;
            best = score;
            best_sq = sq;
            alpha = alpha.max(score);
        }
        if alpha < beta && rest != 0 {
            let ordered = self.order(p, o, rest, alpha);
            for (i, &sq) in ordered.iter().enumerate() {
                if k > 0 && self.threads > 1 && n >= SPLIT_EMPTIES && ordered.len() - i >= 2 {
                    (best, best_sq) = self.split(p, o, &ordered[i..], alpha, beta, (best, best_sq));
                    break;
                }
                let score = self.child(p, o, sq, k, alpha, beta);
                k += 1;
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
        }
        let (mut lower, mut upper) = (-64, 64);
        if best > alpha0 && best < beta0 {
            (lower, upper) = (best, best);
        } else if best >= beta0 {
            lower = best;
        } else {
            upper = best;
        }
        if let Some(slot) = slot {
            lower = lower.max(i32::from(slot.lower));
            upper = upper.min(i32::from(slot.upper));
        }
        self.store(Slot {
            player: p,
            opponent: o,
            lower: lower as i8,
            upper: upper.max(lower) as i8,
            best: best_sq,
            empties: n as u8,
        });
        best
    }

    /// Searches `moves`, the younger moves of a node whose eldest has been searched, on this thread and any
    /// free thread of the pool ([`crate::parallel`]): the node's best score and move, from `best` on. A thread
    /// that gives up for a reason above this node makes this worker give up too.
    fn split(&mut self, p: u64, o: u64, moves: &[u8], alpha: i32, beta: i32, best: (i32, u8)) -> (i32, u8) {
        let split = Split::new(self.split, alpha, best);
        let (table, threads, bounds) = (self.table, self.threads, self.bounds);
        let work = || {
            let mut w = Worker {
                table,
                threads,
                nodes: 0,
                bounds,
                split: Some(&split),
                until_check: CHECK_EVERY,
                aborted: false,
            };
            while let Some(i) = split.take(moves.len()) {
                let alpha = split.alpha.load(Relaxed);
                if alpha >= beta {
                    break;
                }
                let score = w.child(p, o, moves[i], 1, alpha, beta);
                if w.aborted {
                    break;
                }
                split.offer(score, moves[i], beta);
            }
            split.done(w.nodes, w.aborted);
        };
        split.share(threads, work);
        self.nodes += split.nodes.load(Relaxed);
        if split.gave_up.load(Relaxed) {
            self.aborted = true;
        }
        split.best()
    }

    /// The score of the move to `sq`, the node's `k`-th: the first with the full window, the others with a
    /// null window first (principal-variation search).
    fn child(&mut self, p: u64, o: u64, sq: u8, k: usize, alpha: i32, beta: i32) -> i32 {
        let f = flips(sq, p, o);
        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
        if k == 0 {
            return -self.search(np, no, -beta, -alpha, false);
        }
        let probe = -self.search(np, no, -alpha - 1, -alpha, false);
        if probe > alpha && probe < beta {
            -self.search(np, no, -beta, -probe, false)
        } else {
            probe
        }
    }

    /// Enhanced transposition cut-off: a child whose stored upper bound already gives this node a score of
    /// at least `beta` ends it with that score. The children's buckets are prefetched first, for the probes
    /// and for their own search.
    fn etc_cut(&self, p: u64, o: u64, moves: u64, beta: i32) -> Option<i32> {
        let mut children: arrayvec::ArrayVec<(u64, u64), 64> = arrayvec::ArrayVec::new();
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips(sq, p, o);
            let child = (o ^ f, p ^ f ^ (1 << sq));
            self.table.prefetch(child.0, child.1);
            children.push(child);
        }
        for (np, no) in children {
            if let Some(slot) = self.table.find(np, no)
                && -i32::from(slot.upper) >= beta
            {
                return Some(-i32::from(slot.upper));
            }
        }
        None
    }

    /// The last [`SMALL`] empties (at least two): each empty square next to an opponent disc is tried
    /// directly, without generating moves, odd quadrants first. The caller has counted this node.
    fn small(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, empty: u64, n: u32) -> i32 {
        if n == 2 {
            return self.two(p, o, alpha, beta, empty);
        }
        if let Some(cut) = stability_cut(p, o, n, alpha, &mut beta) {
            return cut;
        }
        let odd = if n >= 3 { odd_quadrants(empty) } else { 0 };
        let mut best = -65;
        for set in [empty & odd, empty & !odd] {
            let mut rest = set;
            while rest != 0 {
                let sq = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                if NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let f = flips(sq, p, o);
                if f == 0 {
                    continue;
                }
                let (np, no, left) = (o ^ f, p ^ f ^ (1 << sq), empty ^ (1 << sq));
                self.nodes += 1;
                let score = if n == 2 {
                    -self.last(np, no, left)
                } else {
                    -self.small(np, no, -beta, -alpha, left, n - 1)
                };
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
        if best > -65 {
            return best;
        }
        // No move: pass if the opponent has one, else the game is over.
        if get_moves(o, p) == 0 {
            return final_score(p, o);
        }
        self.nodes += 1;
        -self.small(o, p, -beta, -alpha, empty, n)
    }

    /// Two empties, `x1` and `x2`: each move is followed by [`Self::last`] directly. When the side to move
    /// has neither, the opponent's moves are tried the same way, from the side to move's view.
    fn two(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64) -> i32 {
        let (x1, x2) = (empty.trailing_zeros() as u8, 63 - empty.leading_zeros() as u8);
        let (b1, b2) = (1u64 << x1, 1u64 << x2);
        let mut best = -65;
        if NEIGHBOURS[x1 as usize] & o != 0 {
            let f = flips(x1, p, o);
            if f != 0 {
                self.nodes += 1;
                best = -self.last(o ^ f, p ^ f ^ b1, b2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2 as usize] & o != 0 {
            let f = flips(x2, p, o);
            if f != 0 {
                self.nodes += 1;
                best = best.max(-self.last(o ^ f, p ^ f ^ b2, b1));
            }
        }
        if best > -65 {
            return best;
        }
        // A pass: the opponent plays, and its best is the side to move's least. The pass is counted as a
        // node with the first reply, as `small` counts it.
        let mut least = 65;
        if NEIGHBOURS[x1 as usize] & p != 0 {
            let f = flips(x1, o, p);
            if f != 0 {
                self.nodes += 2;
                least = self.last(p ^ f, o ^ f ^ b1, b2);
                if least <= alpha {
                    return least;
                }
            }
        }
        if NEIGHBOURS[x2 as usize] & p != 0 {
            let f = flips(x2, o, p);
            if f != 0 {
                self.nodes += if least == 65 { 2 } else { 1 };
                least = least.min(self.last(p ^ f, o ^ f ^ b2, b1));
            }
        }
        if least < 65 { least } else { final_score(p, o) }
    }

    /// Few empties: plain alpha-beta, moves in odd quadrants first.
    fn shallow(&mut self, p: u64, o: u64, empty: u64, moves: u64, mut alpha: i32, beta: i32) -> i32 {
        let odd = odd_quadrants(empty);
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

    /// The last empty square: whoever can play there does, else the square goes to the winner. The board
    /// is full but for it, so the flips are counted line by line ([`last_flips`]) without being made.
    fn last(&mut self, p: u64, o: u64, empty: u64) -> i32 {
        let sq = empty.trailing_zeros() as usize;
        let c = last_flips(sq, p);
        if c != 0 {
            return p.count_ones() as i32 * 2 + c + 2 - 64;
        }
        let c = last_flips(sq, o);
        if c != 0 {
            return 64 - o.count_ones() as i32 * 2 - c - 2;
        }
        let d = p.count_ones() as i32 * 2 - 63;
        if d > 0 { d + 1 } else { d - 1 }
    }
}

#[cfg(test)]
mod tests;
