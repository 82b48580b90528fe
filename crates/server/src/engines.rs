//! The engine for the server: searches run on blocking threads, never on the async runtime, at most
//! `threads` at once; the others wait their turn. Each search has its level's time budget and stops early
//! when its game moves on.

use std::sync::Arc;

use gridplay_core::DynPosition;
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

    /// The best move at `level` (1-8), or `None` if the engine has none (the game is over, or it was stopped
    /// before it started).
    pub async fn best_move(
        &self,
        pos: Box<dyn DynPosition>,
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
            tokio::task::spawn_blocking(move || gridplay_engine::think(pos.as_ref(), &request, &stop))
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
}
