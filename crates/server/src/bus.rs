//! How several servers on one PostgreSQL database hear of each other's changes: PostgreSQL's LISTEN/NOTIFY on
//! the channel `gridplay`, with no other service. A notice is sent when its transaction commits and names only
//! what changed (`game ID VERSION`, or `lobby`), with the sending server's id first so that it ignores its
//! own; the rest is read from the database. Nothing is replayed after a lost connection. On SQLite there is one
//! server and no bus.
//!
//! A server that hears that a game it holds has moved on to a newer version stops its copy, so that the next
//! request, and each of its watching pages (which watch again when their feed closes), loads the game afresh.

use std::sync::Arc;

use sqlx::postgres::PgListener;

use crate::{db::Db, live::GameHub, lobby::Lobby};

const CHANNEL: &str = "gridplay";

/// What a server tells the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A game's action `version` was committed.
    Game { id: String, version: u64 },
    /// Something in the lobby changed (a challenge, a game started or ended, a player came or went).
    Lobby,
}

impl Notice {
    fn payload(&self, origin: &str) -> String {
        match self {
            Notice::Game { id, version } => format!("{origin} game {id} {version}"),
            Notice::Lobby => format!("{origin} lobby"),
        }
    }

    /// Reads a payload: the sender's id and the notice.
    fn parse(payload: &str) -> Option<(&str, Notice)> {
        let mut words = payload.split(' ');
        let origin = words.next()?;
        let notice = match (words.next()?, words.next(), words.next()) {
            ("game", Some(id), Some(v)) => Notice::Game {
                id: id.to_owned(),
                version: v.parse().ok()?,
            },
            ("lobby", None, None) => Notice::Lobby,
            _ => return None,
        };
        Some((origin, notice))
    }
}

/// This server's end of the bus: `None` inside on SQLite.
#[derive(Clone, Debug, Default)]
pub struct Bus(Option<Arc<BusInner>>);

#[derive(Debug)]
struct BusInner {
    db: Db,
    origin: String,
}

impl Bus {
    /// The bus of a server on `database` (PostgreSQL only; SQLite has none).
    #[must_use]
    pub fn new(database: &str, db: &Db) -> Bus {
        if database.starts_with("postgres") {
            Bus(Some(Arc::new(BusInner {
                db: db.clone(),
                origin: crate::ids::short(10),
            })))
        } else {
            Bus(None)
        }
    }

    /// Tells the other servers, in the background.
    pub fn publish(&self, notice: Notice) {
        let Some(inner) = self.0.clone() else { return };
        tokio::spawn(async move {
            let payload = notice.payload(&inner.origin);
            if let Err(e) = inner.db.notify(CHANNEL, &payload).await {
                tracing::warn!("bus: cannot send {payload:?}: {e}");
            }
        });
    }

    /// Listens for the other servers' notices until the process ends, reconnecting after a lost connection.
    pub fn listen(&self, url: String, hub: GameHub, lobby: Lobby) {
        let Some(inner) = self.0.clone() else { return };
        tokio::spawn(async move {
            loop {
                match PgListener::connect(&url).await {
                    Ok(mut listener) => {
                        if let Err(e) = listener.listen(CHANNEL).await {
                            tracing::warn!("bus: cannot listen: {e}");
                        } else {
                            loop {
                                match listener.recv().await {
                                    Ok(n) => match Notice::parse(n.payload()) {
                                        Some((origin, _)) if origin == inner.origin => {}
                                        Some((_, Notice::Game { id, version })) => {
                                            hub.heard(&id, version).await;
                                        }
                                        Some((_, Notice::Lobby)) => lobby.changed_here(),
                                        None => tracing::warn!("bus: unreadable notice {:?}", n.payload()),
                                    },
                                    Err(e) => {
                                        // Notices sent while the connection was down are lost: every copy
                                        // of a game may be out of date, and pages fetch the lobby again.
                                        tracing::warn!("bus: {e}");
                                        hub.heard_nothing().await;
                                        lobby.changed_here();
                                        break;
                                    }
                                }
                            }
                        }
                    }
                    Err(e) => tracing::warn!("bus: cannot connect: {e}"),
                }
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
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
            },
            Notice::Lobby,
        ] {
            assert_eq!(Notice::parse(&n.payload("srv")), Some(("srv", n.clone())));
        }
        assert_eq!(Notice::parse("srv game x"), None);
        assert_eq!(Notice::parse("srv lobby extra"), None);
    }
}
