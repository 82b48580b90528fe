//! Who is online, who watches which game, and what changed in the lobby. A user is online while one of their
//! pages holds a WebSocket. Pages subscribe to short notices and fetch what they show from the HTTP API, which
//! knows who asks. Notices meant for one user (a game started, your turn) go to that user's pages only.
//!
//! With several servers on one database (`bus.rs`), each server also knows who is online and watching on the
//! others, and a notice for a user online elsewhere goes through the bus.

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex, MutexGuard, PoisonError},
};

use tokio::sync::broadcast;

use crate::{db::User, game::messages::ServerMsg};

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
    /// Who is online and watching on the other servers, as last read.
    remote: Mutex<Remote>,
}

/// The users online on the other servers (id to name), and the viewers there of each game.
#[derive(Debug, Default)]
struct Remote {
    online: HashMap<String, String>,
    viewers: HashMap<String, HashSet<String>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby(Arc::new(LobbyInner {
            online: Mutex::new(HashMap::new()),
            viewers: Mutex::new(HashMap::new()),
            feed: broadcast::channel(256).0,
            bus: std::sync::OnceLock::new(),
            remote: Mutex::new(Remote::default()),
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
        let mut last = false;
        {
            let mut viewers = lock(&self.lobby.0.viewers);
            if let Some(g) = viewers.get_mut(&self.game) {
                if let Some(n) = g.get_mut(&self.key) {
                    *n -= 1;
                    if *n == 0 {
                        g.remove(&self.key);
                        last = true;
                    }
                }
                if g.is_empty() {
                    viewers.remove(&self.game);
                }
            }
        }
        if last {
            self.lobby.bus().viewer(&self.game, &self.key, false);
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
            self.changed_here();
            self.bus().presence(&user.id, &user.name, true);
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
            self.changed_here();
            self.bus().presence(&user.id, &user.name, false);
        }
    }

    /// The names of the users online, sorted without regard to case.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        let online = lock(&self.0.online);
        let remote = lock(&self.0.remote);
        let mut names: Vec<String> = online
            .values()
            .map(|o| o.name.clone())
            .chain(
                remote
                    .online
                    .iter()
                    .filter(|(id, _)| !online.contains_key(*id))
                    .map(|(_, name)| name.clone()),
            )
            .collect();
        names.sort_by_key(|n| n.to_lowercase());
        names
    }

    /// How many users are online, on this server and the others.
    #[must_use]
    pub fn count(&self) -> usize {
        let online = lock(&self.0.online);
        let remote = lock(&self.0.remote);
        online.len()
            + remote
                .online
                .keys()
                .filter(|id| !online.contains_key(*id))
                .count()
    }

    /// Whether `user` has a page open on this server.
    #[must_use]
    pub fn is_here(&self, user: &str) -> bool {
        lock(&self.0.online).contains_key(user)
    }

    /// What the bus last read of the users online on the other servers: (id, name).
    pub fn set_remote_online(&self, users: Vec<(String, String)>) {
        lock(&self.0.remote).online = users.into_iter().collect();
    }

    /// What the bus last read of the viewers on the other servers: (game, viewer).
    pub fn set_remote_viewers(&self, viewers: Vec<(String, String)>) {
        let mut map: HashMap<String, HashSet<String>> = HashMap::new();
        for (game, viewer) in viewers {
            map.entry(game).or_default().insert(viewer);
        }
        lock(&self.0.remote).viewers = map;
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

    fn bus(&self) -> crate::bus::Bus {
        self.0.bus.get().cloned().unwrap_or_default()
    }

    /// Tells the other servers, if any.
    pub fn publish(&self, notice: crate::bus::Notice) {
        if let Some(bus) = self.0.bus.get() {
            bus.publish(notice);
        }
    }

    /// Sends `msg` to `user`'s pages on this server and, through the bus, on any other server where the user
    /// is online.
    fn tell(&self, user: &str, msg: &Arc<str>) {
        self.tell_here(user, msg);
        if lock(&self.0.remote).online.contains_key(user) {
            self.publish(crate::bus::Notice::Tell {
                user: user.to_owned(),
                msg: msg.to_string(),
            });
        }
    }

    /// Sends `msg` to `user`'s pages on this server.
    pub fn tell_here(&self, user: &str, msg: &str) {
        if let Some(o) = lock(&self.0.online).get(user) {
            let _ = o.personal.send(Arc::from(msg));
        }
    }

    /// The user's account is closed: each of their pages on every server is told, and its socket ends.
    pub fn signed_out(&self, user: &str) {
        self.tell(user, &ServerMsg::SignedOut.text());
    }

    /// A game started between users: their pages may go to it.
    pub fn started(&self, game: &str, users: &[&str]) {
        let msg = ServerMsg::Started { game }.text();
        for u in users {
            self.tell(u, &msg);
        }
        self.changed();
    }

    /// It is `user`'s turn in `game`: tells the user's pages on this server.
    pub fn turn_here(&self, user: &str, game: &str) {
        self.tell_here(user, &ServerMsg::Turn { game }.text());
    }

    /// The notice that it is `user`'s turn in `game`, for the other servers where the user has a page open
    /// (none if there is no such server). It goes with the move's own commit.
    #[must_use]
    pub fn turn_notice(&self, user: &str, game: &str) -> Option<crate::bus::Notice> {
        lock(&self.0.remote)
            .online
            .contains_key(user)
            .then(|| crate::bus::Notice::Tell {
                user: user.to_owned(),
                msg: ServerMsg::Turn { game }.text().to_string(),
            })
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
        let first = {
            let mut viewers = lock(&self.0.viewers);
            let n = viewers
                .entry(game.to_owned())
                .or_default()
                .entry(key.to_owned())
                .or_default();
            *n += 1;
            *n == 1
        };
        if first {
            self.bus().viewer(game, key, true);
        }
        Viewing {
            lobby: self.clone(),
            game: game.to_owned(),
            key: key.to_owned(),
        }
    }

    /// Whether `user` has a page open on `game`, on this server or, as last read, on another.
    #[must_use]
    pub fn watching(&self, game: &str, user: &str) -> bool {
        let here = lock(&self.0.viewers)
            .get(game)
            .is_some_and(|g| g.get(user).is_some_and(|n| *n > 0));
        here || lock(&self.0.remote)
            .viewers
            .get(game)
            .is_some_and(|v| v.contains(user))
    }

    /// How many viewers of `game`, on this server and the others, are not among `players`.
    #[must_use]
    pub fn spectators(&self, game: &str, players: &[&str]) -> usize {
        let viewers = lock(&self.0.viewers);
        let remote = lock(&self.0.remote);
        let here = viewers.get(game);
        let there = remote.viewers.get(game);
        let mut keys: HashSet<&str> = here
            .map(|g| g.keys().map(String::as_str).collect())
            .unwrap_or_default();
        keys.extend(there.into_iter().flatten().map(String::as_str));
        keys.iter().filter(|k| !players.contains(k)).count()
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

    #[test]
    fn the_users_and_viewers_of_other_servers_count_once() {
        let lobby = Lobby::default();
        let _rx = lobby.join(&User {
            id: "u1".into(),
            name: "Alice".into(),
            bot: false,
        });
        lobby.set_remote_online(vec![("u1".into(), "Alice".into()), ("u2".into(), "bob".into())]);
        assert_eq!(lobby.names(), ["Alice", "bob"]);
        assert_eq!(lobby.count(), 2);
        let _a = lobby.viewing("g", "u1");
        let _v = lobby.viewing("g", "visitor-1");
        lobby.set_remote_viewers(vec![("g".into(), "visitor-1".into()), ("g".into(), "u3".into())]);
        assert_eq!(lobby.spectators("g", &["u1"]), 2);
        assert_eq!(lobby.spectators("other", &[]), 0);
        lobby.set_remote_online(Vec::new());
        assert_eq!(lobby.count(), 1);
    }
}
