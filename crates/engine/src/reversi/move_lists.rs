//! Games written as lists of moves, one game a line (`f5d6c3d3c4...`), as online game databases export them:
//! positions from people's games for the evaluation's fit, beside WTHOR's
//! (`gridplay train reversi --move-lists FILE`).
//!
//! A line's game is its last comma-separated field, so that a CSV export (such as an id, the winner and the
//! moves) is read as it is: squares of two characters each (`f5` or `F5`), passes left out (a side with no
//! move passes) or written `pa`. A first line whose last field is not a move list is a header and is skipped;
//! empty lines are skipped.

use super::wthor::Game;
use gridplay_games::reversi::bitboard::Board;
use gridplay_games::reversi::notation::parse_square;

/// Why a line is not a game.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {reason}")]
pub struct MoveListError {
    pub line: usize,
    pub reason: String,
}

/// Reads the games of a move-list file, each checked move by move against the rules (a game may stop before
/// the end: a resignation or a time loss).
///
/// # Errors
///
/// A file that is not UTF-8, or a line (other than a header) whose last field has an odd length, a token that
/// is not a square, or a move that is not legal where it is played.
pub fn parse(bytes: &[u8]) -> Result<Vec<Game>, MoveListError> {
    let text = std::str::from_utf8(bytes).map_err(|e| MoveListError {
        line: 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count(),
        reason: format!("not UTF-8 text ({e})"),
    })?;
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let field = line.rsplit(',').next().unwrap_or("").trim();
        match game(field) {
            Ok(g) => games.push(g),
            // A header names its columns: its last field is a word, not squares.
            Err(_) if i == 0 && field.get(..2).is_none_or(|t| parse_square(t).is_err()) => {}
            Err(reason) => return Err(MoveListError { line: i + 1, reason }),
        }
    }
    Ok(games)
}

/// One game's moves, checked.
fn game(field: &str) -> Result<Game, String> {
    if !field.len().is_multiple_of(2) || !field.is_ascii() {
        return Err(format!("{field:?} is not a list of two-character squares"));
    }
    let mut board = Board::START;
    let mut moves = Vec::new();
    for (ply, token) in field.as_bytes().chunks(2).enumerate() {
        let token = std::str::from_utf8(token).expect("ASCII");
        if token.eq_ignore_ascii_case("pa") {
            if board.moves() != 0 || board.is_over() {
                return Err(format!("move {}: a pass where a move is possible", ply + 1));
            }
            board = board.pass();
            continue;
        }
        let sq = parse_square(token).map_err(|e| format!("move {}: {}", ply + 1, e.reason))?;
        if board.moves() == 0 && !board.is_over() {
            board = board.pass();
        }
        if board.moves() & (1 << sq) == 0 {
            return Err(format!("move {}: {token} is not a legal move there", ply + 1));
        }
        board = board.play(sq);
        moves.push(sq);
    }
    Ok(Game { moves, perfect: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_exports_and_plain_lists_are_read() {
        let text = "Othello_game_id,winner,game_moves\n1,1,f5d6C3d3c4\n\nf5f6\n";
        let games = parse(text.as_bytes()).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, [37, 43, 18, 19, 26]);
        assert_eq!(games[1].moves, [37, 45]);
    }

    #[test]
    fn whole_games_are_read_with_passes_left_out_or_written() {
        // A game from a public database: 60 moves, no pass needed.
        let line = "f5d6c4d3c3f4c5b3c2e6c6b4b5d2e3a6c7d7c1g4a5a4g3e2f3d1f6b1h4c8e7f8a2f2d8g5g6h2h3h5f1e8h6h7f7a3a7g8b6g2h1g1h8g7b8b7a8e1a1b2";
        let games = parse(line.as_bytes()).unwrap();
        assert_eq!(games[0].moves.len(), 60);
        // White has no move after e8 here (move 17): the pass may be left out or written.
        let before = "e6d6c5f4c6e7f6d7f5g6f7f8c7c4d8c8e8";
        let after = "h5h6h7g7g5g4h4b6a6b5a5h3g3f2g2b3c3e3f3h1d3h2a3e2g1f1e1d1d2c1c2b1b8a8b2a7b7a4b4a2a1g8h8";
        let implicit = parse(format!("{before}{after}").as_bytes()).unwrap();
        let written = parse(format!("{before}pa{after}").as_bytes()).unwrap();
        assert_eq!(implicit, written);
        assert_eq!(implicit[0].moves.len(), 60);
        // White has moves after f5: a pass there is refused.
        let err = parse(b"f5pa").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.reason.contains("a pass where a move is possible"), "{err}");
    }

    #[test]
    fn bad_lines_are_refused_with_the_line_and_the_reason() {
        assert_eq!(
            parse(b"f5d6\nf5a1\n"),
            Err(MoveListError {
                line: 2,
                reason: "move 2: a1 is not a legal move there".into()
            })
        );
        assert!(
            parse(b"f5d6\nf5d\n")
                .unwrap_err()
                .reason
                .contains("two-character squares")
        );
        assert!(parse(b"f5d6\nf5z9\n").unwrap_err().reason.starts_with("move 2:"));
        // A bad first line that looks like moves is an error, not a header.
        assert_eq!(parse(b"f5a1\n").unwrap_err().line, 1);
        assert!(parse(b"\xff\xfe").unwrap_err().reason.contains("UTF-8"));
    }
}
