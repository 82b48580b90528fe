//! The engine's analyses: of a finished game (computed once however many ask, and stored), for the engine-use
//! review, and the analysis board's lines; each under the fair-play rule (`help.rs`) and the user's quota of
//! analyses under way (`quotas.rs`).

use std::sync::Arc;

use futures_util::{
    FutureExt,
    future::{BoxFuture, Shared},
};
use gridplay_core::{DynPosition, Player};
use tokio::sync::mpsc;

use super::{Analysis, Asker, Cmd, GameHub, LiveError, SideReviewJson, internal};
use crate::db::{GameStatus, User};

/// An analysis under way, which every request for it awaits.
pub(super) type PendingAnalysis = Shared<BoxFuture<'static, Result<Arc<Analysis>, LiveError>>>;

/// An imported game sharing this many opening moves or more with a game in play is not analysed meanwhile.
pub const SHARED_PLIES: usize = 10;

/// The analysis board's lines as the search deepens.
pub type LinesFeed = mpsc::Receiver<Result<gridplay_engine::lines::Lines, gridplay_engine::EngineError>>;

/// Holds one analysis board search: when it goes, the search stops and no longer counts in its user's quota.
#[derive(Debug)]
pub struct LinesGuard {
    hub: GameHub,
    user: String,
    stop: gridplay_search::StopFlag,
}

impl Drop for LinesGuard {
    fn drop(&mut self) {
        self.stop.stop();
        self.hub.0.quotas.end_analysis(&self.user);
    }
}

impl GameHub {
    /// Whether the engine may look at a game: once it is over (refused with `why` while it is in play), and
    /// for an imported game, once no game in play shares its opening.
    pub(super) async fn check_over(&self, id: &str, why: &str) -> Result<(), LiveError> {
        let row = self.row(id).await?;
        if row.status == GameStatus::Active {
            return Err(LiveError::Refused(why.into()));
        }
        if row.status == GameStatus::Imported {
            self.check_not_in_play(id, &row.spec).await?;
        }
        Ok(())
    }

    /// The engine's analysis of a finished game for `user`: stored once computed, and computed once however
    /// many ask at the same time. Each user may have `analyses_per_user` computations under way. An imported
    /// game that has the opening moves of a game in play (`SHARED_PLIES` or more, as a prefix either way) is
    /// not analysed while that game is in play.
    pub async fn analysis(&self, id: &str, user: &User, asker: &Asker) -> Result<Arc<Analysis>, LiveError> {
        self.check_over(id, "the engine analyses a game once it is over")
            .await?;
        self.check_game_help(id, asker).await?;
        if let Some(a) = self.stored_analysis(id).await? {
            return Ok(a);
        }
        let pending = {
            let mut pending = self
                .0
                .analyses
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(p) = pending.get(id) {
                p.clone()
            } else {
                self.0.quotas.start_analysis(&user.id)?;
                // The computation is its own task: a page that leaves does not cancel it, and it is stored.
                let hub = self.clone();
                let (game, asker) = (id.to_owned(), user.id.clone());
                let task = self.0.tasks.spawn_with_result(async move {
                    let result = hub.compute_analysis(&game).await;
                    hub.analysis_done(&game, &asker);
                    result
                });
                let shared = async move { task.await.ok().flatten().unwrap_or(Err(LiveError::Internal)) }
                    .boxed()
                    .shared();
                pending.insert(id.to_owned(), shared.clone());
                shared
            }
        };
        pending.await
    }

    /// How many analyses of `user_id`'s asking are under way (each user may have `analyses_per_user`).
    #[must_use]
    pub fn analyses_under_way(&self, user_id: &str) -> u32 {
        self.0.quotas.analyses_under_way(user_id)
    }

    /// Refuses engine output on game `id` where the fair-play rule guards any of its positions from `asker`.
    async fn check_game_help(&self, id: &str, asker: &Asker) -> Result<(), LiveError> {
        let game = self.state(id).await?.game.clone();
        let (positions, _) = self.ask(id, |reply| Cmd::Positions { reply }).await?;
        let refs: Vec<&dyn DynPosition> = positions.iter().map(AsRef::as_ref).collect();
        self.check_help(asker, &game, &refs).await
    }

    /// The analysis stored for a game, for `asker`, if any: refused where the fair-play rule guards the game's
    /// positions from them.
    pub async fn stored_analysis_for(
        &self,
        id: &str,
        asker: &Asker,
    ) -> Result<Option<Arc<Analysis>>, LiveError> {
        let found = self.stored_analysis(id).await?;
        if found.is_some() {
            self.check_game_help(id, asker).await?;
        }
        Ok(found)
    }

    /// The analysis stored for a game, if any.
    pub async fn stored_analysis(&self, id: &str) -> Result<Option<Arc<Analysis>>, LiveError> {
        let Some(body) = self.0.db.stored_analysis(id).await.map_err(|e| internal(&e))? else {
            return Ok(None);
        };
        serde_json::from_str(&body)
            .map(|a| Some(Arc::new(a)))
            .map_err(|e| internal(&format!("stored analysis of {id}: {e}")))
    }

    fn analysis_done(&self, id: &str, user: &str) {
        self.0
            .analyses
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
        self.0.quotas.end_analysis(user);
    }

    /// The analysis board's engine lines of `pos` (a position of the game named `game`) for `user`: the best
    /// `n` moves, sent after each complete depth, searched in the analysis lane for at most
    /// `Limits::lines_seconds`. The search counts among the user's analyses under way (`analyses_per_user`)
    /// until the returned guard goes, and stops then. A position the fair-play rule guards from `asker` gets no
    /// lines (`help.rs`).
    pub async fn lines(
        &self,
        user: &User,
        asker: &Asker,
        game: &str,
        pos: Box<dyn DynPosition>,
        n: usize,
    ) -> Result<(LinesFeed, LinesGuard), LiveError> {
        self.check_help(asker, game, &[pos.as_ref()]).await?;
        self.0.quotas.start_analysis(&user.id)?;
        let stop = gridplay_search::StopFlag::new();
        let limits = gridplay_search::Limits::time(std::time::Duration::from_secs(u64::from(
            self.0.limits.lines_seconds.max(1),
        )));
        let feed = self.0.engines.lines(pos, n, limits, stop.clone());
        Ok((
            feed,
            LinesGuard {
                hub: self.clone(),
                user: user.id.clone(),
                stop,
            },
        ))
    }

    /// Refuses the analysis of an imported game whose moves are those of a game in play.
    async fn check_not_in_play(&self, id: &str, spec: &str) -> Result<(), LiveError> {
        let (_, played) = self.ask(id, |reply| Cmd::Positions { reply }).await?;
        let lines = self.0.db.lines_in_play(spec).await.map_err(|e| internal(&e))?;
        for (_, line) in lines {
            let n = line.len().min(played.len());
            if n >= SHARED_PLIES && line[..n] == played[..n] {
                return Err(LiveError::Refused(
                    "a game in play has these moves: the engine analyses this copy once that game is over"
                        .into(),
                ));
            }
        }
        Ok(())
    }

    /// The analysis of a finished game for the engine-use review (`game::review`): the stored one, or one
    /// computed and stored now.
    pub(crate) async fn analysis_for_review(&self, id: &str) -> Result<Arc<Analysis>, LiveError> {
        self.compute_analysis(id).await
    }

    /// Searches every position of a game (`gridplay_engine::review::PER_POSITION` each) and stores the result.
    async fn compute_analysis(&self, id: &str) -> Result<Arc<Analysis>, LiveError> {
        if let Some(a) = self.stored_analysis(id).await? {
            return Ok(a);
        }
        let (positions, played) = self.ask(id, |reply| Cmd::Positions { reply }).await?;
        let positions_start = positions.first().ok_or(LiveError::Internal)?.box_clone();
        // The engine-use review's rule was measured on figures from this much search a position.
        let per = gridplay_engine::review::PER_POSITION;
        let clamp = 3_000;
        let scored = self
            .0
            .engines
            .analyse(positions, played, per, clamp)
            .await
            .ok_or(LiveError::Internal)?;
        let review = gridplay_engine::review::review_scored(positions_start.as_ref(), &scored);
        let scores: Vec<i32> = scored
            .iter()
            .map(|s| if s.turn == Player::First { s.best } else { -s.best })
            .collect();
        let marks = review
            .judgements
            .iter()
            .map(|j| j.map(|j| j.mark().to_owned()))
            .collect();
        let analysis = Analysis {
            scores,
            marks,
            clamp,
            per_position_ms: per.as_millis() as u64,
            sides: Some([
                SideReviewJson::from(&review.sides[0]),
                SideReviewJson::from(&review.sides[1]),
            ]),
        };
        let body = serde_json::to_string(&analysis).map_err(|e| internal(&e))?;
        self.0
            .db
            .store_analysis(id, &body)
            .await
            .map_err(|e| internal(&e))?;
        Ok(Arc::new(analysis))
    }
}
