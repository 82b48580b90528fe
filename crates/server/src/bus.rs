//! How several servers on one PostgreSQL database work as one: PostgreSQL's LISTEN/NOTIFY on the channel
//! `gridplay` carries short notices, and a few shared tables (`db/servers.rs`) hold what a notice cannot
//! carry. There is no other service. A notice is sent when its transaction commits and names only what
//! changed, with the sending server's id first so that it ignores its own; the rest is read from the
//! database. Nothing is replayed after a lost connection, so a server that lost its connection treats every
//! copy it holds as out of date.
//!
//! - A server that hears that a game it holds has moved on applies the committed actions to its copy, so that
//!   its watching pages get their events (the game layer does it: the bus only passes on what it heard, as
//!   [`Heard`] events on a channel).
//! - A game's timed work (its live clock's flag, its engine's moves) is done by the one server that holds the
//!   game's lease; the holder renews its leases every second, and a lease not renewed for 3 s is taken
//!   over by whichever server sweeps it first.
//! - Who is online and who watches which game is kept per server in the database, so that every server shows
//!   the whole site; a server that stops beating its heart drops out of both within a few seconds.
//! - A notice for one user (a game started, your turn, a rematch offer) goes to the servers where that user
//!   has a page open.
//!
//! On SQLite there is one server: every method here does nothing, and every lease is this server's.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use crate::db::{ActionKind, ActionRow, CHANNEL, Db, Lease, Side, now_ms, pack};

/// What the bus hears of the other servers, for the game layer to act on (`game::follow_bus`): the bus knows
/// nothing of games in memory or of pages.
#[derive(Debug)]
pub enum Heard {
    /// Another server committed action `version` of a game (with the action when the notice carried it).
    Game {
        id: String,
        version: u64,
        action: Option<ActionRow>,
    },
    /// Something in the lobby changed on another server.
    Lobby,
    /// Who is online and who watches which game on the other servers, read afresh: (id, name) and (game,
    /// viewer).
    Others {
        online: Vec<(String, String)>,
        viewers: Vec<(String, String)>,
    },
    /// A message for one user's pages here.
    Tell { user: String, msg: String },
    /// Another server kept chat line `id`.
    Chat { id: String },
    /// The listening connection was lost: whatever was sent meanwhile is unknown.
    Lost,
}

/// A server whose last heartbeat is older than this is taken for gone: its users and viewers are not shown.
const ALIVE_MS: i64 = 6_000;

/// The longest action body a game notice carries; a longer one (or one with a line break) is read from the
/// database by the servers that hear of it, so that a notice never outgrows PostgreSQL's payload limit.
const ACTION_BYTES: usize = 4_000;

/// What a server tells the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A game's action `version` was committed; the action itself comes along when it fits on a line, so
    /// that the other servers need not read it.
    Game {
        id: String,
        version: u64,
        action: Option<ActionRow>,
    },
    /// Something in the lobby changed (a challenge, a game started or ended).
    Lobby,
    /// A user came online on the sending server, or left it.
    Presence,
    /// A message for one user's pages (a server message as JSON).
    Tell { user: String, msg: String },
    /// A chat line was kept (read from the database by its id).
    Chat { id: String },
}

/// A notice as it travels: one JSON object a line, the sender's id first (`{"from":"srv","n":"game",...}`).
/// A line is a JSON text with no raw line break, so an action's body may hold any character.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Wire<'a> {
    from: std::borrow::Cow<'a, str>,
    #[serde(flatten)]
    notice: WireNotice,
}

/// [`Notice`] on the wire: a game's action with its fields by name. A field a later build adds is ignored, so
/// that servers of two builds read each other's notices during a rolling upgrade.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(tag = "n", rename_all = "kebab-case")]
enum WireNotice {
    Game {
        id: String,
        version: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        action: Option<WireAction>,
    },
    Lobby,
    Presence,
    Tell {
        user: String,
        msg: String,
    },
    Chat {
        id: String,
    },
}

/// A committed action in a game notice; its number is the notice's version.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct WireAction {
    side: Side,
    kind: ActionKind,
    at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clock: Option<i64>,
    body: String,
}

impl Notice {
    /// The notice as one line of a payload, from `origin`.
    fn payload(&self, origin: &str) -> String {
        let notice = match self {
            Notice::Game { id, version, action } => WireNotice::Game {
                id: id.clone(),
                version: *version,
                // An action too long for a payload is left for the database.
                action: action
                    .as_ref()
                    .filter(|a| a.body.len() <= ACTION_BYTES)
                    .map(|a| WireAction {
                        side: a.side.into(),
                        kind: a.kind,
                        at: a.at,
                        clock: a.clock,
                        body: a.body.clone(),
                    }),
            },
            Notice::Lobby => WireNotice::Lobby,
            Notice::Presence => WireNotice::Presence,
            Notice::Tell { user, msg } => WireNotice::Tell {
                user: user.clone(),
                msg: msg.clone(),
            },
            Notice::Chat { id } => WireNotice::Chat { id: id.clone() },
        };
        let wire = Wire {
            from: origin.into(),
            notice,
        };
        // A notice of strings and numbers always serializes.
        serde_json::to_string(&wire).unwrap_or_default()
    }

    /// Reads a line of a payload: the sender's id and the notice, or why it does not read.
    fn parse(line: &str) -> Result<(String, Notice), serde_json::Error> {
        let wire: Wire<'_> = serde_json::from_str(line)?;
        let notice = match wire.notice {
            WireNotice::Game { id, version, action } => Notice::Game {
                action: action.map(|a| ActionRow {
                    seq: i64::try_from(version).unwrap_or(i64::MAX),
                    side: a.side.into(),
                    kind: a.kind,
                    at: a.at,
                    clock: a.clock,
                    body: a.body,
                }),
                id,
                version,
            },
            WireNotice::Lobby => Notice::Lobby,
            WireNotice::Presence => Notice::Presence,
            WireNotice::Tell { user, msg } => Notice::Tell { user, msg },
            WireNotice::Chat { id } => Notice::Chat { id },
        };
        Ok((wire.from.into_owned(), notice))
    }
}

/// This server's end of the bus: `None` inside on SQLite.
#[derive(Clone, Debug, Default)]
pub struct Bus(Option<Arc<BusInner>>);

#[derive(Debug)]
struct BusInner {
    db: Db,
    origin: String,
    /// Presence and viewer rows to write, in order, by one task.
    writes: mpsc::UnboundedSender<Write>,
    /// Notices to send, in order, by one task: those waiting when it is free go in one `pg_notify`.
    notices: mpsc::UnboundedSender<Notice>,
    /// A reload of the other servers' users is on its way.
    reloading: AtomicBool,
    /// The server's background tasks, where the bus's run.
    tasks: crate::tasks::Tasks,
}

#[derive(Debug)]
enum Write {
    Presence {
        user: String,
        name: String,
        online: bool,
    },
    Viewer {
        game: String,
        viewer: String,
        watching: bool,
    },
}

/// The notices heard from the other servers that may wait for the game layer (`Bus::listen`).
pub const HEARD_WAITING: usize = 4096;

impl Bus {
    /// The bus of server `process` on `database` (PostgreSQL only; SQLite has none).
    #[must_use]
    pub fn new(database: &str, db: &Db, process: &str, tasks: &crate::tasks::Tasks) -> Bus {
        if !database.starts_with("postgres") {
            return Bus(None);
        }
        // Unbounded, both: their senders cannot wait (`viewer` runs in a guard's `drop`, and a notice is sent
        // by a game's actor, which must not wait for another server's database), and a row or a notice
        // dropped for want of room would leave the other servers wrong until the next reload. What waits is
        // a few bytes per page opened or closed, written in order by one task each.
        let (writes, mut rx) = mpsc::unbounded_channel();
        let (notices, mut notices_rx) = mpsc::unbounded_channel::<Notice>();
        let inner = Arc::new(BusInner {
            db: db.clone(),
            origin: process.to_owned(),
            writes,
            notices,
            reloading: AtomicBool::new(false),
            tasks: tasks.clone(),
        });
        let weak = Arc::downgrade(&inner);
        tasks.spawn(async move {
            while let Some(first) = notices_rx.recv().await {
                let Some(inner) = weak.upgrade() else { break };
                let mut lines = vec![first.payload(&inner.origin)];
                while let Ok(n) = notices_rx.try_recv() {
                    lines.push(n.payload(&inner.origin));
                }
                metrics::counter!(crate::telemetry::BUS_NOTICES, "way" => "sent")
                    .increment(lines.len() as u64);
                for payload in pack(&lines) {
                    if let Err(e) = inner.db.notify(&payload).await {
                        tracing::warn!("bus: cannot send {payload:?}: {e}");
                    }
                }
            }
        });
        let weak = Arc::downgrade(&inner);
        tasks.spawn(async move {
            while let Some(w) = rx.recv().await {
                let Some(inner) = weak.upgrade() else { break };
                let (r, notice) = match &w {
                    Write::Presence { user, name, online } => (
                        inner.db.set_presence(&inner.origin, user, name, *online).await,
                        Some(Notice::Presence),
                    ),
                    Write::Viewer {
                        game,
                        viewer,
                        watching,
                    } => (
                        inner.db.set_viewer(&inner.origin, game, viewer, *watching).await,
                        None,
                    ),
                };
                match r {
                    Err(e) => tracing::warn!("bus: cannot store {w:?}: {e}"),
                    Ok(()) => {
                        if let Some(n) = notice {
                            Bus(Some(inner)).publish(n);
                        }
                    }
                }
            }
        });
        Bus(Some(inner))
    }

    /// Whether other servers may share the database.
    #[must_use]
    pub fn is_shared(&self) -> bool {
        self.0.is_some()
    }

    /// The notice that a game's action `version` was committed, and the notice `with` it if any (one a
    /// line), for the writer to send with the action's transaction (none on SQLite).
    #[must_use]
    pub fn game_notice(&self, id: &str, action: &ActionRow, with: Option<Notice>) -> Option<String> {
        self.0.as_ref().map(|inner| {
            let mut payload = Notice::Game {
                id: id.to_owned(),
                version: u64::try_from(action.seq).unwrap_or_default(),
                action: Some(action.clone()),
            }
            .payload(&inner.origin);
            if let Some(n) = with {
                payload.push('\n');
                payload.push_str(&n.payload(&inner.origin));
            }
            payload
        })
    }

    /// Tells the other servers, in the background (in the order published).
    pub fn publish(&self, notice: Notice) {
        if let Some(inner) = &self.0 {
            let _ = inner.notices.send(notice);
        }
    }

    /// Tells the other servers that chat line `id` was kept.
    pub fn chat(&self, id: &str) {
        self.publish(Notice::Chat { id: id.to_owned() });
    }

    /// Records, for the other servers, that `user` has a page open here or no longer has.
    pub fn presence(&self, user: &str, name: &str, online: bool) {
        if let Some(inner) = &self.0 {
            let _ = inner.writes.send(Write::Presence {
                user: user.to_owned(),
                name: name.to_owned(),
                online,
            });
        }
    }

    /// Records, for the other servers, that `viewer` watches `game` here or no longer does.
    pub fn viewer(&self, game: &str, viewer: &str, watching: bool) {
        if let Some(inner) = &self.0 {
            let _ = inner.writes.send(Write::Viewer {
                game: game.to_owned(),
                viewer: viewer.to_owned(),
                watching,
            });
        }
    }

    /// Takes the lease on `game`'s timed work for this server, if no other server holds it. Always granted on
    /// SQLite; refused if the database cannot be reached.
    pub async fn claim(&self, game: &str) -> Lease {
        let Some(inner) = &self.0 else {
            return Lease::Held;
        };
        match inner.db.claim_lease(game, &inner.origin, now_ms()).await {
            Ok(lease) => lease,
            Err(e) => {
                tracing::warn!("bus: cannot claim the lease on {game}: {e}");
                Lease::Elsewhere { until_ms: 0 }
            }
        }
    }

    /// Gives up this server's lease on `game`.
    pub async fn release(&self, game: &str) {
        let Some(inner) = &self.0 else { return };
        if let Err(e) = inner.db.release_lease(game, &inner.origin).await {
            tracing::warn!("bus: cannot release the lease on {game}: {e}");
        }
    }

    /// Gives up every lease of this server (it is stopping), so that the others take its games over at once.
    pub async fn release_all(&self) {
        let Some(inner) = &self.0 else { return };
        if let Err(e) = inner.db.release_leases(&inner.origin).await {
            tracing::warn!("bus: cannot release the leases: {e}");
        }
    }

    /// Once a second: renews this server's leases, and returns the games whose lease expired, for this server
    /// to take over.
    pub async fn tick(&self) -> Vec<String> {
        let Some(inner) = &self.0 else {
            return Vec::new();
        };
        let now = now_ms();
        if let Err(e) = inner.db.renew_leases(&inner.origin, now).await {
            tracing::warn!("bus: cannot renew the leases: {e}");
        }
        inner.db.expired_leases(now).await.unwrap_or_else(|e| {
            tracing::warn!("bus: cannot read the expired leases: {e}");
            Vec::new()
        })
    }

    /// Reads who is online and watching on the other servers that are alive (`None` on SQLite, or where
    /// the database cannot say).
    pub async fn reload(&self) -> Option<Heard> {
        let inner = self.0.as_ref()?;
        let alive_after = now_ms() - ALIVE_MS;
        let online = inner
            .db
            .remote_presence(&inner.origin, alive_after)
            .await
            .map_err(|e| tracing::warn!("bus: cannot read who is online: {e}"))
            .ok()?;
        let viewers = inner
            .db
            .remote_viewers(&inner.origin, alive_after, None)
            .await
            .map_err(|e| tracing::warn!("bus: cannot read who is watching: {e}"))
            .ok()?;
        Some(Heard::Others { online, viewers })
    }

    /// Removes the presence rows of servers gone this long.
    pub async fn purge(&self) {
        let Some(inner) = &self.0 else { return };
        if let Err(e) = inner.db.purge_gone_servers(now_ms() - 60_000).await {
            tracing::warn!("bus: cannot purge the rows of stopped servers: {e}");
        }
    }

    /// Listens for the other servers' notices until the process ends, reconnecting after a lost connection,
    /// and passes on what it hears, in order (nothing on SQLite). The channel holds [`HEARD_WAITING`]
    /// notices: past that the listener waits, and PostgreSQL keeps what it has not yet read for this
    /// connection, so nothing is dropped and a slow game layer slows only the reading.
    pub fn listen(&self, url: String) -> mpsc::Receiver<Heard> {
        let (heard, rx) = mpsc::channel(HEARD_WAITING);
        let Some(inner) = self.0.clone() else {
            return rx;
        };
        let bus = self.clone();
        inner.tasks.clone().spawn(async move {
            loop {
                match PgListener::connect(&url).await {
                    Ok(mut listener) => {
                        if let Err(e) = listener.listen(CHANNEL).await {
                            tracing::warn!("bus: cannot listen: {e}");
                        } else {
                            // Whatever was sent before this connection listened is unknown.
                            bus.reload_soon(&heard);
                            loop {
                                match listener.recv().await {
                                    Ok(n) => {
                                        // A payload holds one notice a line (a group commit's moves share one).
                                        // This server's own notices are skipped.
                                        for line in n.payload().lines() {
                                            let notice = match Notice::parse(line) {
                                                Ok((from, _)) if from == inner.origin => continue,
                                                Ok((_, notice)) => notice,
                                                Err(e) => {
                                                    tracing::warn!("bus: unreadable notice {line:?}: {e}");
                                                    continue;
                                                }
                                            };
                                            metrics::counter!(crate::telemetry::BUS_NOTICES, "way" => "heard")
                                                .increment(1);
                                            let told = match notice {
                                                Notice::Game { id, version, action } => {
                                                    Some(Heard::Game { id, version, action })
                                                }
                                                Notice::Lobby => Some(Heard::Lobby),
                                                Notice::Presence => {
                                                    bus.reload_soon(&heard);
                                                    None
                                                }
                                                Notice::Tell { user, msg } => Some(Heard::Tell { user, msg }),
                                                Notice::Chat { id } => Some(Heard::Chat { id }),
                                            };
                                            if let Some(h) = told
                                                && heard.send(h).await.is_err()
                                            {
                                                return;
                                            }
                                        }
                                    }
                                    Err(e) => {
                                        // Notices sent while the connection was down are lost.
                                        tracing::warn!("bus: {e}");
                                        if heard.send(Heard::Lost).await.is_err() {
                                            return;
                                        }
                                        break;
                                    }
                                }
                            }
                        }
                    }
                    Err(e) => tracing::warn!("bus: cannot connect: {e}"),
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
        rx
    }

    /// Reloads the other servers' users shortly (one reload for a burst of notices), and passes them on.
    fn reload_soon(&self, heard: &mpsc::Sender<Heard>) {
        let Some(inner) = &self.0 else { return };
        if inner.reloading.swap(true, Ordering::AcqRel) {
            return;
        }
        let bus = self.clone();
        let heard = heard.clone();
        inner.tasks.spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if let Some(inner) = &bus.0 {
                inner.reloading.store(false, Ordering::Release);
            }
            if let Some(others) = bus.reload().await {
                let _ = heard.send(others).await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_read_back() {
        for n in [
            Notice::Game {
                id: "abc12345".into(),
                version: 7,
                action: None,
            },
            Notice::Game {
                id: "abc12345".into(),
                version: 7,
                action: Some(ActionRow {
                    seq: 7,
                    side: gridplay_core::Player::Second,
                    kind: ActionKind::Move,
                    body: "a1 b2\nx \"y\"".into(),
                    at: 1_700_000_000_000,
                    clock: Some(12_345),
                }),
            },
            Notice::Game {
                id: "abc12345".into(),
                version: 8,
                action: Some(ActionRow {
                    seq: 8,
                    side: gridplay_core::Player::First,
                    kind: ActionKind::Resign,
                    body: String::new(),
                    at: 1,
                    clock: None,
                }),
            },
            Notice::Lobby,
            Notice::Presence,
            Notice::Tell {
                user: "u1".into(),
                msg: r#"{"t":"turn","game":"g 1"}"#.into(),
            },
            Notice::Chat { id: "line1".into() },
        ] {
            let line = n.payload("srv");
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(Notice::parse(&line).unwrap(), ("srv".to_owned(), n.clone()));
        }
        // An action too long for a payload is left for the database.
        let long = Notice::Game {
            id: "abc12345".into(),
            version: 9,
            action: Some(ActionRow {
                seq: 9,
                side: gridplay_core::Player::First,
                kind: ActionKind::Move,
                body: "m".repeat(ACTION_BYTES + 1),
                at: 1,
                clock: None,
            }),
        };
        assert_eq!(
            long.payload("srv"),
            r#"{"from":"srv","n":"game","id":"abc12345","version":9}"#
        );
        // What does not read is refused, with the reason.
        for bad in [
            "srv game x",
            r#"{"from":"srv","n":"game","id":"x"}"#,
            r#"{"from":"srv","n":"tell","user":"u1"}"#,
            r#"{"from":"srv","n":"chat"}"#,
            r#"{"from":"srv","n":"shout","id":"a"}"#,
            r#"{"n":"lobby"}"#,
            r#"{"from":"srv","n":"game","id":"x","version":1,"action":{"side":"third","kind":"move","at":1,"body":""}}"#,
        ] {
            assert!(Notice::parse(bad).is_err(), "{bad}");
        }
        // A field of a later build is ignored.
        assert_eq!(
            Notice::parse(r#"{"from":"srv","n":"lobby","later":1}"#).unwrap(),
            ("srv".to_owned(), Notice::Lobby)
        );
    }
}
