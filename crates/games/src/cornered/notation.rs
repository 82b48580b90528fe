//! Crosses are named by file (a.. left to right) and rank (1.. bottom to top): `c3`, `y25`.
//!
//! The position text is the rows from the top rank down, separated by `/`, then a space and the side to move.
//! `W`/`B` are placed pieces, `w`/`b` occupied crosses, and a number counts empty crosses, as in chess FEN:
//! the empty 5x5 board with White to move is `5/5/5/5/5 W`.

use gridplay_core::{
    ParseMoveError, Player, PositionError,
    notation::{Lettered, write_rows},
};

use super::board::{Board, Cross, MAX_SIZE};

/// The crosses of a board of side `size`: files from the left, ranks from the bottom.
fn crosses(size: usize) -> Lettered {
    Lettered::new(size as u32, size as u32, false)
}

/// The name of the cross at `index` on a board of side `size`.
#[must_use]
pub fn square_name(index: usize, size: usize) -> String {
    crosses(size).name(index)
}

/// Reads a cross name on a board of side `size`.
pub fn parse_square(text: &str, size: usize) -> Result<usize, ParseMoveError> {
    crosses(size)
        .parse(text)
        .map_err(|e| ParseMoveError::new(text, e.to_string()))
}

fn side_char(p: Player) -> char {
    match p {
        Player::First => 'W',
        Player::Second => 'B',
    }
}

/// Writes the board and side to move.
#[must_use]
pub fn write(board: &Board, turn: Player) -> String {
    let cells: Vec<Option<char>> = board
        .cells()
        .iter()
        .map(|c| match *c {
            Cross::Empty => None,
            Cross::Placed(p) => Some(side_char(p)),
            Cross::Occupied(p) => Some(side_char(p).to_ascii_lowercase()),
        })
        .collect();
    format!("{} {}", write_rows(&cells, board.size()), side_char(turn))
}

/// Reads a position text. The board's size is the number of rows, and every row must have that many crosses.
pub fn parse(text: &str) -> Result<(Board, Player), PositionError> {
    let trimmed = text.trim_end();
    let start = text.len() - text.trim_start().len();
    let (rows_text, side) = match trimmed.trim_start().split_once(' ') {
        Some((r, s)) => (r, s.trim()),
        None => (trimmed.trim_start(), ""),
    };
    let rows: Vec<&str> = rows_text.split('/').collect();
    let n = rows.len();
    if !(2..=MAX_SIZE).contains(&n) {
        return Err(PositionError::new(format!(
            "the board has {n} rows; it must be square with a side from 2 to {MAX_SIZE}, rows separated by /"
        )));
    }
    let mut board = Board::new(n as u8);
    let mut offset = start;
    for (row, row_text) in rows.iter().enumerate() {
        let mut col = 0usize;
        let mut digits = String::new();
        let bytes: Vec<(usize, char)> = row_text.char_indices().collect();
        for (k, &(i, c)) in bytes.iter().enumerate() {
            let at = offset + i;
            if c.is_ascii_digit() {
                digits.push(c);
                let next_is_digit = bytes.get(k + 1).is_some_and(|(_, d)| d.is_ascii_digit());
                if !next_is_digit {
                    let run: usize = digits.parse().unwrap_or(usize::MAX);
                    if run == 0 || digits.starts_with('0') {
                        return Err(PositionError::at(
                            at,
                            "a count of empty crosses must be 1 or more",
                        ));
                    }
                    col = col.saturating_add(run);
                    digits.clear();
                }
            } else {
                let cross = match c {
                    'W' => Cross::Placed(Player::First),
                    'B' => Cross::Placed(Player::Second),
                    'w' => Cross::Occupied(Player::First),
                    'b' => Cross::Occupied(Player::Second),
                    '.' | '-' => Cross::Empty,
                    _ => {
                        return Err(PositionError::at(
                            at,
                            format!(
                                "`{c}` is not a cross: use W B (placed), w b (occupied), . or a number (empty)"
                            ),
                        ));
                    }
                };
                if col < n {
                    board.set(row * n + col, cross);
                }
                col += 1;
            }
            if col > n {
                return Err(PositionError::at(
                    at,
                    format!(
                        "row {} has more than {n} crosses; the board has {n} rows and must be square",
                        row + 1
                    ),
                ));
            }
        }
        if col < n {
            return Err(PositionError::at(
                offset + row_text.len(),
                format!("row {} has {col} crosses; the board is {n}x{n}", row + 1),
            ));
        }
        offset += row_text.len() + 1;
    }
    let turn = match side {
        "W" | "w" => Player::First,
        "B" | "b" => Player::Second,
        "" => {
            return Err(PositionError::new(
                "the side to move is missing: add a space and W or B",
            ));
        }
        other => {
            return Err(PositionError::new(format!(
                "`{other}` is not a side to move: use W or B"
            )));
        }
    };
    Ok((board, turn))
}
