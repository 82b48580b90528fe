//! The fair-play rule for the engine's output, decided here for every route that gives any (hints, a replay's
//! suggestions, a game's analysis, the analysis board's lines, the explorer's book scores) and for a game's
//! file.
//!
//! A game in play that does not allow help (`state::hints_allowed`) is *guarded* from its players and from
//! every account seen at a player's network address in the last day: none of them gets engine output on a
//! position that bears on it, which is its live position and every position up to its game's
//! `GameModule::help_horizon` plies ahead, recognised by `fair_play_key` (so a symmetric or colour-swapped
//! copy, an import, a file or a position text all name the same position). Nor do they get the game's file
//! until it ends. Everyone else, and the same players on positions that have nothing to do with their games,
//! may ask as before. docs/web.md, "Fair play", says why.

use std::{
    collections::{HashMap, HashSet},
    net::IpAddr,
    time::{Duration, Instant},
};

use gridplay_core::DynPosition;

use super::{Cmd, GameHub, LiveError, internal};
use crate::db::{GameRow, GameStatus, now_ms};

/// Who asks for the engine's output: the account (by session or API token), if any, and the network address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asker {
    pub user: Option<String>,
    pub address: IpAddr,
}

/// Accounts seen at an address within this long count as the asker's own household.
const SAME_ADDRESS_MS: i64 = 24 * 3_600_000;
/// Each server writes an account's address at most this often.
const SEEN_EVERY: Duration = Duration::from_secs(300);
/// The games in play the rule reads for an account, and for an address.
const GAMES_READ: i64 = 500;

/// The addresses this server wrote lately, so that a busy account does not write one each request.
#[derive(Debug, Default)]
pub(super) struct Seen(std::sync::Mutex<HashMap<(String, IpAddr), Instant>>);

/// The refusal, the same whatever named the position.
fn refused() -> LiveError {
    LiveError::Refused(
        "the engine gives nothing on a position of a game you play without help, or a few moves from it, nor \
         its file while it is in play: finish it first"
            .into(),
    )
}

/// The keys of `pos` and of every position up to `plies` ahead of it.
fn keys_ahead(pos: &dyn DynPosition, plies: u32) -> HashSet<String> {
    let mut keys = HashSet::new();
    let mut layer = vec![pos.box_clone()];
    keys.insert(pos.fair_play_key());
    for _ in 0..plies {
        let mut next = Vec::new();
        for p in &layer {
            if p.outcome().is_some() {
                continue;
            }
            for mv in p.legal_moves() {
                let mut child = p.box_clone();
                if child.play(&mv).is_ok() && keys.insert(child.fair_play_key()) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    keys
}

impl GameHub {
    /// Records that account `user` was seen at `address` (written at most every few minutes by this server).
    pub fn saw(&self, user: &str, address: IpAddr) {
        if address.is_unspecified() {
            return;
        }
        {
            let mut seen = self
                .0
                .seen
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let key = (user.to_owned(), address);
            if seen.get(&key).is_some_and(|at| at.elapsed() < SEEN_EVERY) {
                return;
            }
            if seen.len() > 100_000 {
                seen.retain(|_, at| at.elapsed() < SEEN_EVERY);
            }
            seen.insert(key, Instant::now());
        }
        let (db, user) = (self.0.db.clone(), user.to_owned());
        self.0.tasks.spawn(async move {
            if let Err(e) = db.see_address(&user, &address.to_string(), now_ms()).await {
                tracing::warn!("cannot record an address of {user}: {e}");
            }
        });
    }

    /// The games in play without help that the rule guards from `asker`: the asker's own, and those of every
    /// account seen at the asker's address in the last day.
    async fn guarded_games(&self, asker: &Asker) -> Result<Vec<GameRow>, LiveError> {
        let db = &self.0.db;
        let mut rows = Vec::new();
        if let Some(user) = &asker.user {
            rows.extend(
                db.games_of(user, GameStatus::Active, GAMES_READ)
                    .await
                    .map_err(|e| internal(&e))?,
            );
        }
        if !asker.address.is_unspecified() {
            let since = now_ms() - SAME_ADDRESS_MS;
            rows.extend(
                db.active_games_seen_at(&asker.address.to_string(), since, GAMES_READ)
                    .await
                    .map_err(|e| internal(&e))?,
            );
        }
        let mut games: Vec<GameRow> = Vec::new();
        for row in rows {
            if !crate::game::state::hints_allowed(&row) && games.iter().all(|g| g.id != row.id) {
                games.push(row);
            }
        }
        Ok(games)
    }

    /// Refuses engine output on any of `positions` (positions of the game named `game`) where the rule guards
    /// one of them from `asker`.
    ///
    /// # Errors
    /// `LiveError::Refused` where it does.
    pub async fn check_help(
        &self,
        asker: &Asker,
        game: &str,
        positions: &[&dyn DynPosition],
    ) -> Result<(), LiveError> {
        let guarded = self.guarded_games(asker).await?;
        if guarded.iter().all(|g| g.game != game) {
            return Ok(());
        }
        let horizon = self.0.registry.entry(game).map_or(0, |e| e.module.help_horizon);
        let asked: Vec<String> = positions.iter().map(|p| p.fair_play_key()).collect();
        for row in guarded.iter().filter(|g| g.game == game) {
            let live = self.ask(&row.id, |reply| Cmd::Current { reply }).await?;
            let keys = keys_ahead(live.as_ref(), horizon);
            if asked.iter().any(|k| keys.contains(k)) {
                return Err(refused());
            }
        }
        Ok(())
    }

    /// Refuses `asker` the file of game `id` while the rule guards that game from them.
    ///
    /// # Errors
    /// `LiveError::Refused` where it does.
    pub async fn check_export(&self, asker: &Asker, id: &str) -> Result<(), LiveError> {
        if self.guarded_games(asker).await?.iter().any(|g| g.id == id) {
            return Err(refused());
        }
        Ok(())
    }
}
