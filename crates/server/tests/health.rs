//! `/healthz` and `/readyz`: a server that runs is alive and ready; once it begins to stop it is still alive
//! but no longer ready. On SQLite and PostgreSQL.

mod support;

use support::{config, http};

#[tokio::test]
async fn a_draining_server_is_alive_but_not_ready() {
    for (url, pg) in support::databases("health").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let live = http(addr, "GET", "/healthz", None, None).await;
        assert_eq!(
            (live.status, live.json()["ok"].as_bool()),
            (200, Some(true)),
            "{}",
            live.body
        );
        let ready = http(addr, "GET", "/readyz", None, None).await;
        assert_eq!(ready.status, 200, "{}", ready.body);
        assert_eq!(
            ready.json(),
            serde_json::json!({"ready": true, "database": true, "migrations": true, "draining": false})
        );
        server.state.begin_drain();
        let ready = http(addr, "GET", "/readyz", None, None).await;
        assert_eq!(ready.status, 503, "{}", ready.body);
        assert_eq!(
            ready.json(),
            serde_json::json!({"ready": false, "database": true, "migrations": true, "draining": true})
        );
        assert_eq!(http(addr, "GET", "/healthz", None, None).await.status, 200);
        server.stop().await;
        support::drop_database(pg).await;
    }
}
