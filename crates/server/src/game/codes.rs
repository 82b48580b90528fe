//! The stable codes of refusals: what a program reads in an error answer of the HTTP API (`error.code`) and in
//! a socket's `error` message. One enum, so that the OpenAPI document lists every code a client may meet.

macro_rules! codes {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant),*
        }

        impl $name {
            /// Every code.
            pub const ALL: &[$name] = &[$($name::$variant),*];

            /// The code as clients read it.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),*
                }
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        /// Described as its texts (a derived schema would not see the names given through the macro).
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::Type::String)
                    .enum_values(Some([$($text),*]))
                    .description(Some("A stable code of a refusal, for programs; the message says it for people."))
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

codes!(
    /// A refusal's code.
    ErrorCode {
        AccountClosed = "account-closed",
        AlreadyBot = "already-bot",
        BadAction = "bad-action",
        BadAnswer = "bad-answer",
        BadBody = "bad-body",
        BadCredentials = "bad-credentials",
        BadFile = "bad-file",
        BadHelp = "bad-help",
        BadLevel = "bad-level",
        BadLines = "bad-lines",
        BadMessage = "bad-message",
        BadMinutes = "bad-minutes",
        BadMove = "bad-move",
        BadMoves = "bad-moves",
        BadName = "bad-name",
        BadPassword = "bad-password",
        BadPosition = "bad-position",
        BadReason = "bad-reason",
        BadRequest = "bad-request",
        BadRounds = "bad-rounds",
        BadScope = "bad-scope",
        BadSpec = "bad-spec",
        BadText = "bad-text",
        BadTime = "bad-time",
        BadToken = "bad-token",
        Blocked = "blocked",
        BotApi = "bot-api",
        Error = "error",
        Finished = "finished",
        Forbidden = "forbidden",
        GameOver = "game-over",
        HasGames = "has-games",
        Internal = "internal",
        Joined = "joined",
        MethodNotAllowed = "method-not-allowed",
        Muted = "muted",
        NameTaken = "name-taken",
        NoBots = "no-bots",
        NoChat = "no-chat",
        NoEngine = "no-engine",
        NoOpponent = "no-opponent",
        NoSuchPlayer = "no-such-player",
        NotAPlayer = "not-a-player",
        NotAdmin = "not-admin",
        NotBot = "not-bot",
        NotFound = "not-found",
        NotIn = "not-in",
        NotInGame = "not-in-game",
        NotTheirLine = "not-their-line",
        NotYourTurn = "not-your-turn",
        Ongoing = "ongoing",
        OwnAccount = "own-account",
        OwnChallenge = "own-challenge",
        OwnReport = "own-report",
        RateLimited = "rate-limited",
        Record = "record",
        Refused = "refused",
        Repeated = "repeated",
        Retired = "retired",
        SelfBlock = "self-block",
        SelfChallenge = "self-challenge",
        SignedOut = "signed-out",
        Stale = "stale",
        Started = "started",
        Taken = "taken",
        TokenRefused = "token-refused",
        TokenScope = "token-scope",
        TooFew = "too-few",
        TooLarge = "too-large",
        TooLong = "too-long",
        TooMany = "too-many",
        Tournament = "tournament",
        UnsupportedMediaType = "unsupported-media-type",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_kebab_case_words() {
        let mut seen = std::collections::HashSet::new();
        for c in ErrorCode::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert!(
                s.split('-')
                    .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())),
                "{s}"
            );
            assert_eq!(serde_json::to_value(c).unwrap(), s);
        }
    }
}
