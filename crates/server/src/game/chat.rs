//! Game chat: each game has two rooms, its players' and its spectators', as on lichess. A line is checked
//! (the site's free-text rule, its length, the author's rate and repeats, a mute), kept in the database, then
//! passed to the pages that watch the game here and, through the bus, on the other servers.
//!
//! Who reads what: the players' room is read by the game's two players only, and only in a game between
//! people; the spectators' room by everyone else, and by the players once the game is over. A player writes in
//! the players' room, anyone else signed in in the spectators' room.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
};

use tokio::sync::broadcast;

use crate::game::codes::ErrorCode;
use crate::{
    bus::Bus,
    db::{ChatLine, Db, DbError, Room, User, now_ms},
    game::state::GameState,
    text::{self, TextError},
};

/// A game's chat as one reader sees it (`Chat::history`).
#[derive(Debug)]
pub struct History {
    /// The last lines the reader may read, oldest first.
    pub lines: Vec<ChatLine>,
    /// The authors whose lines the reader does not see: the accounts it blocks.
    pub hidden: Vec<String>,
}
/// A line's length, in characters.
pub const LINE_MAX: usize = 140;
/// The lines one user may say in a minute, in all games.
pub const LINES_PER_MINUTE: i64 = 10;
/// A line the same as one of the author's last this many in the game within a minute is refused.
pub const REPEATS: usize = 3;
/// The lines of a game a page gets when it starts watching.
pub const HISTORY: i64 = 100;

/// Why a line was refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ChatError {
    #[error("you are muted in chat until {}", utc(*.0))]
    Muted(i64),
    #[error("the line {0}")]
    Text(TextError),
    #[error("at most {LINES_PER_MINUTE} lines a minute: wait a little")]
    TooFast,
    #[error("you said that a moment ago")]
    Repeated,
    #[error("no one reads this room: the engine does not chat")]
    NoOne,
    #[error(transparent)]
    Db(#[from] DbError),
}

impl ChatError {
    /// The error's code, as the socket sends it.
    #[must_use]
    pub(crate) fn code(&self) -> ErrorCode {
        match self {
            ChatError::Muted(_) => ErrorCode::Muted,
            ChatError::Text(_) => ErrorCode::BadText,
            ChatError::TooFast => ErrorCode::RateLimited,
            ChatError::Repeated => ErrorCode::Repeated,
            ChatError::NoOne => ErrorCode::NoChat,
            ChatError::Db(_) => ErrorCode::Internal,
        }
    }

    /// The words a person reads; a database failure's detail stays in the log.
    #[must_use]
    pub(crate) fn message(&self) -> String {
        match self {
            ChatError::Db(_) => "internal error".into(),
            e => e.to_string(),
        }
    }
}

/// A time (Unix ms) as `2026-12-02 14:05 UTC`.
fn utc(ms: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)) {
        Ok(t) => format!(
            "{}-{:02}-{:02} {:02}:{:02} UTC",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute()
        ),
        Err(_) => "later".into(),
    }
}

/// Whether `user` plays in a game, if any.
fn plays(state: &GameState, user: Option<&str>) -> bool {
    user.is_some_and(|u| state.players.iter().any(|p| p.id.as_deref() == Some(u)))
}

/// Whether both sides of a game are people (the players' room is open only then).
fn between_people(state: &GameState) -> bool {
    state.players.iter().all(|p| p.level.is_none() && p.id.is_some())
}

/// The room a user writes in: the players' for a player, the spectators' for anyone else.
#[must_use]
pub fn room_of(state: &GameState, user: &str) -> Room {
    if plays(state, Some(user)) {
        Room::Players
    } else {
        Room::Spectators
    }
}

/// The rooms a reader (a user's id, or none for a visitor) may read in a game as it stands.
#[must_use]
pub fn readable(state: &GameState, user: Option<&str>) -> Vec<Room> {
    if !plays(state, user) {
        return vec![Room::Spectators];
    }
    let mut rooms = Vec::new();
    if between_people(state) {
        rooms.push(Room::Players);
    }
    if state.over.is_some() {
        rooms.push(Room::Spectators);
    }
    rooms
}

/// The chat of the games watched on this server: a channel a game, made when a page first follows it and
/// dropped when none does.
#[derive(Clone, Debug)]
pub struct Chat {
    db: Db,
    bus: Bus,
    rooms: Arc<Mutex<HashMap<String, broadcast::Sender<Arc<ChatLine>>>>>,
}

impl Chat {
    #[must_use]
    pub fn new(db: Db, bus: Bus) -> Chat {
        Chat {
            db,
            bus,
            rooms: Arc::default(),
        }
    }

    /// The lines said in a game from now on, on every server.
    #[must_use]
    pub fn follow(&self, game: &str) -> broadcast::Receiver<Arc<ChatLine>> {
        let mut rooms = self.rooms.lock().unwrap_or_else(PoisonError::into_inner);
        rooms.retain(|_, tx| tx.receiver_count() > 0);
        rooms
            .entry(game.to_owned())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// The last lines of a game that a reader may read, oldest first, less those of the accounts it blocks,
    /// with those accounts.
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn history(&self, state: &GameState, user: Option<&str>) -> Result<History, DbError> {
        let hidden = self.hidden_for(user).await?;
        let lines = self.lines_hiding(state, user, &hidden).await?;
        Ok(History { lines, hidden })
    }

    /// The last lines of a game that a reader may read, oldest first, less those of the authors `hidden` (the
    /// accounts it blocks, as `hidden_for` read them).
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn lines_hiding(
        &self,
        state: &GameState,
        user: Option<&str>,
        hidden: &[String],
    ) -> Result<Vec<ChatLine>, DbError> {
        let mut lines = self
            .db
            .chat_lines(&state.id, &readable(state, user), HISTORY)
            .await?;
        lines.retain(|l| !hidden.contains(&l.user_id));
        Ok(lines)
    }

    /// The authors whose lines `user` does not see: the accounts it blocks.
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn hidden_for(&self, user: Option<&str>) -> Result<Vec<String>, DbError> {
        match user {
            Some(u) => self.db.blocked_by(u).await,
            None => Ok(Vec::new()),
        }
    }

    /// `user` says `raw` in a game: checked, kept, and passed on. Returns the line kept.
    ///
    /// # Errors
    ///
    /// Why the line was refused.
    pub(crate) async fn say(&self, state: &GameState, user: &User, raw: &str) -> Result<ChatLine, ChatError> {
        let room = room_of(state, &user.id);
        if room == Room::Players && !between_people(state) {
            return Err(ChatError::NoOne);
        }
        let muted = self.db.muted_until(&user.id).await?;
        if muted > now_ms() {
            return Err(ChatError::Muted(muted));
        }
        let body = text::clean(raw, LINE_MAX).map_err(ChatError::Text)?;
        let (said, last) = self
            .db
            .chat_said_since(&user.id, &state.id, now_ms() - 60_000)
            .await?;
        if said >= LINES_PER_MINUTE {
            return Err(ChatError::TooFast);
        }
        if last
            .iter()
            .take(REPEATS)
            .any(|l| l.to_lowercase() == body.to_lowercase())
        {
            return Err(ChatError::Repeated);
        }
        let line = self.db.add_chat_line(&state.id, room, user, &body).await?;
        metrics::counter!(crate::telemetry::CHAT_LINES, "room" => room.as_str()).increment(1);
        self.pass_on(line.clone());
        self.bus.chat(&line.id);
        Ok(line)
    }

    /// Another server kept line `id`: its pages here get it.
    pub async fn heard(&self, id: &str) {
        match self.db.chat_line(id).await {
            Ok(Some(line)) => self.pass_on(line),
            Ok(None) => {}
            Err(e) => tracing::warn!("a chat line heard of could not be read: {e}"),
        }
    }

    fn pass_on(&self, line: ChatLine) {
        let rooms = self.rooms.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = rooms.get(&line.game) {
            let _ = tx.send(Arc::new(line));
        }
    }
}
