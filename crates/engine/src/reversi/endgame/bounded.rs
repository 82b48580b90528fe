//! The solver's win/loss/draw solve and its bounded solves: a deadline or a stop flag makes a solve give up.

use std::time::Instant;

use gridplay_games::reversi::bitboard::{Board, get_moves};
use gridplay_search::StopFlag;

use super::{Solution, Solver, Worker, final_score};
use crate::parallel::{self, Split};

/// The outcome of a win/loss/draw solve ([`Solver::solve_wld`]) for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wld {
    Win,
    Draw,
    Loss,
}

/// What a win/loss/draw solve found: the outcome under perfect play and a move that keeps it (`None` when
/// the side to move must pass, the game is over, or every move loses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WldSolution {
    pub outcome: Wld,
    pub best: Option<u8>,
    pub nodes: u64,
}

/// When a bounded solve gives up: at a deadline, or when another thread sets a stop flag.
#[derive(Clone, Debug, Default)]
pub struct Bounds {
    pub deadline: Option<Instant>,
    pub stop: Option<StopFlag>,
}

impl Bounds {
    /// Until `stop` is raised.
    #[must_use]
    pub fn stop(stop: &StopFlag) -> Bounds {
        Bounds {
            deadline: None,
            stop: Some(stop.clone()),
        }
    }

    /// Until `time` after `started`, or until `stop` is raised.
    #[must_use]
    pub fn within(started: Instant, time: std::time::Duration, stop: &StopFlag) -> Bounds {
        Bounds {
            deadline: Some(started + time),
            stop: Some(stop.clone()),
        }
    }
}

/// Interior nodes between two looks at the clock and the stop flag of a bounded solve.
pub(super) const CHECK_EVERY: u32 = 256;
/// Interior nodes between two looks under a split point, whose cut should end the thread's work soon.
const CHECK_SPLIT_EVERY: u32 = 16;

impl Worker<'_> {
    /// Whether this worker must give up now: a bounded solve at its deadline or stop flag, or a thread under
    /// a split point that was cut; looks every [`CHECK_EVERY`] calls.
    #[inline]
    pub(super) fn out_of_bounds(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.bounds.is_none() && self.split.is_none() {
            return false;
        }
        self.until_check -= 1;
        if self.until_check == 0 {
            self.until_check = if self.split.is_some() {
                CHECK_SPLIT_EVERY
            } else {
                CHECK_EVERY
            };
            self.aborted = self.split.is_some_and(Split::is_cut)
                || self.bounds.is_some_and(|b| {
                    b.stop.as_ref().is_some_and(StopFlag::is_stopped)
                        || b.deadline.is_some_and(|d| Instant::now() >= d)
                });
        }
        self.aborted
    }

    /// [`Solver::solve_wld`] on this worker.
    fn solve_wld(&mut self, board: Board) -> WldSolution {
        self.nodes = 0;
        let (p, o) = (board.player, board.opponent);
        let moves = get_moves(p, o);
        let outcome = |score: i32| match score.signum() {
            1 => Wld::Win,
            0 => Wld::Draw,
            _ => Wld::Loss,
        };
        if moves == 0 {
            // Final scores are even: within the window (-1, 1) only a draw is exact.
            let score = if get_moves(o, p) == 0 {
                final_score(p, o)
            } else {
                -self.search(o, p, -1, 1, true)
            };
            return WldSolution {
                outcome: outcome(score),
                best: None,
                nodes: self.nodes,
            };
        }
        let ordered = self.order(p, o, moves, -1);
        // Final scores are even: at least 1 is a win, at least -1 a draw or better.
        let (score, sq) = self.root_test(p, o, &ordered, 1);
        if score >= 1 {
            return WldSolution {
                outcome: Wld::Win,
                best: Some(sq),
                nodes: self.nodes,
            };
        }
        let (score, sq) = self.root_test(p, o, &ordered, -1);
        let (outcome, best) = if score >= -1 {
            (Wld::Draw, Some(sq))
        } else {
            (Wld::Loss, None)
        };
        WldSolution {
            outcome,
            best,
            nodes: self.nodes,
        }
    }
}

impl Solver {
    /// Runs `f` on a worker within `bounds`: `None` when it gave up. What the table learned before then is
    /// kept.
    fn bounded<T: Send>(
        &mut self,
        bounds: &Bounds,
        f: impl FnOnce(&mut Worker<'_>) -> T + Send,
    ) -> Option<T> {
        let mut w = self.worker(Some(bounds));
        let result = parallel::run(self.threads, || f(&mut w));
        (!w.aborted).then_some(result)
    }

    /// [`Solver::solve`], giving up (`None`) at the deadline or the stop flag of `bounds`.
    #[allow(clippy::needless_pass_by_value)] // a solve's bounds are made for it
    pub fn solve_within(&mut self, board: Board, bounds: Bounds) -> Option<Solution> {
        self.bounded(&bounds, |w| w.solve(board))
    }

    /// Whether the side to move wins, draws or loses under perfect play, with a move that keeps a win or a
    /// draw: at most two null-window tests, each cheaper than an exact solve's.
    pub fn solve_wld(&mut self, board: Board) -> WldSolution {
        let mut w = self.worker(None);
        parallel::run(self.threads, || w.solve_wld(board))
    }

    /// [`Solver::solve_wld`], giving up (`None`) at the deadline or the stop flag of `bounds`.
    #[allow(clippy::needless_pass_by_value)] // a solve's bounds are made for it
    pub fn solve_wld_within(&mut self, board: Board, bounds: Bounds) -> Option<WldSolution> {
        self.bounded(&bounds, |w| w.solve_wld(board))
    }
}

#[cfg(test)]
mod tests {
    use gridplay_games::reversi::bitboard::flips;

    use super::*;

    /// Win/loss/draw solves of positions 12-16 empties from the end agree with the exact solver's sign, and
    /// a move they give keeps the outcome; a bounded solve with time enough equals the unbounded one.
    #[test]
    fn win_loss_draw_solves_agree_with_the_exact_solver() {
        use gridplay_core::{Game, Position};
        let mut rng = gridplay_core::playout::seeded(5);
        let mut exact = Solver::new(4);
        let mut wld = Solver::new(4);
        let (mut checked, mut seen) = (0, [0; 3]);
        while checked < 120 {
            let (pos, _) = gridplay_core::playout::random_playout(
                &gridplay_games::reversi::Reversi::default().start(),
                &mut rng,
                44 + checked % 5,
                |_| {},
            );
            if pos.is_over() {
                continue;
            }
            let b = pos.board();
            let truth = exact.solve(b).score;
            let expected = match truth.signum() {
                1 => Wld::Win,
                0 => Wld::Draw,
                _ => Wld::Loss,
            };
            let found = if checked % 2 == 0 {
                wld.solve_wld(b)
            } else {
                let far = Instant::now() + std::time::Duration::from_secs(3600);
                wld.solve_wld_within(
                    b,
                    Bounds {
                        deadline: Some(far),
                        stop: Some(StopFlag::new()),
                    },
                )
                .expect("an hour is enough")
            };
            assert_eq!(found.outcome, expected, "{} scores {truth}", pos.to_text());
            seen[expected as usize] += 1;
            match (found.outcome, found.best) {
                (Wld::Loss, best) => assert_eq!(best, None),
                (_, Some(sq)) => {
                    let f = flips(sq, b.player, b.opponent);
                    assert_ne!(f, 0, "the move is legal");
                    let after = -exact
                        .solve(Board {
                            player: b.opponent ^ f,
                            opponent: b.player ^ f ^ (1 << sq),
                        })
                        .score;
                    assert_eq!(after.signum(), truth.signum(), "{}: {sq}", pos.to_text());
                }
                (_, None) => assert_eq!(b.moves(), 0, "{}", pos.to_text()),
            }
            checked += 1;
        }
        assert!(
            seen.iter().all(|&n| n > 0),
            "wins, draws and losses were all seen: {seen:?}"
        );
    }

    /// A bounded solve gives up at its deadline or its stop flag, and the solver then solves as before.
    #[test]
    fn a_bounded_solve_gives_up_and_leaves_the_solver_sound() {
        let problems = crate::reversi::obf::parse(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38",
        )
        .expect("FFO #40");
        let b = problems[0].position.board();
        let mut solver = Solver::new(16);
        let past = Bounds {
            deadline: Some(Instant::now()),
            stop: None,
        };
        assert_eq!(solver.solve_within(b, past.clone()), None);
        assert_eq!(solver.solve_wld_within(b, past), None);
        let stop = StopFlag::new();
        stop.stop();
        let stopped = Bounds {
            deadline: None,
            stop: Some(stop),
        };
        assert_eq!(solver.solve_wld_within(b, stopped), None);
        // FFO #40: black to move wins by 38 (a2).
        let solution = solver.solve(b);
        assert_eq!(solution.score, 38);
        assert_eq!(solver.solve_wld(b).outcome, Wld::Win);
    }
}
