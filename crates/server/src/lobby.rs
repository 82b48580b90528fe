//! Who is online, who watches which game, and what changed in the lobby. A user is online while one of their
//! pages holds a WebSocket. Pages subscribe to short notices and fetch what they show from the HTTP API, which
//! knows who asks. Notices meant for one user (a game started, your turn) go to that user's pages only.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
};

use tokio::sync::broadcast;

use crate::{db::User, messages::ServerMsg};

#[derive(Clone, Debug)]
pub struct Lobby(Arc<LobbyInner>);

#[derive(Debug)]
struct Online {
    name: String,
    pages: usize,
    personal: broadcast::Sender<Arc<str>>,
}

#[derive(Debug)]
struct LobbyInner {
    online: Mutex<HashMap<String, Online>>,
    /// Per game, its viewers (a user id, or a page's own key for visitors) and how many pages each has open.
    viewers: Mutex<HashMap<String, HashMap<String, usize>>>,
    feed: broadcast::Sender<Arc<str>>,
    /// The other servers on the same database, told of lobby changes and committed actions.
    bus: std::sync::OnceLock<crate::bus::Bus>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby(Arc::new(LobbyInner {
            online: Mutex::new(HashMap::new()),
            viewers: Mutex::new(HashMap::new()),
            feed: broadcast::channel(256).0,
            bus: std::sync::OnceLock::new(),
        }))
    }
}

/// The maps hold counts only; a panic elsewhere cannot leave them inconsistent, so poison is ignored.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A page watching a game; dropping it stops counting the page.
#[derive(Debug)]
pub struct Viewing {
    lobby: Lobby,
    game: String,
    key: String,
}

impl Drop for Viewing {
    fn drop(&mut self) {
        let mut viewers = lock(&self.lobby.0.viewers);
        if let Some(g) = viewers.get_mut(&self.game) {
            if let Some(n) = g.get_mut(&self.key) {
                *n -= 1;
                if *n == 0 {
                    g.remove(&self.key);
                }
            }
            if g.is_empty() {
                viewers.remove(&self.game);
            }
        }
    }
}

impl Lobby {
    /// A page of `user` opened its socket; it receives the user's own notices from the returned feed.
    pub fn join(&self, user: &User) -> broadcast::Receiver<Arc<str>> {
        let (first, rx) = {
            let mut online = lock(&self.0.online);
            let entry = online.entry(user.id.clone()).or_insert_with(|| Online {
                name: user.name.clone(),
                pages: 0,
                personal: broadcast::channel(64).0,
            });
            entry.pages += 1;
            (entry.pages == 1, entry.personal.subscribe())
        };
        if first {
            self.changed();
        }
        rx
    }

    /// A page of `user` closed its socket.
    pub fn leave(&self, user: &User) {
        let last = {
            let mut online = lock(&self.0.online);
            match online.get_mut(&user.id) {
                Some(entry) if entry.pages > 1 => {
                    entry.pages -= 1;
                    false
                }
                Some(_) => {
                    online.remove(&user.id);
                    true
                }
                None => false,
            }
        };
        if last {
            self.changed();
        }
    }

    /// The names of the users online, sorted without regard to case.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = lock(&self.0.online).values().map(|o| o.name.clone()).collect();
        names.sort_by_key(|n| n.to_lowercase());
        names
    }

    #[must_use]
    pub fn count(&self) -> usize {
        lock(&self.0.online).len()
    }

    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.0.feed.subscribe()
    }

    /// Something in the lobby changed: pages fetch it again.
    pub fn changed(&self) {
        self.changed_here();
        self.publish(crate::bus::Notice::Lobby);
    }

    /// Something changed in the lobby through another server: tell this server's pages only.
    pub fn changed_here(&self) {
        let _ = self.0.feed.send(ServerMsg::Lobby.text());
    }

    /// Joins the other servers on the same database (PostgreSQL); once, at start.
    pub fn set_bus(&self, bus: crate::bus::Bus) {
        let _ = self.0.bus.set(bus);
    }

    /// Tells the other servers, if any.
    pub fn publish(&self, notice: crate::bus::Notice) {
        if let Some(bus) = self.0.bus.get() {
            bus.publish(notice);
        }
    }

    fn tell(&self, user: &str, msg: &Arc<str>) {
        if let Some(o) = lock(&self.0.online).get(user) {
            let _ = o.personal.send(msg.clone());
        }
    }

    /// A game started between users: their pages may go to it.
    pub fn started(&self, game: &str, users: &[&str]) {
        let msg = ServerMsg::Started { game }.text();
        for u in users {
            self.tell(u, &msg);
        }
        self.changed();
    }

    /// It is `user`'s turn in `game`.
    pub fn notify(&self, user: &str, game: &str) {
        self.tell(user, &ServerMsg::Turn { game }.text());
    }

    /// `user` offers a rematch of `game` through challenge `challenge`.
    pub fn rematch(&self, user: &str, game: &str, challenge: &str, from: &str) {
        let msg = ServerMsg::Rematch {
            game,
            challenge,
            from,
        };
        self.tell(user, &msg.text());
    }

    /// A page starts watching `game` as `key` (a user id, or the page's own key for a visitor).
    #[must_use]
    pub fn viewing(&self, game: &str, key: &str) -> Viewing {
        *lock(&self.0.viewers)
            .entry(game.to_owned())
            .or_default()
            .entry(key.to_owned())
            .or_default() += 1;
        Viewing {
            lobby: self.clone(),
            game: game.to_owned(),
            key: key.to_owned(),
        }
    }

    /// How many viewers of `game` are not among `players`.
    #[must_use]
    pub fn spectators(&self, game: &str, players: &[&str]) -> usize {
        lock(&self.0.viewers)
            .get(game)
            .map_or(0, |g| g.keys().filter(|k| !players.contains(&k.as_str())).count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spectators_are_viewers_who_do_not_play_and_leave_when_dropped() {
        let lobby = Lobby::default();
        let a = lobby.viewing("g", "alice");
        let b = lobby.viewing("g", "bob");
        let b2 = lobby.viewing("g", "bob");
        let v = lobby.viewing("g", "visitor-1");
        assert_eq!(lobby.spectators("g", &["alice"]), 2);
        drop(b);
        assert_eq!(lobby.spectators("g", &["alice"]), 2);
        drop(b2);
        drop(v);
        assert_eq!(lobby.spectators("g", &["alice"]), 0);
        drop(a);
        assert!(lock(&lobby.0.viewers).is_empty());
    }
}
