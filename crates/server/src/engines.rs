//! The engine for the server: searches run on blocking threads, never on the async runtime, at most
//! `threads` at once; the others wait their turn. Each search has its level's time budget and stops early
//! when its game moves on.

use std::{sync::Arc, time::Duration};

use gridplay_core::{DynPosition, GameRecord, Outcome, Player};
use gridplay_engine::Request;
use gridplay_search::StopFlag;
use tokio::sync::Semaphore;

/// A bounded pool of engine searches.
#[derive(Clone, Debug)]
pub struct EnginePool {
    permits: Arc<Semaphore>,
}

impl EnginePool {
    #[must_use]
    pub fn new(threads: usize) -> EnginePool {
        EnginePool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
        }
    }

    /// The best move at `level` (one of the game's levels in the engine table) in the game's current position,
    /// or `None` if the engine has none (the game is over, or it was stopped before it started). A search that
    /// reads the history (repetitions) sees the game's.
    pub async fn best_move(
        &self,
        record: GameRecord,
        level: u8,
        seed: u64,
        stop: StopFlag,
    ) -> Option<String> {
        let _permit = self.permits.clone().acquire_owned().await.ok()?;
        if stop.is_stopped() {
            return None;
        }
        let request = Request {
            level: Some(level),
            seed,
            ..Request::default()
        };
        let reply =
            tokio::task::spawn_blocking(move || gridplay_engine::think_game(&record, &request, &stop))
                .await
                .ok()?;
        match reply {
            Ok(r) => Some(r.best),
            Err(e) => {
                tracing::warn!("engine: {e}");
                None
            }
        }
    }

    /// Analyses a game: for each position, the best move's score and the score of the move played (for the
    /// side to move, in hundredths of a game unit, bounded by `clamp`), with `per_position` of search each, on
    /// one blocking thread. Ended games score their result.
    pub async fn analyse(
        &self,
        positions: Vec<Box<dyn DynPosition>>,
        played: Vec<String>,
        per_position: Duration,
        clamp: i32,
    ) -> Option<Vec<PositionScore>> {
        let _permit = self.permits.clone().acquire_owned().await.ok()?;
        tokio::task::spawn_blocking(move || {
            positions
                .iter()
                .enumerate()
                .map(|(n, pos)| {
                    if let Some(outcome) = pos.outcome() {
                        let best = match outcome {
                            Outcome::Win { winner } if winner == pos.turn() => clamp,
                            Outcome::Win { .. } => -clamp,
                            Outcome::Draw => 0,
                        };
                        return PositionScore {
                            turn: pos.turn(),
                            best,
                            played: None,
                        };
                    }
                    let scores = gridplay_engine::score_moves(pos.as_ref(), per_position, &StopFlag::new())
                        .unwrap_or_default();
                    let best = scores.iter().map(|s| s.1).max().unwrap_or(0).clamp(-clamp, clamp);
                    let played = played
                        .get(n)
                        .and_then(|m| scores.iter().find(|s| &s.0 == m))
                        .map(|s| s.1.clamp(-clamp, clamp));
                    PositionScore {
                        turn: pos.turn(),
                        best,
                        played,
                    }
                })
                .collect()
        })
        .await
        .ok()
    }
}

/// One position of an analysis, scores for its side to move.
#[derive(Clone, Copy, Debug)]
pub struct PositionScore {
    pub turn: Player,
    pub best: i32,
    /// The move played from here, if any.
    pub played: Option<i32>,
}
