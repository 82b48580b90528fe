//! The server's metrics, by name, and their Prometheus text. Every layer records through the `metrics`
//! facade; one recorder per process keeps them, and `gridplay serve --metrics-addr ADDR` serves them at
//! `/metrics` on that address. docs/operations.md lists them and what to alert on.

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Actions committed (`kind`: move, resign, offer-draw...): their rate is moves per second.
pub const ACTIONS: &str = "gridplay_actions_total";
/// From an action's arrival at its game to its commit, which its ack follows.
pub const ACK_SECONDS: &str = "gridplay_action_ack_seconds";
/// WebSockets open.
pub const SOCKETS: &str = "gridplay_sockets_open";
/// Games held in memory, each by its actor.
pub const ACTORS: &str = "gridplay_game_actors";
/// Game actions waiting behind the group the database writer took last (with several writers on PostgreSQL,
/// the one that took a group last).
pub const DB_QUEUE: &str = "gridplay_db_queue";
/// One group commit of the writer (one transaction, however many actions).
pub const DB_COMMIT_SECONDS: &str = "gridplay_db_commit_seconds";
/// Engine searches waiting for a thread of their lane (`lane`: games, analysis).
pub const ENGINE_QUEUE: &str = "gridplay_engine_queue";
/// How long an engine search waited for a thread (`lane`).
pub const ENGINE_WAIT_SECONDS: &str = "gridplay_engine_wait_seconds";
/// Notices between servers on PostgreSQL (`way`: sent, heard).
pub const BUS_NOTICES: &str = "gridplay_bus_notices_total";
/// Chat lines said on this server (`room`: players, spectators).
pub const CHAT_LINES: &str = "gridplay_chat_lines_total";
/// Errors answered (`kind`: the error's code, as the client reads it).
pub const ERRORS: &str = "gridplay_errors_total";

/// The buckets of the time histograms, in seconds: from a millisecond to ten seconds.
const BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0,
];

/// The process's recorder, installed on first use; `None` if another recorder was installed first.
fn handle() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), BUCKETS)
                .ok()?;
            match builder.install_recorder() {
                Ok(h) => Some(h),
                Err(e) => {
                    tracing::warn!("metrics: {e}");
                    None
                }
            }
        })
        .as_ref()
}

/// Starts keeping the metrics (a server with a metrics address calls it as it starts).
pub fn install() {
    let _ = handle();
}

/// Every metric in Prometheus's text format.
#[must_use]
pub fn render() -> String {
    handle().map(PrometheusHandle::render).unwrap_or_default()
}

/// A gauge raised by one while this lives.
#[derive(Debug)]
pub struct Held(&'static str);

impl Held {
    #[must_use]
    pub fn new(gauge: &'static str) -> Held {
        metrics::gauge!(gauge).increment(1.0);
        Held(gauge)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        metrics::gauge!(self.0).decrement(1.0);
    }
}
