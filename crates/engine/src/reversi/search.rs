//! The Reversi midgame search: principal-variation alpha-beta by iterative deepening with aspiration windows,
//! a transposition table that outlives a search (one per concurrent search, bounded), moves ordered by the
//! table's move, then by a shallow search of the position each one reaches and the replies it leaves the
//! opponent, and Multi-ProbCut: a shallow null-window search predicts a deep one, and a node is cut when the
//! prediction is beyond the window by enough standard deviations. The regression (mean and deviation of the
//! deep score less the shallow one, per stage and depth) is fitted by `gridplay train reversi-probcut` and
//! shipped in `probcut.txt`.
//!
//! Scores are in hundredths of a disc for the side to move; a finished game scores its final disc difference
//! (empties to the winner) times 100.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use arrayvec::ArrayVec;
use gridplay_games::reversi::bitboard::{Board, flips, get_moves};
use gridplay_search::{Limits, StopFlag};

use std::sync::atomic::Ordering::Relaxed;

use crate::parallel::Split;

use super::{
    endgame::final_score,
    pattern::{Indices, Lanes, Weights},
    probcut::{PROBCUT_MIN_DEPTH, ProbCut},
};

/// Beyond any score.
const INFINITY: i32 = 10_000;
/// Evaluations are kept inside the range of final scores.
pub(super) const EVAL_LIMIT: i32 = 6_300;
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The squares by how often a move there is good: corners, the edges but the C-squares, the inner squares
/// but the X-squares, the C-squares, the X-squares (together every square once).
const SQUARE_CLASSES: [u64; 5] = [
    CORNERS,
    0x3C00_8181_8181_003C,
    0x003C_7E7E_7E7E_3C00,
    0x4281_0000_0000_8142,
    0x0042_0000_0000_4200,
];

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The best square, `None` when the side to move must pass.
    pub best: Option<u8>,
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Option<u8>>,
    /// Each completed iteration's score, from depth 1.
    pub scores: Vec<i32>,
}

/// How a search prunes.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Multi-ProbCut on, with the cut at this many standard deviations (hundredths); `None` searches every move.
    pub probcut: Option<u32>,
    /// Full windows at every iteration (the fitting of the cut's regression wants exact scores).
    pub full_window: bool,
    /// The time a move should take from a game clock ([`super::clock::allot`]): no iteration starts past half of it, or past
    /// all of it when the last iteration changed its mind; the time limit stays the hard stop.
    pub soft: Option<Duration>,
    /// Threads of the search: above one, young-brothers-wait on a pool of that many ([`crate::parallel`]).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            probcut: Some(PROBCUT_T),
            full_window: false,
            soft: None,
            threads: 1,
        }
    }
}

/// Interior nodes between two looks at the time, the nodes and the stop flag.
const CHECK_EVERY: u32 = 256;
/// Interior nodes between two looks under a split point.
const CHECK_SPLIT_EVERY: u32 = 16;

/// Nodes this many plies from the horizon or more split among the threads of a parallel search.
const SPLIT_DEPTH: u32 = 5;

/// Enhanced transposition cut-offs from this many plies from the horizon: nearer it, the table's probes cost
/// more than the nodes they save.
const ETC_MIN_DEPTH: u32 = 3;

/// The cut's threshold in standard deviations (hundredths), chosen by match (`docs/lab/2026-11-29-reversi-stage-prior.md`).
pub const PROBCUT_T: u32 = 125;

const NO_MOVE: u8 = 0xFF;

/// A node's children: (order key, move, the board reached: the side then to move's discs and the other's).
type Children = ArrayVec<(i32, u8, u64, u64), 64>;

/// Moves the first child of the highest key (the first of equals) to the front.
#[inline]
fn pick_best(children: &mut [(i32, u8, u64, u64)]) {
    let mut best = 0;
    for (i, c) in children.iter().enumerate().skip(1) {
        if c.0 > children[best].0 {
            best = i;
        }
    }
    children[..=best].rotate_right(1);
}

/// Tables kept from search to search, as in the checkers search: a game's next move starts from what the
/// last one learned.
static TABLES: Mutex<Vec<Table>> = Mutex::new(Vec::new());
const TABLE_MEGABYTES: usize = 32;

/// One search, or one thread's part of a parallel one.
struct Searcher<'a> {
    weights: &'a Weights,
    probcut: Option<(&'a ProbCut, i32)>,
    table: &'a Table,
    stop: &'a StopFlag,
    started: Instant,
    time: Option<Duration>,
    /// Each thread's own nodes count against it.
    node_limit: Option<u64>,
    nodes: u64,
    /// The time or the nodes ran out, the stop flag was raised, or the split point above was cut: every
    /// score from then on is meaningless.
    aborted: bool,
    /// Inside a ProbCut test, no further test.
    in_probcut: bool,
    /// Interior nodes until the next look at the budget and at the split point above.
    until_check: u32,
    threads: usize,
    /// The split point this thread works under, if any.
    split: Option<&'a Split<'a>>,
}

impl<'a> Searcher<'a> {
    /// A search with `weights` and, at `t` hundredths of a deviation, Multi-ProbCut, within `limits` from
    /// `started`.
    fn new(
        weights: &'a Weights,
        t: Option<u32>,
        table: &'a Table,
        stop: &'a StopFlag,
        limits: Limits,
        started: Instant,
    ) -> Searcher<'a> {
        Searcher {
            weights,
            probcut: t.map(|t| (ProbCut::shipped(), t as i32)),
            table,
            stop,
            started,
            time: limits.time,
            node_limit: limits.nodes,
            nodes: 0,
            aborted: false,
            in_probcut: false,
            until_check: 1,
            threads: 1,
            split: None,
        }
    }

    /// Whether the search must give up now; looks every [`CHECK_EVERY`] interior nodes, and every
    /// [`CHECK_SPLIT_EVERY`] under a split point, whose cut should end the thread's work soon.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.until_check -= 1;
        if self.until_check == 0 {
            self.until_check = if self.split.is_some() {
                CHECK_SPLIT_EVERY
            } else {
                CHECK_EVERY
            };
            self.aborted = self.stop.is_stopped()
                || self.time.is_some_and(|t| self.started.elapsed() >= t)
                || self.node_limit.is_some_and(|n| self.nodes >= n)
                || self.split.is_some_and(Split::is_cut);
        }
        self.aborted
    }

    /// A searcher like this one for a thread working under `split`.
    fn helper<'b>(&'b self, split: &'b Split<'b>) -> Searcher<'b> {
        Searcher {
            nodes: 0,
            aborted: false,
            in_probcut: false,
            until_check: 1,
            split: Some(split),
            ..*self
        }
    }

    /// Searches `children`, the younger moves of a node whose eldest has been searched, on this thread and
    /// any free thread of the pool ([`crate::parallel`]), each first with a null window at the best score
    /// then known: the node's best score and move, from `best` on. A thread that gives up for a reason
    /// above this node makes this searcher give up too.
    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        o: u64,
        ix: &Indices,
        children: &[(i32, u8, u64, u64)],
        depth: u32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        best: (i32, u8),
    ) -> (i32, u8) {
        let split = Split::new(self.split, alpha, best);
        let this = &*self;
        let work = || {
            let mut w = this.helper(&split);
            while let Some(i) = split.take(children.len()) {
                let a = split.alpha.load(Relaxed);
                if a >= beta {
                    break;
                }
                let (_, sq, np, no) = children[i];
                let cix = ix.play(sq, np ^ o);
                let mut score = -w.pvs(np, no, &cix, depth - 1, -a - 1, -a, false);
                if pv_node && score > a && score < beta && !w.aborted {
                    score = -w.pvs(np, no, &cix, depth - 1, -beta, -a, true);
                }
                if w.aborted {
                    break;
                }
                split.offer(score, sq, beta);
            }
            split.done(w.nodes, w.aborted);
        };
        split.share(this.threads, work);
        self.nodes += split.nodes.load(Relaxed);
        if split.gave_up.load(Relaxed) {
            self.aborted = true;
        }
        split.best()
    }

    /// Whether a node `depth` plies from the horizon splits among the threads.
    #[inline]
    fn splits(&self, depth: u32) -> bool {
        self.threads > 1 && depth >= SPLIT_DEPTH && !self.in_probcut
    }

    #[inline]
    fn evaluate(&self, p: u64, o: u64, view: &Lanes) -> i32 {
        self.weights
            .evaluate_indices(
                Board {
                    player: p,
                    opponent: o,
                },
                view,
            )
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The score of the position after a move, seen by the player who is then to move, at depth 0; `view`
    /// holds its pattern indices seen by that player ([`Indices::view`]).
    #[inline]
    fn leaf(&mut self, p: u64, o: u64, view: &Lanes) -> i32 {
        self.nodes += 1;
        if (p | o) == u64::MAX {
            return final_score(p, o) * 100;
        }
        self.evaluate(p, o, view)
    }

    /// The boards the moves `moves` of `p` against `o` reach, in square order, with key 0; their table
    /// buckets are fetched ahead when the search will look them up (from two plies from the horizon).
    fn children(&self, p: u64, o: u64, mut moves: u64, depth: u32, children: &mut Children) {
        children.clear();
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            if depth >= 3 {
                self.table.prefetch(np, no);
            }
            // At most one move for each empty square.
            children.push((0, sq, np, no));
        }
    }

    /// The moves `moves` of `p` against `o` in search order, each with the board it reaches.
    fn ordered(&mut self, p: u64, o: u64, ix: &Indices, moves: u64, depth: u32) -> Children {
        let mut children = Children::new();
        self.children(p, o, moves, depth, &mut children);
        self.order(o, ix, &mut children, depth);
        children.sort_by_key(|c| std::cmp::Reverse(c.0));
        children
    }

    /// Gives `children` of the node where `o` is the opponent their order keys, the highest to be searched
    /// first.
    fn order(&mut self, o: u64, ix: &Indices, children: &mut Children, depth: u32) {
        // The shallow search that sorts: none near the horizon, deeper further from it. Nearer the horizon
        // it costs more than the order it buys.
        let sort_depth = match depth {
            0..=6 => None,
            7..=10 => Some(0),
            11..=14 => Some(1),
            _ => Some(2),
        };
        for child in children.iter_mut() {
            let (_, sq, np, no) = *child;
            let f = np ^ o;
            let replies = get_moves(np, no);
            let mut key = -(replies.count_ones() as i32) * 64 - (replies & CORNERS).count_ones() as i32 * 256;
            if CORNERS & (1 << sq) != 0 {
                key += 128;
            }
            if let Some(d) = sort_depth {
                let saved = self.in_probcut;
                self.in_probcut = true;
                key += -if d == 0 {
                    self.leaf(np, no, &ix.view_after(sq, f))
                } else {
                    self.pvs(np, no, &ix.play(sq, f), d, -INFINITY, INFINITY, false)
                } / 4;
                self.in_probcut = saved;
            }
            child.0 = key;
        }
    }

    /// Enhanced transposition cut-off: a child whose position the table bounds, at its depth, to a score
    /// that gives this node at least `beta` ends the node before its moves are ordered.
    fn etc(&self, children: &Children, depth: u32, beta: i32) -> Option<i32> {
        if depth < ETC_MIN_DEPTH {
            return None;
        }
        children.iter().find_map(|&(_, _, np, no)| {
            self.table
                .probe(np, no)
                .filter(|e| u32::from(e.depth) + 1 >= depth && -i32::from(e.upper) >= beta)
                .map(|e| -i32::from(e.upper))
        })
    }

    /// Multi-ProbCut: `Some(bound)` when a shallow search says the deep one falls outside the window.
    fn probcut(&mut self, p: u64, o: u64, ix: &Indices, depth: u32, alpha: i32, beta: i32) -> Option<i32> {
        let (table, t) = self.probcut?;
        if self.in_probcut || depth < PROBCUT_MIN_DEPTH {
            return None;
        }
        let empties = (!(p | o)).count_ones();
        let pair = table.pair(empties, depth)?;
        let margin = t * pair.sigma / 100;
        self.in_probcut = true;
        let mut cut = None;
        // At depth 0 the shallow search is the evaluation itself: read once for both tests.
        let eval = (pair.shallow == 0).then(|| self.leaf(p, o, ix.view()));
        // Fail high: the shallow score predicts at least beta.
        let high = beta + margin - pair.mean;
        if high < INFINITY && beta < INFINITY / 2 {
            let s = match eval {
                Some(e) => e,
                None => self.pvs(p, o, ix, pair.shallow, high - 1, high, false),
            };
            if s >= high {
                cut = Some(beta);
            }
        }
        if cut.is_none() {
            let low = alpha - margin - pair.mean;
            if low > -INFINITY && alpha > -INFINITY / 2 {
                let s = match eval {
                    Some(e) => e,
                    None => self.pvs(p, o, ix, pair.shallow, low, low + 1, false),
                };
                if s <= low {
                    cut = Some(alpha);
                }
            }
        }
        self.in_probcut = false;
        cut
    }

    /// Fail-soft principal-variation search of the position where the side to move holds `p`.
    /// `ix` holds the position's pattern indices.
    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        p: u64,
        o: u64,
        ix: &Indices,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        if depth == 0 {
            return self.leaf(p, o, ix.view());
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let moves = get_moves(p, o);
        if moves == 0 {
            if get_moves(o, p) == 0 {
                return final_score(p, o) * 100;
            }
            return -self.pvs(o, p, &ix.pass(), depth, -beta, -alpha, pv_node);
        }
        if depth == 1 {
            let mut best = -INFINITY;
            // Likelier cuts first, by the kind of square alone: no sort at the horizon.
            'classes: for class in SQUARE_CLASSES {
                let mut m = moves & class;
                while m != 0 {
                    let sq = m.trailing_zeros() as u8;
                    m &= m - 1;
                    let f = flips(sq, p, o);
                    let s = -self.leaf(o ^ f, p ^ f ^ (1 << sq), &ix.view_after(sq, f));
                    if s > best {
                        best = s;
                        if s >= beta {
                            break 'classes;
                        }
                    }
                }
            }
            return best;
        }
        let entry = self.table.probe(p, o);
        let mut tt_move = NO_MOVE;
        if let Some(e) = entry {
            tt_move = e.best;
            if u32::from(e.depth) >= depth && !pv_node {
                let (lo, hi) = (i32::from(e.lower), i32::from(e.upper));
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                if lo == hi {
                    return lo;
                }
            }
        }
        if !pv_node && let Some(cut) = self.probcut(p, o, ix, depth, alpha, beta) {
            return cut;
        }
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_sq = NO_MOVE;
        // The table's move first, alone: when it cuts, the others are never ordered.
        let mut children = Children::new();
        let mut rest = moves;
        if tt_move != NO_MOVE && moves & (1 << tt_move) != 0 {
            let f = flips(tt_move, p, o);
            children.push((0, tt_move, o ^ f, p ^ f ^ (1 << tt_move)));
            rest &= !(1 << tt_move);
        }
        let mut ordered = children.is_empty();
        if ordered {
            self.children(p, o, rest, depth, &mut children);
            if let Some(cut) = self.etc(&children, depth, beta) {
                return cut;
            }
            self.order(o, ix, &mut children, depth);
        }
        // Children from `pick_from` on are keyed but not sorted: each is picked when its turn comes, so that a
        // cut leaves the rest unsorted.
        let mut pick_from = if ordered { 0 } else { usize::MAX };
        let mut n = 0;
        while n < children.len() {
            if n > 0 && ordered && children.len() - n >= 2 && self.splits(depth) {
                // Keyed but not yet sorted (from `pick_from`, which `n` has passed).
                let rest = &mut children[n..];
                rest.sort_by_key(|c| std::cmp::Reverse(c.0));
                (best, best_sq) = self.split(o, ix, rest, depth, alpha, beta, pv_node, (best, best_sq));
                if self.aborted {
                    return 0;
                }
                break;
            }
            if n >= pick_from {
                pick_best(&mut children[n..]);
            }
            let (_, sq, np, no) = children[n];
            let cix = ix.play(sq, np ^ o);
            let score = if n == 0 {
                -self.pvs(np, no, &cix, depth - 1, -beta, -alpha, pv_node)
            } else {
                let mut s = -self.pvs(np, no, &cix, depth - 1, -alpha - 1, -alpha, false);
                if pv_node && s > alpha && s < beta {
                    s = -self.pvs(np, no, &cix, depth - 1, -beta, -alpha, true);
                }
                s
            };
            if self.aborted {
                return 0;
            }
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
            n += 1;
            if !ordered && n == children.len() {
                ordered = true;
                if rest != 0 {
                    let mut others = Children::new();
                    self.children(p, o, rest, depth, &mut others);
                    if let Some(cut) = self.etc(&others, depth, beta) {
                        return cut.max(best);
                    }
                    self.order(o, ix, &mut others, depth);
                    pick_from = children.len();
                    children.extend(others);
                }
            }
        }
        // Every node here is two plies or more from the horizon: its bounds are worth keeping.
        let (lower, upper) = if best >= beta {
            (best, INFINITY)
        } else if best > alpha0 {
            (best, best)
        } else {
            (-INFINITY, best)
        };
        let (mut lower, mut upper) = (lower, upper);
        // A bound of the same depth already known narrows this one.
        if let Some(e) = entry
            && u32::from(e.depth) == depth
        {
            lower = lower.max(i32::from(e.lower));
            upper = upper.min(i32::from(e.upper));
            if lower > upper {
                (lower, upper) = if best >= beta {
                    (best, INFINITY)
                } else {
                    (-INFINITY, best)
                };
            }
        }
        self.table.store(Entry {
            player: p,
            opponent: o,
            lower: lower as i16,
            upper: upper as i16,
            depth: depth as u8,
            best: best_sq,
            age: 0,
        });
        best
    }

    /// The root at `depth` within (`alpha`, `beta`): the score and best move, the moves tried in the order
    /// `moves` gives and the best moved to its front. When the budget runs out inside it, the score is
    /// `-INFINITY` unless a move searched whole scored better than the first.
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        p: u64,
        o: u64,
        ix: &Indices,
        moves: &mut [u8],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        self.nodes += 1;
        let mut best = -INFINITY;
        let mut best_i = 0;
        for (i, &sq) in moves.iter().enumerate() {
            if i == 1 && best > -INFINITY && alpha < beta && moves.len() >= 3 && self.splits(depth) {
                let children: Children = moves[1..]
                    .iter()
                    .map(|&sq| {
                        let f = flips(sq, p, o);
                        (0, sq, o ^ f, p ^ f ^ (1 << sq))
                    })
                    .collect();
                let (score, sq) = self.split(o, ix, &children, depth, alpha, beta, true, (best, moves[0]));
                best_i = moves.iter().position(|&m| m == sq).unwrap_or(0);
                // Stopped: a move searched whole stands only if it beat the first one.
                best = if self.aborted && best_i == 0 {
                    -INFINITY
                } else {
                    score
                };
                break;
            }
            let f = flips(sq, p, o);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            let cix = ix.play(sq, f);
            let score = if i == 0 {
                -self.pvs(np, no, &cix, depth - 1, -beta, -alpha, true)
            } else {
                let mut s = -self.pvs(np, no, &cix, depth - 1, -alpha - 1, -alpha, false);
                if s > alpha && s < beta {
                    s = -self.pvs(np, no, &cix, depth - 1, -beta, -alpha, true);
                }
                s
            };
            if self.aborted {
                // Stopped inside this move: a move searched whole before it stands only if it beat the
                // first one.
                if best_i == 0 {
                    best = -INFINITY;
                }
                break;
            }
            if score > best {
                best = score;
                best_i = i;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        moves[..=best_i].rotate_right(1);
        (best, moves[0])
    }

    /// The principal variation from the table, starting with `first`.
    fn pv(&self, mut b: Board, first: u8, depth: u32) -> Vec<Option<u8>> {
        let mut pv = vec![Some(first)];
        b = b.play(first);
        while (pv.len() as u32) < depth {
            if b.is_over() {
                break;
            }
            if b.moves() == 0 {
                pv.push(None);
                b = b.pass();
                continue;
            }
            match self.table.probe(b.player, b.opponent) {
                Some(e) if e.best != NO_MOVE && b.moves() & (1 << e.best) != 0 => {
                    pv.push(Some(e.best));
                    b = b.play(e.best);
                }
                _ => break,
            }
        }
        pv
    }
}

/// Searches `board` within `limits` (a depth of `None` deepens until time, nodes or the stop flag; at least
/// depth 1 is always completed).
#[must_use]
pub fn search(board: Board, limits: Limits, stop: &StopFlag, options: Options) -> Found {
    with_table(|table| search_with(board, limits, stop, options, table, Instant::now()))
}

/// Reads the weights and the regression and puts a table in the pool if it holds none, so that the next
/// search starts at once (see [`crate::prepare`]).
pub(crate) fn prepare() {
    let _ = (Weights::shipped(), ProbCut::shipped());
    let mut pool = TABLES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if pool.is_empty() {
        pool.push(Table::new(TABLE_MEGABYTES));
    }
}

/// How many tables the pool keeps now (none of them in use).
pub(crate) fn pooled_tables() -> usize {
    TABLES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .len()
}

/// Runs `f` with a table of the pool (a new one when every kept one is in use), aged by one search. The first
/// search of a process reads the weights and the regression and makes a table before its own clock starts,
/// but on its caller's: a caller on a game clock calls [`crate::prepare`] first.
fn with_table<T>(f: impl FnOnce(&mut Table) -> T) -> T {
    let _ = (Weights::shipped(), ProbCut::shipped());
    let pool = || TABLES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut table = pool().pop().unwrap_or_else(|| Table::new(TABLE_MEGABYTES));
    table.age = table.age.wrapping_add(1);
    let result = f(&mut table);
    pool().push(table);
    result
}

/// A probable win/loss/draw solve: the search to the end of the game within a draw's window, with
/// Multi-ProbCut at `t` hundredths of a standard deviation, as NTest's probable solves before its exact ones.
/// `Some((move, score, nodes))` with a score of 200 for a win it found and 0 for a draw; `None` for a loss, or
/// when `limits` ran out or `stop` was raised first. Like any selective search, its cuts may be wrong.
#[must_use]
pub fn probable_wld(board: Board, t: u32, limits: Limits, stop: &StopFlag) -> Option<(u8, i32, u64)> {
    with_table(|table| probable_wld_with(board, t, limits, stop, table))
}

/// The plies searched before a probable solve, for the order of the root's moves and for the table.
const PROBABLE_PRE_DEPTH: u32 = 6;

fn probable_wld_with(
    board: Board,
    t: u32,
    limits: Limits,
    stop: &StopFlag,
    table: &mut Table,
) -> Option<(u8, i32, u64)> {
    let (p, o) = (board.player, board.opponent);
    let moves = get_moves(p, o);
    if moves == 0 {
        return None;
    }
    let empties = board.empty().count_ones();
    let mut s = Searcher::new(Weights::shipped(), Some(t), table, stop, limits, Instant::now());
    let ix = Indices::new(p, o);
    let mut order: Vec<u8> = s.ordered(p, o, &ix, moves, 0).iter().map(|c| c.1).collect();
    for depth in 1..=PROBABLE_PRE_DEPTH.min(empties.saturating_sub(1)) {
        let _ = s.root(p, o, &ix, &mut order, depth, -INFINITY, INFINITY);
        if s.aborted {
            return None;
        }
    }
    // Final scores are whole discs, in hundredths: within (-100, 100) only a draw.
    let (score, sq) = s.root(p, o, &ix, &mut order, empties, -100, 100);
    if s.aborted || score <= -100 {
        return None;
    }
    Some((sq, if score >= 100 { 200 } else { 0 }, s.nodes))
}

/// [`search`] with `table` rather than one of the pool's (a new table gives a search that no earlier one
/// helped: the benchmarks' way).
#[must_use]
pub fn search_in(
    board: Board,
    limits: Limits,
    stop: &StopFlag,
    options: Options,
    table: &mut Table,
) -> Found {
    let _ = (Weights::shipped(), ProbCut::shipped());
    table.age = table.age.wrapping_add(1);
    search_with(board, limits, stop, options, table, Instant::now())
}

pub(super) fn search_with(
    board: Board,
    limits: Limits,
    stop: &StopFlag,
    options: Options,
    table: &mut Table,
    started: Instant,
) -> Found {
    search_weighted(board, limits, stop, options, table, started, Weights::shipped())
}

/// [`search_with`] with other weights than the shipped ones (the training's self-play).
pub(super) fn search_weighted(
    board: Board,
    limits: Limits,
    stop: &StopFlag,
    options: Options,
    table: &mut Table,
    started: Instant,
    weights: &Weights,
) -> Found {
    let (p, o) = (board.player, board.opponent);
    let moves = get_moves(p, o);
    if moves == 0 {
        let score = if get_moves(o, p) == 0 {
            final_score(p, o) * 100
        } else {
            -search_weighted(board.pass(), limits, stop, options, table, started, weights).score
        };
        return Found {
            best: None,
            score,
            depth: 0,
            nodes: 1,
            elapsed: started.elapsed(),
            pv: vec![None],
            scores: Vec::new(),
        };
    }
    let table = &*table;
    crate::parallel::run(options.threads, || {
        let mut s = Searcher::new(weights, options.probcut, table, stop, limits, started);
        s.threads = options.threads.max(1);
        deepen(&mut s, board, limits, options)
    })
}

/// Iterative deepening of `board` (which has moves) by `s`.
fn deepen(s: &mut Searcher<'_>, board: Board, limits: Limits, options: Options) -> Found {
    let (p, o) = (board.player, board.opponent);
    let moves = get_moves(p, o);
    let empties = board.empty().count_ones();
    let started = s.started;
    let ix = Indices::new(p, o);
    let mut order: Vec<u8> = s.ordered(p, o, &ix, moves, 0).iter().map(|c| c.1).collect();
    let max_depth = limits.depth.unwrap_or(64).clamp(1, empties.max(1));
    let mut best = (-INFINITY, order[0]);
    let mut depth_done = 0;
    let mut scores = Vec::new();
    for depth in 1..=max_depth {
        // Scores alternate by about three discs between odd and even depths (the side that moved last at
        // the horizon looks better), so the window is centred on the last score of the same parity.
        let centre = match scores[..] {
            [.., same, _] => same,
            _ => best.0,
        };
        let (mut lo, mut hi) = if options.full_window || depth < 5 {
            (-INFINITY, INFINITY)
        } else {
            (centre - 300, centre + 300)
        };
        let result = loop {
            let (score, sq) = s.root(p, o, &ix, &mut order, depth, lo, hi);
            if s.aborted {
                // A move that a stopped iteration searched whole and found better than the first (the
                // last iteration's best) is the better move, with a score of this depth.
                if score > -INFINITY && sq != best.1 {
                    best = (score, sq);
                }
                break None;
            }
            if score <= lo && lo > -INFINITY {
                lo = -INFINITY;
            } else if score >= hi && hi < INFINITY {
                hi = INFINITY;
            } else {
                break Some((score, sq));
            }
        };
        let Some(result) = result else { break };
        // Unclear: the best move changed, or its score fell by two discs from the last depth of the same
        // parity.
        let unclear = depth > 1 && (result.1 != best.1 || result.0 < centre - 200);
        best = result;
        depth_done = depth;
        scores.push(result.0);
        // Another iteration takes a few times as long as this one: do not start one that cannot end in time.
        let elapsed = started.elapsed();
        match options.soft {
            Some(soft) if elapsed > if unclear { soft } else { soft / 2 } => break,
            None if limits.time.is_some_and(|t| elapsed * 5 > t * 2) => break,
            _ => {}
        }
        if limits.nodes.is_some_and(|n| s.nodes * 3 > n) {
            break;
        }
    }
    let pv = s.pv(board, best.1, depth_done.max(1));
    Found {
        best: Some(best.1),
        score: best.0,
        depth: depth_done,
        nodes: s.nodes,
        elapsed: started.elapsed(),
        pv,
        scores,
    }
}

mod table;
#[cfg(test)]
mod tests;

use table::Entry;
pub use table::Table;
