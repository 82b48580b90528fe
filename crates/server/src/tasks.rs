//! The server's own tasks: every task it starts in the background (a game's actor, the engine thinking for it,
//! the tournament director, the bus's readers and writers, the upkeep, an analysis) is spawned here, so that
//! `Running::stop` ends them all and waits for them, and none outlives the server that started it.
//!
//! Those that serve one client (a page's socket, a bot's stream) are the edge's, and stop first: a page never
//! sees its game's actor gone while its socket is still open, only its socket closed.

use std::{future::Future, time::Duration};

use tokio::task::JoinHandle;
use tokio_util::{sync::CancellationToken, task::TaskTracker};

/// The tasks of one server, and the signal that stops them.
#[derive(Clone, Debug, Default)]
pub struct Tasks {
    tracker: TaskTracker,
    stop: CancellationToken,
    edge: TaskTracker,
    stop_edge: CancellationToken,
}

impl Tasks {
    /// Runs `work` in the background until it ends or the server stops (then it is dropped at its next
    /// await).
    pub fn spawn<F>(&self, work: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        drop(self.spawn_with_result(work));
    }

    /// `spawn` for work whose result someone awaits: `None` if the server stopped it first.
    pub fn spawn_with_result<F>(&self, work: F) -> JoinHandle<Option<F::Output>>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let stop = self.stop.clone();
        self.tracker
            .spawn(async move { stop.run_until_cancelled(work).await })
    }

    /// Runs `work`, which serves one client, in the background until it ends or the server stops.
    pub fn spawn_edge<F>(&self, work: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let stop = self.stop_edge.clone();
        drop(
            self.edge
                .spawn(async move { stop.run_until_cancelled(work).await }),
        );
    }

    /// `work`, which serves one client in a task of its own (a socket's), counted among the edge's tasks and
    /// ended with them: `None` if the server stopped it first.
    pub fn edge<F: Future>(&self, work: F) -> impl Future<Output = Option<F::Output>> {
        let stop = self.stop_edge.clone();
        self.edge
            .track_future(async move { stop.run_until_cancelled(work).await })
    }

    /// Stops every task, the edge's first, and waits up to `grace` for each group to be dropped. Returns
    /// whether all were.
    pub async fn stop(&self, grace: Duration) -> bool {
        let mut all = true;
        for (tracker, stop) in [(&self.edge, &self.stop_edge), (&self.tracker, &self.stop)] {
            stop.cancel();
            tracker.close();
            all &= tokio::time::timeout(grace, tracker.wait()).await.is_ok();
        }
        all
    }

    /// How many tasks run.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tracker.len() + self.edge.len()
    }

    /// Whether none runs.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
