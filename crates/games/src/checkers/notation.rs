//! PDN notation: squares 1-32 (1 = b8, 4 = h8, 29 = a1, 32 = g1), moves `11-15` and `9x18x27` with every
//! landing square, and positions in checkers FEN: `B:W21,22,...,32:B1,...,12`, the side to move first, `K`
//! before a king's square. Red is PDN's Black.

use std::fmt::Write as _;

use gridplay_core::{ParseMoveError, Player, PositionError};

use super::bitboard::{Bb, Board};

/// A move as written, before it is matched against the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// `11-15`: square indices (number - 1).
    Step(u8, u8),
    /// `9x18x27`: the start and every landing square, as indices.
    Jumps(Vec<u8>),
}

fn parse_number(text: &str, whole: &str) -> Result<u8, ParseMoveError> {
    match text.parse::<u8>() {
        Ok(n @ 1..=32) if !text.starts_with('+') => Ok(n - 1),
        _ if text.is_empty() => Err(ParseMoveError::new(whole, "a square number is missing")),
        _ => Err(ParseMoveError::new(
            whole,
            format!("`{text}` is not a square: squares are numbered 1 to 32"),
        )),
    }
}

/// Reads `11-15` or `9x18x27` (also `9X18`, and `9:18` as some programs write jumps).
pub fn parse_move(text: &str) -> Result<Written, ParseMoveError> {
    let t = text.trim();
    if t.contains('-') {
        let parts: Vec<&str> = t.split('-').collect();
        if parts.len() != 2 {
            return Err(ParseMoveError::new(text, "a step is two squares, such as 11-15"));
        }
        return Ok(Written::Step(
            parse_number(parts[0], text)?,
            parse_number(parts[1], text)?,
        ));
    }
    let parts: Vec<&str> = t.split(['x', 'X', ':']).collect();
    if parts.len() < 2 {
        return Err(ParseMoveError::new(
            text,
            "write a step as 11-15 and a capture as 9x18 or 9x18x27",
        ));
    }
    parts
        .iter()
        .map(|p| parse_number(p, text))
        .collect::<Result<Vec<u8>, _>>()
        .map(Written::Jumps)
}

fn side_char(p: Player) -> char {
    match p {
        Player::First => 'B',
        Player::Second => 'W',
    }
}

/// Writes a position as FEN: side to move, White's pieces, then Black's (Red's); men, then kings, ascending.
#[must_use]
pub fn write_fen(b: &Board, turn: Player) -> String {
    let mut s = String::new();
    s.push(side_char(turn));
    for p in [Player::Second, Player::First] {
        s.push(':');
        s.push(side_char(p));
        let own = b.pieces[p.index()];
        let mut first = true;
        for (set, prefix) in [(own & !b.kings, ""), (own & b.kings, "K")] {
            let mut rest = set;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                if !first {
                    s.push(',');
                }
                first = false;
                let _ = write!(s, "{prefix}{}", sq + 1);
            }
        }
    }
    s
}

/// Reads checkers FEN. The two piece lists may come in either order; a list may use ranges (`1-12`) and
/// `K` before kings; a final `.` is allowed.
pub fn parse_fen(text: &str) -> Result<(Board, Player), PositionError> {
    // A PDN tag, `[FEN "B:W21-32:B1-12"]`, holds the same text.
    if let Some(inner) = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .and_then(|t| t.trim().strip_prefix("FEN"))
    {
        let quoted = inner.trim();
        let Some(fen) = quoted.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else {
            return Err(PositionError::new(
                "a PDN FEN tag holds the position in double quotes: [FEN \"B:W21-32:B1-12\"]",
            ));
        };
        return parse_fen(fen);
    }
    let lead = text.len() - text.trim_start().len();
    let t = text.trim();
    let t = t.strip_suffix('.').unwrap_or(t);
    let mut fields = t.split(':');
    let turn = match fields.next().map(str::trim) {
        Some("B" | "b") => Player::First,
        Some("W" | "w") => Player::Second,
        Some("") | None => {
            return Err(PositionError::new(
                "the side to move is missing: FEN starts with B or W, as in B:W21-32:B1-12",
            ));
        }
        Some(other) => {
            return Err(PositionError::at(
                lead,
                format!("`{other}` is not a side to move: use B (Red) or W (White)"),
            ));
        }
    };
    let mut board = Board::default();
    let mut seen = [false, false];
    let mut offset = lead + t.find(':').map_or(t.len(), |i| i + 1);
    for field in fields {
        let at = offset;
        offset += field.len() + 1;
        let field = field.trim();
        let (colour, list) = match field.chars().next() {
            Some('B' | 'b') => (Player::First, &field[1..]),
            Some('W' | 'w') => (Player::Second, &field[1..]),
            _ => {
                return Err(PositionError::at(
                    at,
                    format!("`{field}` must start with B or W, the colour of its pieces"),
                ));
            }
        };
        if std::mem::replace(&mut seen[colour.index()], true) {
            return Err(PositionError::at(
                at,
                format!("the pieces of {} are listed twice", side_char(colour)),
            ));
        }
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (king, squares) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let bad = || {
                PositionError::at(
                    at,
                    format!("`{item}` is not a square 1-32 (or a range such as 1-12)"),
                )
            };
            let (lo, hi) = match squares.split_once('-') {
                Some((a, b)) => (
                    a.parse::<u32>().map_err(|_| bad())?,
                    b.parse::<u32>().map_err(|_| bad())?,
                ),
                None => {
                    let n = squares.parse::<u32>().map_err(|_| bad())?;
                    (n, n)
                }
            };
            if !(1..=32).contains(&lo) || !(1..=32).contains(&hi) || lo > hi {
                return Err(bad());
            }
            for n in lo..=hi {
                let bit: Bb = 1 << (n - 1);
                if board.occupied() & bit != 0 {
                    return Err(PositionError::at(at, format!("square {n} is given twice")));
                }
                board.pieces[colour.index()] |= bit;
                if king {
                    board.kings |= bit;
                }
            }
        }
    }
    for p in [Player::First, Player::Second] {
        let n = board.pieces[p.index()].count_ones();
        if n > 12 {
            return Err(PositionError::new(format!(
                "{} has {n} pieces; a side has at most 12",
                side_char(p)
            )));
        }
        let uncrowned = board.pieces[p.index()] & !board.kings & super::bitboard::king_row(p);
        if uncrowned != 0 {
            return Err(PositionError::new(format!(
                "a {} man on {} stands on its king row and would be a king: write K{}",
                side_char(p),
                uncrowned.trailing_zeros() + 1,
                uncrowned.trailing_zeros() + 1
            )));
        }
    }
    Ok((board, turn))
}
