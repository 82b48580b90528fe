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
