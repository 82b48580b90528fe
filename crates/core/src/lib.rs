//! The game interface of gridplay.
//!
//! Every game implements [`Game`] (a variant with its settings) and [`Position`] (a state of play). Engines and
//! tests use the typed traits; the server and the command line pick a game by a [`GameSpec`] string such as
//! `cornered:size=11` through a [`Registry`] and work with the object-safe [`DynGame`] and [`DynPosition`].
//!
//! Nothing game-specific lives here.
//!
//! # Examples
//!
//! ```
//! use gridplay_core::GameSpec;
//!
//! let spec: GameSpec = "cornered:size=11,tie=black".parse().unwrap();
//! assert_eq!(spec.name(), "cornered");
//! assert_eq!(spec.get("size"), Some("11"));
//! assert_eq!(spec.to_string(), "cornered:size=11,tie=black");
//! ```

#![forbid(unsafe_code)]

pub mod codec;
mod dynamic;
mod error;
mod game;
mod module;
mod movelist;
pub mod notation;
mod player;
mod position;
mod record;
mod registry;
mod setting;
mod spec;
mod view;

pub mod perft;
pub mod playout;
pub mod testkit;

pub use codec::{Codec, CodecError, GameFile, MoveListCodec, TagError, Tags};
pub use dynamic::{DynGame, DynPosition, Played};
pub use error::{IllegalMove, MoveError, ParseMoveError, PlayError, PositionError, Reason, RuleReason};
pub use game::{Game, GameInfo, SideInfo, check_cells};
pub use module::{Edge, EditorPiece, GameModule, Look, MoveEntry, RulesDocument, Sprite, Translation};
pub use movelist::MoveList;
pub use player::{Outcome, Player, Score};
pub use position::{Position, least_image};
pub use record::{GameRecord, HistoryRules, RecordError, Termination};
pub use registry::{Registry, RegistryEntry, RuleExample};
pub use setting::{ArmyCheck, ArmyKind, LayoutKind, LayoutPiece, SettingChoice, SettingDoc, SettingKind};
pub use spec::{GameSpec, Settings, SpecError};
pub use view::{BoardView, Cell, Grid, MoveView, Piece, Status, letter_files};
