//! The values the database keeps as text, as enums: each is bound as its text and decoded from it (a row's
//! field of one of these types is read by `#[derive(sqlx::FromRow)]`); a text it does not know is a decoding
//! error that names the column's type.

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

        impl sqlx::Type<sqlx::Any> for $name {
            fn type_info() -> sqlx::any::AnyTypeInfo {
                <str as sqlx::Type<sqlx::Any>>::type_info()
            }
        }

        impl<'r> sqlx::Decode<'r, sqlx::Any> for $name {
            fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<$name, sqlx::error::BoxDynError> {
                Ok($name::parse(<&str as sqlx::Decode<sqlx::Any>>::decode(value)?)?)
            }
        }

        impl sqlx::Encode<'_, sqlx::Any> for $name {
            fn encode_by_ref(
                &self,
                buf: &mut <sqlx::Any as sqlx::Database>::ArgumentBuffer,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <&str as sqlx::Encode<sqlx::Any>>::encode(self.as_str(), buf)
            }
        }

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

stored!(
    /// A side, as a row stores it (a turn, an action's mover); the rules library's [`Player`].
    Side { First = "first", Second = "second" }
);

stored!(
    /// What an admin does to an account.
    ModKind {
        /// Admin rights given (by the command line).
        Grant = "grant",
        /// Admin rights taken back.
        Revoke = "revoke",
        /// A warning the player reads on their account page.
        Warn = "warn",
        /// No chat until a time.
        Mute = "mute",
        /// The name replaced by a neutral one.
        Rename = "rename",
        /// Marked as an engine user: off the leaderboards, rated games flagged.
        Engine = "engine",
        /// The account closed: no sign-in, every session ended.
        Close = "close",
        /// A report dismissed or dealt with.
        CloseReport = "close-report",
    }
);

impl From<Side> for Player {
    fn from(s: Side) -> Player {
        match s {
            Side::First => Player::First,
            Side::Second => Player::Second,
        }
    }
}

impl From<Player> for Side {
    fn from(p: Player) -> Side {
        match p {
            Player::First => Side::First,
            Player::Second => Side::Second,
        }
    }
}

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
        assert_eq!(Player::from(Side::parse("second").unwrap()), Player::Second);
        assert!(
            GameStatus::parse("paused")
                .unwrap_err()
                .to_string()
                .contains("`paused` is not a GameStatus")
        );
        assert!(Side::parse("third").is_err());
    }
}
