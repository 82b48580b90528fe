use std::{fmt, sync::Arc};

use thiserror::Error;

/// A move's text that could not be read at all (bad syntax), before any question of legality.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot read move `{text}`: {reason}")]
pub struct ParseMoveError {
    pub text: String,
    pub reason: String,
}

impl ParseMoveError {
    pub fn new(text: impl Into<String>, reason: impl Into<String>) -> Self {
        ParseMoveError {
            text: text.into(),
            reason: reason.into(),
        }
    }
}

/// A well-formed move that is not legal in this position, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("illegal move `{mv}`: {reason}")]
pub struct IllegalMove {
    pub mv: String,
    pub reason: Reason,
}

impl IllegalMove {
    pub fn new(mv: impl Into<String>, reason: impl Into<Reason>) -> Self {
        IllegalMove {
            mv: mv.into(),
            reason: reason.into(),
        }
    }
}

/// Why a move is not legal: a reason every game shares, or one of the game's own rules.
#[derive(Clone, Debug, Error)]
pub enum Reason {
    #[error("the game is over")]
    GameOver,
    #[error("not a legal move in this position")]
    NotLegal,
    /// One of the game's own reasons: each game has an enum of them (`gridplay_games::reversi::Illegal`...).
    #[error("{0}")]
    Rule(Arc<dyn RuleReason>),
}

/// A game's own enum of reasons for refusing a move. Its `Display` is the sentence a player reads.
pub trait RuleReason: std::error::Error + Send + Sync + 'static {}

impl<R: std::error::Error + Send + Sync + 'static> RuleReason for R {}

impl Reason {
    /// A reason of the game's own.
    pub fn rule(reason: impl RuleReason) -> Reason {
        Reason::Rule(Arc::new(reason))
    }
}

impl PartialEq for Reason {
    fn eq(&self, other: &Reason) -> bool {
        match (self, other) {
            (Reason::GameOver, Reason::GameOver) | (Reason::NotLegal, Reason::NotLegal) => true,
            (Reason::Rule(a), Reason::Rule(b)) => a.to_string() == b.to_string(),
            _ => false,
        }
    }
}

impl Eq for Reason {}

/// Why a move given as text was refused: it could not be read, or it is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// A checked play that was refused. It hands back the untouched position with the reason.
#[derive(Clone, PartialEq, Eq, Error)]
#[error("{error}")]
pub struct PlayError<P> {
    pub position: P,
    pub error: IllegalMove,
}

impl<P> fmt::Debug for PlayError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlayError")
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// A one-line position text that could not be read or does not describe a valid position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct PositionError {
    /// Byte offset into the text where the problem was found, when there is one.
    pub at: Option<usize>,
    pub reason: String,
}

impl PositionError {
    pub fn new(reason: impl Into<String>) -> Self {
        PositionError {
            at: None,
            reason: reason.into(),
        }
    }

    pub fn at(at: usize, reason: impl Into<String>) -> Self {
        PositionError {
            at: Some(at),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some(at) => write!(f, "bad position at character {}: {}", at + 1, self.reason),
            None => write!(f, "bad position: {}", self.reason),
        }
    }
}
