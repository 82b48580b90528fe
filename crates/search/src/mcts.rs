//! Monte Carlo tree search (UCT) with uniformly random playouts, for games whose static evaluation is weak.
//!
//! Positions are not stored in the tree: each iteration replays the moves from the root, so memory grows with
//! the number of iterations only. A playout that reaches [`MAX_PLAYOUT`] plies is scored by the game's own
//! margin (ahead, level or behind).

use std::time::{Duration, Instant};

use gridplay_core::{Player, Position};
use rand::{RngExt, SeedableRng, rngs::SmallRng};

use crate::{Limits, Report, StopFlag};

/// The longest random playout.
pub const MAX_PLAYOUT: usize = 400;

#[derive(Debug)]
struct Node<M> {
    mv: Option<M>,
    parent: usize,
    /// The side that played `mv` (for the root, the side to move).
    mover: Player,
    children: Vec<usize>,
    untried: Vec<M>,
    visits: u32,
    /// Sum of the rewards (win 1, draw 1/2, loss 0) for `mover`.
    reward: f64,
}

/// The reward of a finished or cut-off playout for `p`.
fn reward<P: Position>(pos: &P, p: Player) -> f64 {
    match pos.outcome() {
        Some(o) => (f64::from(o.value_for(p)) + 1.0) / 2.0,
        None => match pos.score().margin(p).signum() {
            1 => 1.0,
            -1 => 0.0,
            _ => 0.5,
        },
    }
}

/// Searches `root` by UCT within `limits` (iterations count as nodes; with no limit, one second) and reports
/// the most visited move. The score is the chosen move's win rate for the side to move, in percent.
pub fn mcts<P: Position>(root: &P, limits: Limits, stop: &StopFlag, seed: u64) -> Report<P::Move> {
    let started = Instant::now();
    let mut rng = SmallRng::seed_from_u64(seed);
    let time = match (limits.time, limits.nodes) {
        (None, None) => Some(Duration::from_secs(1)),
        (t, _) => t,
    };
    let mut nodes: Vec<Node<P::Move>> = vec![Node {
        mv: None,
        parent: 0,
        mover: root.turn(),
        children: Vec::new(),
        untried: root.legal_moves().to_vec(),
        visits: 0,
        reward: 0.0,
    }];
    let mut iterations = 0u64;
    while !nodes[0].untried.is_empty() || !nodes[0].children.is_empty() {
        if limits.nodes.is_some_and(|n| iterations >= n)
            || time.is_some_and(|t| started.elapsed() >= t)
            || stop.is_stopped()
        {
            break;
        }
        iterations += 1;
        // Selection.
        let mut at = 0;
        let mut pos = root.clone();
        while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
            let ln_n = f64::from(nodes[at].visits.max(1)).ln();
            let best = nodes[at]
                .children
                .iter()
                .copied()
                .max_by(|&a, &b| {
                    let ucb = |i: usize| {
                        let n = f64::from(nodes[i].visits.max(1));
                        nodes[i].reward / n + 1.4 * (ln_n / n).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .expect("a node with children");
            pos.play_unchecked(nodes[best].mv.expect("children have moves"));
            at = best;
        }
        // Expansion.
        if !nodes[at].untried.is_empty() {
            let k = rng.random_range(0..nodes[at].untried.len());
            let mv = nodes[at].untried.swap_remove(k);
            let mover = pos.turn();
            pos.play_unchecked(mv);
            let child = Node {
                mv: Some(mv),
                parent: at,
                mover,
                children: Vec::new(),
                untried: pos.legal_moves().to_vec(),
                visits: 0,
                reward: 0.0,
            };
            nodes.push(child);
            let id = nodes.len() - 1;
            nodes[at].children.push(id);
            at = id;
        }
        // Playout.
        for _ in 0..MAX_PLAYOUT {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        // Back-propagation.
        loop {
            let node = &mut nodes[at];
            node.visits += 1;
            node.reward += reward(&pos, node.mover);
            if at == 0 {
                break;
            }
            at = node.parent;
        }
    }
    let best = nodes[0].children.iter().copied().max_by_key(|&c| nodes[c].visits);
    let (best_move, score) = match best {
        Some(c) => (
            nodes[c].mv,
            (100.0 * nodes[c].reward / f64::from(nodes[c].visits.max(1))) as i32,
        ),
        None => (root.legal_moves().first().copied(), 0),
    };
    Report {
        best: best_move,
        score,
        depth: 0,
        nodes: iterations,
        elapsed: started.elapsed(),
        pv: best_move.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use gridplay_core::{Game, Position};
    use gridplay_games::{checkers::Checkers, cornered::Cornered, tactics::Tactics};

    use super::*;

    #[test]
    fn returns_legal_moves_and_respects_limits() {
        let pos = Cornered::default().start();
        let r = mcts(
            &pos,
            Limits {
                nodes: Some(300),
                ..Limits::default()
            },
            &StopFlag::new(),
            1,
        );
        assert!(pos.is_legal(r.best.unwrap()));
        assert_eq!(r.nodes, 300);
        let t = Tactics::default().start();
        let r = mcts(&t, Limits::time(Duration::from_millis(50)), &StopFlag::new(), 1);
        assert!(t.is_legal(r.best.unwrap()));
    }

    #[test]
    fn takes_a_winning_capture() {
        let pos = Checkers.parse_position("B:W18:B14,1").unwrap();
        let r = mcts(
            &pos,
            Limits {
                nodes: Some(200),
                ..Limits::default()
            },
            &StopFlag::new(),
            3,
        );
        assert_eq!(pos.move_text(r.best.unwrap()), "14x23");
        assert_eq!(r.score, 100);
    }

    #[test]
    fn same_seed_same_move() {
        let pos = Cornered::default().start();
        let limits = Limits {
            nodes: Some(500),
            ..Limits::default()
        };
        assert_eq!(
            mcts(&pos, limits, &StopFlag::new(), 9).best,
            mcts(&pos, limits, &StopFlag::new(), 9).best
        );
    }
}
