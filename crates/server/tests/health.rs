//! `/healthz` and `/readyz`: a server that runs is alive and ready; once it begins to stop it is still alive
//! but no longer ready. On SQLite and PostgreSQL.

#[macro_use]
mod support;

use support::{config, http};

on_both_databases! {
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
}

/// The value of the metric line that starts with `name` (with its labels), 0 if there is none.
fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

on_both_databases! {
#[tokio::test]
async fn the_metrics_move_when_moves_are_made() {
    for (url, pg) in support::databases("metrics").await {
        let mut cfg = config(&url);
        cfg.metrics_addr = Some(std::net::SocketAddr::from(([127, 0, 0, 1], 0)));
        let server = gridplay_server::start(cfg).await.expect("server");
        let (addr, at) = (server.addr, server.metrics_addr.expect("a metrics address"));
        let scrape = || async move {
            let r = http(at, "GET", "/metrics", None, None).await;
            assert_eq!(r.status, 200);
            r.body
        };
        // Not on the site's address.
        assert_eq!(http(addr, "GET", "/metrics", None, None).await.status, 404);
        let before = scrape().await;
        let (a, b) = (
            support::signup(addr, "ann").await,
            support::signup(addr, "ben").await,
        );
        let game = support::game_between(
            addr,
            &a,
            &b,
            &serde_json::json!({"spec": "reversi", "color": "first"}),
        )
        .await;
        let mut ws = support::socket(addr, Some(&a)).await;
        support::send(&mut ws, serde_json::json!({"t": "watch", "game": game})).await;
        support::recv_until(&mut ws, "sync").await;
        support::send(
            &mut ws,
            serde_json::json!({"t": "move", "game": game, "move": "d3", "ack": "m"}),
        )
        .await;
        assert_eq!(support::recv_until(&mut ws, "ack").await["ack"], "m");
        // Refused: not this player's turn.
        support::send(
            &mut ws,
            serde_json::json!({"t": "move", "game": game, "move": "c3", "ack": "n"}),
        )
        .await;
        assert_eq!(
            support::recv_until(&mut ws, "error").await["code"],
            "not-your-turn"
        );
        let after = scrape().await;
        // The recorder is the process's: other tests' servers add to it too, so each figure grows by at least
        // this test's part.
        let grew = |name: &str| metric(&after, name) - metric(&before, name);
        assert!(grew(r#"gridplay_actions_total{kind="move"}"#) >= 1.0, "{after}");
        assert!(grew("gridplay_action_ack_seconds_count") >= 1.0, "{after}");
        assert!(grew("gridplay_db_commit_seconds_count") >= 1.0, "{after}");
        assert!(
            grew(r#"gridplay_errors_total{kind="not-your-turn"}"#) >= 1.0,
            "{after}"
        );
        assert!(metric(&after, "gridplay_sockets_open") >= 1.0, "{after}");
        assert!(metric(&after, "gridplay_game_actors") >= 1.0, "{after}");
        for name in ["gridplay_db_queue", "gridplay_action_ack_seconds_bucket"] {
            assert!(after.contains(name), "{name} in {after}");
        }
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
/// A stopped server leaves no task behind: the game's actor, the engine thinking in it, and the upkeep all
/// end with `Running::stop`.
#[tokio::test]
async fn a_stopped_server_leaves_no_task_running() {
    for (url, pg) in support::databases("health_tasks").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let ann = support::signup(addr, "ann").await;
        // The engine moves first, at its top level: it is thinking when the server stops.
        support::computer_game(addr, &ann, r#"{"spec":"reversi","level":8,"color":"second"}"#).await;
        let tasks = server.state.tasks.clone();
        // The upkeep, the game's actor and its engine at least.
        assert!(tasks.len() >= 3, "{} tasks", tasks.len());
        server.stop().await;
        assert!(tasks.is_empty(), "{} tasks still run after the stop", tasks.len());
        support::drop_database(pg).await;
    }
}
}
