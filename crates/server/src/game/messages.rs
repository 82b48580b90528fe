//! Every message of a page's WebSocket, one serde enum for each direction. `docs/web.md` lists them.

use std::sync::Arc;

use gridplay_core::Player;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::game::codes::ErrorCode;
use crate::{
    db::{ActionKind, ChatLine, Room},
    game::state::{GameState, StateDelta},
};

/// What a page sends over `GET /ws`. The OpenAPI document carries it as the schema `ClientMsg`.
#[derive(Debug, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
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
    /// Claim the game: a correspondence game whose deadline passed, or a live game the opponent left (with
    /// `draw`, a draw rather than the win).
    Claim {
        game: String,
        ack: Option<String>,
        #[serde(default)]
        draw: bool,
    },
    /// Say `text` in a game's chat: in its players' room for a player, in its spectators' room for anyone
    /// else. The line comes back in a `chat` message to every page that watches the game and may read it; a
    /// refusal comes as an `error` with the `ack`.
    Chat {
        game: String,
        text: String,
        ack: Option<String>,
    },
    /// Follow these games' boards (the watch page's mini-boards), each from version `v`, replacing what the
    /// page followed so before; an empty list follows none. At most `players::MAX_BOARDS`.
    Tv {
        games: Vec<TvGame>,
    },
    Ping,
}

/// A game the watch page follows, from the version its mini-board shows.
#[derive(Debug, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub(crate) struct TvGame {
    pub(crate) game: String,
    pub(crate) v: Option<u64>,
}

/// An offer of a draw or a takeback, or the answer to one.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
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

/// A line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub(crate) struct ChatJson {
    pub id: String,
    pub room: Room,
    /// The author's user id (a page hides the lines of the players its user chose to hide by it).
    pub user: String,
    /// The author's name as it is now.
    pub name: String,
    /// Whether the author is a bot account.
    pub bot: bool,
    pub text: String,
    /// When it was said, Unix ms.
    pub at: i64,
}

impl From<&ChatLine> for ChatJson {
    fn from(l: &ChatLine) -> ChatJson {
        ChatJson {
            id: l.id.clone(),
            room: l.room,
            user: l.user_id.clone(),
            name: l.name.clone(),
            bot: l.bot,
            text: l.body.clone(),
            at: l.at,
        }
    }
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
        code: ErrorCode,
        message: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        v: Option<u64>,
    },
    /// Something in the lobby changed: fetch it again.
    Lobby,
    /// The moderators closed this user's account: the page is signed out, and the socket ends after this.
    SignedOut,
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
    /// Lines of a game's chat that this page may read: every line it may read so far when `reset` (sent when
    /// the page starts watching), else new ones.
    Chat {
        game: &'a str,
        reset: bool,
        lines: Vec<ChatJson>,
    },
    /// One action and what it changed in the state of version `v - 1` (see [`delta`]).
    Event {
        game: &'a str,
        now: i64,
        v: u64,
        action: ActionJson<'a>,
        delta: StateDelta<'a>,
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
    pub(crate) fn refused(ack: Option<&'a str>, code: ErrorCode, message: &'a str) -> ServerMsg<'a> {
        ServerMsg::Error {
            ack,
            game: None,
            code,
            message,
            v: None,
        }
    }
}

/// What changed from one game state (as JSON) to the next, for an event: the top-level fields whose value
/// changed, with their new value, except that
/// - `moves+` lists moves appended to `moves` (sent instead of `moves` when the old list is a prefix of the new);
/// - `view` holds only the board view's fields that changed, and `cells@` in it lists `[index, cell]` for the
///   cells that changed (sent instead of `cells` when the board keeps its size).
///
/// [`apply_delta`] (and `applyDelta` in the page's `gamestate.js`) rebuilds the new state from the old.
#[must_use]
pub fn delta(old: &Value, new: &Value) -> Value {
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        return new.clone();
    };
    let mut out = Map::new();
    for (k, v) in new {
        let before = old.get(k);
        if before == Some(v) {
            continue;
        }
        match (k.as_str(), before, v) {
            ("moves", Some(Value::Array(a)), Value::Array(b)) if b.len() > a.len() && b.starts_with(a) => {
                out.insert("moves+".into(), Value::Array(b[a.len()..].to_vec()));
            }
            ("view", Some(Value::Object(a)), Value::Object(b)) => {
                let mut view = Map::new();
                for (vk, vv) in b {
                    let was = a.get(vk);
                    if was == Some(vv) {
                        continue;
                    }
                    match (vk.as_str(), was, vv) {
                        ("cells", Some(Value::Array(x)), Value::Array(y)) if x.len() == y.len() => {
                            let changed: Vec<Value> = x
                                .iter()
                                .zip(y)
                                .enumerate()
                                .filter(|(_, (p, q))| p != q)
                                .map(|(i, (_, q))| Value::Array(vec![i.into(), q.clone()]))
                                .collect();
                            view.insert("cells@".into(), Value::Array(changed));
                        }
                        _ => {
                            view.insert(vk.clone(), vv.clone());
                        }
                    }
                }
                out.insert(k.clone(), Value::Object(view));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// The state after an event: `state` (the event's version minus one) with `delta` applied.
pub fn apply_delta(state: &mut Value, delta: &Value) {
    let (Some(state), Some(delta)) = (state.as_object_mut(), delta.as_object()) else {
        return;
    };
    for (k, v) in delta {
        match k.as_str() {
            "moves+" => {
                if let (Some(Value::Array(moves)), Value::Array(more)) = (state.get_mut("moves"), v) {
                    moves.extend(more.iter().cloned());
                }
            }
            "view" => {
                let (Some(Value::Object(view)), Value::Object(changes)) = (state.get_mut("view"), v) else {
                    continue;
                };
                for (vk, vv) in changes {
                    if vk == "cells@" {
                        let Some(Value::Array(cells)) = view.get_mut("cells") else {
                            continue;
                        };
                        for change in vv.as_array().into_iter().flatten() {
                            if let (Some(i), Some(cell)) = (change[0].as_u64(), change.get(1))
                                && let Some(c) = cells.get_mut(i as usize)
                            {
                                *c = cell.clone();
                            }
                        }
                    } else {
                        view.insert(vk.clone(), vv.clone());
                    }
                }
            }
            _ => {
                state.insert(k.clone(), v.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// A game's state as events describe it, reduced to the fields a move changes (the move list, the movers,
    /// the board view, the last move, the version) for every registered game.
    fn states_of_a_random_game(game: &dyn gridplay_core::DynGame, plies: usize, seed: u64) -> Vec<Value> {
        let mut rng = gridplay_core::playout::seeded(seed);
        let mut pos = game.start();
        let mut moves: Vec<String> = Vec::new();
        let mut states = Vec::new();
        loop {
            let view = pos.view();
            states.push(serde_json::json!({
                "version": moves.len(),
                "moves": moves,
                "movers": "f".repeat(moves.len()),
                "view": view,
                "last_move": view.moves.first(),
                "over": pos.outcome().map(|_| "over"),
            }));
            let legal = pos.legal_moves();
            if legal.is_empty() || states.len() > plies {
                return states;
            }
            let m = legal[rng.random_range(0..legal.len())].clone();
            pos.play(&m).expect("a legal move plays");
            moves.push(m);
        }
    }

    #[test]
    fn a_delta_applied_to_the_old_state_gives_the_new_one_in_every_game() {
        let registry = gridplay_games::registry_with_test_games();
        for entry in registry.entries() {
            let game = registry.game(entry.name).expect("a registered game builds");
            for seed in 0..4 {
                let states = states_of_a_random_game(game.as_ref(), 200, seed);
                for pair in states.windows(2) {
                    let d = delta(&pair[0], &pair[1]);
                    let mut rebuilt = pair[0].clone();
                    apply_delta(&mut rebuilt, &d);
                    assert_eq!(rebuilt, pair[1], "{}: {d}", entry.name);
                    assert!(d.get("moves").is_none(), "moves are appended: {d}");
                }
            }
        }
    }

    /// The page's `applyDelta` (gamestate.js) is tested on the deltas of this function, read from
    /// `web-tests/fixtures/deltas.json`; this test fails when the file no longer matches what `delta` writes
    /// (`GRIDPLAY_WRITE_FIXTURES=1` writes it again).
    #[test]
    fn the_pages_delta_fixtures_match_what_the_server_sends() {
        let registry = gridplay_games::registry_with_test_games();
        let mut cases = Vec::new();
        for entry in registry.entries() {
            let game = registry.game(entry.name).expect("a registered game builds");
            let states = states_of_a_random_game(game.as_ref(), 2, 1);
            let deltas: Vec<Value> = states.windows(2).map(|p| delta(&p[0], &p[1])).collect();
            cases.push(serde_json::json!({ "game": entry.name, "states": states, "deltas": deltas }));
        }
        let text = serde_json::to_string(&cases).expect("JSON") + "\n";
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web-tests/fixtures/deltas.json");
        if std::env::var_os("GRIDPLAY_WRITE_FIXTURES").is_some() {
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
            std::fs::write(&path, &text).expect("write");
        }
        let stored = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            stored == text,
            "{} is out of date: run with GRIDPLAY_WRITE_FIXTURES=1",
            path.display()
        );
    }

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
            &*ServerMsg::refused(None, ErrorCode::BadMessage, "no").text(),
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
