//! What a player asks of a game in play, and why it is refused.

use gridplay_core::RecordError;

use super::TIMEOUT_GONE;
use crate::db::ActionKind;
use crate::game::codes::ErrorCode;

/// What a player asks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move(String),
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// Ends the game without result, before both sides have moved.
    Abort,
    /// Claims the game when the opponent has let a correspondence deadline pass, or has left a live game (all
    /// of the opponent's pages gone for the claim's time).
    Claim,
    /// Claims a draw when the opponent has left a live game.
    ClaimDraw,
    /// The server's: the side's live clock ran out (`gone`: while all of the side's pages were gone, which
    /// counts as leaving the game).
    Timeout {
        gone: bool,
    },
    /// Asks to take back one's last move (casual games).
    OfferTakeback,
    /// Agrees to the opponent's takeback: the moves back to and including the opponent's last are undone.
    AcceptTakeback,
    DeclineTakeback,
}

impl Action {
    pub(super) fn kind(&self) -> ActionKind {
        match self {
            Action::Move(_) => ActionKind::Move,
            Action::Resign => ActionKind::Resign,
            Action::OfferDraw => ActionKind::OfferDraw,
            Action::AcceptDraw => ActionKind::AcceptDraw,
            Action::DeclineDraw => ActionKind::DeclineDraw,
            Action::Abort => ActionKind::Abort,
            Action::Claim => ActionKind::Claim,
            Action::ClaimDraw => ActionKind::ClaimDraw,
            Action::Timeout { .. } => ActionKind::Timeout,
            Action::OfferTakeback => ActionKind::OfferTakeback,
            Action::AcceptTakeback => ActionKind::Takeback,
            Action::DeclineTakeback => ActionKind::DeclineTakeback,
        }
    }

    pub(super) fn from_row(kind: ActionKind, body: &str) -> Action {
        match kind {
            ActionKind::Move => Action::Move(body.to_owned()),
            ActionKind::Resign => Action::Resign,
            ActionKind::OfferDraw => Action::OfferDraw,
            ActionKind::AcceptDraw => Action::AcceptDraw,
            ActionKind::DeclineDraw => Action::DeclineDraw,
            ActionKind::Abort => Action::Abort,
            ActionKind::Claim => Action::Claim,
            ActionKind::ClaimDraw => Action::ClaimDraw,
            ActionKind::Timeout => Action::Timeout {
                gone: body == TIMEOUT_GONE,
            },
            ActionKind::OfferTakeback => Action::OfferTakeback,
            ActionKind::Takeback => Action::AcceptTakeback,
            ActionKind::DeclineTakeback => Action::DeclineTakeback,
        }
    }
}

/// Why an action or a watch was refused; `code` is stable for clients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveError {
    NotFound,
    NotAPlayer,
    NotYourTurn,
    /// The action was made on an older version than the game's.
    Stale {
        version: u64,
    },
    Refused(String),
    /// A quota is reached; the sentence says which.
    TooMany(String),
    Internal,
}

impl LiveError {
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        match self {
            LiveError::NotFound => ErrorCode::NotFound,
            LiveError::NotAPlayer => ErrorCode::NotAPlayer,
            LiveError::NotYourTurn => ErrorCode::NotYourTurn,
            LiveError::Stale { .. } => ErrorCode::Stale,
            LiveError::Refused(_) => ErrorCode::Refused,
            LiveError::TooMany(_) => ErrorCode::TooMany,
            LiveError::Internal => ErrorCode::Internal,
        }
    }

    #[must_use]
    pub fn message(&self) -> String {
        match self {
            LiveError::NotFound => "no such game".into(),
            LiveError::NotAPlayer => "you are not a player of this game".into(),
            LiveError::NotYourTurn => "it is not your turn".into(),
            LiveError::Stale { version } => {
                format!("the game has moved on to version {version}: look again and retry")
            }
            LiveError::Refused(why) | LiveError::TooMany(why) => why.clone(),
            LiveError::Internal => "internal error".into(),
        }
    }
}

impl From<RecordError> for LiveError {
    fn from(e: RecordError) -> LiveError {
        LiveError::Refused(e.to_string())
    }
}
