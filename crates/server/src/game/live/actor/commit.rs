//! How an action becomes part of the game, in four steps, each a function with one job:
//!
//! 1. [`Actor::prepare`] checks the action against the game's timing and plays it on a copy of the record:
//!    nothing of the actor changes, and a refused action ends here with its reason;
//! 2. [`Actor::store`] commits it in one transaction (the action, the game's row, the ratings of a rated game
//!    that ends, and the notices for the other servers); a conflict means another server moved first;
//! 3. [`Actor::keep`] makes it the actor's state and publishes its event to every watcher;
//! 4. [`Actor::follow_up`] does what comes after: at the end, the lease, the lobby and the tournament; else the
//!    clock's and the engine's timed work and the "your turn" notice.

use std::sync::Arc;

use gridplay_core::{GameRecord, Outcome, Player, RecordError};

use super::{
    Actor, KEEP_EVENTS,
    progress::{Progress, Timing},
};
use crate::{
    db::{ActionRow, DbError, EndReason, GameStatus, GameUpdate, RateJob, Winner, now_ms},
    game::{
        live::{Action, LiveError, Published},
        messages::{ActionJson, ServerMsg},
        state::StateDelta,
    },
};

/// An action checked and played on a copy: all that the steps after [`Actor::prepare`] need.
pub(super) struct Prepared {
    side: Player,
    action: Action,
    /// The action as its row's body (a move's canonical text).
    text: String,
    version: u64,
    now: i64,
    /// The game after it.
    next: Progress,
    ended: bool,
    row: ActionRow,
    update: GameUpdate,
    rate: Option<RateJob>,
    explore: Option<crate::db::explorer::ExploreJob>,
    /// The player now to move, when a move gives the turn to a person.
    to_tell: Option<String>,
}

impl Actor {
    /// Checks, commits and publishes `side`'s action; returns the game's new version.
    pub(super) async fn commit(&mut self, side: Player, action: Action) -> Result<u64, LiveError> {
        let step = self.prepare(side, action)?;
        self.store(&step).await?;
        metrics::counter!(crate::telemetry::ACTIONS, "kind" => step.action.kind().as_str()).increment(1);
        let version = step.version;
        self.keep(step).await;
        Ok(version)
    }

    /// Step 1: the action checked and played on a copy of the game, with its row and the game's new row.
    fn prepare(&self, side: Player, action: Action) -> Result<Prepared, LiveError> {
        let now = now_ms();
        if self.progress.aborted {
            return Err(RecordError::GameOver.into());
        }
        self.check_timing(side, &action, now)?;
        let mut next = self.progress.clone();
        let acted = next.act(
            side,
            &action,
            now,
            Timing::Live(self.row.time),
            self.row.time.is_live(),
        )?;
        let version = self.version + 1;
        let aborted = next.aborted;
        let end = next.record.outcome();
        let turn = (end.is_none() && !aborted).then(|| next.record.position().turn());
        let row = ActionRow {
            seq: version as i64,
            side,
            kind: action.kind(),
            body: acted.text.clone(),
            at: now,
            clock: acted.clock,
        };
        let update = GameUpdate {
            status: if aborted {
                GameStatus::Aborted
            } else if end.is_some() {
                GameStatus::Finished
            } else {
                GameStatus::Active
            },
            turn,
            winner: end.map(|(o, _)| Winner::from(o)),
            termination: if aborted {
                Some(EndReason::Aborted)
            } else {
                end.map(|(_, t)| EndReason::from(t))
            },
        };
        // The player to move hears of it on every page (the "your turn" marks).
        let to_tell = match (turn, &action) {
            (Some(turn), Action::Move(_)) if turn != side => self.row.users[turn.index()].as_ref(),
            _ => None,
        }
        .map(|u| u.id.clone());
        Ok(Prepared {
            rate: end.and_then(|(outcome, _)| self.rate_job(outcome)),
            explore: end.and_then(|(outcome, _)| self.explore_job(&next.record, outcome)),
            side,
            action,
            text: acted.text,
            version,
            now,
            next,
            ended: end.is_some(),
            row,
            update,
            to_tell,
        })
    }

    /// The opening explorer's counts of a game that ended between two different accounts: the positions of
    /// its first plies and the positions their moves reached.
    fn explore_job(&self, record: &GameRecord, outcome: Outcome) -> Option<crate::db::explorer::ExploreJob> {
        use crate::db::explorer::{ExploreJob, PLIES, key_hash};
        let [Some(a), Some(b)] = &self.row.users else {
            return None;
        };
        if a.id == b.id || self.row.status == GameStatus::Imported || record.moves().is_empty() {
            return None;
        }
        let mut pos = record.start().box_clone();
        let mut key = key_hash(&pos.explorer_key());
        let mut steps = Vec::with_capacity(PLIES);
        for m in record.moves().iter().take(PLIES) {
            if pos.play(m).is_err() {
                break;
            }
            let reached = key_hash(&pos.explorer_key());
            steps.push((key, reached));
            key = reached;
        }
        Some(ExploreJob {
            spec: self.row.spec.clone(),
            game: self.row.game.clone(),
            users: [a.id.clone(), b.id.clone()],
            steps,
            winner: Winner::from(outcome),
        })
    }

    /// The ratings to change with a rated game's result (between two different people).
    fn rate_job(&self, outcome: Outcome) -> Option<RateJob> {
        match &self.row.users {
            [Some(a), Some(b)] if self.row.rated && a.id != b.id => Some(RateJob {
                game: self.row.game.clone(),
                users: [a.id.clone(), b.id.clone()],
                first_score: match outcome {
                    Outcome::Win {
                        winner: Player::First,
                    } => 1.0,
                    Outcome::Win {
                        winner: Player::Second,
                    } => 0.0,
                    Outcome::Draw => 0.5,
                },
            }),
            _ => None,
        }
    }

    /// Step 2: commits the action with its notices (the other servers hear of the move, and of whose turn
    /// it is, from the same transaction). A conflict is another server's action at this version: this copy
    /// catches up, and the action is stale.
    async fn store(&mut self, step: &Prepared) -> Result<(), LiveError> {
        let with = step
            .to_tell
            .as_deref()
            .and_then(|u| self.hub.0.lobby.turn_notice(u, &self.row.id));
        let notice = self.hub.0.bus.game_notice(&self.row.id, &step.row, with);
        match self
            .hub
            .0
            .db
            .append_action(
                &self.row.id,
                &step.row,
                &step.update,
                step.rate.clone(),
                step.explore.clone(),
                notice,
            )
            .await
        {
            Ok(()) => Ok(()),
            Err(DbError::Conflict) => {
                // This copy catches up from the database (or, if it cannot, stops once it has answered, and
                // the next request loads the game afresh).
                self.catch_up(u64::MAX, None).await;
                let version = if self.outdated {
                    match self.hub.0.db.game(&self.row.id).await {
                        Ok(Some(g)) => u64::try_from(g.version).unwrap_or(step.version),
                        _ => step.version,
                    }
                } else {
                    self.version
                };
                Err(LiveError::Stale { version })
            }
            Err(e) => {
                tracing::error!("game {}: cannot store action {}: {e}", self.row.id, step.version);
                Err(LiveError::Internal)
            }
        }
    }

    /// Step 3: the committed action becomes this actor's state, and its watchers hear of it.
    async fn keep(&mut self, mut step: Prepared) {
        if step.rate.is_some() {
            self.reload_ratings().await;
        }
        // The game moves into the actor (a record holds every position of the game: no copy per move).
        std::mem::swap(&mut self.progress, &mut step.next);
        self.advance(step.side, &step.action, &step.text, step.version, step.now);
        if let Some((_, stop)) = self.engine.take() {
            stop.stop();
        }
        self.follow_up(&step).await;
    }

    /// Step 4: what follows the action: at the end of the game the lease goes, the lobby changes and the
    /// tournament's director is told; otherwise the timed work resumes and the player to move hears of it.
    async fn follow_up(&mut self, step: &Prepared) {
        if step.ended || self.progress.aborted {
            tracing::info!(
                version = step.version,
                winner = step.update.winner.map_or("none", Winner::as_str),
                termination = step.update.termination.map_or("none", EndReason::as_str),
                "the game is over"
            );
            if self.holds {
                self.holds = false;
                self.hub.0.bus.release(&self.row.id).await;
            }
            self.hub.0.lobby.changed();
            if let Some((t, _)) = &self.row.tournament {
                self.hub.tournament_changed(t);
            }
        } else {
            self.resume().await;
            if let Some(u) = &step.to_tell {
                self.hub.0.lobby.turn_here(u, &self.row.id);
            }
        }
    }

    /// Makes action `version` (already stored, and already played on `self.progress`) this copy's state,
    /// and sends its event to the watching pages.
    pub(super) fn advance(&mut self, side: Player, action: &Action, text: &str, version: u64, now: i64) {
        let last_move = match action {
            // The move as the board before it showed it.
            Action::Move(_) => self.state.view.moves.iter().find(|m| m.text == text).cloned(),
            Action::AcceptTakeback => super::progress::last_move_of(&self.progress.record),
            _ => self.state.last_move.clone(),
        };
        self.version = version;
        let before = self.state.clone();
        let was_over = before.over.is_some();
        self.state = Arc::new(self.make_state(self.progress.record.position().view(), last_move));
        let delta = StateDelta {
            old: &before,
            new: &self.state,
        };
        debug_assert_eq!(
            serde_json::to_value(delta).unwrap_or_default(),
            crate::game::messages::delta(
                &serde_json::to_value(&*before).unwrap_or_default(),
                &serde_json::to_value(&*self.state).unwrap_or_default()
            ),
            "the typed delta is the JSON delta"
        );
        let json = ServerMsg::Event {
            game: &self.row.id,
            now,
            v: version,
            action: ActionJson {
                kind: action.kind(),
                side,
                text,
            },
            delta,
        }
        .text();
        let published = Published {
            version,
            json,
            ended: !was_over && self.state.over.is_some(),
        };
        if self.events.len() == KEEP_EVENTS {
            self.events.pop_front();
        }
        self.events.push_back(published.clone());
        let _ = self.feed.send(published);
    }
}
