//! Every message of a page's WebSocket, one serde enum for each direction. `docs/web.md` lists them.

use std::sync::Arc;

use gridplay_core::Player;
use serde::{Deserialize, Serialize};

use crate::{db::ActionKind, live::GameState};

/// What a page sends.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub(crate) enum ClientMsg {
    /// Follow the lobby's changes.
    Lobby,
    /// Watch a game from version `v` (the last one the page saw), or from a full state.
    Watch {
        game: String,
        v: Option<u64>,
    },
    Move {
        game: String,
        #[serde(rename = "move")]
        mv: String,
        ack: Option<String>,
        v: Option<u64>,
    },
    Resign {
        game: String,
        ack: Option<String>,
    },
    Draw {
        game: String,
        answer: DrawAnswer,
        ack: Option<String>,
    },
    Abort {
        game: String,
        ack: Option<String>,
    },
    /// Asks to take back one's last move, or answers the opponent's request (casual games).
    Takeback {
        game: String,
        answer: DrawAnswer,
        ack: Option<String>,
    },
    Claim {
        game: String,
        ack: Option<String>,
    },
    Ping,
}

/// An offer of a draw or a takeback, or the answer to one.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum DrawAnswer {
    Offer,
    Accept,
    Decline,
}

/// A signed-in user as the page learns it.
#[derive(Debug, Serialize)]
pub(crate) struct UserJson<'a> {
    pub id: &'a str,
    pub name: &'a str,
}

/// An action as a game's watchers hear of it.
#[derive(Debug, Serialize)]
pub(crate) struct ActionJson<'a> {
    pub kind: ActionKind,
    pub side: Player,
    pub text: &'a str,
}

/// What the server sends.
#[derive(Debug, Serialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub(crate) enum ServerMsg<'a> {
    /// The first message: who the socket's user is.
    Hello {
        user: Option<UserJson<'a>>,
    },
    Pong,
    /// An action was committed: the game is now at version `v`.
    Ack {
        ack: Option<&'a str>,
        game: &'a str,
        v: u64,
    },
    /// A message or an action was refused. `v` is the game's version when the action was stale.
    Error {
        ack: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<&'a str>,
        code: &'a str,
        message: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        v: Option<u64>,
    },
    /// Something in the lobby changed: fetch it again.
    Lobby,
    /// A game of this user started.
    Started {
        game: &'a str,
    },
    /// It is this user's turn in a game.
    Turn {
        game: &'a str,
    },
    /// The opponent offers a rematch of `game` through a challenge.
    Rematch {
        game: &'a str,
        challenge: &'a str,
        from: &'a str,
    },
    /// A game's whole state.
    Sync {
        game: &'a str,
        /// The server's time, for the clocks.
        now: i64,
        state: &'a GameState,
    },
    /// One action and the state after it.
    Event {
        game: &'a str,
        now: i64,
        v: u64,
        action: ActionJson<'a>,
        state: &'a GameState,
    },
}

impl<'a> ServerMsg<'a> {
    /// The message as JSON text.
    #[must_use]
    pub(crate) fn text(&self) -> Arc<str> {
        // Every field serializes (strings, numbers, and a state made of them).
        Arc::from(serde_json::to_string(self).unwrap_or_else(|_| {
            r#"{"t":"error","ack":null,"code":"internal","message":"internal error"}"#.to_owned()
        }))
    }

    /// A refusal with no game.
    pub(crate) fn refused(ack: Option<&'a str>, code: &'a str, message: &'a str) -> ServerMsg<'a> {
        ServerMsg::Error {
            ack,
            game: None,
            code,
            message,
            v: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_read_as_documented() {
        let m: ClientMsg =
            serde_json::from_str(r#"{"t":"move","game":"g1","move":"f5","ack":"a1","v":3}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Move {
                game: "g1".into(),
                mv: "f5".into(),
                ack: Some("a1".into()),
                v: Some(3)
            }
        );
        let m: ClientMsg = serde_json::from_str(r#"{"t":"draw","game":"g","answer":"accept"}"#).unwrap();
        assert!(matches!(
            m,
            ClientMsg::Draw {
                answer: DrawAnswer::Accept,
                ..
            }
        ));
        assert!(serde_json::from_str::<ClientMsg>(r#"{"t":"draw","game":"g","answer":"maybe"}"#).is_err());
        assert!(serde_json::from_str::<ClientMsg>(r#"{"t":"fly"}"#).is_err());
    }

    #[test]
    fn server_messages_write_as_documented() {
        assert_eq!(&*ServerMsg::Pong.text(), r#"{"t":"pong"}"#);
        assert_eq!(&*ServerMsg::Lobby.text(), r#"{"t":"lobby"}"#);
        assert_eq!(
            &*ServerMsg::Ack {
                ack: Some("a"),
                game: "g",
                v: 4
            }
            .text(),
            r#"{"t":"ack","ack":"a","game":"g","v":4}"#
        );
        assert_eq!(
            &*ServerMsg::refused(None, "bad-message", "no").text(),
            r#"{"t":"error","ack":null,"code":"bad-message","message":"no"}"#
        );
        assert_eq!(
            &*ServerMsg::Rematch {
                game: "g",
                challenge: "c",
                from: "ann"
            }
            .text(),
            r#"{"t":"rematch","game":"g","challenge":"c","from":"ann"}"#
        );
        assert_eq!(
            &*ServerMsg::Hello {
                user: Some(UserJson { id: "u", name: "ann" })
            }
            .text(),
            r#"{"t":"hello","user":{"id":"u","name":"ann"}}"#
        );
    }
}
