//! What a platform needs to know about a game besides its rules: its rules document, how a person enters a
//! move, how its board and pieces look, where each side starts, and its file format. Each game module states
//! these once, in a [`GameModule`], and the registry hands them to the server and the browser, which name no
//! game.

use serde::Serialize;

use crate::{Codec, RuleExample, SettingDoc};

/// A piece a board editor offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EditorPiece {
    /// The piece's kind, as [`crate::Piece::kind`] names it.
    pub kind: &'static str,
    /// Its side, `None` for a neutral piece.
    pub owner: Option<crate::Player>,
    /// The character [`crate::Game::setup`] reads, as [`crate::Piece::glyph`] writes it.
    pub glyph: char,
    /// Drawn translucent.
    pub ghost: bool,
}

/// Everything about one game that is not a rule, in one place.
#[derive(Clone, Copy)]
pub struct GameModule {
    pub title: &'static str,
    /// One sentence for menus.
    pub about: &'static str,
    pub settings: &'static [SettingDoc],
    /// Small positions that show the rules, for the rules pages.
    pub examples: &'static [RuleExample],
    /// The rules document, in Markdown, one per language.
    pub rules: &'static [RulesDocument],
    /// How a person enters a move.
    pub entry: MoveEntry,
    /// How the board and the pieces are drawn.
    pub look: Look,
    /// The edge of the board each side starts from (first player first), `None` where pieces start nowhere in
    /// particular. A side whose home is the top sees the board turned, so that its pieces start nearest to it.
    pub home: [Option<Edge>; 2],
    /// Words for the kinds of moves (`MoveView::kind`) a person chooses between, as kind and label.
    pub move_kinds: &'static [(&'static str, &'static str)],
    /// A legend for pieces whose meaning the drawing alone does not tell, as piece kind and words.
    pub legend: &'static [(&'static str, &'static str)],
    /// The game's file format for export and import.
    pub codec: &'static dyn Codec,
    /// The pieces a board editor offers, as the board draws them; [`crate::Game::setup`] reads their
    /// characters.
    pub pieces: &'static [EditorPiece],
    /// The module's words in other languages than English: every text above that people read (title, about,
    /// settings, examples, move kinds, legend), and the words its board views use (side names, piece kinds,
    /// the keys and values of `BoardView::info`).
    pub translations: &'static [Translation],
    /// Plies ahead of a game in play whose positions the fair-play rule guards along with the live one: deep
    /// enough that the positions a player would ask about to choose the next move are covered, shallow enough
    /// that the set stays small where a position has many moves (each game says why its depth is enough).
    pub help_horizon: u32,
}

impl std::fmt::Debug for GameModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameModule")
            .field("title", &self.title)
            .field("entry", &self.entry)
            .field("codec", &self.codec.extension())
            .finish_non_exhaustive()
    }
}

impl GameModule {
    /// The rules document in `language` (`en`, `ja`), or the first one there is.
    #[must_use]
    pub fn rules_in(&self, language: &str) -> Option<&'static RulesDocument> {
        self.rules
            .iter()
            .find(|d| d.language == language)
            .or_else(|| self.rules.first())
    }

    /// `english` in `language`: the module's translation where it has one, else the English itself.
    #[must_use]
    pub fn word<'a>(&self, language: &str, english: &'a str) -> &'a str {
        self.words(language)
            .iter()
            .find(|(en, _)| *en == english)
            .map_or(english, |(_, there)| there)
    }

    /// Every translated text of the module in `language`, as English and translation (empty for English).
    #[must_use]
    pub fn words(&self, language: &str) -> &'static [(&'static str, &'static str)] {
        self.translations
            .iter()
            .find(|t| t.language == language)
            .map_or(&[], |t| t.texts)
    }

    /// Every English text of the module that a page shows as it is: the title, the description, the settings'
    /// labels, help and words, the examples' titles and texts, the move kinds' labels and the legend. (The words of board
    /// views are found by playing: see the games' translation tests.)
    #[must_use]
    pub fn texts(&self) -> Vec<&'static str> {
        let mut out = vec![self.title, self.about];
        out.extend(self.settings.iter().flat_map(SettingDoc::texts));
        for x in self.examples {
            out.extend([x.title, x.text]);
        }
        out.extend(self.move_kinds.iter().map(|(_, label)| *label));
        out.extend(self.legend.iter().map(|(_, words)| *words));
        out
    }

    /// Whether `side` (0 first, 1 second) sees the board turned.
    #[must_use]
    pub fn rotated(&self, side: usize) -> bool {
        self.home[side] == Some(Edge::Top)
    }
}

/// A game's rules as a Markdown document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RulesDocument {
    /// An IETF language tag: `en`, `ja`.
    pub language: &'static str,
    pub markdown: &'static str,
}

impl RulesDocument {
    /// The rules in English.
    #[must_use]
    pub const fn english(markdown: &'static str) -> RulesDocument {
        RulesDocument::new("en", markdown)
    }

    /// The rules in `language`.
    #[must_use]
    pub const fn new(language: &'static str, markdown: &'static str) -> RulesDocument {
        RulesDocument { language, markdown }
    }
}

/// A module's texts in one language: pairs of the English text and its translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Translation {
    /// An IETF language tag: `ja`.
    pub language: &'static str,
    pub texts: &'static [(&'static str, &'static str)],
}

/// How a person enters a move on the board. The browser turns clicks and drags into one of the legal moves the
/// server listed, in one of these ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum MoveEntry {
    /// Click an empty cell. Where one cell allows several kinds of move (YWF's place and change), the player
    /// picks the kind first.
    Place,
    /// Pick up a piece, then click (or drag to) each landing square in turn (checkers' multi-jumps).
    Path,
    /// Pick a unit, then the square it goes to, then what it acts on there (Grid Tactics).
    Activate,
}

/// An edge of the board as drawn unturned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Edge {
    Top,
    Bottom,
}

/// The colours of a board, and the drawing of each kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Look {
    /// CSS colours of the squares (the light ones only where the board is not checkered), the grid lines
    /// (none where `None`) and the coordinates.
    pub light: &'static str,
    pub dark: &'static str,
    pub line: Option<&'static str>,
    pub coords: &'static str,
    /// Whether squares alternate light and dark.
    pub checkered: bool,
    /// Whether the pointer tints the cell under it green where a move can be played and red elsewhere.
    pub cursor_tint: bool,
    /// The drawing of each piece kind (`Piece::kind`); kinds not listed are drawn as a [`Sprite::Disc`].
    pub pieces: &'static [(&'static str, Sprite)],
    /// The kinds of move that act on one's own piece (a heal): their targets are tinted as help, the others'
    /// as an attack.
    pub helping: &'static [&'static str],
}

/// A drawing of a piece, in its owner's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Sprite {
    /// A flat disc filling the cell.
    Disc,
    /// A smaller disc.
    SmallDisc,
    /// A disc with a light centre.
    RingedDisc,
    /// A draughts man: a disc with a shadow and an inner ring.
    Checker,
    /// A draughts man with a crown.
    CrownedChecker,
    /// A unit with a sword and shield emblem.
    Sword,
    /// A unit with a bow emblem.
    Bow,
    /// A unit with a cross emblem.
    Cross,
    /// An X drawn in two strokes.
    Saltire,
    /// An O drawn as a ring.
    Ring,
}
