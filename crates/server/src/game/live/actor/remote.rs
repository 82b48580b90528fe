//! Actions another server committed: an actor applies them to its copy as if they had been committed here.

use super::{Actor, progress::Timing};
use crate::{db::ActionRow, game::live::Action};

impl Actor {
    /// Another server committed this game's actions up to `version`: applies them from the database as if
    /// they had been committed here, so that the watching pages get their events, or, if that fails, marks
    /// this copy out of date.
    pub(super) async fn catch_up(&mut self, version: u64, action: Option<ActionRow>) {
        if version <= self.version {
            return;
        }
        let rows = match action {
            // The notice brought the next action: no need to read it.
            Some(a) if version == self.version + 1 => vec![a],
            _ => match self
                .hub
                .0
                .db
                .actions_after(&self.row.id, i64::try_from(self.version).unwrap_or(i64::MAX))
                .await
            {
                Ok(rows) => rows,
                Err(e) => {
                    tracing::warn!("game {}: cannot read the new actions: {e}", self.row.id);
                    self.outdated = true;
                    return;
                }
            },
        };
        if rows.is_empty() {
            return;
        }
        for a in rows {
            let action = Action::from_row(a.kind, &a.body);
            let side = a.side;
            // Played on the copy in place (the action is already stored): a copy it does not follow is
            // out of date, and is loaded again rather than used.
            let applied = if u64::try_from(a.seq).ok() == Some(self.version + 1) {
                self.progress
                    .act(
                        side,
                        &action,
                        a.at,
                        Timing::Stored(a.clock),
                        self.row.time.is_live(),
                    )
                    .ok()
            } else {
                None
            };
            let Some(acted) = applied else {
                tracing::warn!("game {}: action {} does not follow this copy", self.row.id, a.seq);
                self.outdated = true;
                return;
            };
            // The ratings changed in the transaction that ended a rated game: read before the state is built,
            // as the server that committed it does.
            if self.progress.record.outcome().is_some() && self.row.rated {
                self.reload_ratings().await;
            }
            self.advance(side, &action, &acted.text, self.version + 1, a.at);
        }
        if let Some((_, stop)) = self.engine.take() {
            stop.stop();
        }
        if self.over() {
            if self.holds {
                self.holds = false;
                self.hub.0.bus.release(&self.row.id).await;
            }
        } else {
            self.resume().await;
        }
    }
}
