//! Squares `a1`..`i9` (file a on the left, rank 1 at the top); moves `c3` (Play), `*d6` (Change) and `pass`.
//!
//! The position text is four fields: the rows from rank 1 down, separated by `/` (`W` Warui-ko, `Y` Yoi-ko,
//! `F` Futsu-no-ko, a number for that many empty squares); the side to act (`W` or `Y`); where the token
//! lies (`W` on Warui-ko's side, `C` in the centre, `Y` on Yoi-ko's side); and `c` if the previous action was
//! a Change, else `-`. The start is `9/9/9/3YWF3/3WFY3/3FYW3/9/9/9 W C -`.

use gridplay_core::{
    ParseMoveError, Player, PositionError,
    notation::{Lettered, write_rows as write_runs},
};

use super::{
    Move,
    board::{Board, SIZE, Square},
};

/// The squares: files a-i from the left, ranks 1-9 from the top.
const SQUARES: Lettered = Lettered::new(SIZE as u32, SIZE as u32, true);

/// The name of square `i`, such as `e5`.
#[must_use]
pub fn square_name(i: usize) -> String {
    SQUARES.name(i)
}

/// Reads a square name, such as `e5`.
pub fn parse_square(text: &str) -> Result<usize, ParseMoveError> {
    SQUARES
        .parse(text)
        .map_err(|e| ParseMoveError::new(text, e.to_string()))
}

/// Reads `c3` (Play), `*d6` (Change) or `pass`.
pub fn parse_move(text: &str) -> Result<Move, ParseMoveError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let wrap = |e: ParseMoveError| ParseMoveError::new(text, e.reason);
    match t.strip_prefix('*') {
        Some(sq) => parse_square(sq).map(|i| Move::Change(i as u8)).map_err(wrap),
        None => parse_square(t).map(|i| Move::Play(i as u8)).map_err(|e| {
            ParseMoveError::new(
                text,
                format!("{}; write a Play as e5, a Change as *e5, or pass", e.reason),
            )
        }),
    }
}

#[must_use]
pub fn move_text(m: Move) -> String {
    match m {
        Move::Play(i) => square_name(usize::from(i)),
        Move::Change(i) => format!("*{}", square_name(usize::from(i))),
        Move::Pass => "pass".to_owned(),
    }
}

pub(super) fn side_char(p: Player) -> char {
    match p {
        Player::First => 'W',
        Player::Second => 'Y',
    }
}

fn piece_char(s: Square) -> Option<char> {
    match s {
        Square::Empty => None,
        Square::Own(p) => Some(side_char(p)),
        Square::Futsu => Some('F'),
    }
}

/// The rows field alone (also the value of the `layout` setting).
#[must_use]
pub fn write_rows(board: &Board) -> String {
    let cells: Vec<Option<char>> = board.squares.iter().map(|&sq| piece_char(sq)).collect();
    write_runs(&cells, SIZE)
}

/// Reads the rows field; `offset` is where it starts in the whole text, for error positions.
pub fn parse_rows(text: &str, offset: usize) -> Result<Board, PositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIZE {
        return Err(PositionError::new(format!(
            "the board has {} rows; it needs 9, separated by /",
            rows.len()
        )));
    }
    let mut board = Board::empty();
    let mut at = offset;
    for (row, row_text) in rows.iter().enumerate() {
        let mut col = 0;
        for (i, c) in row_text.char_indices() {
            let square = match c {
                '1'..='9' => {
                    col += c as usize - '0' as usize;
                    None
                }
                'W' => Some(Square::Own(Player::First)),
                'Y' => Some(Square::Own(Player::Second)),
                'F' => Some(Square::Futsu),
                '-' | '.' => Some(Square::Empty),
                _ => {
                    return Err(PositionError::at(
                        at + i,
                        format!("`{c}` is not a square: use W, Y, F, or a digit for empty squares"),
                    ));
                }
            };
            if let Some(s) = square {
                if col < SIZE {
                    board.squares[row * SIZE + col] = s;
                }
                col += 1;
            }
            if col > SIZE {
                return Err(PositionError::at(
                    at + i,
                    format!("rank {} has more than 9 squares", row + 1),
                ));
            }
        }
        if col < SIZE {
            return Err(PositionError::at(
                at + row_text.len(),
                format!("rank {} has {col} squares; it needs 9", row + 1),
            ));
        }
        at += row_text.len() + 1;
    }
    Ok(board)
}

/// What a parsed position text holds.
pub(super) struct Setup {
    pub board: Board,
    pub turn: Player,
    pub token: Option<Player>,
    pub last_change: bool,
}

pub(super) fn parse(text: &str) -> Result<Setup, PositionError> {
    let lead = text.len() - text.trim_start().len();
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(PositionError::new(format!(
            "expected 4 fields (rows, side to act, token, last action), found {}; the start is \
             `9/9/9/3YWF3/3WFY3/3FYW3/9/9/9 W C -`",
            fields.len()
        )));
    }
    let board = parse_rows(fields[0], lead)?;
    let turn = match fields[1] {
        "W" => Player::First,
        "Y" => Player::Second,
        other => {
            return Err(PositionError::new(format!(
                "`{other}` is not a side to act: use W or Y"
            )));
        }
    };
    let token = match fields[2] {
        "W" => Some(Player::First),
        "C" => None,
        "Y" => Some(Player::Second),
        other => {
            return Err(PositionError::new(format!(
                "`{other}` is not a token place: use W, C or Y"
            )));
        }
    };
    let last_change = match fields[3] {
        "c" => true,
        "-" => false,
        other => {
            return Err(PositionError::new(format!(
                "`{other}` is not a last action: use c after a Change, else -"
            )));
        }
    };
    Ok(Setup {
        board,
        turn,
        token,
        last_change,
    })
}

pub(super) fn write(board: &Board, turn: Player, token: Option<Player>, last_change: bool) -> String {
    format!(
        "{} {} {} {}",
        write_rows(board),
        side_char(turn),
        token.map_or('C', side_char),
        if last_change { 'c' } else { '-' }
    )
}
