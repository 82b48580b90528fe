//! The game layer: games in play and everything that follows them, above the storage and the bus and below
//! the web edge, which it knows nothing of.
//!
//! - `live`: the hub of games in play, one actor per game (checks, commits and publishes every action);
//! - `state`: the state of a game as a client sees it, and the delta of an event;
//! - `messages`: what the server sends over a page's socket (events, states, notices);
//! - `chat`: the players' and spectators' rooms of each game: lines checked, kept and passed on;
//! - `lobby`: who is online, who watches what, and the notices of the lobby and of one user;
//! - `engine_pool`: the engine's searches on blocking threads, in a lane for games and one for analyses;
//! - `puzzles`: puzzles graded by their proofs, and mined from the site's finished games;
//! - `review`: the engine-use review of finished games between people, the players' running figures, and
//!   the admins' queue of improbably engine-like players;
//! - `tournament`: pairings, standings, and the director that pairs each round, told by the hub through a
//!   channel when a tournament's game ends.
//!
//! The bus (`crate::bus`) is an adapter this layer follows: [`follow_bus`] acts on what it heard.

pub mod chat;
pub mod codes;
pub mod engine_pool;
pub mod import;
pub mod live;
pub mod lobby;
pub mod messages;
pub mod moderation;
pub mod puzzles;
pub mod rematch;
pub mod review;
pub mod state;
pub mod tournament;

#[cfg(test)]
mod delta_tests;

use tokio::sync::mpsc;

use crate::bus::Heard;

/// Acts on what the bus heard of the other servers, in order, until the bus stops: a committed action moves
/// this server's copy of its game on, the lobby's changes and chat lines reach its pages, and a lost
/// connection makes every copy and every lobby page look again.
pub fn follow_bus(
    hub: &live::GameHub,
    lobby: &lobby::Lobby,
    chat: &chat::Chat,
    mut heard: mpsc::Receiver<Heard>,
) {
    let (hub, lobby, chat) = (hub.clone(), lobby.clone(), chat.clone());
    hub.clone().tasks().spawn(async move {
        while let Some(h) = heard.recv().await {
            match h {
                Heard::Game { id, version, action } => hub.heard(&id, version, action).await,
                Heard::Lobby => lobby.changed_here(),
                Heard::Others { online, viewers } => {
                    lobby.set_remote_online(online);
                    lobby.set_remote_viewers(viewers);
                    lobby.changed_here();
                }
                Heard::Tell { user, msg } => lobby.tell_here(&user, &msg),
                Heard::Chat { id } => chat.heard(&id).await,
                Heard::Lost => {
                    hub.heard_nothing().await;
                    lobby.changed_here();
                }
            }
        }
    });
}
