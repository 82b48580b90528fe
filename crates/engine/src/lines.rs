//! The analysis board's engine lines: the best `n` moves of a position, each with its score and its line of
//! play, deepened one ply at a time and reported after each depth, until the time is spent, every line is
//! proved, or the search is stopped.
//!
//! Every legal move is searched by the game's full engine ([`crate::think`]) from the position it reaches, so
//! that each line's score is exact at its depth: Reversi's children are solved exactly near the end, and
//! checkers' searches read the endgame databases where they are built. A line proved once (an exact solve, a
//! forced win or loss) is not searched again.

use std::time::{Duration, Instant};

use gridplay_core::{DynPosition, Outcome};
use gridplay_search::{Limits, StopFlag, WIN};

pub use crate::proof::Proof;
use crate::{EngineError, Request, registry};

/// One line: a legal move and the play the engine expects after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The move first, then the expected replies.
    pub moves: Vec<String>,
    /// For the side to move in the analysed position, in hundredths of a game unit.
    pub score: i32,
    pub proof: Proof,
}

/// The lines after a complete depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    /// Plies searched from the analysed position.
    pub depth: u32,
    /// Positions searched so far, every depth counted.
    pub nodes: u64,
    pub elapsed: Duration,
    /// The best `n` moves, best first.
    pub lines: Vec<Line>,
    /// The position's legal moves.
    pub moves: usize,
    /// Whether every move's score is proved, so that deeper searches would change nothing.
    pub proved: bool,
}

/// The deepest that [`lines`] goes.
pub const MAX_DEPTH: u32 = 60;

/// Searches the best `n` lines of `pos`, one ply deeper at a time, within `limits` (depth and time), and calls
/// `report` after each complete depth. Returns the last complete lines; a depth cut short by the time or by
/// `stop` is left out.
///
/// # Errors
///
/// When the game is over, or the position is of a game without an engine.
pub fn lines(
    pos: &dyn DynPosition,
    n: usize,
    limits: Limits,
    stop: &StopFlag,
    report: &mut dyn FnMut(&Lines),
) -> Result<Lines, EngineError> {
    if pos.outcome().is_some() {
        return Err(EngineError::GameOver);
    }
    registry::engine_of(pos).ok_or(EngineError::UnknownGame)?;
    let started = Instant::now();
    let mover = pos.turn();
    let moves = pos.legal_moves();
    let children: Vec<Box<dyn DynPosition>> = moves
        .iter()
        .map(|m| {
            let mut next = pos.box_clone();
            next.play(m).expect("a legal move plays");
            next
        })
        .collect();
    // Proved lines are kept; the others are searched again at each depth.
    let mut proved: Vec<Option<Line>> = children
        .iter()
        .zip(&moves)
        .map(|(child, m)| {
            child.outcome().map(|o| {
                let (score, proof) = terminal(child.as_ref(), o, mover);
                Line {
                    moves: vec![m.clone()],
                    score,
                    proof,
                }
            })
        })
        .collect();
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut nodes = 0u64;
    let mut last: Option<Lines> = None;
    for depth in 1..=max_depth {
        let mut found: Vec<Line> = Vec::with_capacity(moves.len());
        let mut complete = true;
        for (i, child) in children.iter().enumerate() {
            if let Some(line) = &proved[i] {
                found.push(line.clone());
                continue;
            }
            let left = match limits.time {
                Some(time) => match time.checked_sub(started.elapsed()) {
                    Some(left) if !left.is_zero() => Some(left),
                    _ => {
                        complete = false;
                        break;
                    }
                },
                None => None,
            };
            let request = Request {
                limits: Limits {
                    depth: Some(depth - 1).filter(|d| *d > 0).or(Some(1)),
                    time: left,
                    nodes: None,
                },
                ..Request::default()
            };
            let Ok(reply) = crate::think(child.as_ref(), &request, stop) else {
                complete = false;
                break;
            };
            nodes += reply.nodes;
            if stop.is_stopped() || limits.time.is_some_and(|t| started.elapsed() >= t) {
                complete = false;
                break;
            }
            let same_side = child.turn() == mover;
            let score = if same_side { reply.score } else { -reply.score };
            let proof =
                match registry::engine_of(child.as_ref()).map(|e| e.proof(child.as_ref(), reply.score)) {
                    Some(Proof::Win { plies }) if !same_side => Proof::Loss {
                        plies: plies.map(|p| p + 1),
                    },
                    Some(Proof::Loss { plies }) if !same_side => Proof::Win {
                        plies: plies.map(|p| p + 1),
                    },
                    Some(Proof::Win { plies }) => Proof::Win {
                        plies: plies.map(|p| p + 1),
                    },
                    Some(Proof::Loss { plies }) => Proof::Loss {
                        plies: plies.map(|p| p + 1),
                    },
                    Some(p) => p,
                    None => Proof::Estimate,
                };
            let mut line_moves = vec![moves[i].clone()];
            line_moves.extend(reply.pv.iter().cloned());
            let line = Line {
                moves: line_moves,
                score,
                proof,
            };
            if proof != Proof::Estimate {
                proved[i] = Some(line.clone());
            }
            found.push(line);
        }
        if !complete {
            break;
        }
        found.sort_by_key(|l| std::cmp::Reverse(l.score));
        let all_proved = proved.iter().all(Option::is_some);
        found.truncate(n.max(1));
        let lines = Lines {
            depth,
            nodes,
            elapsed: started.elapsed(),
            lines: found,
            moves: moves.len(),
            proved: all_proved,
        };
        report(&lines);
        last = Some(lines);
        if all_proved {
            break;
        }
    }
    // The first depth always completes unless stopped before it ends.
    last.ok_or(EngineError::Stopped)
}

/// The score and proof of a position where the game has ended, for `mover`: the final margin in hundredths,
/// exact, for a game scored by a margin (Reversi's discs), else a win or loss in one ply.
fn terminal(pos: &dyn DynPosition, outcome: Outcome, mover: gridplay_core::Player) -> (i32, Proof) {
    if registry::engine_of(pos).is_some_and(|e| e.scores_margin) {
        return (pos.score().margin(mover) * 100, Proof::Exact);
    }
    match outcome {
        Outcome::Draw => (0, Proof::Exact),
        Outcome::Win { winner } if winner == mover => (WIN - 1, Proof::Win { plies: Some(1) }),
        Outcome::Win { .. } => (-(WIN - 1), Proof::Loss { plies: Some(1) }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(game: &str, text: &str) -> Box<dyn DynPosition> {
        gridplay_games::registry_with_test_games()
            .game(game)
            .unwrap()
            .parse_position(text)
            .unwrap()
    }

    fn all(pos: &dyn DynPosition, limits: Limits) -> (Lines, Vec<Lines>) {
        let mut reports = Vec::new();
        let last = lines(pos, usize::MAX, limits, &StopFlag::new(), &mut |l| {
            reports.push(l.clone());
        })
        .unwrap();
        (last, reports)
    }

    #[test]
    fn a_won_move_is_first_and_proved_and_every_move_has_a_line() {
        // X to move wins at once on c3 (the top row).
        let pos = position("tictactoe", "XX1/OO1/3 X");
        let (last, reports) = all(pos.as_ref(), Limits::depth(9));
        assert_eq!(last.moves, 5);
        assert_eq!(last.lines.len(), 5);
        assert_eq!(last.lines[0].moves, ["c3"]);
        assert_eq!(last.lines[0].proof, Proof::Win { plies: Some(1) });
        // c2 blocks O's row and draws; every other move lets O win there on its next move: proved losses.
        assert_eq!((last.lines[1].moves[0].as_str(), last.lines[1].score), ("c2", 0));
        for line in &last.lines[2..] {
            assert_eq!(line.proof, Proof::Loss { plies: Some(2) }, "{line:?}");
            assert_eq!(line.moves.get(1).map(String::as_str), Some("c2"), "{line:?}");
        }
        // Reported at each depth, deeper each time, best first.
        assert!(reports.windows(2).all(|w| w[0].depth < w[1].depth));
        assert!(last.lines.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn n_lines_are_the_best_n() {
        let pos = gridplay_games::registry().game("reversi").unwrap().start();
        let mut best = Vec::new();
        let two = lines(pos.as_ref(), 2, Limits::depth(3), &StopFlag::new(), &mut |_| {}).unwrap();
        let (every, _) = all(pos.as_ref(), Limits::depth(3));
        best.extend(every.lines.iter().take(2).map(|l| l.score));
        assert_eq!(two.lines.len(), 2);
        assert_eq!(two.lines.iter().map(|l| l.score).collect::<Vec<_>>(), best);
        assert_eq!(two.depth, 3);
        assert_eq!(every.moves, 4);
    }

    #[test]
    fn reversi_near_the_end_is_solved_exactly_move_by_move() {
        // FFO endgame problem #1 (14 empties) with the exact score of every move, as the FFO file gives them.
        let pos = position(
            "reversi",
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
        );
        let (last, reports) = all(pos.as_ref(), Limits::depth(10));
        assert_eq!(reports.len(), 1, "every move is proved at the first depth");
        assert!(last.proved);
        let found: Vec<(String, i32)> = last
            .lines
            .iter()
            .map(|l| (l.moves[0].clone(), l.score / 100))
            .collect();
        let expected = [
            ("g8", 18),
            ("h1", 12),
            ("h7", 6),
            ("a2", 6),
            ("a3", 4),
            ("b1", -4),
            ("a4", -22),
            ("g2", -24),
        ];
        assert_eq!(found.len(), expected.len());
        for (m, score) in expected {
            assert!(found.contains(&(m.to_owned(), score)), "{m} {score}: {found:?}");
        }
        assert!(
            last.lines
                .iter()
                .all(|l| l.proof == Proof::Exact && l.score % 100 == 0)
        );
    }

    #[test]
    fn a_stopped_search_answers_stopped_and_an_ended_game_game_over() {
        let pos = gridplay_games::registry().game("checkers").unwrap().start();
        let stop = StopFlag::new();
        stop.stop();
        assert_eq!(
            lines(pos.as_ref(), 3, Limits::default(), &stop, &mut |_| {}),
            Err(EngineError::Stopped)
        );
        let over = position("tictactoe", "XXX/OO1/3 O");
        assert_eq!(
            lines(over.as_ref(), 3, Limits::default(), &StopFlag::new(), &mut |_| {}),
            Err(EngineError::GameOver)
        );
    }

    #[test]
    fn a_time_limit_ends_the_deepening() {
        let pos = gridplay_games::registry().game("checkers").unwrap().start();
        let started = Instant::now();
        let (last, _) = all(pos.as_ref(), Limits::time(Duration::from_millis(300)));
        assert!(last.depth >= 1);
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(last.moves, 7);
    }
}
