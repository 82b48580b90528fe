//! Reversi: the trained pattern evaluation ([`pattern`], trained by [`train`]), the first hand-written
//! evaluation it replaced ([`HandEval`]: mobility, corners, X-squares next to empty corners and frontier
//! discs), and the exact endgame solver ([`endgame`]).

pub mod book;
pub mod clock;
pub mod endgame;
pub mod move_lists;
pub mod obf;
pub mod pattern;
pub mod probcut;
pub mod probcut_fit;
pub mod search;
pub mod stability;
pub mod train;
pub mod wthor;

use gridplay_games::reversi::{Move, ReversiPosition, bitboard::get_moves, notation::square_name};
use gridplay_search::Evaluator;

use crate::Reply;

/// At this many empty squares or fewer the full-strength engine solves exactly instead of searching.
pub const SOLVE_EMPTIES: u32 = 18;

/// From how many empty squares down to [`SOLVE_EMPTIES`] + 1 a full-strength search that has `time` and no depth
/// limit short of the end first tries a win/loss/draw solve ([`wld_reply`]) with three quarters of that time (on
/// a game clock that sets the time, from [`clock::END_EMPTIES`] with [`clock::wld_budget`] instead):
/// 24 with a second or more, 22 with a tenth of a second or more, else 20 (the solve's median times on game
/// positions, 0.45 s at 24 empties and 0.12 s at 22: `docs/lab/2026-11-28-reversi-endgame-throws.md`).
#[must_use]
pub fn wld_empties(time: std::time::Duration) -> u32 {
    match time.as_millis() {
        1000.. => 24,
        100..1000 => 22,
        _ => 20,
    }
}

/// Solvers kept from move to move, as the search keeps its tables (as many as ran at once): making one
/// (zeroing its 64 MB table) takes about 25 ms, and what the last move's solve learned helps the next one.
static SOLVERS: std::sync::Mutex<Vec<endgame::Solver>> = std::sync::Mutex::new(Vec::new());

/// Makes ready what the first full-strength move would otherwise make on its own time: the weights, the
/// regression, the stable-disc table, a search table and a solver in their pools (see [`crate::prepare`]).
pub fn prepare() {
    search::prepare();
    let _ = stability::stable(0, 0);
    let mut pool = SOLVERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if pool.is_empty() {
        pool.push(endgame::Solver::new(64));
    }
}

/// How many search tables and solvers the pools keep now, none of them in use: what [`prepare`] made or
/// earlier moves left.
#[must_use]
pub fn pooled() -> (usize, usize) {
    let solvers = SOLVERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .len();
    (search::pooled_tables(), solvers)
}

/// Runs `f` with a solver of the pool (a new one when every kept one is in use) on `threads` threads.
fn with_solver<T>(threads: usize, f: impl FnOnce(&mut endgame::Solver) -> T) -> T {
    let pool = || SOLVERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut solver = pool().pop().unwrap_or_else(|| endgame::Solver::new(64));
    solver.set_threads(threads);
    let result = f(&mut solver);
    pool().push(solver);
    result
}

/// A win/loss/draw solve of `board` within `bounds` by a solver of the pool on `threads` threads, as a move to play: the move, its
/// score in hundredths (2 discs for a win, the least a win can be; 0 for a draw) and the nodes searched;
/// `None` when it gave up or every move loses, where the midgame search picks the move that loses least.
#[must_use]
pub fn wld_move(
    board: gridplay_games::reversi::bitboard::Board,
    bounds: endgame::Bounds,
    threads: usize,
) -> Option<(u8, i32, u64)> {
    let found = with_solver(threads, |solver| solver.solve_wld_within(board, bounds))?;
    let score = match found.outcome {
        endgame::Wld::Win => 200,
        endgame::Wld::Draw => 0,
        endgame::Wld::Loss => return None,
    };
    Some((found.best?, score, found.nodes))
}

/// [`wld_move`] as an engine reply.
#[must_use]
pub fn wld_reply(pos: &ReversiPosition, bounds: endgame::Bounds, threads: usize) -> Option<Reply> {
    let started = std::time::Instant::now();
    let (sq, score, nodes) = wld_move(pos.board(), bounds, threads)?;
    let best = square_name(sq);
    Some(Reply {
        pv: vec![best.clone()],
        best,
        score,
        depth: pos.board().empty().count_ones(),
        nodes,
        elapsed: started.elapsed(),
    })
}

/// The exact solver's answer on `threads` threads as an engine reply; the score is the final disc difference
/// in hundredths.
#[must_use]
pub fn solve_reply(pos: &ReversiPosition, threads: usize) -> Reply {
    let started = std::time::Instant::now();
    let solution = with_solver(threads, |solver| solver.solve(pos.board()));
    let best = solution.best.map_or_else(|| "pass".to_owned(), square_name);
    Reply {
        pv: vec![best.clone()],
        best,
        score: solution.score * 100,
        depth: pos.board().empty().count_ones(),
        nodes: solution.nodes,
        elapsed: started.elapsed(),
    }
}

/// The evaluation: the shipped pattern weights.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

impl Evaluator<ReversiPosition> for Eval {
    fn evaluate(&self, pos: &ReversiPosition) -> i32 {
        pattern::Weights::shipped().evaluate(pos.board())
    }

    fn order_hint(&self, _pos: &ReversiPosition, m: Move) -> i32 {
        match m {
            Move::Place(sq) => SQUARE_ORDER[usize::from(sq)],
            Move::Pass => 0,
        }
    }
}

/// The first, hand-written evaluation, kept to measure the trained one against.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandEval;

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// (X-square, its corner): b2/a1, g2/h1, b7/a8, g7/h8.
const X_SQUARES: [(u8, u8); 4] = [(9, 0), (14, 7), (49, 56), (54, 63)];

/// Static square values for move ordering: corners first, X- and C-squares last.
#[rustfmt::skip]
const SQUARE_ORDER: [i32; 64] = [
    100, -20, 10,  5,  5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
     10,  -2,  1,  1,  1,  1,  -2,  10,
      5,  -2,  1,  0,  0,  1,  -2,   5,
      5,  -2,  1,  0,  0,  1,  -2,   5,
     10,  -2,  1,  1,  1,  1,  -2,  10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10,  5,  5, 10, -20, 100,
];

/// The squares next to any square of `x` (in the eight directions).
#[inline]
pub(crate) fn neighbours(x: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    (x << 8)
        | (x >> 8)
        | ((x << 1) & NOT_A)
        | ((x >> 1) & NOT_H)
        | ((x << 9) & NOT_A)
        | ((x >> 7) & NOT_A)
        | ((x << 7) & NOT_H)
        | ((x >> 9) & NOT_H)
}

/// Discs next to an empty square.
fn frontier(discs: u64, empty: u64) -> u32 {
    (discs & neighbours(empty)).count_ones()
}

impl HandEval {
    /// The hand-written score of a board for the side to move.
    #[must_use]
    pub fn score(b: gridplay_games::reversi::bitboard::Board) -> i32 {
        let (p, o) = (b.player, b.opponent);
        let empty = b.empty();
        let discs = p.count_ones() as i32 - o.count_ones() as i32;
        let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
        if empty.count_ones() <= 10 {
            return discs * 100 + corners * 300;
        }
        let mobility = get_moves(p, o).count_ones() as i32 - get_moves(o, p).count_ones() as i32;
        let mut x = 0;
        for (sq, corner) in X_SQUARES {
            if empty & (1 << corner) != 0 {
                x += i32::from(p & (1 << sq) != 0) - i32::from(o & (1 << sq) != 0);
            }
        }
        let front = frontier(p, empty) as i32 - frontier(o, empty) as i32;
        mobility * 120 + corners * 800 - x * 300 - front * 30
    }
}

impl Evaluator<ReversiPosition> for HandEval {
    fn evaluate(&self, pos: &ReversiPosition) -> i32 {
        HandEval::score(pos.board())
    }

    fn order_hint(&self, _pos: &ReversiPosition, m: Move) -> i32 {
        match m {
            Move::Place(sq) => SQUARE_ORDER[usize::from(sq)],
            Move::Pass => 0,
        }
    }
}
