//! Notation shared by the games: squares named by a file letter and a rank number (`d3`, `y25`), squares
//! numbered in reading order (checkers' 1-32), and boards written as run-length rows (`3/1X1/3`), as chess FEN
//! writes them.

use std::fmt;

use thiserror::Error;

/// A board whose squares are named by a file letter (`a` on the left) and a rank number from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lettered {
    pub width: u32,
    pub height: u32,
    /// Whether rank 1 is the top row (Reversi's habit) rather than the bottom one (chess's).
    pub rank_one_at_top: bool,
}

/// Why a square's name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SquareError {
    #[error("a square is a file a-{last_file} then a rank 1-{height}, such as {example}")]
    Shape {
        last_file: String,
        height: u32,
        example: String,
    },
    #[error("that file is off the board: files run from a to {last_file}")]
    File { last_file: String },
    #[error("the rank must be a number from 1 to {height}")]
    Rank { height: u32 },
}

impl Lettered {
    #[must_use]
    pub const fn new(width: u32, height: u32, rank_one_at_top: bool) -> Lettered {
        Lettered {
            width,
            height,
            rank_one_at_top,
        }
    }

    fn last_file(&self) -> String {
        file_name(self.width.max(1) - 1)
    }

    /// The name of the square at `index`, counted row by row from the top-left.
    #[must_use]
    pub fn name(&self, index: usize) -> String {
        let (col, row) = (index as u32 % self.width, index as u32 / self.width);
        let rank = if self.rank_one_at_top {
            row + 1
        } else {
            self.height - row
        };
        format!("{}{rank}", file_name(col))
    }

    /// The index of a named square, letters in either case.
    ///
    /// # Errors
    ///
    /// A name that is not a file letter then a rank number, or that is off the board.
    pub fn parse(&self, text: &str) -> Result<usize, SquareError> {
        let text = text.trim();
        let split = text
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(text.len());
        let (letters, rank) = text.split_at(split);
        let Some(col) = file_index(letters) else {
            return Err(SquareError::Shape {
                last_file: self.last_file(),
                height: self.height,
                example: self.name(0),
            });
        };
        if col >= self.width {
            return Err(SquareError::File {
                last_file: self.last_file(),
            });
        }
        let rank = match rank.parse::<u32>() {
            Ok(r)
                if (1..=self.height).contains(&r)
                    && rank.bytes().all(|b| b.is_ascii_digit())
                    && !rank.starts_with('0') =>
            {
                r
            }
            _ => return Err(SquareError::Rank { height: self.height }),
        };
        let row = if self.rank_one_at_top {
            rank - 1
        } else {
            self.height - rank
        };
        Ok((row * self.width + col) as usize)
    }
}

/// The name of file `x` (0 on the left): `a` to `z`, then `aa` to `az`, `ba`...
#[must_use]
pub fn file_name(x: u32) -> String {
    let letter = |i: u32| char::from(b'a' + (i % 26) as u8);
    if x < 26 {
        letter(x).to_string()
    } else {
        format!("{}{}", file_name(x / 26 - 1), letter(x))
    }
}

/// The file a name (in either case) stands for, the inverse of [`file_name`].
fn file_index(letters: &str) -> Option<u32> {
    if letters.is_empty() || letters.len() > 3 {
        return None;
    }
    let mut x: u32 = 0;
    for (k, c) in letters.bytes().enumerate() {
        let d = u32::from(c.to_ascii_lowercase().checked_sub(b'a')?);
        if d >= 26 {
            return None;
        }
        x = if k == 0 { d } else { (x + 1) * 26 + d };
    }
    Some(x)
}

/// Why run-length rows could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct RowsError {
    /// The byte offset in the rows' text.
    pub at: usize,
    pub reason: RowsErrorKind,
}

impl fmt::Display for RowsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at + 1, self.reason)
    }
}

/// What is wrong with run-length rows.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RowsErrorKind {
    #[error("the board has {found} rows, not {expected} (rows are separated by /)")]
    RowCount { found: usize, expected: usize },
    #[error("row {row} has {found} squares, not {expected}")]
    RowLength {
        row: usize,
        found: usize,
        expected: usize,
    },
    #[error("a count of empty squares must be 1 or more")]
    ZeroRun,
    #[error("`{0}` is not a piece of this game")]
    Piece(char),
}

/// Writes cells row by row from the top as run-length rows: a piece's character, or the number of empty
/// squares in a run, rows separated by `/`.
#[must_use]
pub fn write_rows(cells: &[Option<char>], width: usize) -> String {
    let mut out = String::new();
    for (r, row) in cells.chunks(width.max(1)).enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut empties = 0;
        for cell in row {
            match cell {
                None => empties += 1,
                Some(c) => {
                    if empties > 0 {
                        out.push_str(&empties.to_string());
                        empties = 0;
                    }
                    out.push(*c);
                }
            }
        }
        if empties > 0 {
            out.push_str(&empties.to_string());
        }
    }
    out
}

/// Reads run-length rows of a `width` x `height` board, keeping the characters that `piece` accepts.
///
/// # Errors
///
/// The first place where the text has the wrong number of rows or squares, a zero run, or a character that is
/// not a piece.
pub fn read_rows(
    text: &str,
    width: usize,
    height: usize,
    piece: impl Fn(char) -> bool,
) -> Result<Vec<Option<char>>, RowsError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != height {
        return Err(RowsError {
            at: 0,
            reason: RowsErrorKind::RowCount {
                found: rows.len(),
                expected: height,
            },
        });
    }
    let mut cells = Vec::with_capacity(width * height);
    let mut offset = 0;
    for (r, row) in rows.iter().enumerate() {
        let before = cells.len();
        let mut run = 0usize;
        for (i, c) in row.char_indices() {
            let at = offset + i;
            if let Some(d) = c.to_digit(10) {
                if run == 0 && d == 0 {
                    return Err(RowsError {
                        at,
                        reason: RowsErrorKind::ZeroRun,
                    });
                }
                run = run.saturating_mul(10).saturating_add(d as usize);
                continue;
            }
            cells.extend(std::iter::repeat_n(None, run.min(width + 1)));
            run = 0;
            if !piece(c) {
                return Err(RowsError {
                    at,
                    reason: RowsErrorKind::Piece(c),
                });
            }
            cells.push(Some(c));
        }
        cells.extend(std::iter::repeat_n(None, run.min(width + 1)));
        if cells.len() - before != width {
            return Err(RowsError {
                at: offset,
                reason: RowsErrorKind::RowLength {
                    row: r + 1,
                    found: cells.len() - before,
                    expected: width,
                },
            });
        }
        offset += row.len() + 1;
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lettered_names_read_back_both_ways_up() {
        for top in [false, true] {
            let board = Lettered::new(25, 25, top);
            for i in 0..625 {
                assert_eq!(board.parse(&board.name(i)), Ok(i));
            }
        }
        assert_eq!(Lettered::new(8, 8, true).name(0), "a1");
        assert_eq!(Lettered::new(8, 8, false).name(0), "a8");
        assert_eq!(Lettered::new(8, 8, true).parse("D3"), Ok(19));
    }

    #[test]
    fn files_go_on_past_z() {
        let names: Vec<String> = [0, 25, 26, 27, 51, 52, 701, 702]
            .iter()
            .map(|&x| file_name(x))
            .collect();
        assert_eq!(names, ["a", "z", "aa", "ab", "az", "ba", "zz", "aaa"]);
        for x in 0..800 {
            assert_eq!(file_index(&file_name(x)), Some(x));
        }
        let wide = Lettered::new(32, 32, false);
        assert_eq!(wide.name(31), "af32");
        assert_eq!(wide.parse("AF32"), Ok(31));
    }

    #[test]
    fn bad_square_names_say_what_is_wrong() {
        let board = Lettered::new(3, 3, false);
        assert_eq!(
            board.parse("d1"),
            Err(SquareError::File {
                last_file: "c".into()
            })
        );
        for rank in ["a0", "a4", "a01", "a+1", "a"] {
            assert_eq!(board.parse(rank), Err(SquareError::Rank { height: 3 }), "{rank}");
        }
        assert!(matches!(board.parse("11"), Err(SquareError::Shape { .. })));
        assert_eq!(
            board.parse("9").unwrap_err().to_string(),
            "a square is a file a-c then a rank 1-3, such as a3"
        );
    }

    #[test]
    fn rows_round_trip_and_errors_name_the_place() {
        let cells = vec![
            None,
            Some('X'),
            None,
            None,
            None,
            None,
            Some('O'),
            Some('X'),
            Some('O'),
        ];
        let text = write_rows(&cells, 3);
        assert_eq!(text, "1X1/3/OXO");
        let ok = |c: char| matches!(c, 'X' | 'O');
        assert_eq!(read_rows(&text, 3, 3, ok), Ok(cells));
        assert_eq!(
            read_rows("3/3", 3, 3, ok).unwrap_err().reason,
            RowsErrorKind::RowCount {
                found: 2,
                expected: 3
            }
        );
        assert_eq!(read_rows("3/4/3", 3, 3, ok).unwrap_err().at, 2);
        assert_eq!(
            read_rows("3/0X2/3", 3, 3, ok).unwrap_err().reason,
            RowsErrorKind::ZeroRun
        );
        assert_eq!(
            read_rows("3/1Z1/3", 3, 3, ok).unwrap_err(),
            RowsError {
                at: 3,
                reason: RowsErrorKind::Piece('Z')
            }
        );
        assert!(read_rows("99999999999999999999999/3/3", 3, 3, ok).is_err());
    }
}
