use std::fmt::Debug;

use serde::{Deserialize, Serialize};

use crate::{GameSpec, PositionError, SpecError};

/// A game variant: a game with its settings fixed, such as Cornered Reversi on 11x11.
///
/// It is immutable and cheap to share. It makes start positions and reads position texts, which carry no
/// settings of their own.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    type Position: crate::Position;

    /// The registry name (`reversi`, `cornered`, ...).
    const NAME: &'static str;

    /// Builds the variant from a spec's settings, refusing unknown settings and bad values.
    fn from_spec(spec: &GameSpec) -> Result<Self, SpecError>;

    /// Builds the variant of a game that was accepted earlier and stored. Rules that govern only the
    /// creation of new games (Grid Tactics' army composition) are not applied again, so that a stored game
    /// still loads after such a rule changes. By default the same as `from_spec`.
    fn from_stored_spec(spec: &GameSpec) -> Result<Self, SpecError> {
        Self::from_spec(spec)
    }

    /// The canonical spec: the name and every setting that differs from its default.
    fn spec(&self) -> GameSpec;

    /// Names, sides and board size, for menus and displays.
    fn info(&self) -> GameInfo;

    /// The start position.
    fn start(&self) -> Self::Position;

    /// Reads the one-line position text that [`crate::Position::to_text`] writes.
    fn parse_position(&self, text: &str) -> Result<Self::Position, PositionError>;

    /// The position a board editor sets up: `cells` row by row from the top-left, each empty or the character
    /// of one of the game's editor pieces ([`crate::GameModule::pieces`]), with `turn` to move. What the cells
    /// do not show comes from `base`, the position being edited (a unit's health where its cell keeps its
    /// piece; the game's counters).
    ///
    /// # Errors
    ///
    /// Cells that are not the board's, a character that is no piece of the game, or a position the game
    /// cannot reach, each with the reason.
    fn setup(
        &self,
        base: &Self::Position,
        cells: &[Option<char>],
        turn: crate::Player,
    ) -> Result<Self::Position, PositionError>;
}

/// The cells of a board editor checked against the board's `width` x `height` and the game's piece
/// characters `pieces`.
///
/// # Errors
///
/// The wrong number of cells, or a character that is not one of `pieces`, with the cell's name.
pub fn check_cells(
    cells: &[Option<char>],
    width: u32,
    height: u32,
    pieces: &str,
) -> Result<(), PositionError> {
    let want = (width * height) as usize;
    if cells.len() != want {
        return Err(PositionError::new(format!(
            "the board has {want} cells ({width}x{height}), not {}",
            cells.len()
        )));
    }
    for (i, c) in cells.iter().enumerate() {
        if let Some(c) = c
            && !pieces.contains(*c)
        {
            return Err(PositionError::new(format!(
                "`{c}` on cell {} is not a piece of this game (its pieces are {})",
                i + 1,
                pieces
                    .chars()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    Ok(())
}

/// Static facts about a game variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameInfo {
    /// Registry name.
    pub name: String,
    /// Human title, such as "Cornered Reversi".
    pub title: String,
    pub width: u32,
    pub height: u32,
    /// The two sides, first player first.
    pub sides: [SideInfo; 2],
}

/// One side of a game as people call it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SideInfo {
    /// "Black", "White", "Red", "Warui-ko"...
    pub name: String,
    /// A CSS colour name for its pieces.
    pub color: String,
}

impl SideInfo {
    #[must_use]
    pub fn new(name: &str, color: &str) -> SideInfo {
        SideInfo {
            name: name.to_owned(),
            color: color.to_owned(),
        }
    }
}
