//! Game records in the WTHOR format, the French Othello Federation's database of tournament games
//! (`WTH_YYYY.wtb`, one file a year; <https://www.ffothello.org/informatique/la-base-wthor/>): positions from
//! people's games for the evaluation's fit, beside the engine's own (`gridplay train reversi --wthor FILE`).
//!
//! A file is a 16-byte header (the date it was made; the number of games, a 32-bit little-endian count at
//! byte 4; the board size at byte 12, 0 or 8; the depth of the theoretical scores at byte 14) and then one
//! 68-byte record a game: the tournament's and both players' numbers (16 bits each), Black's discs at the end
//! and Black's theoretical score (a byte each), and the 60 moves, one byte each, `10 * rank + file` counted
//! from 1 (`56` is f5), 0 after the last. Passes are not written: a side with no move passes.
//!
//! The theoretical score is Black's discs at the end under perfect play from the game's position with the
//! header's depth of empty squares (24 in every file of 1977-2020; the federation computes them): an exact
//! label for every position before it, free of the mistakes people made after it.

use gridplay_games::reversi::bitboard::Board;

const HEADER_BYTES: usize = 16;
const RECORD_BYTES: usize = 68;

/// One game: its moves as squares (a1 = 0, h8 = 63), passes left out as in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub moves: Vec<u8>,
    /// The exact score of the game's position with some number of empty squares, where the record has one.
    pub perfect: Option<Perfect>,
}

/// Black's disc difference at the end under perfect play from the position with `empties` empty squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Perfect {
    pub empties: u32,
    pub black: i32,
}

/// Why a file is not a WTHOR games file.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WthorError {
    #[error("not a WTHOR games file: {0}")]
    Format(String),
    #[error("game {game}, move {ply}: {reason}")]
    Move { game: usize, ply: usize, reason: String },
}

/// Reads the games of a WTHOR file, each checked move by move against the rules (a game may stop before the
/// board is full: a resignation or a time loss).
///
/// # Errors
///
/// A header or a length that does not match the games it announces, a board size other than 8, or a move that
/// is not a square or not legal where it is played.
pub fn parse(bytes: &[u8]) -> Result<Vec<Game>, WthorError> {
    let header = bytes
        .get(..HEADER_BYTES)
        .ok_or_else(|| WthorError::Format(format!("{} bytes, shorter than the header", bytes.len())))?;
    let count = u32::from_le_bytes(header[4..8].try_into().expect("4 bytes")) as usize;
    if header[12] != 0 && header[12] != 8 {
        return Err(WthorError::Format(format!(
            "a board of {} squares a side (only 8 is read)",
            header[12]
        )));
    }
    let depth = u32::from(header[14]);
    if depth > 60 {
        return Err(WthorError::Format(format!(
            "theoretical scores at {depth} empty squares (a board has 60 at most)"
        )));
    }
    let body = &bytes[HEADER_BYTES..];
    if body.len() != count * RECORD_BYTES {
        return Err(WthorError::Format(format!(
            "the header announces {count} games ({} bytes) but {} bytes follow it",
            count * RECORD_BYTES,
            body.len()
        )));
    }
    body.chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(game, record)| {
            let theoretical = i32::from(record[7]);
            if theoretical > 64 {
                return Err(WthorError::Format(format!(
                    "game {}: a theoretical score of {theoretical} discs (64 at most)",
                    game + 1
                )));
            }
            let perfect = (depth > 0).then_some(Perfect {
                empties: depth,
                black: 2 * theoretical - 64,
            });
            let mut board = Board::START;
            let mut moves = Vec::new();
            for (ply, &code) in record[8..].iter().enumerate() {
                if code == 0 {
                    break;
                }
                let fail = |reason: String| WthorError::Move {
                    game: game + 1,
                    ply: ply + 1,
                    reason,
                };
                let (rank, file) = (code / 10, code % 10);
                if !(1..=8).contains(&rank) || !(1..=8).contains(&file) {
                    return Err(fail(format!("{code} is not a square")));
                }
                let sq = (rank - 1) * 8 + (file - 1);
                if board.moves() == 0 && !board.is_over() {
                    board = board.pass();
                }
                if board.moves() & (1 << sq) == 0 {
                    return Err(fail(format!("{code} is not a legal move there")));
                }
                board = board.play(sq);
                moves.push(sq);
            }
            Ok(Game { moves, perfect })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `games`, each given as WTHOR move codes.
    fn file(games: &[&[u8]]) -> Vec<u8> {
        let mut out = vec![0u8; HEADER_BYTES];
        out[4..8].copy_from_slice(&(games.len() as u32).to_le_bytes());
        out[12] = 8;
        out[14] = 24;
        for moves in games {
            let mut record = vec![0u8; RECORD_BYTES];
            record[7] = 40;
            record[8..8 + moves.len()].copy_from_slice(moves);
            out.extend(record);
        }
        out
    }

    #[test]
    fn games_are_read_and_checked_move_by_move() {
        // f5 d6 c3 d3 c4: a common opening, then the game stops (as a resignation does).
        let games = parse(&file(&[&[56, 64, 33, 34, 43], &[]])).unwrap();
        let names: Vec<String> = games[0]
            .moves
            .iter()
            .map(|&sq| gridplay_games::reversi::notation::square_name(sq))
            .collect();
        assert_eq!(names, ["f5", "d6", "c3", "d3", "c4"]);
        assert!(games[1].moves.is_empty());
        // 40 of Black's discs under perfect play from 24 empties: Black ahead by 16.
        assert_eq!(
            games[0].perfect,
            Some(Perfect {
                empties: 24,
                black: 16
            })
        );
        let mut none = file(&[&[56]]);
        none[14] = 0;
        assert_eq!(parse(&none).unwrap()[0].perfect, None);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        assert!(matches!(parse(&[0; 5]), Err(WthorError::Format(_))));
        let mut cut = file(&[&[56]]);
        cut.pop();
        assert!(matches!(parse(&cut), Err(WthorError::Format(m)) if m.contains("announces 1 games")));
        // a1 is not a legal first move; 99 is not a square.
        assert_eq!(
            parse(&file(&[&[56], &[11]])),
            Err(WthorError::Move {
                game: 2,
                ply: 1,
                reason: "11 is not a legal move there".into()
            })
        );
        assert!(
            matches!(parse(&file(&[&[99]])), Err(WthorError::Move { reason, .. }) if reason.contains("not a square"))
        );
        let mut deep = file(&[&[56]]);
        deep[14] = 61;
        assert!(matches!(parse(&deep), Err(WthorError::Format(m)) if m.contains("61 empty squares")));
        let mut score = file(&[&[56]]);
        score[HEADER_BYTES + 7] = 65;
        assert!(matches!(parse(&score), Err(WthorError::Format(m)) if m.contains("65 discs")));
    }
}
