use std::{
    hash::Hash,
    time::{Duration, Instant},
};

use gridplay_core::Position;

use crate::{
    Evaluator, Limits, StopFlag, TranspositionTable, WIN_THRESHOLD,
    tt::{Bound, Entry, key},
};

const INFINITY: i32 = i32::MAX / 2;
/// Win scores lose this much per ply ([`Evaluator::terminal`]); the table stores them relative to the node.
const PLY_COST: i32 = 1000;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<M> {
    /// `None` only when the game is over at the root.
    pub best: Option<M>,
    /// The score for the side to move at the root.
    pub score: i32,
    /// The last depth searched completely (0 if none was).
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<M>,
}

impl<M> Report<M> {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// One search: an evaluator, a table, limits and a stop flag.
#[derive(Debug)]
pub struct Search<'a, P: Position, E> {
    eval: &'a E,
    tt: &'a mut TranspositionTable<P::Move>,
    limits: Limits,
    stop: StopFlag,
    nodes: u64,
    started: Instant,
    aborted: bool,
}

fn to_table(score: i32, ply: u32) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply as i32 * PLY_COST
    } else if score <= -WIN_THRESHOLD {
        score - ply as i32 * PLY_COST
    } else {
        score
    }
}

fn from_table(score: i32, ply: u32) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply as i32 * PLY_COST
    } else if score <= -WIN_THRESHOLD {
        score + ply as i32 * PLY_COST
    } else {
        score
    }
}

impl<'a, P: Position + Hash, E: Evaluator<P>> Search<'a, P, E> {
    pub fn new(eval: &'a E, tt: &'a mut TranspositionTable<P::Move>, limits: Limits, stop: StopFlag) -> Self {
        Search {
            eval,
            tt,
            limits,
            stop,
            nodes: 0,
            started: Instant::now(),
            aborted: false,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(1024) {
            let late = self.limits.time.is_some_and(|t| self.started.elapsed() >= t);
            let spent = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            self.aborted = late || spent || self.stop.is_stopped();
        }
        self.aborted
    }

    /// Searches `root` by iterative deepening until a limit is reached, and reports the deepest completed
    /// iteration.
    pub fn run(&mut self, root: &P) -> Report<P::Move> {
        self.started = Instant::now();
        let max_depth = self.limits.depth.unwrap_or(64).max(1);
        let mut report = Report {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if let Some(outcome) = root.outcome() {
            report.score = self.eval.terminal(root, outcome, 0);
            return report;
        }
        // A legal move is always at hand, even if the first iteration is cut short.
        report.best = root.legal_moves().first().copied();
        for depth in 1..=max_depth {
            let mut pv = Vec::new();
            let score = self.negamax(root, depth, -INFINITY, INFINITY, 0, &mut pv);
            if self.aborted {
                break;
            }
            report.best = pv.first().copied().or(report.best);
            report.score = score;
            report.depth = depth;
            report.pv = pv;
            if score.abs() >= WIN_THRESHOLD {
                break;
            }
            if self.limits.time.is_some_and(|t| self.started.elapsed() * 2 >= t) {
                break;
            }
        }
        report.nodes = self.nodes;
        report.elapsed = self.started.elapsed();
        report
    }

    /// The score of `child`, reached from `pos`, for the side to move at `pos`.
    fn child(
        &mut self,
        pos: &P,
        child: &P,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: u32,
        pv: &mut Vec<P::Move>,
    ) -> i32 {
        if child.turn() == pos.turn() {
            self.negamax(child, depth, alpha, beta, ply + 1, pv)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply + 1, pv)
        }
    }

    /// What [`Search::child`] returns for a child at the horizon whose evaluation, for the side to move at
    /// `pos`, is `hint` (see [`Evaluator::hints_are_evaluations`]).
    fn leaf(&mut self, pos: &P, child: &P, hint: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        match child.outcome() {
            Some(outcome) => {
                let score = self.eval.terminal(child, outcome, ply + 1);
                if child.turn() == pos.turn() { score } else { -score }
            }
            None => hint,
        }
    }

    fn negamax(
        &mut self,
        pos: &P,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        pv: &mut Vec<P::Move>,
    ) -> i32 {
        self.nodes += 1;
        pv.clear();
        if self.out_of_budget() {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            return self.eval.terminal(pos, outcome, ply);
        }
        if depth == 0 {
            return self.eval.evaluate(pos);
        }
        let k = key(pos);
        let entry = self.tt.probe(k);
        if let Some(e) = entry
            && u32::from(e.depth) >= depth
            && ply > 0
        {
            let s = from_table(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if usable {
                if let Some(m) = e.best {
                    pv.push(m);
                }
                return s;
            }
        }
        let legal = pos.legal_moves();
        let hints = self.eval.order_hints(pos, &legal);
        debug_assert_eq!(hints.len(), legal.len());
        let mut moves: Vec<(i32, P::Move)> = hints.into_iter().zip(legal).collect();
        moves.sort_by_key(|&(hint, _)| std::cmp::Reverse(hint));
        if ply > 0
            && depth >= 2
            && let Some(width) = self.eval.width(pos)
        {
            moves.truncate(width.max(1));
        }
        // The table's move first, if the node searches it.
        if let Some(best) = entry.and_then(|e| e.best)
            && let Some(i) = moves.iter().position(|&(_, m)| m == best)
        {
            moves[..=i].rotate_right(1);
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut child_pv = Vec::new();
        let exact = depth == 1 && self.eval.hints_are_evaluations();
        for (i, &(hint, m)) in moves.iter().enumerate() {
            let mut next = pos.clone();
            next.play_unchecked(m);
            let score = if exact {
                child_pv.clear();
                self.leaf(pos, &next, hint, ply)
            } else if i == 0 {
                self.child(pos, &next, depth - 1, (alpha, beta), ply, &mut child_pv)
            } else {
                let probe = self.child(pos, &next, depth - 1, (alpha, alpha + 1), ply, &mut child_pv);
                if probe > alpha && probe < beta {
                    self.child(pos, &next, depth - 1, (alpha, beta), ply, &mut child_pv)
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                pv.clear();
                pv.push(m);
                pv.extend_from_slice(&child_pv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(Entry {
            key: k,
            depth: depth.min(255) as u8,
            bound,
            score: to_table(best, ply),
            best: best_move,
        });
        best
    }
}

/// A root move with its score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootScore<M> {
    pub mv: M,
    pub score: i32,
}

/// Every root move scored by a full-window search of `depth` plies (the move included), best first, or `None`
/// if `limits` or `stop` cut the work short. Engines use it to play weaker levels: they choose among the
/// moves by their scores, not at random.
pub fn score_root_moves<P: Position + Hash, E: Evaluator<P>>(
    root: &P,
    eval: &E,
    depth: u32,
    tt: &mut TranspositionTable<P::Move>,
    limits: Limits,
    stop: &StopFlag,
) -> Option<Vec<RootScore<P::Move>>> {
    let mut search = Search::new(eval, tt, limits, stop.clone());
    let mut scores = Vec::new();
    for m in root.legal_moves() {
        let mut next = root.clone();
        next.play_unchecked(m);
        let mut pv = Vec::new();
        let score = search.child(
            root,
            &next,
            depth.saturating_sub(1),
            (-INFINITY, INFINITY),
            0,
            &mut pv,
        );
        if search.aborted {
            return None;
        }
        scores.push(RootScore { mv: m, score });
    }
    scores.sort_by_key(|s| std::cmp::Reverse(s.score));
    Some(scores)
}

#[cfg(test)]
mod tests {
    use gridplay_core::{Game, Position};
    use gridplay_games::{cornered::Cornered, reversi::Reversi};

    use super::*;
    use crate::WIN;

    /// Counts discs only: enough to test the machinery.
    struct Material;

    impl<P: Position> Evaluator<P> for Material {
        fn evaluate(&self, pos: &P) -> i32 {
            pos.score().margin(pos.turn())
        }
    }

    /// Plain minimax: every move at every node.
    fn minimax<P: Position>(pos: &P, depth: u32) -> i32 {
        narrow_minimax(pos, depth, usize::MAX, true)
    }

    #[test]
    fn alphabeta_equals_plain_minimax() {
        let mut rng = gridplay_core::playout::seeded(3);
        for _ in 0..20 {
            let (pos, _) =
                gridplay_core::playout::random_playout(&Reversi::default().start(), &mut rng, 30, |_| {});
            if pos.is_over() {
                continue;
            }
            for depth in 1..=4 {
                let mut tt = TranspositionTable::new(1);
                let report = Search::new(&Material, &mut tt, Limits::depth(depth), StopFlag::new()).run(&pos);
                let expected = minimax(&pos, depth);
                if expected.abs() < WIN_THRESHOLD {
                    assert_eq!(report.score, expected, "{} depth {depth}", pos.to_text());
                }
                assert!(pos.is_legal(report.best.unwrap()));
            }
        }
    }

    /// Material with a width: below the root, a node searches only its `.0` moves that are best by material
    /// after the move, for the side making it. With `.1`, it tells the search that its hints are the
    /// children's evaluations (they are).
    struct Narrow(usize, bool);

    /// Material after `m`, for the side that makes it.
    fn greedy_hint<P: Position>(pos: &P, m: P::Move) -> i32 {
        let mut next = pos.clone();
        next.play_unchecked(m);
        let s = Material.evaluate(&next);
        if next.turn() == pos.turn() { s } else { -s }
    }

    impl<P: Position> Evaluator<P> for Narrow {
        fn evaluate(&self, pos: &P) -> i32 {
            Material.evaluate(pos)
        }

        fn order_hint(&self, pos: &P, m: P::Move) -> i32 {
            greedy_hint(pos, m)
        }

        fn width(&self, _pos: &P) -> Option<usize> {
            Some(self.0)
        }

        fn hints_are_evaluations(&self) -> bool {
            self.1
        }
    }

    /// Minimax over the moves [`Narrow`] searches: the `width` best-hinted at a node below the root with two
    /// or more plies left, every move elsewhere.
    fn narrow_minimax<P: Position>(pos: &P, depth: u32, width: usize, root: bool) -> i32 {
        if let Some(o) = pos.outcome() {
            return Evaluator::<P>::terminal(&Material, pos, o, 0).signum() * WIN;
        }
        if depth == 0 {
            return Material.evaluate(pos);
        }
        let mut moves: Vec<(i32, P::Move)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| (greedy_hint(pos, m), m))
            .collect();
        moves.sort_by_key(|&(hint, _)| std::cmp::Reverse(hint));
        if !root && depth >= 2 {
            moves.truncate(width);
        }
        moves
            .into_iter()
            .map(|(_, m)| {
                let mut n = pos.clone();
                n.play_unchecked(m);
                let s = narrow_minimax(&n, depth - 1, width, false);
                if n.turn() == pos.turn() { s } else { -s }
            })
            .max()
            .unwrap()
    }

    #[test]
    fn a_narrow_search_equals_minimax_over_the_moves_it_keeps() {
        let mut rng = gridplay_core::playout::seeded(5);
        let mut differ = 0;
        for _ in 0..20 {
            let (pos, _) =
                gridplay_core::playout::random_playout(&Reversi::default().start(), &mut rng, 24, |_| {});
            if pos.is_over() {
                continue;
            }
            for depth in 1..=5 {
                let mut tt = TranspositionTable::new(1);
                let report =
                    Search::new(&Narrow(2, false), &mut tt, Limits::depth(depth), StopFlag::new()).run(&pos);
                let expected = narrow_minimax(&pos, depth, 2, true);
                if expected.abs() < WIN_THRESHOLD {
                    assert_eq!(report.score, expected, "{} depth {depth}", pos.to_text());
                    differ += i32::from(expected != minimax(&pos, depth));
                }
                // Taking the horizon's scores from the hints changes nothing but the work done.
                let mut tt = TranspositionTable::new(1);
                let exact =
                    Search::new(&Narrow(2, true), &mut tt, Limits::depth(depth), StopFlag::new()).run(&pos);
                assert_eq!(
                    (exact.score, exact.best, &exact.pv),
                    (report.score, report.best, &report.pv),
                    "{} depth {depth}",
                    pos.to_text()
                );
            }
        }
        // The pruning changes scores: the test would not notice a search that ignored the width.
        assert!(differ > 0);
    }

    #[test]
    fn finds_a_forced_win_on_a_small_board() {
        // Cornered Reversi 3x3 is small enough to solve: the search proves a result and returns a legal move.
        let pos = Cornered {
            size: 3,
            tie: gridplay_games::cornered::Tie::Draw,
        }
        .start();
        let mut tt = TranspositionTable::new(4);
        let report = Search::new(&Material, &mut tt, Limits::depth(9), StopFlag::new()).run(&pos);
        assert!(
            report.score.abs() >= WIN_THRESHOLD || report.score == 0,
            "solved: {}",
            report.score
        );
        assert!(pos.is_legal(report.best.unwrap()));
    }

    #[test]
    fn stops_on_the_flag_and_on_time() {
        let pos = Reversi::default().start();
        let stop = StopFlag::new();
        stop.stop();
        let mut tt = TranspositionTable::new(1);
        let report = Search::new(&Material, &mut tt, Limits::depth(30), stop).run(&pos);
        assert!(
            pos.is_legal(report.best.unwrap()),
            "a stopped search still has a move"
        );
        let mut tt = TranspositionTable::new(1);
        let started = Instant::now();
        let report = Search::new(
            &Material,
            &mut tt,
            Limits::time(Duration::from_millis(50)),
            StopFlag::new(),
        )
        .run(&pos);
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(pos.is_legal(report.best.unwrap()));
    }
}
