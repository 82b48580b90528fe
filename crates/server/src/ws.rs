//! The WebSocket: one per page. A page may follow the lobby and watch one game; it sends its actions here.
//!
//! Client messages are JSON objects with a `t` field: `lobby`, `watch {game, v?}`, `move {game, move, ack?, v?}`,
//! `resign {game, ack?}`, `draw {game, answer: offer|accept|decline, ack?}` and `ping`. Each action is answered
//! by `ack {ack, v}` once committed, or `error {ack, code, message}`. docs/protocol.md has the whole list.

use std::{num::NonZeroU32, sync::Arc};

use axum::{
    extract::{
        State, WebSocketUpgrade,
        ws::{Message, Utf8Bytes, WebSocket},
    },
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use futures_util::{SinkExt, StreamExt};
use governor::{Quota, RateLimiter};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast;

use crate::{
    AppState,
    auth::MaybeUser,
    db::User,
    live::{Action, LiveError, Published},
    lobby::Viewing,
};

/// The largest message a client may send.
pub(crate) const MAX_MESSAGE: usize = 8 * 1024;

#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
enum ClientMsg {
    Lobby,
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
    Claim {
        game: String,
        ack: Option<String>,
    },
    Ping,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum DrawAnswer {
    Offer,
    Accept,
    Decline,
}

/// Whether a request's `Origin` (when a browser sent one) names this server's own host.
#[must_use]
pub(crate) fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest.trim_end_matches('/'));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

pub(crate) async fn upgrade(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| connection(state, user, socket))
}

fn text(s: impl Into<Utf8Bytes>) -> Message {
    Message::Text(s.into())
}

fn error_msg(ack: Option<&str>, code: &str, message: &str) -> Message {
    text(json!({ "t": "error", "ack": ack, "code": code, "message": message }).to_string())
}

async fn next_game_event(
    feed: &mut Option<Watching>,
) -> Option<Result<Published, broadcast::error::RecvError>> {
    match feed {
        Some(w) => Some(w.feed.recv().await),
        None => std::future::pending().await,
    }
}

async fn next_lobby(
    feed: &mut Option<broadcast::Receiver<Arc<str>>>,
) -> Result<Arc<str>, broadcast::error::RecvError> {
    match feed {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

async fn connection(state: AppState, user: Option<User>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let mut personal = user.as_ref().map(|u| state.lobby.join(u));
    // Who this page is among a game's viewers: its user, or a key of its own for a visitor.
    let viewer = user
        .as_ref()
        .map_or_else(|| format!("visitor-{}", crate::ids::short(12)), |u| u.id.clone());
    let per_second = NonZeroU32::new(state.config.ws_per_second.max(1)).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(state.config.ws_burst.max(1)).unwrap_or(NonZeroU32::MIN);
    let limiter = RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst));
    let mut lobby: Option<broadcast::Receiver<Arc<str>>> = None;
    let mut game: Option<Watching> = None;
    let hello = json!({ "t": "hello", "user": user.as_ref().map(|u| json!({"id": u.id, "name": u.name})) });
    let mut ok = sink.send(text(hello.to_string())).await.is_ok();
    while ok {
        tokio::select! {
            msg = stream.next() => {
                let msg = match msg {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                if limiter.check().is_err() {
                    ok = sink.send(error_msg(None, "rate-limited", "too many messages: slow down")).await.is_ok();
                    continue;
                }
                let replies = handle(&state, user.as_ref(), &viewer, &msg, &mut lobby, &mut game).await;
                for r in replies {
                    if sink.send(r).await.is_err() {
                        ok = false;
                        break;
                    }
                }
            }
            ev = next_game_event(&mut game) => {
                match ev {
                    Some(Ok(p)) => ok = sink.send(text(p.json.to_string())).await.is_ok(),
                    Some(Err(broadcast::error::RecvError::Lagged(_))) => {
                        // Too far behind: start again from a full state.
                        let id = game.take().map(|w| w.id).unwrap_or_default();
                        let replies = watch(&state, &id, &viewer, None, &mut game).await;
                        for r in replies {
                            ok = ok && sink.send(r).await.is_ok();
                        }
                    }
                    Some(Err(broadcast::error::RecvError::Closed)) | None => {
                        // The actor stopped; watch again, which reloads it.
                        let id = game.take().map(|w| w.id).unwrap_or_default();
                        let replies = watch(&state, &id, &viewer, None, &mut game).await;
                        for r in replies {
                            ok = ok && sink.send(r).await.is_ok();
                        }
                    }
                }
            }
            ev = next_lobby(&mut lobby) => {
                match ev {
                    Ok(m) => ok = sink.send(text(m.to_string())).await.is_ok(),
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        ok = sink.send(text(r#"{"t":"lobby"}"#)).await.is_ok();
                    }
                    Err(broadcast::error::RecvError::Closed) => lobby = None,
                }
            }
            ev = next_lobby(&mut personal) => {
                match ev {
                    Ok(m) => ok = sink.send(text(m.to_string())).await.is_ok(),
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        ok = sink.send(text(r#"{"t":"lobby"}"#)).await.is_ok();
                    }
                    Err(broadcast::error::RecvError::Closed) => personal = None,
                }
            }
        }
    }
    if let Some(u) = &user {
        state.lobby.leave(u);
    }
}

/// The game a page follows: its feed, and its place among the game's viewers.
struct Watching {
    id: String,
    feed: broadcast::Receiver<Published>,
    _viewing: Viewing,
}

async fn watch(
    state: &AppState,
    id: &str,
    viewer: &str,
    since: Option<u64>,
    game: &mut Option<Watching>,
) -> Vec<Message> {
    // Drop the old place first, so a page never counts twice.
    *game = None;
    match state.hub.watch(id, since).await {
        Ok(w) => {
            *game = Some(Watching {
                id: id.to_owned(),
                feed: w.feed,
                _viewing: state.lobby.viewing(id, viewer),
            });
            w.catchup.iter().map(|j| text(j.to_string())).collect()
        }
        Err(e) => {
            *game = None;
            vec![error_msg(None, e.code(), &e.message())]
        }
    }
}

async fn handle(
    state: &AppState,
    user: Option<&User>,
    viewer: &str,
    msg: &str,
    lobby: &mut Option<broadcast::Receiver<Arc<str>>>,
    game: &mut Option<Watching>,
) -> Vec<Message> {
    let msg: ClientMsg = match serde_json::from_str(msg) {
        Ok(m) => m,
        Err(e) => {
            return vec![error_msg(
                None,
                "bad-message",
                &format!("cannot read the message: {e}"),
            )];
        }
    };
    let (id, action, ack, base) = match msg {
        ClientMsg::Ping => return vec![text(r#"{"t":"pong"}"#)],
        ClientMsg::Lobby => {
            *lobby = Some(state.lobby.subscribe());
            return Vec::new();
        }
        ClientMsg::Watch { game: id, v } => return watch(state, &id, viewer, v, game).await,
        ClientMsg::Move { game, mv, ack, v } => (game, Action::Move(mv), ack, v),
        ClientMsg::Resign { game, ack } => (game, Action::Resign, ack, None),
        ClientMsg::Abort { game, ack } => (game, Action::Abort, ack, None),
        ClientMsg::Claim { game, ack } => (game, Action::Claim, ack, None),
        ClientMsg::Draw { game, answer, ack } => {
            let action = match answer {
                DrawAnswer::Offer => Action::OfferDraw,
                DrawAnswer::Accept => Action::AcceptDraw,
                DrawAnswer::Decline => Action::DeclineDraw,
            };
            (game, action, ack, None)
        }
    };
    let Some(user) = user else {
        return vec![error_msg(ack.as_deref(), "signed-out", "sign in to play")];
    };
    if ack.as_ref().is_some_and(|a| a.len() > 64) {
        return vec![error_msg(
            None,
            "bad-message",
            "an ack id has at most 64 characters",
        )];
    }
    match state.hub.act(&id, user, action, ack.clone(), base).await {
        Ok(v) => vec![text(
            json!({ "t": "ack", "ack": ack, "game": id, "v": v }).to_string(),
        )],
        Err(e) => {
            let mut m =
                json!({ "t": "error", "ack": ack, "game": id, "code": e.code(), "message": e.message() });
            if let LiveError::Stale { version } = e {
                m["v"] = json!(version);
            }
            vec![text(m.to_string())]
        }
    }
}
