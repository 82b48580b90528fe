//! The WebSocket: one per page. A page may follow the lobby and watch one game; it sends its actions here.
//!
//! Client messages are JSON objects with a `t` field: `lobby`, `watch {game, v?}`, `tv {games: [{game, v?}]}`
//! (the watch page's mini-boards), `move {game, move, ack?, v?}`,
//! `resign {game, ack?}`, `draw {game, answer: offer|accept|decline, ack?}`, `chat {game, text, ack?}` and `ping`.
//! Each action is answered by `ack {ack, v}` once committed, or `error {ack, code, message}`; a chat line comes
//! back in a `chat` message. docs/web.md ("The WebSocket") has the whole list.

use std::{collections::HashMap, net::IpAddr, num::NonZeroU32, sync::Arc};

pub use axum::extract::ws::Message;
use axum::{
    extract::{
        State, WebSocketUpgrade,
        ws::{Utf8Bytes, WebSocket},
    },
    http::{HeaderMap, header},
    response::{IntoResponse, Response},
};
use futures_util::{SinkExt, StreamExt};
use governor::{Quota, RateLimiter};
use tokio::sync::{broadcast, mpsc};

use crate::{
    config::Limits,
    db::{ChatLine, Room, User},
    game::codes::ErrorCode,
    game::live::{Action, LiveError, Published},
    game::lobby::Viewing,
    game::messages::{ChatJson, ClientMsg, DrawAnswer, ServerMsg, TvGame, UserJson},
    web::AppState,
    web::auth::{ClientIp, MaybeUser},
    web::error::ApiError,
};

/// How much a socket reads at once. Each read first zero-fills this much (tungstenite), so the default of
/// 128 KiB cost more than all the rest of a move; a page's messages are far smaller.
pub(crate) const READ_BUFFER: usize = 4 * 1024;
/// The largest message a client may send.
const MAX_MESSAGE: usize = 8 * 1024;

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

/// The WebSockets open per client address and per signed-in user.
#[derive(Debug, Default)]
pub(crate) struct SocketCounts(Arc<std::sync::Mutex<Counts>>);

#[derive(Debug, Default)]
struct Counts {
    by_address: HashMap<IpAddr, u32>,
    by_user: HashMap<String, u32>,
}

/// One admitted socket: its counts go down when it is dropped.
#[derive(Debug)]
pub(crate) struct SocketTicket {
    counts: Arc<std::sync::Mutex<Counts>>,
    ip: IpAddr,
    user: Option<String>,
    _open: crate::telemetry::Held,
}

/// The limit on open sockets that one more would pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SocketLimit {
    #[error("at most {0} connections at once from one address: close a page first")]
    Address(u32),
    #[error("at most {0} pages open at once for one account: close one first")]
    User(u32),
}

impl SocketCounts {
    /// Admits one more socket from `ip` (and `user`), or says which limit it would pass.
    pub(crate) fn admit(
        &self,
        ip: IpAddr,
        user: Option<&str>,
        limits: &Limits,
    ) -> Result<SocketTicket, SocketLimit> {
        let mut c = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if c.by_address.get(&ip).copied().unwrap_or(0) >= limits.sockets_per_address {
            return Err(SocketLimit::Address(limits.sockets_per_address));
        }
        if let Some(u) = user
            && c.by_user.get(u).copied().unwrap_or(0) >= limits.sockets_per_user
        {
            return Err(SocketLimit::User(limits.sockets_per_user));
        }
        *c.by_address.entry(ip).or_default() += 1;
        if let Some(u) = user {
            *c.by_user.entry(u.to_owned()).or_default() += 1;
        }
        Ok(SocketTicket {
            counts: self.0.clone(),
            ip,
            user: user.map(str::to_owned),
            _open: crate::telemetry::Held::new(crate::telemetry::SOCKETS),
        })
    }
}

impl Drop for SocketTicket {
    fn drop(&mut self) {
        let mut c = self
            .counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = c.by_address.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.by_address.remove(&self.ip);
            }
        }
        if let Some(u) = &self.user
            && let Some(n) = c.by_user.get_mut(u)
        {
            *n -= 1;
            if *n == 0 {
                c.by_user.remove(u);
            }
        }
    }
}

/// Opens a page's socket.
#[utoipa::path(get, path = "/ws", tag = "site",
    description = "Opens the page's WebSocket. Messages are JSON objects with a `t` field: the schema `ClientMsg` is what a page \
sends; docs/web.md, \"The WebSocket\", describes both directions. \
Visitors may watch; a signed-in user (the `gp_session` cookie) may also act.",
    responses((status = 101, description = "Switching protocols: the socket is open"),
        (status = "4XX", body = crate::web::error::ErrorBody,
            description = "Not a WebSocket request, another site's origin (`forbidden`), or too many sockets (`too-many`)")))]
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return ApiError::forbidden("cross-origin WebSocket refused").into_response();
    }
    let ticket = match state
        .sockets
        .admit(ip, user.as_ref().map(|u| u.id.as_str()), &state.config.limits)
    {
        Ok(t) => t,
        Err(why) => {
            // The connection closes with the refusal: a client that opens thousands keeps none of them.
            let mut res = ApiError::too_many(why.to_string()).into_response();
            res.headers_mut()
                .insert(header::CONNECTION, axum::http::HeaderValue::from_static("close"));
            return res;
        }
    };
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| {
            // The socket's lines carry the id of the request that opened it.
            tracing::Instrument::instrument(
                async move {
                    let tasks = state.tasks.clone();
                    tasks.edge(connection(state, user, socket)).await;
                    drop(ticket);
                },
                tracing::Span::current(),
            )
        })
}

fn text(s: impl Into<Utf8Bytes>) -> Message {
    Message::Text(s.into())
}

fn send(msg: &ServerMsg<'_>) -> Message {
    text(msg.text().to_string())
}

fn error_msg(ack: Option<&str>, code: ErrorCode, message: &str) -> Message {
    send(&ServerMsg::refused(ack, code, message))
}

async fn next_game_event(
    feed: &mut Option<Watching>,
) -> Option<Result<Published, broadcast::error::RecvError>> {
    match feed {
        Some(w) => Some(w.feed.recv().await),
        None => std::future::pending().await,
    }
}

async fn next_chat(
    feed: &mut Option<ChatFeed>,
) -> Option<Result<Arc<ChatLine>, broadcast::error::RecvError>> {
    match feed {
        Some(c) => Some(c.rx.recv().await),
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
    let (sink, stream) = socket.split();
    serve(state, user, sink, stream).await;
}

/// The socket loop: the page's messages from `stream`, the answers and the feeds it follows to `sink`. Generic
/// over both, so that tests drive it with channels. It waits for the next event of any kind, gives it to the
/// page's [`Session`], and sends what the session answers.
pub async fn serve<S, R, E>(state: AppState, user: Option<User>, mut sink: S, mut stream: R)
where
    S: futures_util::Sink<Message> + Unpin,
    R: futures_util::Stream<Item = Result<Message, E>> + Unpin,
{
    let (tv_tx, mut tv_rx) = mpsc::channel::<String>(256);
    let mut session = Session::new(state, user, tv_tx);
    let mut open = sink.send(session.hello()).await.is_ok();
    while open {
        let event = tokio::select! {
            msg = stream.next() => match msg {
                Some(Ok(Message::Text(t))) => Event::Page(t),
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => continue,
            },
            ev = next_game_event(&mut session.game) => Event::Game(ev),
            line = next_chat(&mut session.chat) => Event::Chat(line),
            Some(m) = tv_rx.recv() => Event::Tv(m),
            ev = next_lobby(&mut session.lobby) => Event::Lobby(ev),
            ev = next_lobby(&mut session.personal) => Event::Personal(ev),
        };
        let reply = session.on(event).await;
        for m in reply.out {
            if sink.send(m).await.is_err() {
                open = false;
                break;
            }
        }
        open &= !reply.close;
    }
    session.leave();
}

/// One event of a page's socket.
enum Event {
    /// A message from the page.
    Page(Utf8Bytes),
    /// The watched game's feed.
    Game(Option<Result<Published, broadcast::error::RecvError>>),
    /// The watched game's chat.
    Chat(Option<Result<Arc<ChatLine>, broadcast::error::RecvError>>),
    /// One of the watch page's boards (`TvFeeds`), wrapped already.
    Tv(String),
    /// The lobby's notices.
    Lobby(Result<Arc<str>, broadcast::error::RecvError>),
    /// The notices to the page's own user.
    Personal(Result<Arc<str>, broadcast::error::RecvError>),
}

/// What the socket does after an event: send `out`, then close if `close`.
#[derive(Default)]
struct Reply {
    out: Vec<Message>,
    close: bool,
}

impl From<Vec<Message>> for Reply {
    fn from(out: Vec<Message>) -> Reply {
        Reply { out, close: false }
    }
}

impl From<Message> for Reply {
    fn from(m: Message) -> Reply {
        Reply::from(vec![m])
    }
}

/// A page's socket: who it is and what it follows; one method for each kind of [`Event`].
struct Session {
    state: AppState,
    user: Option<User>,
    /// Who this page is among a game's viewers: its user, or a key of its own for a visitor.
    viewer: String,
    limiter: governor::DefaultDirectRateLimiter,
    /// The notices to the page's user, while signed in.
    personal: Option<broadcast::Receiver<Arc<str>>>,
    lobby: Option<broadcast::Receiver<Arc<str>>>,
    game: Option<Watching>,
    chat: Option<ChatFeed>,
    tv: TvFeeds,
}

impl Session {
    fn new(state: AppState, user: Option<User>, tv: mpsc::Sender<String>) -> Session {
        let personal = user.as_ref().map(|u| state.lobby.join(u));
        let viewer = user
            .as_ref()
            .map_or_else(|| format!("visitor-{}", crate::ids::short(12)), |u| u.id.clone());
        let per_second = NonZeroU32::new(state.config.ws_per_second.max(1)).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(state.config.ws_burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Session {
            limiter: RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst)),
            state,
            user,
            viewer,
            personal,
            lobby: None,
            game: None,
            chat: None,
            tv: TvFeeds::new(tv),
        }
    }

    /// The first message: who the page's user is.
    fn hello(&self) -> Message {
        send(&ServerMsg::Hello {
            user: self.user.as_ref().map(|u| UserJson {
                id: &u.id,
                name: &u.name,
            }),
        })
    }

    /// The signed-in user's id, who may read the players' room.
    fn reader(&self) -> Option<&str> {
        self.user.as_ref().map(|u| u.id.as_str())
    }

    async fn on(&mut self, event: Event) -> Reply {
        match event {
            Event::Page(text) => self.on_page(&text).await,
            Event::Game(ev) => self.on_game(ev).await,
            Event::Chat(line) => self.on_chat(line).await,
            Event::Tv(m) => text(m).into(),
            Event::Lobby(ev) => self.on_lobby(ev),
            Event::Personal(ev) => self.on_personal(ev),
        }
    }

    /// A message from the page, within the page's rate.
    async fn on_page(&mut self, msg: &str) -> Reply {
        if self.limiter.check().is_err() {
            return error_msg(None, ErrorCode::RateLimited, "too many messages: slow down").into();
        }
        self.handle(msg).await.into()
    }

    /// An event of the watched game. A game that ends opens its spectators' room to its players: their page
    /// gets it with the event. A page too far behind, or whose game's actor stopped, watches again from a
    /// full state (which loads the actor again).
    async fn on_game(&mut self, ev: Option<Result<Published, broadcast::error::RecvError>>) -> Reply {
        match ev {
            Some(Ok(p)) => {
                let mut out = vec![text(p.json.to_string())];
                if self.reader().is_some()
                    && p.ended
                    && let Some(m) = self.chat_rooms_changed().await
                {
                    out.push(m);
                }
                out.into()
            }
            Some(Err(_)) | None => self.watch_again().await.into(),
        }
    }

    /// A line of the watched game's chat, sent if the page reads its room and its author is not hidden. A
    /// page behind gets every line again.
    async fn on_chat(&mut self, line: Option<Result<Arc<ChatLine>, broadcast::error::RecvError>>) -> Reply {
        match line {
            Some(Ok(l)) => match &self.chat {
                Some(c) if c.reads.contains(&l.room) && !c.hidden.contains(&l.user_id) => {
                    send(&ServerMsg::Chat {
                        game: &l.game,
                        reset: false,
                        lines: vec![ChatJson::from(&*l)],
                    })
                    .into()
                }
                _ => Reply::default(),
            },
            Some(Err(broadcast::error::RecvError::Lagged(_))) if self.game.is_some() => {
                self.watch_again().await.into()
            }
            Some(Err(broadcast::error::RecvError::Lagged(_))) => Reply::default(),
            Some(Err(broadcast::error::RecvError::Closed)) | None => {
                self.chat = None;
                Reply::default()
            }
        }
    }

    /// A lobby notice; a page behind is told to read the lobby again.
    fn on_lobby(&mut self, ev: Result<Arc<str>, broadcast::error::RecvError>) -> Reply {
        match ev {
            Ok(m) => text(m.to_string()).into(),
            Err(broadcast::error::RecvError::Lagged(_)) => send(&ServerMsg::Lobby).into(),
            Err(broadcast::error::RecvError::Closed) => {
                self.lobby = None;
                Reply::default()
            }
        }
    }

    /// A notice to the page's user. A closed account's page hears it, and its socket ends: it acts no more.
    fn on_personal(&mut self, ev: Result<Arc<str>, broadcast::error::RecvError>) -> Reply {
        match ev {
            Ok(m) if *m == *ServerMsg::SignedOut.text() => Reply {
                out: vec![text(m.to_string())],
                close: true,
            },
            Ok(m) => text(m.to_string()).into(),
            Err(broadcast::error::RecvError::Lagged(_)) => send(&ServerMsg::Lobby).into(),
            Err(broadcast::error::RecvError::Closed) => {
                self.personal = None;
                Reply::default()
            }
        }
    }

    /// The page's user is gone from the lobby.
    fn leave(&self) {
        if let Some(u) = &self.user {
            self.state.lobby.leave(u);
        }
    }

    /// Watches the followed game again from a full state.
    async fn watch_again(&mut self) -> Vec<Message> {
        let id = self.game.take().map(|w| w.id).unwrap_or_default();
        self.watch(&id, None).await
    }
}

/// The games whose boards a watch page follows (`tv`): one task a game passes its events on, each wrapped as
/// `{t: "tv", m: EVENT}`, to the socket's loop through one channel. They are not the game's spectators.
struct TvFeeds {
    tx: mpsc::Sender<String>,
    tasks: Vec<tokio::task::AbortHandle>,
}

impl TvFeeds {
    fn new(tx: mpsc::Sender<String>) -> TvFeeds {
        TvFeeds {
            tx,
            tasks: Vec::new(),
        }
    }

    /// Follows `games` instead of those followed so far: what each missed since its `v` first, then its feed.
    async fn follow(&mut self, state: &AppState, games: Vec<TvGame>) -> Vec<Message> {
        for t in self.tasks.drain(..) {
            t.abort();
        }
        if games.len() > crate::web::players::MAX_BOARDS {
            return vec![error_msg(
                None,
                ErrorCode::BadMessage,
                &format!(
                    "a page follows at most {} boards",
                    crate::web::players::MAX_BOARDS
                ),
            )];
        }
        let mut out = Vec::new();
        for g in games {
            let w = match state.hub.watch(&g.game, g.v).await {
                Ok(w) => w,
                Err(e) => {
                    out.push(send(&ServerMsg::Error {
                        ack: None,
                        game: Some(&g.game),
                        code: e.code(),
                        message: &e.message(),
                        v: None,
                    }));
                    continue;
                }
            };
            let tx = self.tx.clone();
            let task = state.tasks.spawn_with_result(async move {
                let wrap = |json: &str| format!(r#"{{"t":"tv","m":{json}}}"#);
                for j in &w.catchup {
                    if tx.send(wrap(j)).await.is_err() {
                        return;
                    }
                }
                let mut feed = w.feed;
                loop {
                    let m = match feed.recv().await {
                        Ok(p) => wrap(&p.json),
                        // Behind: the page asks again from the version it has.
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            format!(r#"{{"t":"tv-gap","game":{}}}"#, serde_json::json!(g.game))
                        }
                        Err(broadcast::error::RecvError::Closed) => return,
                    };
                    if tx.send(m).await.is_err() {
                        return;
                    }
                }
            });
            self.tasks.push(task.abort_handle());
        }
        out
    }
}

impl Drop for TvFeeds {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// The game a page follows: its feed, and its place among the game's viewers.
struct Watching {
    id: String,
    feed: broadcast::Receiver<Published>,
    _viewing: Viewing,
}

/// The chat of the game a page follows: its lines, and the rooms the page may read.
struct ChatFeed {
    rx: broadcast::Receiver<Arc<ChatLine>>,
    reads: Vec<Room>,
    /// The authors the page's user blocks, read when it began to follow the game: their lines are not sent.
    hidden: Vec<String>,
}

impl Session {
    /// Starts following a game as the page's viewer (its place among the viewers) and reader (the signed-in user,
    /// who may read the players' room): what the page missed since version `since` (or its whole state), then the
    /// chat's lines that the page may read.
    async fn watch(&mut self, id: &str, since: Option<u64>) -> Vec<Message> {
        let state = &self.state;
        let reader = self.user.as_ref().map(|u| u.id.as_str());
        // Drop the old place first, so a page never counts twice.
        self.game = None;
        self.chat = None;
        match state.hub.watch(id, since).await {
            Ok(w) => {
                self.game = Some(Watching {
                    id: id.to_owned(),
                    feed: w.feed,
                    _viewing: state.lobby.viewing(id, &self.viewer),
                });
                let mut out: Vec<Message> = w.catchup.iter().map(|j| text(j.to_string())).collect();
                // Followed before the history is read, so that no line falls between the two.
                let rx = state.chat.follow(id);
                if let Ok(s) = state.hub.state(id).await {
                    match state.chat.history(&s, reader).await {
                        Ok(history) => {
                            out.push(send(&ServerMsg::Chat {
                                game: id,
                                reset: true,
                                lines: history.lines.iter().map(ChatJson::from).collect(),
                            }));
                            self.chat = Some(ChatFeed {
                                rx,
                                reads: crate::game::chat::readable(&s, reader),
                                hidden: history.hidden,
                            });
                        }
                        Err(e) => tracing::warn!("chat history: {e}"),
                    }
                }
                out
            }
            Err(e) => {
                self.game = None;
                self.chat = None;
                // The game is named, so that the page that asked knows the answer is about its game.
                vec![send(&ServerMsg::Error {
                    ack: None,
                    game: Some(id),
                    code: e.code(),
                    message: &e.message(),
                    v: None,
                })]
            }
        }
    }

    /// Where the rooms a page may read in its game changed (a game over opens the spectators' room to its
    /// players): every line it may read now, as a `chat` reset, and the feed told the new rooms.
    async fn chat_rooms_changed(&mut self) -> Option<Message> {
        let (state, reader) = (&self.state, self.user.as_ref().map(|u| u.id.as_str()));
        let id = self.game.as_ref()?.id.as_str();
        let feed = self.chat.as_mut()?;
        let s = state.hub.state(id).await.ok()?;
        let rooms = crate::game::chat::readable(&s, reader);
        if rooms == feed.reads {
            return None;
        }
        let lines = match state.chat.lines_hiding(&s, reader, &feed.hidden).await {
            Ok(lines) => lines,
            Err(e) => {
                tracing::warn!("chat history: {e}");
                return None;
            }
        };
        feed.reads = rooms;
        Some(send(&ServerMsg::Chat {
            game: id,
            reset: true,
            lines: lines.iter().map(ChatJson::from).collect(),
        }))
    }

    /// A message from the page: an answer, or what it asks to follow.
    async fn handle(&mut self, msg: &str) -> Vec<Message> {
        let state = &self.state;
        let user = self.user.as_ref();
        let msg: ClientMsg = match serde_json::from_str(msg) {
            Ok(m) => m,
            Err(e) => {
                return vec![error_msg(
                    None,
                    ErrorCode::BadMessage,
                    &format!("cannot read the message: {e}"),
                )];
            }
        };
        let (id, action, ack, base) = match msg {
            ClientMsg::Ping => return vec![send(&ServerMsg::Pong)],
            ClientMsg::Lobby => {
                self.lobby = Some(state.lobby.subscribe());
                return Vec::new();
            }
            ClientMsg::Watch { game: id, v } => {
                return self.watch(&id, v).await;
            }
            ClientMsg::Tv { games } => return self.tv.follow(state, games).await,
            ClientMsg::Chat { game, text, ack } => {
                return say(state, user, &game, &text, ack.as_deref()).await;
            }
            ClientMsg::Move { game, mv, ack, v } => (game, Action::Move(mv), ack, v),
            ClientMsg::Resign { game, ack } => (game, Action::Resign, ack, None),
            ClientMsg::Abort { game, ack } => (game, Action::Abort, ack, None),
            ClientMsg::Claim { game, ack, draw } => (
                game,
                if draw { Action::ClaimDraw } else { Action::Claim },
                ack,
                None,
            ),
            ClientMsg::Takeback { game, answer, ack } => {
                let action = match answer {
                    DrawAnswer::Offer => Action::OfferTakeback,
                    DrawAnswer::Accept => Action::AcceptTakeback,
                    DrawAnswer::Decline => Action::DeclineTakeback,
                };
                (game, action, ack, None)
            }
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
            return vec![error_msg(ack.as_deref(), ErrorCode::SignedOut, "sign in to play")];
        };
        if ack.as_ref().is_some_and(|a| a.len() > 64) {
            return vec![error_msg(
                None,
                ErrorCode::BadMessage,
                "an ack id has at most 64 characters",
            )];
        }
        // A bot moves through the bot API only. The game's players say it too, for a page that opened its socket
        // before its account became a bot.
        let bot = user.bot
            || state.hub.state(&id).await.is_ok_and(|s| {
                s.players
                    .iter()
                    .any(|p| p.bot && p.id.as_deref() == Some(user.id.as_str()))
            });
        if bot {
            return vec![error_msg(
                ack.as_deref(),
                ErrorCode::BotApi,
                "a bot plays through the bot API (/api/bot/...), not a page",
            )];
        }
        match state.hub.act(&id, user, action, ack.clone(), base).await {
            Ok(v) => vec![send(&ServerMsg::Ack {
                ack: ack.as_deref(),
                game: &id,
                v,
            })],
            Err(e) => vec![send(&ServerMsg::Error {
                ack: ack.as_deref(),
                game: Some(&id),
                code: e.code(),
                message: &e.message(),
                v: match e {
                    LiveError::Stale { version } => Some(version),
                    _ => None,
                },
            })],
        }
    }
}

/// A chat line said by the page's user.
async fn say(state: &AppState, user: Option<&User>, id: &str, text: &str, ack: Option<&str>) -> Vec<Message> {
    let refused = |code: ErrorCode, message: &str| {
        send(&ServerMsg::Error {
            ack,
            game: Some(id),
            code,
            message,
            v: None,
        })
    };
    let Some(user) = user else {
        return vec![refused(ErrorCode::SignedOut, "sign in to chat")];
    };
    if ack.is_some_and(|a| a.len() > 64) {
        return vec![error_msg(
            None,
            ErrorCode::BadMessage,
            "an ack id has at most 64 characters",
        )];
    }
    let game = match state.hub.state(id).await {
        Ok(g) => g,
        Err(e) => return vec![refused(e.code(), &e.message())],
    };
    match state.chat.say(&game, user, text).await {
        Ok(_) => Vec::new(),
        Err(e) => {
            metrics::counter!(crate::telemetry::ERRORS, "kind" => e.code().as_str()).increment(1);
            vec![refused(e.code(), &e.message())]
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use tokio::sync::mpsc;

    use super::*;
    use crate::config::Config;

    /// A socket loop on an in-memory server, with the page's end as two channels.
    async fn page(
        per_second: u32,
        burst: u32,
    ) -> (mpsc::UnboundedSender<Message>, mpsc::UnboundedReceiver<Message>) {
        let state = AppState::new(Config {
            database: "sqlite::memory:".into(),
            ws_per_second: per_second,
            ws_burst: burst,
            ..Config::default()
        })
        .await
        .expect("server state");
        let (to_server, from_page) = mpsc::unbounded_channel::<Message>();
        let (to_page, from_server) = mpsc::unbounded_channel::<Message>();
        let stream = Box::pin(futures_util::stream::unfold(from_page, |mut rx| async move {
            rx.recv().await.map(|m| (Ok::<_, ()>(m), rx))
        }));
        let sink = Box::pin(futures_util::sink::unfold(to_page, |tx, m: Message| async move {
            tx.send(m).map(|()| tx).map_err(|_| ())
        }));
        tokio::spawn(serve(state, None, sink, stream));
        (to_server, from_server)
    }

    async fn say(tx: &mut mpsc::UnboundedSender<Message>, text: &str) {
        tx.send(Message::Text(text.into())).unwrap();
    }

    async fn hear(rx: &mut mpsc::UnboundedReceiver<Message>) -> Value {
        match rx.recv().await {
            Some(Message::Text(t)) => serde_json::from_str(&t).unwrap(),
            other => panic!("expected a text message, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn the_loop_greets_answers_and_refuses_with_reasons() {
        let (mut tx, mut rx) = page(100, 100).await;
        let hello = hear(&mut rx).await;
        assert_eq!(
            (hello["t"].as_str(), &hello["user"]),
            (Some("hello"), &Value::Null)
        );
        say(&mut tx, r#"{"t":"ping"}"#).await;
        assert_eq!(hear(&mut rx).await["t"], "pong");
        say(&mut tx, "{not json").await;
        let e = hear(&mut rx).await;
        assert_eq!(
            (e["t"].as_str(), e["code"].as_str()),
            (Some("error"), Some("bad-message"))
        );
        // An unknown game is refused with the game named, so that its page can show the answer.
        say(&mut tx, r#"{"t":"watch","game":"nosuch12"}"#).await;
        let e = hear(&mut rx).await;
        assert_eq!(
            (e["code"].as_str(), e["game"].as_str()),
            (Some("not-found"), Some("nosuch12")),
            "{e}"
        );
        // A visitor cannot act; the ack names the action refused.
        say(
            &mut tx,
            r#"{"t":"move","game":"nosuch12","move":"f5","ack":"a1"}"#,
        )
        .await;
        let e = hear(&mut rx).await;
        assert_eq!(
            (e["code"].as_str(), e["ack"].as_str()),
            (Some("signed-out"), Some("a1")),
            "{e}"
        );
        // The page going away ends the loop.
        drop(tx);
        assert!(rx.recv().await.is_none());
    }

    #[tokio::test]
    async fn a_page_over_its_budget_is_told_to_slow_down() {
        let (mut tx, mut rx) = page(1, 2).await;
        hear(&mut rx).await;
        for _ in 0..3 {
            say(&mut tx, r#"{"t":"ping"}"#).await;
        }
        assert_eq!(hear(&mut rx).await["t"], "pong");
        assert_eq!(hear(&mut rx).await["t"], "pong");
        assert_eq!(hear(&mut rx).await["code"], "rate-limited");
    }
}
