//! Squares, activations and the one-line position text of Grid Tactics.
//!
//! Files are letters from the left, `a`..`z` then `aa`..`af` (for boards up to 32 wide); ranks are numbers
//! from the bottom, `1`..`N`. An activation is written `<from>-<to>`, then `x<target>` for an attack or
//! `*` (Cleave) / `*<target>` (Shoot, Heal) for the class ability: `c2-c5`, `c2-c5xc6`, `d1-d1*d2`. Ending the
//! turn early is `end`.
//!
//! A position is six fields: the board size; the side to move (`1` or `2`); turns played; turns in a row
//! without damage; `d` if damage was dealt in the current turn, else `-`; and the units, comma-separated, each
//! `<id>.<class><square>:<health>`, with the class letter upper case for the first player (`W`, `A`, `H`) and
//! lower case for the second, and a final `!` on units that have acted this turn.

use gridplay_core::{
    ParseMoveError, Player, PositionError,
    notation::{self, Lettered},
};

use super::{
    MAX_UNITS_ON_BOARD,
    units::{Class, Unit},
};

/// The file name of column `x`: `a`..`z`, then `aa`..`af`.
#[must_use]
pub fn file_name(x: usize) -> String {
    notation::file_name(x as u32)
}

/// The squares of a board of side `n`: files from the left, ranks from the bottom.
fn squares(n: usize) -> Lettered {
    Lettered::new(n as u32, n as u32, false)
}

/// The name of square index `sq` on a board of side `n`.
#[must_use]
pub fn square_name(sq: u16, n: usize) -> String {
    squares(n).name(usize::from(sq))
}

/// A square's name that could not be read, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a square: {reason}")]
pub struct BadSquare {
    pub text: String,
    pub reason: gridplay_core::notation::SquareError,
}

/// Reads a square name on a board of side `n`.
pub fn parse_square(text: &str, n: usize) -> Result<u16, BadSquare> {
    squares(n)
        .parse(text)
        .map(|i| i as u16)
        .map_err(|reason| BadSquare {
            text: text.to_owned(),
            reason,
        })
}

/// An activation as written, with squares resolved but the unit not yet looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    EndTurn,
    Activate {
        from: u16,
        to: u16,
        action: WrittenAction,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrittenAction {
    Wait,
    Attack(u16),
    Ability(Option<u16>),
}

/// Reads `end`, `c2-c5`, `c2-c5xc6`, `d1-d1*` or `d1-d1*d2`.
pub fn parse_move(text: &str, n: usize) -> Result<Written, ParseMoveError> {
    let t = text.trim();
    let err = |why: String| ParseMoveError::new(text, why);
    if t.eq_ignore_ascii_case("end") {
        return Ok(Written::EndTurn);
    }
    let Some((from, rest)) = t.split_once('-') else {
        return Err(err(
            "write an activation as from-to, then xTARGET to attack or * / *TARGET for the ability, or `end`"
                .into(),
        ));
    };
    // The destination is letters then digits; what follows is the action.
    let letters = rest.find(|c: char| !c.is_ascii_lowercase()).unwrap_or(rest.len());
    let digits = rest[letters..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(rest.len(), |d| letters + d);
    let (to, action) = rest.split_at(digits);
    let square = |t: &str| parse_square(t, n).map_err(|e| err(e.to_string()));
    let from = square(from)?;
    let to = square(to)?;
    let action = match action {
        "" => WrittenAction::Wait,
        "*" => WrittenAction::Ability(None),
        a if a.starts_with('x') => WrittenAction::Attack(square(&a[1..])?),
        a if a.starts_with('*') => WrittenAction::Ability(Some(square(&a[1..])?)),
        a => {
            return Err(err(format!(
                "`{a}` is not an action: use xTARGET to attack, * or *TARGET for the ability"
            )));
        }
    };
    Ok(Written::Activate { from, to, action })
}

/// What a position text holds.
pub(super) struct Setup {
    pub size: usize,
    pub turn: Player,
    pub turns: u16,
    pub quiet: u16,
    pub damaged: bool,
    pub units: Vec<Unit>,
}

pub(super) fn write(s: &Setup) -> String {
    let units: Vec<String> = s
        .units
        .iter()
        .map(|u| {
            let letter = u.class.letter();
            let letter = if u.owner == Player::First {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            let used = if u.used { "!" } else { "" };
            format!(
                "{}.{letter}{}:{}{used}",
                u.id,
                square_name(u.square, s.size),
                u.health
            )
        })
        .collect();
    format!(
        "{} {} {} {} {} {}",
        s.size,
        if s.turn == Player::First { 1 } else { 2 },
        s.turns,
        s.quiet,
        if s.damaged { 'd' } else { '-' },
        units.join(",")
    )
}

pub(super) fn parse(text: &str) -> Result<Setup, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 6 {
        return Err(PositionError::new(format!(
            "expected 6 fields (size, side, turns, quiet turns, d or -, units), found {}",
            fields.len()
        )));
    }
    let number = |f: &str, what: &str, max: u32| -> Result<u32, PositionError> {
        f.parse::<u32>()
            .ok()
            .filter(|v| *v <= max)
            .ok_or_else(|| PositionError::new(format!("`{f}` is not a valid {what}")))
    };
    let size = number(fields[0], "board size (16 to 32)", 32)? as usize;
    if size < 16 {
        return Err(PositionError::new(format!(
            "`{size}` is not a valid board size (16 to 32)"
        )));
    }
    let turn = match fields[1] {
        "1" => Player::First,
        "2" => Player::Second,
        other => {
            return Err(PositionError::new(format!(
                "`{other}` is not a side to move: use 1 or 2"
            )));
        }
    };
    let turns = number(fields[2], "turn count", 10_000)? as u16;
    let quiet = number(fields[3], "count of turns without damage", 10_000)? as u16;
    let damaged = match fields[4] {
        "d" => true,
        "-" => false,
        other => {
            return Err(PositionError::new(format!(
                "`{other}` must be d (damage dealt this turn) or -"
            )));
        }
    };
    let mut units: Vec<Unit> = Vec::new();
    for token in fields[5].split(',') {
        let bad = |why: &str| PositionError::new(format!("unit `{token}`: {why}"));
        let (id, rest) = token
            .split_once('.')
            .ok_or_else(|| bad("write it as id.ClassSquare:health, such as 0.Wc1:14"))?;
        let id: u8 = id.parse().map_err(|_| bad("the id must be a number 0-255"))?;
        let mut chars = rest.chars();
        let letter = chars.next().ok_or_else(|| bad("the class letter is missing"))?;
        let class = Class::from_letter(letter)
            .ok_or_else(|| bad("the class must be W, A or H (lower case for side 2)"))?;
        let owner = if letter.is_ascii_uppercase() {
            Player::First
        } else {
            Player::Second
        };
        let rest = chars.as_str();
        let (rest, used) = match rest.strip_suffix('!') {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let (square, health) = rest
            .split_once(':')
            .ok_or_else(|| bad("the health is missing (:health)"))?;
        let square = parse_square(square, size).map_err(|e| bad(&e.to_string()))?;
        let health: i32 = health.parse().map_err(|_| bad("the health must be a number"))?;
        if !(1..=class.stats().health).contains(&health) {
            return Err(bad(&format!(
                "a {}'s health is 1 to {}",
                class.name(),
                class.stats().health
            )));
        }
        if units.iter().any(|u| u.square == square) {
            return Err(bad("two units stand on one square"));
        }
        if units.iter().any(|u| u.id == id) {
            return Err(bad("two units have the same id"));
        }
        units.push(Unit {
            id,
            owner,
            class,
            square,
            health,
            used,
        });
    }
    if units.len() > MAX_UNITS_ON_BOARD {
        return Err(PositionError::new(format!(
            "there are more than {MAX_UNITS_ON_BOARD} units"
        )));
    }
    if units.iter().any(|u| u.used && u.owner != turn) {
        return Err(PositionError::new(
            "only units of the side to move can have acted this turn",
        ));
    }
    Ok(Setup {
        size,
        turn,
        turns,
        quiet,
        damaged,
        units,
    })
}
