//! The checkers search: principal-variation alpha-beta by iterative deepening with aspiration windows, a
//! transposition table that outlives a search (one per thread, bounded), killer and history move ordering,
//! and the extensions that make a checkers search sound:
//! - no position with a capture pending is evaluated: at the horizon, captures are searched on (captures are
//!   compulsory, so there is no standing pat) until a quiet position is reached;
//! - a forced move (the only legal one) costs no depth;
//! - a position repeated on the path, or in the game's history since the last man move or capture, is a draw.
//!
//! Late quiet moves are searched shallower first (`reduction`) and again at full depth if they beat alpha.
//! ProbCut: at a node with no capture pending, outside the principal variation, a search
//! [`PROBCUT_REDUCTION`] plies shallower predicts the deep one; when it falls [`PROBCUT_MARGIN`] or more beyond
//! the window, the node is cut without the deep search.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use gridplay_core::{Player, Position};
use gridplay_games::checkers::{
    CheckersPosition,
    bitboard::Board,
    movegen::{self, Move, Moves},
};
use gridplay_search::{Limits, StopFlag, WIN};
use smallvec::SmallVec;

pub use super::eval::{Evaluate, Hand};
use super::{
    egdb::{self, Database, Wld},
    evaluation,
};

const INFINITY: i32 = WIN + 1;
/// Plies without a man's move or a capture that draw the game: 40 moves each.
const QUIET_DRAW: usize = 80;
/// The deepest ply a search reaches, extensions included.
const MAX_PLY: usize = 128;
/// Scores beyond this are proven wins or losses.
const PROVEN: i32 = WIN - 1000;
/// The score of a win known from the endgame database (plus the evaluation), well inside proven wins.
pub const DB_WIN: i32 = 30_000;
/// ProbCut's margin: how far (hundredths of a man) beyond the window the shallow search must fall.
pub const PROBCUT_MARGIN: i32 = 40;
/// How many plies shallower ProbCut's search is.
pub const PROBCUT_REDUCTION: i32 = 4;
/// The shallowest node ProbCut tests.
pub const PROBCUT_MIN_DEPTH: i32 = 6;

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found {
    pub best: Move,
    /// For the side to move, in hundredths of a man; a proven win is `WIN` less its distance in plies.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: i8,
    bound: u8,
    /// The best move's index in the generated move list, plus one; 0 for none.
    mv: u8,
    age: u8,
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// A transposition table of buckets of two entries: one kept by depth, one always replaced.
#[derive(Debug)]
pub struct Table {
    buckets: Vec<[Entry; 2]>,
    age: u8,
}

impl Table {
    /// A table of about `megabytes`.
    #[must_use]
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes << 20) / std::mem::size_of::<[Entry; 2]>();
        let n = 1usize << (usize::BITS - 1 - wanted.max(1024).leading_zeros());
        Table {
            buckets: vec![[Entry::default(); 2]; n],
            age: 0,
        }
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.buckets[key as usize & (self.buckets.len() - 1)];
        b.iter().find(|e| e.key == key && key != 0).copied()
    }

    fn store(&mut self, e: Entry) {
        let age = self.age;
        let len = self.buckets.len();
        let b = &mut self.buckets[e.key as usize & (len - 1)];
        let slot = if b[0].key == e.key || b[0].age != age || e.depth >= b[0].depth {
            0
        } else {
            1
        };
        let keep_move = b[slot].key == e.key && e.mv == 0;
        let mv = if keep_move { b[slot].mv } else { e.mv };
        b[slot] = Entry { age, mv, ..e };
    }
}

/// Tables kept from search to search: a search takes one (or makes one when all are in use) and puts it back,
/// so that the next move starts from what the last one learned, on whatever thread it runs. There are never
/// more tables than searches that ran at once.
static TABLES: Mutex<Vec<Table>> = Mutex::new(Vec::new());

/// The size of each kept table.
const TABLE_MEGABYTES: usize = 32;

/// The hash of a position.
#[inline]
#[must_use]
pub fn key(b: &Board, turn: Player) -> u64 {
    let mix = |mut x: u64| {
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    };
    let a = u64::from(b.pieces[0]) | (u64::from(b.pieces[1]) << 32);
    let k = u64::from(b.kings) | ((turn.index() as u64 + 1) << 32);
    (mix(a) ^ mix(k ^ 0x9e37_79b9_7f4a_7c15)) | 1
}

/// One search.
struct Searcher<'a, E> {
    eval: &'a E,
    /// Whether nodes are cut by ProbCut.
    probcut: bool,
    /// Exact results of positions with few pieces.
    db: Option<&'a Database>,
    table: &'a mut Table,
    stop: &'a StopFlag,
    started: Instant,
    time: Option<Duration>,
    node_limit: Option<u64>,
    nodes: u64,
    aborted: bool,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Box<[[i32; 32]; 32]>,
    /// The keys of the positions on the path, the game's history first.
    path: Vec<u64>,
    /// For each entry of `path`, the index of the latest position reached by a man's move or a capture (no
    /// position before it can come again).
    since: Vec<usize>,
}

impl<E: Evaluate> Searcher<'_, E> {
    fn out_of_budget(&mut self) -> bool {
        if !self.aborted && self.nodes.is_multiple_of(1024) {
            self.aborted = self.stop.is_stopped()
                || self.time.is_some_and(|t| self.started.elapsed() >= t)
                || self.node_limit.is_some_and(|n| self.nodes >= n);
        }
        self.aborted
    }

    /// Whether the last position on the path occurred before with the same side to move.
    fn repeated(&self) -> bool {
        let n = self.path.len() - 1;
        let key = self.path[n];
        let since = self.since[n];
        let mut i = n;
        while i >= since + 2 {
            i -= 2;
            if self.path[i] == key {
                return true;
            }
        }
        false
    }

    /// Plies since the last man's move or capture (or the start of the known history).
    fn quiet_plies(&self) -> usize {
        let n = self.path.len() - 1;
        n - self.since[n]
    }

    fn push(&mut self, key: u64, progress: bool) {
        let n = self.path.len();
        let since = if progress { n } else { self.since[n - 1] };
        self.path.push(key);
        self.since.push(since);
    }

    fn pop(&mut self) {
        self.path.pop();
        self.since.pop();
    }

    fn order(&self, b: &Board, moves: &Moves, tt_move: usize, ply: usize) -> SmallVec<[(i32, usize); 48]> {
        let mut scored: SmallVec<[(i32, usize); 48]> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let s = if i + 1 == tt_move {
                    1 << 30
                } else if m.is_capture() {
                    (1 << 24)
                        + (m.captured().count_ones() as i32) * 1000
                        + (m.captured() & b.kings).count_ones() as i32 * 500
                } else if self.killers[ply][0] == Some(*m) {
                    1 << 22
                } else if self.killers[ply][1] == Some(*m) {
                    (1 << 22) - 1
                } else {
                    self.history[usize::from(m.from())][usize::from(m.to())]
                };
                (s, i)
            })
            .collect();
        scored.sort_unstable_by_key(|&(s, _)| std::cmp::Reverse(s));
        scored
    }

    fn negamax(&mut self, b: &Board, turn: Player, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if ply > 0 && (self.repeated() || self.quiet_plies() >= QUIET_DRAW) {
            return 0;
        }
        if ply > 0
            && let Some(db) = self.db
            && b.occupied().count_ones() <= db.pieces()
            && let Some(wld) = db.probe(b, turn)
        {
            // A known result, ranked by the evaluation so that a won ending is driven home.
            let e = self.eval.evaluate(b, turn).clamp(-DB_WIN / 2, DB_WIN / 2);
            return match wld {
                Wld::Win => DB_WIN + e,
                Wld::Loss => -DB_WIN + e,
                Wld::Draw => 0,
            };
        }
        let mut moves = Moves::new();
        movegen::generate(b, turn, &mut moves);
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        let capture = moves[0].is_capture();
        if (depth <= 0 && !capture) || ply >= MAX_PLY - 1 {
            return self.eval.evaluate(b, turn);
        }
        let here = *self.path.last().expect("the root is on the path");
        let entry = self.table.probe(here);
        let mut tt_move = 0;
        if let Some(e) = entry {
            tt_move = usize::from(e.mv);
            if ply > 0 && i32::from(e.depth) >= depth {
                let s = from_table(e.score, ply);
                let usable = match e.bound {
                    EXACT => true,
                    LOWER => s >= beta,
                    _ => s <= alpha,
                };
                if usable {
                    return s;
                }
            }
        }
        if ply > 0
            && beta - alpha == 1
            && !capture
            && let Some(cut) = self.probcut(b, turn, depth, alpha, beta, ply)
        {
            return cut;
        }
        // A forced move costs no depth; at the horizon the captures go on at depth 0.
        let child_depth = if moves.len() == 1 || depth <= 0 {
            depth.max(0)
        } else {
            depth - 1
        };
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_index = 0;
        let order = self.order(b, &moves, tt_move, ply);
        for (n, &(_, i)) in order.iter().enumerate() {
            let m = moves[i];
            let next = movegen::apply(b, turn, m);
            let progress = m.is_capture() || b.kings & (1 << m.from()) == 0;
            self.push(key(&next, !turn), progress);
            let score = if n == 0 {
                -self.negamax(&next, !turn, child_depth, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves far from the horizon are searched shallower first.
                let reduce = if n >= 2 && depth >= 3 && !capture && child_depth == depth - 1 {
                    reduction(depth, n)
                } else {
                    0
                };
                let mut s = -self.negamax(&next, !turn, child_depth - reduce, -alpha - 1, -alpha, ply + 1);
                if s > alpha && reduce > 0 {
                    s = -self.negamax(&next, !turn, child_depth, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&next, !turn, child_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            self.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_index = i;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    if !m.is_capture() {
                        let k = &mut self.killers[ply];
                        if k[0] != Some(m) {
                            k[1] = k[0];
                            k[0] = Some(m);
                        }
                        let h = &mut self.history[usize::from(m.from())][usize::from(m.to())];
                        *h += depth.max(1) * depth.max(1);
                        if *h > 1 << 20 {
                            for row in self.history.iter_mut() {
                                for v in row.iter_mut() {
                                    *v /= 2;
                                }
                            }
                        }
                    }
                    break;
                }
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.table.store(Entry {
            key: here,
            score: to_table(best, ply),
            depth: depth.clamp(0, 100) as i8,
            bound,
            mv: best_index as u8 + 1,
            age: 0,
        });
        best
    }

    /// ProbCut at a null-window node: `Some(bound)` when a search [`PROBCUT_REDUCTION`] plies shallower falls
    /// [`PROBCUT_MARGIN`] or more beyond the window. Not near proven scores, where the margin means nothing.
    fn probcut(
        &mut self,
        b: &Board,
        turn: Player,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if !self.probcut || depth < PROBCUT_MIN_DEPTH || beta.abs() >= PROVEN / 2 {
            return None;
        }
        let shallow = depth - PROBCUT_REDUCTION;
        let high = beta + PROBCUT_MARGIN;
        if self.negamax(b, turn, shallow, high - 1, high, ply) >= high {
            return Some(beta);
        }
        let low = alpha - PROBCUT_MARGIN;
        if !self.aborted && self.negamax(b, turn, shallow, low, low + 1, ply) <= low {
            return Some(alpha);
        }
        None
    }

    /// The principal variation, read from the table.
    fn pv(&self, b: &Board, turn: Player, first: Move) -> Vec<Move> {
        let mut pv = vec![first];
        let mut b = movegen::apply(b, turn, first);
        let mut turn = !turn;
        let mut seen = vec![key(&b, turn)];
        while pv.len() < 32 {
            let Some(e) = self.table.probe(key(&b, turn)) else {
                break;
            };
            let mut moves = Moves::new();
            movegen::generate(&b, turn, &mut moves);
            let Some(&m) = moves.get(usize::from(e.mv).wrapping_sub(1)) else {
                break;
            };
            pv.push(m);
            b = movegen::apply(&b, turn, m);
            turn = !turn;
            let k = key(&b, turn);
            if seen.contains(&k) {
                break;
            }
            seen.push(k);
        }
        pv
    }
}

/// How many plies shallower the `n`-th move (from 0) of a node of `depth` is searched first: one, and more the
/// deeper the node and the later the move (about ln(depth) x ln(n) / 1.5), always leaving a ply.
fn reduction(depth: i32, n: usize) -> i32 {
    static TABLE: std::sync::LazyLock<[[u8; 32]; 64]> = std::sync::LazyLock::new(|| {
        let mut t = [[0u8; 32]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = ((d as f64).ln() * (m as f64).ln() / 1.5).round().max(1.0) as u8;
            }
        }
        t
    });
    let r = i32::from(TABLE[depth.clamp(0, 63) as usize][n.min(31)]);
    r.clamp(1, (depth - 2).max(1))
}

fn to_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

/// Reads the evaluation, starts the endgame database's load in the background and puts a table in the pool
/// if it holds none (the search's part of [`super::prepare`]).
pub(crate) fn prepare() {
    let _ = (evaluation::shipped(), egdb::shared());
    let mut pool = TABLES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if pool.is_empty() {
        pool.push(Table::new(TABLE_MEGABYTES));
    }
}

/// Searches `pos` within `limits` (with no limit, to depth 64) with the shipped evaluation
/// ([`evaluation::shipped`]). `history` holds the positions of the game before `pos`, oldest first, for
/// repetitions. Returns `None` when the game is over.
#[must_use]
pub fn search(
    pos: &CheckersPosition,
    history: &[CheckersPosition],
    limits: Limits,
    stop: &StopFlag,
) -> Option<Found> {
    let taken = TABLES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .pop();
    let mut table = taken.unwrap_or_else(|| Table::new(TABLE_MEGABYTES));
    // The endgame database is built in the background the first time a game comes near it.
    let db = if pos.board().occupied().count_ones() <= egdb::SEARCH_PIECES + 6 {
        egdb::shared()
    } else {
        None
    };
    let found = search_with(&mut table, evaluation::shipped(), db, pos, history, limits, stop);
    TABLES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(table);
    found
}

/// Scores every legal move of `pos` (not over) for its side to move, best first, with the shipped evaluation
/// and databases: each move's position is searched to the same depth, one ply deeper at a time within
/// `time`, and the deepest complete scoring is kept (one ply always completes). This is what an analysis
/// compares a played move with.
#[must_use]
pub fn score_moves(pos: &CheckersPosition, time: Duration, stop: &StopFlag) -> Vec<(Move, i32)> {
    let started = Instant::now();
    let (b, turn) = (*pos.board(), pos.turn());
    let mut moves = Moves::new();
    movegen::generate(&b, turn, &mut moves);
    let db = if b.occupied().count_ones() <= egdb::SEARCH_PIECES + 6 {
        egdb::shared()
    } else {
        None
    };
    let eval = evaluation::shipped();
    let mut table = Table::new(8);
    let history = [*pos];
    let mut best: Vec<(Move, i32)> = Vec::new();
    for depth in 1..=32u32 {
        let left = time.saturating_sub(started.elapsed());
        if depth > 1 && left.is_zero() {
            break;
        }
        let limits = Limits {
            depth: Some(depth),
            time: (depth > 1).then_some(left),
            nodes: None,
        };
        let mut scores = Vec::with_capacity(moves.len());
        for &m in &moves {
            let next = CheckersPosition::from_board(movegen::apply(&b, turn, m), !turn);
            let found = search_with(&mut table, eval, db, &next, &history, limits, stop);
            // A search cut short by the time or the flag leaves this depth incomplete.
            if depth > 1 && (stop.is_stopped() || started.elapsed() >= time) {
                break;
            }
            scores.push((m, found.map_or(WIN - 1, |f| -f.score)));
        }
        if scores.len() < moves.len() {
            break;
        }
        scores.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        best = scores;
    }
    best
}

/// [`search`] with a given table and evaluation.
#[must_use]
pub fn search_with<E: Evaluate>(
    table: &mut Table,
    eval: &E,
    db: Option<&Database>,
    pos: &CheckersPosition,
    history: &[CheckersPosition],
    limits: Limits,
    stop: &StopFlag,
) -> Option<Found> {
    search_inner(table, eval, true, db, pos, history, limits, stop)
}

/// [`search_with`], with ProbCut on or off.
#[allow(clippy::too_many_arguments)]
fn search_inner<E: Evaluate>(
    table: &mut Table,
    eval: &E,
    probcut: bool,
    db: Option<&Database>,
    pos: &CheckersPosition,
    history: &[CheckersPosition],
    limits: Limits,
    stop: &StopFlag,
) -> Option<Found> {
    let started = Instant::now();
    let (b, turn) = (*pos.board(), pos.turn());
    let mut moves = Moves::new();
    movegen::generate(&b, turn, &mut moves);
    let first = *moves.first()?;
    table.age = table.age.wrapping_add(1);
    let mut s = Searcher {
        eval,
        probcut,
        db,
        table,
        stop,
        started,
        time: limits.time,
        node_limit: limits.nodes,
        nodes: 0,
        aborted: false,
        killers: [[None; 2]; MAX_PLY],
        history: Box::new([[0; 32]; 32]),
        path: Vec::with_capacity(history.len() + MAX_PLY + 1),
        since: Vec::with_capacity(history.len() + MAX_PLY + 1),
    };
    // The game's history: a man's move or a capture between two positions shows as a change of men or of the
    // piece count.
    let mut last: Option<&CheckersPosition> = None;
    for p in history.iter().chain(std::iter::once(pos)) {
        let progress = last.is_none_or(|l| {
            let (a, c) = (l.board(), p.board());
            a.occupied().count_ones() != c.occupied().count_ones()
                || (a.occupied() & !a.kings) != (c.occupied() & !c.kings)
        });
        if s.path.is_empty() {
            s.path.push(key(p.board(), p.turn()));
            s.since.push(0);
        } else {
            s.push(key(p.board(), p.turn()), progress);
        }
        last = Some(p);
    }
    let mut found = Found {
        best: first,
        score: 0,
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        pv: vec![first],
    };
    if moves.len() == 1 {
        // One legal move: play it at once, scored by a search of the captures that follow it.
        let next = movegen::apply(&b, turn, first);
        s.push(key(&next, !turn), true);
        found.score = -s.negamax(&next, !turn, 0, -INFINITY, INFINITY, 1);
        s.pop();
        found.depth = 1;
        found.nodes = s.nodes;
        found.elapsed = started.elapsed();
        return Some(found);
    }
    let max_depth = limits.depth.unwrap_or(64).clamp(1, 64) as i32;
    let mut previous: i32 = 0;
    for depth in 1..=max_depth {
        let window = 40;
        let (mut lo, mut hi) = if depth >= 5 && previous.abs() < PROVEN {
            (previous - window, previous + window)
        } else {
            (-INFINITY, INFINITY)
        };
        let score = loop {
            let score = s.negamax(&b, turn, depth, lo, hi, 0);
            if s.aborted {
                break score;
            }
            if score <= lo {
                lo = if lo - window * 4 > -PROVEN {
                    score - window * 4
                } else {
                    -INFINITY
                };
            } else if score >= hi {
                hi = if hi + window * 4 < PROVEN {
                    score + window * 4
                } else {
                    INFINITY
                };
            } else {
                break score;
            }
        };
        if s.aborted {
            break;
        }
        let root = s.table.probe(s.path[s.path.len() - 1]);
        if let Some(m) = root.and_then(|e| moves.get(usize::from(e.mv).wrapping_sub(1))) {
            found.best = *m;
        }
        found.score = score;
        found.depth = depth as u32;
        found.pv = s.pv(&b, turn, found.best);
        previous = score;
        if score.abs() >= PROVEN && depth > 2 {
            break;
        }
        if limits.time.is_some_and(|t| started.elapsed() * 2 >= t) {
            break;
        }
    }
    found.nodes = s.nodes;
    found.elapsed = started.elapsed();
    Some(found)
}

/// Checks `db` by [`Database::verify`], with a search of `depth` plies that does not use it as the outside
/// proof (a proven win or loss it finds must be the database's).
///
/// # Errors
/// The first position where the database disagrees with its moves or with the search, as FEN.
pub fn verify_database(
    db: &Database,
    samples: u64,
    seed: u64,
    depth: u32,
) -> Result<egdb::Verified, egdb::Disagreement> {
    let mut table = Table::new(16);
    let stop = StopFlag::new();
    db.verify(samples, seed, |b, turn| {
        let pos = CheckersPosition::from_board(*b, turn);
        let found = search_with(&mut table, &Hand, None, &pos, &[], Limits::depth(depth), &stop)?;
        if found.score >= gridplay_search::WIN_THRESHOLD {
            Some(Wld::Win)
        } else if found.score <= -gridplay_search::WIN_THRESHOLD {
            Some(Wld::Loss)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests;
