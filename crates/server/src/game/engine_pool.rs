//! The engine for the server: searches run on blocking threads, never on the async runtime, in two lanes of
//! bounded size. The game lane serves the engine's replies in games; the other lane serves analyses and hints,
//! so that no number of those makes a game's engine wait. In each lane the searches beyond its size wait their
//! turn. Each search has its level's time budget and stops early when its game moves on.

use std::{sync::Arc, time::Duration};

use gridplay_core::{DynPosition, GameRecord};
use gridplay_engine::{EngineError, Request, lines::Lines, review::PositionScore};
use gridplay_search::StopFlag;
use tokio::sync::Semaphore;

/// A bounded pool of engine searches, in two lanes.
#[derive(Clone, Debug)]
pub struct EnginePool {
    games: Arc<Semaphore>,
    analyses: Arc<Semaphore>,
    /// The engine's replies at levels 6-8 come from the opening book where it has the position.
    book: bool,
    /// Where the analysis board's searches run (`lines`).
    tasks: crate::tasks::Tasks,
}

/// Which lane a search runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// The engine's replies in games.
    Game,
    /// Analyses and hints.
    Analysis,
}

impl EnginePool {
    /// A pool with `game_threads` searches at once for games and `analysis_threads` for analyses and hints.
    #[must_use]
    pub fn new(game_threads: usize, analysis_threads: usize) -> EnginePool {
        EnginePool {
            games: Arc::new(Semaphore::new(game_threads.max(1))),
            analyses: Arc::new(Semaphore::new(analysis_threads.max(1))),
            book: false,
            tasks: crate::tasks::Tasks::default(),
        }
    }

    /// The pool with its background tasks among the server's `tasks`.
    #[must_use]
    pub fn with_tasks(self, tasks: crate::tasks::Tasks) -> EnginePool {
        EnginePool { tasks, ..self }
    }

    /// The pool with the opening book on or off for the engine's replies at levels 6-8.
    #[must_use]
    pub fn with_book(self, book: bool) -> EnginePool {
        EnginePool { book, ..self }
    }

    fn lane(&self, lane: Lane) -> Arc<Semaphore> {
        match lane {
            Lane::Game => self.games.clone(),
            Lane::Analysis => self.analyses.clone(),
        }
    }

    /// A thread of `lane`, once one is free; the wait is counted in the metrics.
    async fn enter(&self, lane: Lane) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let name = match lane {
            Lane::Game => "games",
            Lane::Analysis => "analysis",
        };
        let queue = metrics::gauge!(crate::telemetry::ENGINE_QUEUE, "lane" => name);
        queue.increment(1.0);
        let asked = std::time::Instant::now();
        let permit = self.lane(lane).acquire_owned().await.ok();
        queue.decrement(1.0);
        metrics::histogram!(crate::telemetry::ENGINE_WAIT_SECONDS, "lane" => name)
            .record(asked.elapsed().as_secs_f64());
        permit
    }

    /// Whether a thread of `lane` is free now (background work waits for one rather than queue before
    /// people's requests).
    #[must_use]
    pub fn idle(&self, lane: Lane) -> bool {
        self.lane(lane).available_permits() > 0
    }

    /// The threads of `lane` that are free now, taken until dropped.
    fn free(&self, lane: Lane) -> Vec<tokio::sync::OwnedSemaphorePermit> {
        let semaphore = self.lane(lane);
        std::iter::from_fn(|| semaphore.clone().try_acquire_owned().ok()).collect()
    }

    /// The best move at `level` (one of the game's levels in the engine table) in the game's current position,
    /// or `None` if the engine has none (the game is over, or it was stopped before it started). A search that
    /// reads the history (repetitions) sees the game's. At a game's top level, where its search is parallel,
    /// the search also takes the lane's threads that are free when it starts (a search that arrives during
    /// it waits at most the level's time).
    pub async fn best_move(
        &self,
        lane: Lane,
        record: GameRecord,
        level: u8,
        seed: u64,
        stop: StopFlag,
    ) -> Option<String> {
        let _permit = self.enter(lane).await?;
        if stop.is_stopped() {
            return None;
        }
        let extra = if gridplay_engine::parallel_at(record.position(), level) {
            self.free(lane)
        } else {
            Vec::new()
        };
        let request = Request {
            level: Some(level),
            seed,
            book: self.book && level >= 6,
            threads: 1 + extra.len(),
            ..Request::default()
        };
        let reply =
            tokio::task::spawn_blocking(move || gridplay_engine::think_game(&record, &request, &stop))
                .await
                .ok()?;
        drop(extra);
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
    /// one blocking thread of the analysis lane. Ended games score their result.
    pub async fn analyse(
        &self,
        positions: Vec<Box<dyn DynPosition>>,
        played: Vec<String>,
        per_position: Duration,
        clamp: i32,
    ) -> Option<Vec<PositionScore>> {
        let _permit = self.enter(Lane::Analysis).await?;
        tokio::task::spawn_blocking(move || {
            gridplay_engine::review::score_positions(
                &positions,
                &played,
                per_position,
                clamp,
                &StopFlag::new(),
            )
        })
        .await
        .ok()
    }
}

impl EnginePool {
    /// The analysis board's best `n` lines of `pos`, in the analysis lane, within `limits`: each complete
    /// depth is sent on the channel as the search deepens, then an error if the search found nothing (it was
    /// stopped first). The search stops when `stop` is set or the receiver goes.
    #[must_use]
    pub fn lines(
        &self,
        pos: Box<dyn DynPosition>,
        n: usize,
        limits: gridplay_search::Limits,
        stop: StopFlag,
    ) -> tokio::sync::mpsc::Receiver<Result<Lines, EngineError>> {
        let (tx, rx) = tokio::sync::mpsc::channel(16);
        let pool = self.clone();
        self.tasks.spawn(async move {
            let Some(_permit) = pool.enter(Lane::Analysis).await else {
                return;
            };
            if stop.is_stopped() || tx.is_closed() {
                return;
            }
            let _ = tokio::task::spawn_blocking(move || {
                let mut report = |lines: &Lines| {
                    if tx.blocking_send(Ok(lines.clone())).is_err() {
                        stop.stop();
                    }
                };
                if let Err(e) = gridplay_engine::lines::lines(pos.as_ref(), n, limits, &stop, &mut report) {
                    let _ = tx.blocking_send(Err(e));
                }
            })
            .await;
        });
        rx
    }
}

impl EnginePool {
    /// A puzzle in `pos` (`gridplay_engine::puzzles::find` with the game's effort), searched in the analysis
    /// lane.
    pub async fn puzzle(
        &self,
        pos: Box<dyn DynPosition>,
        game: String,
    ) -> Option<gridplay_engine::puzzles::Found> {
        let _permit = self.enter(Lane::Analysis).await?;
        tokio::task::spawn_blocking(move || {
            let effort = gridplay_engine::puzzles::effort(&game);
            gridplay_engine::puzzles::find(pos.as_ref(), effort, &StopFlag::new())
        })
        .await
        .ok()
        .flatten()
    }

    /// The engine's line after a move, in the analysis lane: what refutes a wrong answer to a puzzle.
    pub async fn refutation(&self, pos: Box<dyn DynPosition>) -> Vec<String> {
        let Some(_permit) = self.enter(Lane::Analysis).await else {
            return Vec::new();
        };
        tokio::task::spawn_blocking(move || {
            let request = Request {
                limits: gridplay_search::Limits {
                    depth: Some(10),
                    time: Some(std::time::Duration::from_millis(400)),
                    nodes: None,
                },
                ..Request::default()
            };
            gridplay_engine::think(pos.as_ref(), &request, &StopFlag::new())
                .map_or_else(|_| Vec::new(), |r| r.pv)
        })
        .await
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that takes the free threads of its lane holds them until it drops them, and takes none
    /// that another search holds.
    #[tokio::test]
    async fn a_search_takes_only_the_free_threads_of_its_lane() {
        let pool = EnginePool::new(3, 1);
        let held = pool.enter(Lane::Game).await.unwrap();
        let extra = pool.free(Lane::Game);
        assert_eq!(extra.len(), 2);
        assert_eq!(pool.games.available_permits(), 0);
        assert_eq!(
            pool.analyses.available_permits(),
            1,
            "the other lane is untouched"
        );
        drop(extra);
        assert_eq!(pool.games.available_permits(), 2);
        drop(held);
        assert_eq!(pool.free(Lane::Game).len(), 3);
    }
}
