//! Object-safe views of [`Game`] and [`Position`], for code that picks a game at run time by its spec.

use std::{any::Any, fmt::Debug};

use rand::{Rng, RngExt};

use crate::{
    BoardView, Game, GameInfo, GameSpec, HistoryRules, MoveError, Outcome, Player, Position, PositionError,
    Score, perft::divide,
};

/// A move that was played through [`DynPosition::play_recorded`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move's canonical text.
    pub text: String,
    /// Whether it resets the quiet-move count ([`Position::is_progress`]).
    pub progress: bool,
}

/// A game variant chosen at run time.
pub trait DynGame: Debug + Send + Sync {
    fn spec(&self) -> GameSpec;
    fn info(&self) -> GameInfo;
    fn start(&self) -> Box<dyn DynPosition>;
    fn parse_position(&self, text: &str) -> Result<Box<dyn DynPosition>, PositionError>;
    /// [`Game::setup`]: a board editor's position, from `base`, a position of this game.
    fn setup(
        &self,
        base: &dyn DynPosition,
        cells: &[Option<char>],
        turn: Player,
    ) -> Result<Box<dyn DynPosition>, PositionError>;
    /// The typed game, for code that dispatches on the concrete type (engines).
    fn as_any(&self) -> &dyn Any;
}

impl<G: Game> DynGame for G {
    fn spec(&self) -> GameSpec {
        Game::spec(self)
    }
    fn info(&self) -> GameInfo {
        Game::info(self)
    }
    fn start(&self) -> Box<dyn DynPosition> {
        Box::new(Game::start(self))
    }
    fn parse_position(&self, text: &str) -> Result<Box<dyn DynPosition>, PositionError> {
        Ok(Box::new(Game::parse_position(self, text)?))
    }
    fn setup(
        &self,
        base: &dyn DynPosition,
        cells: &[Option<char>],
        turn: Player,
    ) -> Result<Box<dyn DynPosition>, PositionError> {
        let base = base
            .as_any()
            .downcast_ref::<G::Position>()
            .ok_or_else(|| PositionError::new("the position being edited is of another game"))?;
        Ok(Box::new(Game::setup(self, base, cells, turn)?))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A position whose moves are text: everything a server or a terminal needs, with no type parameters.
pub trait DynPosition: Debug + Send + Sync {
    fn turn(&self) -> Player;
    /// The legal moves' texts, in the game's order.
    fn legal_moves(&self) -> Vec<String>;
    /// Parses, validates and plays a move. On error the position is untouched.
    fn play(&mut self, mv: &str) -> Result<(), MoveError>;
    /// Like [`play`](DynPosition::play), reporting the canonical text and whether the move is progress.
    fn play_recorded(&mut self, mv: &str) -> Result<Played, MoveError>;
    fn history_rules(&self) -> HistoryRules;
    fn repetition_key(&self) -> u64;
    /// The canonical text of a move given in any accepted spelling, if it is legal here.
    fn normalize_move(&self, mv: &str) -> Result<String, MoveError>;
    fn outcome(&self) -> Option<Outcome>;
    fn score(&self) -> Score;
    fn to_text(&self) -> String;
    fn view(&self) -> BoardView;
    fn perft(&self, depth: u32) -> u64;
    /// Perft split by first move.
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// A uniformly random legal move, or `None` when the game is over.
    fn random_move(&self, rng: &mut dyn Rng) -> Option<String>;
    /// [`Position::explorer_key`].
    fn explorer_key(&self) -> String;
    fn fair_play_key(&self) -> String;
    fn box_clone(&self) -> Box<dyn DynPosition>;
    /// The typed position, for code that dispatches on the concrete type (engines).
    fn as_any(&self) -> &dyn Any;
}

impl<P: Position> DynPosition for P {
    fn turn(&self) -> Player {
        Position::turn(self)
    }
    fn legal_moves(&self) -> Vec<String> {
        Position::legal_moves(self)
            .iter()
            .map(|&m| self.move_text(m))
            .collect()
    }
    fn play(&mut self, mv: &str) -> Result<(), MoveError> {
        self.play_text(mv).map(drop)
    }
    fn play_recorded(&mut self, mv: &str) -> Result<Played, MoveError> {
        let m = self.parse_move(mv)?;
        self.validate(m)?;
        let played = Played {
            text: self.move_text(m),
            progress: self.is_progress(m),
        };
        self.play_unchecked(m);
        Ok(played)
    }
    fn history_rules(&self) -> HistoryRules {
        Position::history_rules(self)
    }
    fn repetition_key(&self) -> u64 {
        Position::repetition_key(self)
    }
    fn normalize_move(&self, mv: &str) -> Result<String, MoveError> {
        let m = self.parse_move(mv)?;
        self.validate(m)?;
        Ok(self.move_text(m))
    }
    fn outcome(&self) -> Option<Outcome> {
        Position::outcome(self)
    }
    fn score(&self) -> Score {
        Position::score(self)
    }
    fn to_text(&self) -> String {
        Position::to_text(self)
    }
    fn view(&self) -> BoardView {
        Position::view(self)
    }
    fn perft(&self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        divide(self, depth)
            .into_iter()
            .map(|(m, n)| (self.move_text(m), n))
            .collect()
    }
    fn random_move(&self, rng: &mut dyn Rng) -> Option<String> {
        let moves = Position::legal_moves(self);
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.random_range(0..moves.len())];
        Some(self.move_text(m))
    }
    fn explorer_key(&self) -> String {
        Position::explorer_key(self)
    }
    fn fair_play_key(&self) -> String {
        Position::fair_play_key(self)
    }
    fn box_clone(&self) -> Box<dyn DynPosition> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Clone for Box<dyn DynPosition> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}
