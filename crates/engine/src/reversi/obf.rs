//! The one-line problem files that Othello programs exchange (`.obf`): a position, then `;` and the best moves
//! with their exact final disc differences, as in the FFO endgame problems:
//!
//! ```text
//! --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;
//! ```

use gridplay_core::Game;
use gridplay_games::reversi::{Reversi, ReversiPosition, notation::parse_square};

/// One problem: the position and the listed moves with their scores (best first, as files list them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line number in the file.
    pub line: usize,
    pub position: ReversiPosition,
    pub moves: Vec<(u8, i32)>,
}

impl Problem {
    /// The best listed score.
    #[must_use]
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().map(|&(_, s)| s).max()
    }
}

/// Reads a problem file; blank lines and lines starting with `%` or `#` are skipped.
///
/// # Errors
///
/// The first line that cannot be read, with its number and the reason.
pub fn parse(text: &str) -> Result<Vec<Problem>, crate::DataError> {
    let game = Reversi::default();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let t = line.trim();
        if t.is_empty() || t.starts_with('%') || t.starts_with('#') {
            continue;
        }
        let bad = |why: String| crate::DataError::line("problem file", line_no, why);
        let mut parts = t.split(';');
        let board = parts.next().unwrap_or("");
        let position = game.parse_position(board).map_err(|e| bad(e.to_string()))?;
        let mut moves = Vec::new();
        for item in parts.map(str::trim).filter(|s| !s.is_empty()) {
            let (mv, score) = item
                .split_once(':')
                .ok_or_else(|| bad(format!("`{item}` is not MOVE:SCORE, such as G8:+18")))?;
            let sq = parse_square(mv.trim()).map_err(|e| bad(e.to_string()))?;
            let score: i32 = score
                .trim()
                .trim_start_matches('+')
                .parse()
                .map_err(|_| bad(format!("`{score}` is not a disc difference")))?;
            moves.push((sq, score));
        }
        problems.push(Problem {
            line: line_no,
            position,
            moves,
        });
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ffo_lines_and_refuses_bad_ones() {
        let p = parse(
            "%comment\n--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;\n",
        )
        .unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].line, 2);
        assert_eq!(p[0].moves, vec![(62, 18), (7, 12)]);
        assert_eq!(p[0].best_score(), Some(18));
        assert!(
            parse("XXX X; G8:+18")
                .unwrap_err()
                .to_string()
                .starts_with("problem file, line 1: bad position")
        );
        let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        assert!(
            parse(&format!("{board}; G8"))
                .unwrap_err()
                .to_string()
                .contains("is not MOVE:SCORE")
        );
        assert!(
            parse(&format!("{board}; Z8:+1"))
                .unwrap_err()
                .to_string()
                .contains("off the board")
        );
        assert!(
            parse(&format!("{board}; G8:big"))
                .unwrap_err()
                .to_string()
                .contains("not a disc difference")
        );
    }
}
