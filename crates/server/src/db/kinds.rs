//! The values the database keeps as text, as enums: each is written as its text and read back through
//! `parse`, which refuses a text it does not know with a decoding error that names the column's type.

use gridplay_core::{Outcome, Player, Termination};

macro_rules! stored {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),*
        }

        impl $name {
            /// The stored text.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),*
                }
            }

            /// Reads the stored text.
            ///
            /// # Errors
            ///
            /// A text that is none of the values.
            pub fn parse(text: &str) -> Result<$name, sqlx::Error> {
                match text {
                    $($text => Ok($name::$variant),)*
                    other => Err(sqlx::Error::Decode(
                        format!("`{other}` is not a {}", stringify!($name)).into(),
                    )),
                }
            }
        }

        /// Described as its stored texts (a derived schema would not see the names given through the macro).
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::Type::String)
                    .enum_values(Some([$($text),*]))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

stored!(
    /// Where a game stands.
    GameStatus {
        Active = "active",
        Finished = "finished",
        /// Ended without result before both sides moved.
        Aborted = "aborted",
        /// A replay made from a file: never played here.
        Imported = "imported",
    }
);

stored!(
    /// The result of a finished game.
    Winner { First = "first", Second = "second", Draw = "draw" }
);

stored!(
    /// Why a game ended: the rules library's [`Termination`], or an abort.
    EndReason {
        Rules = "rules",
        Repetition = "repetition",
        QuietMoves = "quiet-moves",
        Agreement = "agreement",
        Resignation = "resignation",
        Timeout = "timeout",
        Abandoned = "abandoned",
        /// The opponent claimed the game after the player's pages were all gone.
        Left = "left",
        Aborted = "aborted",
    }
);

stored!(
    /// A game's chat room: its players', or its spectators'.
    Room { Players = "players", Spectators = "spectators" }
);

stored!(
    /// What an action of a game is.
    ActionKind {
        Move = "move",
        Resign = "resign",
        OfferDraw = "offer-draw",
        AcceptDraw = "accept-draw",
        DeclineDraw = "decline-draw",
        Abort = "abort",
        Claim = "claim",
        /// A draw claimed after the opponent's pages were all gone from a live game.
        ClaimDraw = "claim-draw",
        /// The server's: a live clock ran out.
        Timeout = "timeout",
        /// A request to take back one's last move (casual games).
        OfferTakeback = "offer-takeback",
        /// The opponent (or the engine) agreed: the moves back to the asker's last one are taken back.
        Takeback = "takeback",
        DeclineTakeback = "decline-takeback",
    }
);

stored!(
    /// How a tournament pairs its players.
    TournamentKind { Swiss = "swiss", RoundRobin = "round-robin" }
);

stored!(
    /// Where a tournament stands.
    TournamentStatus { Open = "open", Running = "running", Finished = "finished" }
);

stored!(
    /// Points a tournament player got without a game.
    ByeKind {
        /// No opponent was left for the player this round.
        Bye = "bye",
        /// The opponent withdrew.
        Forfeit = "forfeit",
    }
);

stored!(
    /// The side a challenger asks for.
    ChallengeColor {
        First = "first",
        Second = "second",
        /// Drawn by lot when the game starts.
        Random = "random",
    }
);

stored!(
    /// Where a challenge stands.
    ChallengeStatus {
        Open = "open",
        /// Accepted: its game was made.
        Accepted = "accepted",
        /// Withdrawn by its creator.
        Cancelled = "cancelled",
        /// Refused by the player it named.
        Declined = "declined",
    }
);

impl From<Outcome> for Winner {
    fn from(o: Outcome) -> Winner {
        match o {
            Outcome::Win {
                winner: Player::First,
            } => Winner::First,
            Outcome::Win {
                winner: Player::Second,
            } => Winner::Second,
            Outcome::Draw => Winner::Draw,
        }
    }
}

impl Winner {
    /// The winning side, `None` for a draw.
    #[must_use]
    pub fn side(self) -> Option<Player> {
        match self {
            Winner::First => Some(Player::First),
            Winner::Second => Some(Player::Second),
            Winner::Draw => None,
        }
    }
}

impl From<Termination> for EndReason {
    fn from(t: Termination) -> EndReason {
        match t {
            Termination::Rules => EndReason::Rules,
            Termination::Repetition => EndReason::Repetition,
            Termination::QuietMoves => EndReason::QuietMoves,
            Termination::Agreement => EndReason::Agreement,
            Termination::Resignation => EndReason::Resignation,
            Termination::Timeout => EndReason::Timeout,
            Termination::Abandoned => EndReason::Abandoned,
            Termination::Left => EndReason::Left,
        }
    }
}

/// Reads a stored side (`first`, `second`).
///
/// # Errors
///
/// Any other text.
pub(crate) fn side(text: &str) -> Result<Player, sqlx::Error> {
    [Player::First, Player::Second]
        .into_iter()
        .find(|p| p.as_str() == text)
        .ok_or_else(|| sqlx::Error::Decode(format!("`{text}` is not a side").into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_reads_back_and_strangers_are_refused() {
        for s in [
            GameStatus::Active,
            GameStatus::Finished,
            GameStatus::Aborted,
            GameStatus::Imported,
        ] {
            assert_eq!(GameStatus::parse(s.as_str()).unwrap(), s);
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        for k in [ActionKind::Move, ActionKind::OfferDraw, ActionKind::Timeout] {
            assert_eq!(ActionKind::parse(k.as_str()).unwrap(), k);
        }
        assert_eq!(EndReason::from(Termination::QuietMoves).as_str(), "quiet-moves");
        assert_eq!(Winner::from(Outcome::Draw), Winner::Draw);
        assert_eq!(side("second").unwrap(), Player::Second);
        assert!(
            GameStatus::parse("paused")
                .unwrap_err()
                .to_string()
                .contains("`paused` is not a GameStatus")
        );
        assert!(side("third").is_err());
    }
}
