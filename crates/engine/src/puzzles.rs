//! Puzzles: positions where some moves keep a result and the others visibly lose it, proved as far as each
//! game allows. Every legal move is searched by the game's full engine ([`crate::lines`]) and graded by one
//! rule ([`grade`]), so that every right answer is accepted:
//!
//! - Reversi near the end: every move is solved exactly; the winning moves are accepted, and the worst of
//!   them wins by the game's margin more than the best of the others (a 2-disc edge is no puzzle).
//! - A forced win (checkers' endgame databases, any game's search that sees the end): every forced win is
//!   accepted, and every other move is proved, or searched, not to win.
//! - Otherwise: the moves within half the margin of the best are accepted, the others are behind it by the
//!   margin or more, at one depth and again two plies deeper (an advantage kept, or the balance held).
//!
//! A move that touches no cell (a pass, the end of a turn) is no answer. A puzzle may go on: after the
//! solution and the engine's reply, a position that is again a puzzle for the same side adds the reply and its
//! solution (up to three moves of the solver), each graded in the same way.

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

/// The effort each game's puzzles get: deep enough that a move the engine finds right at the analysis board's
/// usual depths is not refused, within a few seconds a position on one core (`gridplay puzzles prove`).
#[must_use]
pub fn effort(game: &str) -> Effort {
    match game {
        "reversi" => Effort {
            depth: 10,
            margin: 800,
        },
        "checkers" => Effort {
            depth: 18,
            margin: 150,
        },
        "cornered" => Effort {
            depth: 6,
            margin: 400,
        },
        "ywf" => Effort {
            depth: 6,
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

/// How a puzzle's first move was proved best: the kind of proof and its figures. Its words (`Display`) are
/// what puzzle files keep, and read back by `FromStr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum HowProved {
    /// Every move solved exactly, with this many empty squares.
    Exact { empties: u32 },
    /// A forced win; every other move proved not to win by a search to `depth`.
    WinProved { depth: u32 },
    /// A forced win; every other move searched not to win at two depths.
    WinSearched { depths: [u32; 2] },
    /// Ahead of every refused move by `margin` hundredths of a game unit or more, at two depths.
    Margin { margin: i32, depths: [u32; 2] },
}

impl std::fmt::Display for HowProved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HowProved::Exact { empties } => write!(f, "exact solve of every move ({empties} empty squares)"),
            HowProved::WinProved { depth } => {
                write!(
                    f,
                    "forced win; every other move proved not to win (depth {depth})"
                )
            }
            HowProved::WinSearched { depths: [a, b] } => {
                write!(
                    f,
                    "forced win; every other move searched not to win at depths {a} and {b}"
                )
            }
            HowProved::Margin {
                margin,
                depths: [a, b],
            } => {
                write!(
                    f,
                    "ahead of every refused move by {margin} or more at depths {a} and {b}"
                )
            }
        }
    }
}

/// Words that are none of [`HowProved`]'s.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a puzzle's proof")]
pub struct UnknownProof(String);

impl std::str::FromStr for HowProved {
    type Err = UnknownProof;

    fn from_str(text: &str) -> Result<HowProved, UnknownProof> {
        let unknown = || UnknownProof(text.to_owned());
        let number = |s: &str| s.parse::<u32>().map_err(|_| unknown());
        let depths = |s: &str| -> Result<[u32; 2], UnknownProof> {
            let (a, b) = s.split_once(" and ").ok_or_else(unknown)?;
            Ok([number(a)?, number(b)?])
        };
        if let Some(rest) = text.strip_prefix("exact solve of every move (") {
            let n = rest.strip_suffix(" empty squares)").ok_or_else(unknown)?;
            return Ok(HowProved::Exact { empties: number(n)? });
        }
        if let Some(rest) = text.strip_prefix("forced win; every other move proved not to win (depth ") {
            let n = rest.strip_suffix(')').ok_or_else(unknown)?;
            return Ok(HowProved::WinProved { depth: number(n)? });
        }
        if let Some(rest) = text.strip_prefix("forced win; every other move searched not to win at depths ") {
            return Ok(HowProved::WinSearched {
                depths: depths(rest)?,
            });
        }
        if let Some(rest) = text.strip_prefix("ahead of every refused move by ") {
            let (margin, rest) = rest.split_once(" or more at depths ").ok_or_else(unknown)?;
            return Ok(HowProved::Margin {
                margin: margin.parse().map_err(|_| unknown())?,
                depths: depths(rest)?,
            });
        }
        Err(unknown())
    }
}

/// A puzzle found in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The solver's moves and the replies between them: solver, reply, solver...
    pub solution: Vec<String>,
    /// Every legal move of each of the solver's turns, graded.
    pub steps: Vec<Step>,
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

/// What a move is worth to the solver, as far as it is proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A forced win.
    Win,
    /// A forced loss.
    Loss,
    /// The exact final margin with best play (an endgame solve), in hundredths.
    Exact(i32),
    /// The search's estimate at the proof's depth, in hundredths.
    Search(i32),
}

impl Value {
    fn of(line: &Line) -> Value {
        match line.proof {
            Proof::Win { .. } => Value::Win,
            Proof::Loss { .. } => Value::Loss,
            Proof::Exact => Value::Exact(line.score),
            Proof::Estimate => Value::Search(line.score),
        }
    }

    /// Best first: a win, then by score, then a loss.
    fn rank(self) -> (u8, i32) {
        match self {
            Value::Win => (2, 0),
            Value::Exact(s) | Value::Search(s) => (1, s),
            Value::Loss => (0, 0),
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win => f.write_str("W"),
            Value::Loss => f.write_str("L"),
            Value::Exact(s) => write!(f, "E{s}"),
            Value::Search(s) => write!(f, "S{s}"),
        }
    }
}

/// Why a puzzle's steps could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error("`{0}` is not a value (W, L, E<score> or S<score>)")]
    Value(String),
    #[error("`{0}` is not MOVE=VALUE")]
    Entry(String),
    #[error("a step grades at least one move")]
    Empty,
}

impl std::str::FromStr for Value {
    type Err = StepError;

    fn from_str(text: &str) -> Result<Value, StepError> {
        let number = |t: &str| t.parse::<i32>().map_err(|_| StepError::Value(text.to_owned()));
        match text.split_at_checked(1) {
            Some(("W", "")) => Ok(Value::Win),
            Some(("L", "")) => Ok(Value::Loss),
            Some(("E", n)) => number(n).map(Value::Exact),
            Some(("S", n)) => number(n).map(Value::Search),
            _ => Err(StepError::Value(text.to_owned())),
        }
    }
}

/// One legal move of a puzzle's position, its value, and whether it keeps the result the puzzle proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graded {
    pub mv: String,
    pub value: Value,
    /// Accepted as an answer.
    pub keeps: bool,
}

/// Every legal move of one of the solver's turns in a puzzle, graded, best first. Written as `MOVE=VALUE`
/// separated by spaces, an accepted move's value followed by `*`: `a4=E1000* b2=E0 c1=E-400`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step(pub Vec<Graded>);

impl Step {
    /// Whether `mv` keeps the step's proved result.
    #[must_use]
    pub fn accepts(&self, mv: &str) -> bool {
        self.0.iter().any(|g| g.keeps && g.mv == mv)
    }

    /// The accepted moves, best first.
    pub fn accepted(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter(|g| g.keeps).map(|g| g.mv.as_str())
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, g) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let mark = if g.keeps { "*" } else { "" };
            write!(f, "{sep}{}={}{mark}", g.mv, g.value)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Step {
    type Err = StepError;

    fn from_str(text: &str) -> Result<Step, StepError> {
        let graded = text
            .split_whitespace()
            .map(|entry| {
                let (mv, value) = entry
                    .rsplit_once('=')
                    .ok_or_else(|| StepError::Entry(entry.to_owned()))?;
                let (value, keeps) = match value.strip_suffix('*') {
                    Some(v) => (v, true),
                    None => (value, false),
                };
                Ok(Graded {
                    mv: mv.to_owned(),
                    value: value.parse()?,
                    keeps,
                })
            })
            .collect::<Result<Vec<_>, StepError>>()?;
        if graded.is_empty() {
            return Err(StepError::Empty);
        }
        Ok(Step(graded))
    }
}

/// A puzzle's steps as one text: `STEP / STEP / ...`.
#[must_use]
pub fn steps_text(steps: &[Step]) -> String {
    steps
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The steps of [`steps_text`].
///
/// # Errors
///
/// A step that does not read, with its words.
pub fn parse_steps(text: &str) -> Result<Vec<Step>, StepError> {
    text.split(" / ").map(str::parse).collect()
}

/// How a step's answer is proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Every move solved exactly: the accepted moves win, by `margin` or more than any refused move.
    Exact,
    /// The accepted moves are forced wins; the refused ones are proved or searched not to win.
    Win,
    /// The accepted moves are within half the margin of the best; the refused ones are behind it by the
    /// margin or more.
    Margin,
}

/// Grades the lines of a position (every legal move, best first) by the rule every puzzle keeps, and says
/// how its answer is proved; `None` where the position is no puzzle:
///
/// - the best move is a forced win: the accepted moves are every forced win, and every other move is proved
///   not to win, or searched to no more than half the margin;
/// - every move is solved exactly and the best wins: the accepted moves are every win, and the worst of them
///   is ahead of the best refused move by the margin or more (a player can see that much);
/// - otherwise the best move does not lose by more than half the margin (it keeps an advantage, or the
///   balance): the accepted moves are those within half the margin of it, the refused ones are behind it by
///   the margin or more, and no move lies between. A lead of three margins or more counts as three margins
///   (it wins): every move that keeps such a lead is accepted.
///
/// At least one move is refused, and no more than half the moves are accepted.
#[must_use]
pub fn grade(lines: &[Line], margin: i32) -> Option<(Kind, Step)> {
    classify(
        lines.iter().map(|l| (l.moves[0].clone(), Value::of(l))).collect(),
        margin,
    )
}

/// [`grade`]'s rule over moves and their values: the step, best first, each move marked accepted or not.
#[must_use]
pub fn classify(moves: Vec<(String, Value)>, margin: i32) -> Option<(Kind, Step)> {
    let mut graded: Vec<Graded> = moves
        .into_iter()
        .map(|(mv, value)| Graded {
            mv,
            value,
            keeps: false,
        })
        .collect();
    graded.sort_by_key(|g| std::cmp::Reverse(g.value.rank()));
    let best = graded.first()?.value;
    let kind = match best {
        Value::Win => {
            for g in &mut graded {
                g.keeps = g.value == Value::Win;
                let refused_ok = match g.value {
                    Value::Win => true,
                    Value::Loss => true,
                    Value::Exact(s) => s <= 0,
                    Value::Search(s) => s <= margin / 2,
                };
                if !refused_ok {
                    return None;
                }
            }
            Kind::Win
        }
        Value::Exact(b) if b > 0 => {
            let mut worst_kept = i32::MAX;
            let mut best_refused = i32::MIN;
            for g in &mut graded {
                let Value::Exact(s) = g.value else { return None };
                g.keeps = s > 0;
                if g.keeps {
                    worst_kept = worst_kept.min(s);
                } else {
                    best_refused = best_refused.max(s);
                }
            }
            if best_refused != i32::MIN && worst_kept - best_refused < margin {
                return None;
            }
            Kind::Exact
        }
        Value::Search(b) if b >= -margin / 2 => {
            // A lead of three margins is taken for a win: every move that keeps one keeps the result.
            let decisive = 3 * margin;
            let b = b.min(decisive);
            for g in &mut graded {
                let s = match g.value {
                    Value::Exact(s) | Value::Search(s) => s.min(decisive),
                    Value::Loss => i32::MIN,
                    Value::Win => return None,
                };
                g.keeps = s >= b - margin / 2;
                if !g.keeps && s > b - margin {
                    return None;
                }
            }
            Kind::Margin
        }
        _ => return None,
    };
    let kept = graded.iter().filter(|g| g.keeps).count();
    (kept < graded.len() && kept * 2 <= graded.len()).then_some((kind, Step(graded)))
}

/// Judges `pos`: its best move's line, the grades of every move, and the words of the proof; `None` where
/// the position is no puzzle. A position whose moves are not all proved is graded again two plies deeper,
/// and must grade the same, with the same best move.
#[must_use]
pub fn judge(pos: &dyn DynPosition, effort: Effort, stop: &StopFlag) -> Option<(Line, Step, String)> {
    if pos.outcome().is_some() || pos.legal_moves().len() < 2 {
        return None;
    }
    let first = lines(pos, usize::MAX, Limits::depth(effort.depth), stop, &mut |_| {}).ok()?;
    let (kind, step) = grade(&first.lines, effort.margin)?;
    // A move that touches no cell (a pass, the end of a turn) is no puzzle's answer.
    let view = pos.view();
    let no_cell = |mv: &str| {
        view.moves
            .iter()
            .any(|m| m.text == mv && m.from.is_none() && m.path.is_empty())
    };
    if step.accepted().any(no_cell) {
        return None;
    }
    let empties = u32::try_from(pos.to_text().matches('-').count()).unwrap_or(u32::MAX);
    let best_of = |all: &Lines, step: &Step| all.lines.iter().find(|l| l.moves[0] == step.0[0].mv).cloned();
    if first.proved {
        let how = match kind {
            Kind::Exact => HowProved::Exact { empties },
            Kind::Win => HowProved::WinProved { depth: first.depth },
            Kind::Margin => return None,
        };
        return Some((best_of(&first, &step)?, step, how.to_string()));
    }
    let deeper = lines(
        pos,
        usize::MAX,
        Limits::depth(effort.depth + 2),
        stop,
        &mut |_| {},
    )
    .ok()?;
    let (kind_again, again) = grade(&deeper.lines, effort.margin)?;
    let kept = |s: &Step| {
        s.accepted()
            .map(str::to_owned)
            .collect::<std::collections::BTreeSet<_>>()
    };
    if kind_again != kind || kept(&again) != kept(&step) || again.0[0].mv != step.0[0].mv {
        return None;
    }
    let depths = [first.depth, deeper.depth];
    let how = match kind {
        Kind::Exact => HowProved::Exact { empties },
        Kind::Win => HowProved::WinSearched { depths },
        Kind::Margin => HowProved::Margin {
            margin: effort.margin,
            depths,
        },
    };
    Some((best_of(&deeper, &again)?, again, how.to_string()))
}

/// A puzzle in `pos`, with up to two more moves of the solver where the position after the engine's reply is
/// again one, or `None`.
#[must_use]
pub fn find(pos: &dyn DynPosition, effort: Effort, stop: &StopFlag) -> Option<Found> {
    let (line, step, proof) = judge(pos, effort, stop)?;
    let solver = pos.turn();
    let mut solution = vec![line.moves[0].clone()];
    let mut steps = vec![step];
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
        let Some((more, step, _)) = judge(next.as_ref(), effort, stop) else {
            break;
        };
        solution.push(r);
        solution.push(more.moves[0].clone());
        steps.push(step);
        next.play(&more.moves[0]).ok()?;
        reply = more.moves.get(1).cloned();
        at = next;
    }
    Some(Found {
        solution,
        steps,
        proof,
        score: line.score,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_reads_back_from_its_words_and_strangers_are_refused() {
        for how in [
            HowProved::Exact { empties: 16 },
            HowProved::WinProved { depth: 9 },
            HowProved::WinSearched { depths: [12, 14] },
            HowProved::Margin {
                margin: 150,
                depths: [6, 8],
            },
        ] {
            assert_eq!(how.to_string().parse::<HowProved>().unwrap(), how);
        }
        assert_eq!(
            "ahead of every refused move by 150 or more at depths 6 and 8"
                .parse::<HowProved>()
                .unwrap(),
            HowProved::Margin {
                margin: 150,
                depths: [6, 8]
            }
        );
        for bad in [
            "test",
            "exact solve of every move (x empty squares)",
            "forced win; every other move searched not to win at depths 3",
        ] {
            assert!(bad.parse::<HowProved>().is_err(), "{bad}");
        }
    }

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

    /// The rule on moves and values, case by case: (values, margin, the accepted moves or `None` for no
    /// puzzle).
    #[test]
    fn the_rule_accepts_every_move_that_keeps_the_result() {
        let cases: &[(&str, i32, Option<&[&str]>)] = &[
            // Two forced wins of four moves: both right.
            ("a=W b=W c=S0 d=L", 300, Some(&["a", "b"])),
            // A move searched well ahead might win too: no puzzle.
            ("a=W b=S200 c=S0 d=L", 300, None),
            // Exact: a win by 10 against a draw is a puzzle; a win by 2 against a draw is not (not visible).
            ("a=E1000 b=E0 c=E-400", 800, Some(&["a"])),
            ("a=E200 b=E0 c=E-400", 800, None),
            // Exact: every winning move is right, if the worst of them is clearly ahead of the rest.
            ("a=E2000 b=E1000 c=E0 d=E-400 e=E-600", 800, Some(&["a", "b"])),
            // A search: within half the margin of the best is right, the margin behind is wrong.
            ("a=S500 b=S400 c=S100 d=S0", 300, Some(&["a", "b"])),
            // A move between the two: no puzzle.
            ("a=S500 b=S300 c=S100", 300, None),
            // Holding the balance is a puzzle; a lost position is not.
            ("a=S-50 b=S-400 c=S-500", 300, Some(&["a"])),
            ("a=S-400 b=S-800 c=S-900", 300, None),
            // Every move that keeps a decisive lead (three margins) is right: here all of them, no puzzle.
            ("a=S2000 b=S1500 c=S1300 d=S800", 300, None),
            ("a=S2000 b=S1500 c=S300 d=S0", 300, Some(&["a", "b"])),
            // More than half the moves right: no puzzle.
            ("a=W b=W c=L", 300, None),
        ];
        for (values, margin, want) in cases {
            let moves = values
                .split(' ')
                .map(|e| {
                    let (m, v) = e.split_once('=').unwrap();
                    (m.to_owned(), v.parse::<Value>().unwrap())
                })
                .collect();
            let got = classify(moves, *margin).map(|(_, step)| {
                let again: Step = step.to_string().parse().expect("a step reads back");
                assert_eq!(again, step);
                step.accepted().map(str::to_owned).collect::<Vec<_>>()
            });
            let want = want.map(|w| w.iter().map(|m| (*m).to_owned()).collect::<Vec<_>>());
            assert_eq!(got, want, "{values}");
        }
        assert!("a4=X1".parse::<Step>().is_err());
        assert!("".parse::<Step>().is_err());
        assert!(parse_steps("a4=E100* b2=E0 / c3=W* d1=L").is_ok_and(|s| s.len() == 2));
    }
}
