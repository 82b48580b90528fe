//! What a user interface needs to draw a position, and nothing it would have to compute from rules.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::{Outcome, Player, Position, Score};

/// A picture of a position: cells row by row from the top-left, each side's score, whose turn it is, and the
/// legal moves with the cells they touch, so that a board view can show them without knowing any rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardView {
    pub width: u32,
    pub height: u32,
    /// Column labels, left to right.
    pub files: Vec<String>,
    /// Row labels, top to bottom.
    pub ranks: Vec<String>,
    /// `width * height` cells, row by row from the top-left.
    pub cells: Vec<Cell>,
    /// Whose turn it is; `None` once the game is over.
    pub turn: Option<Player>,
    pub score: Score,
    pub status: Status,
    /// Every legal move with the cells it involves.
    pub moves: Vec<MoveView>,
    /// Game-specific facts worth showing, as label and value (for YWF, where the token lies).
    pub info: Vec<(String, String)>,
}

/// One cell of the board.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Cell {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
    /// The square's name where the game numbers its squares (checkers' 1-32), drawn small in a corner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// A piece as it should be drawn.
#[derive(Clone, Debug, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Piece {
    /// The game's name for the piece: `disc`, `placed`, `occupied`, `neutral`, `man`, `king`, a unit class...
    /// (borrowed: a view is built for every move, and its names are the game's constants).
    pub kind: Cow<'static, str>,
    /// The side it belongs to; `None` for a neutral piece.
    pub owner: Option<Player>,
    /// One ASCII character for text displays, as the game's position text writes it.
    pub glyph: char,
    /// Drawn translucent (Cornered Reversi's occupied crosses).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ghost: bool,
    /// A short label drawn on the piece (health, for units).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// Field by field as derived, the one-word fields first: the server compares every cell of two views for each
/// move's event.
impl PartialEq for Piece {
    fn eq(&self, other: &Piece) -> bool {
        self.glyph == other.glyph
            && self.owner == other.owner
            && self.ghost == other.ghost
            && self.kind == other.kind
            && self.label == other.label
    }
}

impl Piece {
    #[must_use]
    pub fn new(kind: &'static str, owner: Option<Player>, glyph: char) -> Piece {
        Piece {
            kind: Cow::Borrowed(kind),
            owner,
            glyph,
            ghost: false,
            label: None,
        }
    }
}

/// Whether the game goes on, and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum Status {
    Ongoing,
    Over { outcome: Outcome },
}

impl From<Option<Outcome>> for Status {
    fn from(outcome: Option<Outcome>) -> Status {
        match outcome {
            None => Status::Ongoing,
            Some(outcome) => Status::Over { outcome },
        }
    }
}

/// One legal move as a user interface enters it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MoveView {
    /// The move's text, which the server accepts.
    pub text: String,
    /// What kind of action it is: `place`, `change`, `pass`, `step`, `jump`, `activate`, `end-turn`...
    pub kind: Cow<'static, str>,
    /// The cell the moving piece starts on, for moves that move a piece (left out of the JSON when none, as is
    /// `target`: a board's legal moves go to the page with every move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<u32>,
    /// The cells the move goes to, in order; for a placement, the one cell placed on.
    pub path: Vec<u32>,
    /// The cell the move acts on after moving (the unit attacked, shot or healed in Grid Tactics).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<u32>,
}

impl MoveView {
    #[must_use]
    pub fn new(text: String, kind: &'static str, from: Option<u32>, path: Vec<u32>) -> MoveView {
        MoveView {
            text,
            kind: Cow::Borrowed(kind),
            from,
            path,
            target: None,
        }
    }
}

/// The board's shape and coordinate labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: u32,
    pub height: u32,
    /// Column labels, left to right.
    pub files: Vec<String>,
    /// Row labels, top to bottom.
    pub ranks: Vec<String>,
}

impl Grid {
    /// Files `a`, `b`, ... and ranks numbered from 1, at the top (`rank_one_at_top`) or at the bottom.
    #[must_use]
    pub fn lettered(width: u32, height: u32, rank_one_at_top: bool) -> Grid {
        let ranks: Vec<String> = if rank_one_at_top {
            (1..=height).map(|r| r.to_string()).collect()
        } else {
            (1..=height).rev().map(|r| r.to_string()).collect()
        };
        Grid {
            width,
            height,
            files: letter_files(width),
            ranks,
        }
    }
}

impl BoardView {
    /// A view of `pos`: whose turn it is, the score and the status come from the position itself.
    #[must_use]
    pub fn of<P: Position>(
        pos: &P,
        grid: Grid,
        cells: Vec<Cell>,
        moves: Vec<MoveView>,
        info: Vec<(String, String)>,
    ) -> BoardView {
        let outcome = pos.outcome();
        BoardView {
            width: grid.width,
            height: grid.height,
            files: grid.files,
            ranks: grid.ranks,
            cells,
            turn: outcome.is_none().then(|| pos.turn()),
            score: pos.score(),
            status: Status::from(outcome),
            moves,
            info,
        }
    }
}

/// Column labels `a`, `b`, ... for a board `width` wide.
#[must_use]
pub fn letter_files(width: u32) -> Vec<String> {
    (0..width).map(crate::notation::file_name).collect()
}
