//! Who is online and what changed in the lobby. A user is online while one of their pages holds a WebSocket.
//! Lobby pages subscribe to short notices and fetch what they show from the HTTP API, which knows who asks.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::broadcast;

use crate::db::User;

#[derive(Clone, Debug)]
pub struct Lobby(Arc<LobbyInner>);

#[derive(Debug)]
struct LobbyInner {
    online: Mutex<HashMap<String, (String, usize)>>,
    feed: broadcast::Sender<Arc<str>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby(Arc::new(LobbyInner {
            online: Mutex::new(HashMap::new()),
            feed: broadcast::channel(256).0,
        }))
    }
}

impl Lobby {
    fn online(&self) -> std::sync::MutexGuard<'_, HashMap<String, (String, usize)>> {
        // The map holds counts only; a panic elsewhere cannot leave it inconsistent, so poison is ignored.
        self.0
            .online
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A page of `user` opened its socket.
    pub fn join(&self, user: &User) {
        let first = {
            let mut online = self.online();
            let entry = online
                .entry(user.id.clone())
                .or_insert_with(|| (user.name.clone(), 0));
            entry.1 += 1;
            entry.1 == 1
        };
        if first {
            self.changed();
        }
    }

    /// A page of `user` closed its socket.
    pub fn leave(&self, user: &User) {
        let last = {
            let mut online = self.online();
            match online.get_mut(&user.id) {
                Some(entry) if entry.1 > 1 => {
                    entry.1 -= 1;
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
        let mut names: Vec<String> = self.online().values().map(|(n, _)| n.clone()).collect();
        names.sort_by_key(|n| n.to_lowercase());
        names
    }

    #[must_use]
    pub fn count(&self) -> usize {
        self.online().len()
    }

    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.0.feed.subscribe()
    }

    /// Something in the lobby changed: pages fetch it again.
    pub fn changed(&self) {
        let _ = self.0.feed.send(Arc::from(r#"{"t":"lobby"}"#));
    }

    /// A game started between users: their pages may go to it.
    pub fn started(&self, game: &str, users: &[&str]) {
        let msg = serde_json::json!({ "t": "started", "game": game, "users": users });
        let _ = self.0.feed.send(Arc::from(msg.to_string()));
        self.changed();
    }
}
