//! The rules of the gridplay games. Each game is one module of the same shape:
//!
//! - `mod.rs`: the [`gridplay_core::Game`] variant with its settings, and the position type;
//! - `board.rs` (or `bitboard.rs`): the board representation and move generation;
//! - `notation.rs`: squares, moves and the one-line position text;
//! - `tests.rs`: one test per numbered rule of `docs/rules/<game>.md`.
//!
//! [`registry`] names them for the server and the command line.

pub mod checkers;
pub mod cornered;
pub mod reversi;
pub mod tactics;
pub mod tictactoe;
pub mod ywf;

mod registry;

pub use registry::{registry, registry_with_test_games};
