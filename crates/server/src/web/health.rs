//! `/healthz` and `/readyz`, for a load balancer or a service manager: whether the process answers, and
//! whether it should be sent players (its database reachable, every migration it knows applied, and not
//! stopping).

use axum::{Json, extract::State, http::StatusCode};
use serde::Serialize;
use utoipa::ToSchema;

use super::AppState;

/// The process answers.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Health {
    ok: bool,
}

/// Whether the server is ready for players, and each condition of it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Readiness {
    ready: bool,
    /// The database answers a query.
    database: bool,
    /// Every migration this server knows is applied.
    migrations: bool,
    /// The server is stopping (SIGTERM or SIGINT): it takes no one new.
    draining: bool,
}

/// Whether the process answers (liveness).
#[utoipa::path(get, path = "/healthz", tag = "site", responses((status = 200, body = Health)))]
pub(crate) async fn healthz() -> Json<Health> {
    Json(Health { ok: true })
}

/// Whether the server should be sent players (readiness): 200 when ready, 503 with the failing condition.
#[utoipa::path(get, path = "/readyz", tag = "site",
    responses((status = 200, body = Readiness), (status = 503, body = Readiness, description = "Not ready: the conditions say why")))]
pub(crate) async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let (database, migrations) = match state.db.migrations_applied().await {
        Ok(all) => (true, all),
        Err(e) => {
            tracing::warn!("readiness: {e}");
            (false, false)
        }
    };
    let draining = state.draining();
    let ready = database && migrations && !draining;
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(Readiness {
            ready,
            database,
            migrations,
            draining,
        }),
    )
}
