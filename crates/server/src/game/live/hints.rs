//! The engine's suggestions: a hint in a game in play (where both players allowed help, or against the engine)
//! and in a replay, under the fair-play rule (`help.rs`) and the hint quota (`quotas.rs`).

use gridplay_core::{DynPosition, Player, RecordError};

use super::{Asker, Cmd, GameHub, LiveError};
use crate::{db::User, game::engine_pool::Lane};

impl GameHub {
    /// The engine's suggestion for `user`, whose turn it must be: the move's text. It searches at level 6.
    pub async fn hint(&self, id: &str, user: &User, asker: &Asker) -> Result<String, LiveError> {
        let state = self.state(id).await?;
        let side = state
            .players
            .iter()
            .position(|p| p.id.as_deref() == Some(user.id.as_str()))
            .ok_or(LiveError::NotAPlayer)?;
        if state.over.is_some() {
            return Err(RecordError::GameOver.into());
        }
        if !state.hints {
            return Err(LiveError::Refused(
                "the engine gives hints only in games against it, and in casual games whose two players both \
                 allowed help when the challenge was made and accepted"
                    .into(),
            ));
        }
        if state.view.turn != Some(Player::BOTH[side]) {
            return Err(LiveError::NotYourTurn);
        }
        let pos = self.ask(id, |reply| Cmd::Current { reply }).await?;
        self.check_help(asker, &state.game, &[pos.as_ref()]).await?;
        self.0.quotas.count_hint(&user.id)?;
        self.suggest(pos, state.version).await
    }

    /// The engine's suggestion in the position after `n` moves of a game that is over (a replay): anyone
    /// signed in may ask, within the hint quota. An imported game that has the opening moves of a game in play
    /// is refused while that game is in play, as its analysis is.
    pub async fn replay_hint(
        &self,
        id: &str,
        n: usize,
        user: &User,
        asker: &Asker,
    ) -> Result<Option<String>, LiveError> {
        self.check_over(id, "the engine suggests moves in a replay once the game is over")
            .await?;
        let (mut positions, _) = self.ask(id, |reply| Cmd::Positions { reply }).await?;
        if n >= positions.len() {
            return Ok(None);
        }
        let pos = positions.swap_remove(n);
        if pos.outcome().is_some() {
            return Err(LiveError::Refused("the game is over in this position".into()));
        }
        let game = self.state(id).await?.game.clone();
        self.check_help(asker, &game, &[pos.as_ref()]).await?;
        self.0.quotas.count_hint(&user.id)?;
        self.suggest(pos, n as u64).await.map(Some)
    }

    /// The engine's move in `pos` at level 6, searched in the analysis lane.
    async fn suggest(&self, pos: Box<dyn DynPosition>, seed: u64) -> Result<String, LiveError> {
        self.0
            .engines
            .best_move(
                Lane::Analysis,
                gridplay_core::GameRecord::new(pos),
                6,
                seed,
                gridplay_search::StopFlag::new(),
            )
            .await
            .ok_or(LiveError::Internal)
    }

    /// Lets the hint limiter forget users it no longer limits.
    pub(crate) fn forget_limits(&self) {
        self.0.quotas.forget();
    }
}
