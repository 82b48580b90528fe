//! Puzzles: positions where one move is clearly best and the others are not, proved as far as each game
//! allows. Every legal move is searched by the game's full engine ([`crate::lines`]):
//!
//! - Reversi near the end: every move is solved exactly; the best wins and every other draws or loses.
//! - A forced win (checkers' endgame databases, any game's search that sees the end): the best move wins and
//!   no other does.
//! - Otherwise: the best move is ahead of every other by the game's margin at one depth, and again two plies
//!   deeper, with the same best move.
//!
//! A move that touches no cell (a pass, the end of a turn) is no answer. A puzzle may go on: after the solution and the engine's reply, a position that is again a puzzle for the
//! same side adds the reply and its solution (up to three moves of the solver).

use gridplay_core::DynPosition;
use gridplay_search::{Limits, StopFlag};

use crate::lines::{Line, Lines, Proof, lines};

/// How hard to look at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Plies of the first search (the second goes two deeper).
    pub depth: u32,
    /// How far, in hundredths of a game unit, the best move must be ahead of every other.
    pub margin: i32,
}

/// The effort each game's puzzles get: deep enough to trust within a second or so a position on one core.
#[must_use]
pub fn effort(game: &str) -> Effort {
    match game {
        "reversi" => Effort {
            depth: 10,
            margin: 800,
        },
        "checkers" => Effort {
            depth: 12,
            margin: 150,
        },
        "cornered" => Effort {
            depth: 4,
            margin: 400,
        },
        "ywf" => Effort {
            depth: 4,
            margin: 300,
        },
        "tactics" => Effort {
            depth: 2,
            margin: 1000,
        },
        _ => Effort {
            depth: 9,
            margin: 100,
        },
    }
}

/// A puzzle found in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The solver's moves and the replies between them: solver, reply, solver...
    pub solution: Vec<String>,
    /// How the first move was proved best, in words.
    pub proof: String,
    /// The solution's score for the solver, in hundredths of a game unit.
    pub score: i32,
}

/// The positions of a game worth judging, from its start and moves: past the first four plies, and for
/// Reversi within reach of the exact solver (14 to 18 empty squares).
#[must_use]
pub fn candidates(start: &dyn DynPosition, moves: &[String]) -> Vec<Box<dyn DynPosition>> {
    let reversi = start.as_any().is::<gridplay_games::reversi::ReversiPosition>();
    let mut out = Vec::new();
    let mut pos = start.box_clone();
    for (ply, m) in moves.iter().enumerate() {
        let keep = if reversi {
            (14..=18).contains(&pos.to_text().matches('-').count())
        } else {
            ply >= 4
        };
        if keep && pos.outcome().is_none() {
            out.push(pos.box_clone());
        }
        if pos.play(m).is_err() {
            break;
        }
    }
    out
}

/// Whether a line wins for the side to move, as far as it is proved.
fn wins(l: &Line) -> bool {
    matches!(l.proof, Proof::Win { .. }) || (l.proof == Proof::Exact && l.score > 0)
}

/// The clearly best line of `all`, and how it is known, or `None`.
fn clear(all: &Lines, effort: Effort) -> Option<(&Line, &'static str)> {
    let (best, others) = all.lines.split_first()?;
    if others.is_empty() {
        return None;
    }
    if wins(best) {
        let not_winning = others.iter().all(|l| match l.proof {
            Proof::Win { .. } => false,
            Proof::Exact => l.score <= 0,
            Proof::Loss { .. } => true,
            Proof::Estimate => l.score <= 0,
        });
        let all_proved = others.iter().all(|l| l.proof != Proof::Estimate);
        return match (not_winning, best.proof, all_proved) {
            (false, ..) => None,
            (true, Proof::Exact, true) => Some((best, "exact")),
            (true, _, true) => Some((best, "win")),
            (true, _, false) => Some((best, "win-search")),
        };
    }
    let second = &others[0];
    (best.proof == Proof::Estimate
        && best.score >= effort.margin / 2
        && best.score - second.score >= effort.margin
        && !wins(second))
    .then_some((best, "search"))
}

/// Judges `pos`: its clearly best move with its line and the words of its proof, or `None`.
#[must_use]
pub fn judge(pos: &dyn DynPosition, effort: Effort, stop: &StopFlag) -> Option<(Line, String)> {
    if pos.outcome().is_some() || pos.legal_moves().len() < 2 {
        return None;
    }
    let first = lines(pos, usize::MAX, Limits::depth(effort.depth), stop, &mut |_| {}).ok()?;
    let (best, how) = clear(&first, effort)?;
    let best = best.clone();
    // A move that touches no cell (a pass, the end of a turn) is no puzzle's answer.
    let view = pos.view();
    if view
        .moves
        .iter()
        .any(|m| m.text == best.moves[0] && m.from.is_none() && m.path.is_empty())
    {
        return None;
    }
    let empties = pos.to_text().matches('-').count();
    match how {
        "exact" => Some((
            best,
            format!("exact solve of every move ({empties} empty squares)"),
        )),
        "win" => Some((
            best,
            format!(
                "forced win; every other move proved not to win (depth {})",
                first.depth
            ),
        )),
        _ => {
            // Checked again two plies deeper: the same best move, as clearly ahead.
            let deeper = lines(
                pos,
                usize::MAX,
                Limits::depth(effort.depth + 2),
                stop,
                &mut |_| {},
            )
            .ok()?;
            let (again, how_again) = clear(&deeper, effort)?;
            if again.moves.first() != best.moves.first() {
                return None;
            }
            let words = if how == "win-search" || how_again.starts_with("win") {
                format!(
                    "forced win; every other move searched not to win at depths {} and {}",
                    first.depth, deeper.depth
                )
            } else {
                format!(
                    "ahead of every other move by {} or more at depths {} and {}",
                    effort.margin, first.depth, deeper.depth
                )
            };
            Some((again.clone(), words))
        }
    }
}

/// A puzzle in `pos`, with up to two more moves of the solver where the position after the engine's reply is
/// again one, or `None`.
#[must_use]
pub fn find(pos: &dyn DynPosition, effort: Effort, stop: &StopFlag) -> Option<Found> {
    let (line, proof) = judge(pos, effort, stop)?;
    let solver = pos.turn();
    let mut solution = vec![line.moves[0].clone()];
    let mut at = pos.box_clone();
    at.play(&line.moves[0]).ok()?;
    let mut reply = line.moves.get(1).cloned();
    while solution.len() < 5 {
        let Some(r) = reply.take() else { break };
        if at.outcome().is_some() || at.turn() == solver {
            break;
        }
        let mut next = at.box_clone();
        if next.play(&r).is_err() || next.outcome().is_some() || next.turn() != solver {
            break;
        }
        let Some((more, _)) = judge(next.as_ref(), effort, stop) else {
            break;
        };
        solution.push(r);
        solution.push(more.moves[0].clone());
        next.play(&more.moves[0]).ok()?;
        reply = more.moves.get(1).cloned();
        at = next;
    }
    Some(Found {
        solution,
        proof,
        score: line.score,
    })
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

    #[test]
    fn one_winning_move_is_a_puzzle_and_two_are_not() {
        // X wins at once on c3 and nowhere else; O must answer c2 otherwise.
        let one = position("tictactoe", "XX1/OO1/3 X");
        let found = find(one.as_ref(), effort("tictactoe"), &StopFlag::new()).expect("a puzzle");
        assert_eq!(found.solution, ["c3"]);
        assert!(found.proof.starts_with("forced win"), "{}", found.proof);
        // Two ways to win (c3 completes the top row, c1 the diagonal): no puzzle.
        let two = position("tictactoe", "XX1/OX1/OO1 X");
        assert!(judge(two.as_ref(), effort("tictactoe"), &StopFlag::new()).is_none());
    }

    #[test]
    fn reversi_near_the_end_is_proved_by_exact_solves() {
        // FFO #1: g8 wins by 18 discs and h1 by 12: two winning moves, no puzzle.
        let ffo1 = position(
            "reversi",
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
        );
        assert!(judge(ffo1.as_ref(), effort("reversi"), &StopFlag::new()).is_none());
        // FFO #2: a4 wins by 10, b2 draws, the rest lose: a puzzle, proved by solving every move.
        let ffo2 = position(
            "reversi",
            "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
        );
        let found = find(ffo2.as_ref(), effort("reversi"), &StopFlag::new()).expect("a puzzle");
        assert_eq!(found.solution[0], "a4");
        assert_eq!(found.score, 1000);
        assert!(found.proof.starts_with("exact solve"), "{}", found.proof);
    }
}
