//! Live play over a real WebSocket on port 0: turns, acks, idempotent resends, stale actions, spectators,
//! catch-up after a reconnect, the Origin check, a whole game to its end, and a restart that loses nothing.
//! Each test runs on SQLite and, when configured, PostgreSQL.

#[macro_use]
mod support;

use serde_json::{Value, json};
use support::{config, http, recv, recv_until, send, signup, socket};

/// Creates a game between two new users; returns (game id, first player's cookie, second player's cookie).
async fn new_game(addr: std::net::SocketAddr, spec: &str) -> (String, String, String) {
    let a = signup(addr, "ann").await;
    let b = signup(addr, "ben").await;
    let game = support::game_between(addr, &a, &b, &json!({"spec": spec, "color": "first"})).await;
    (game, a, b)
}

fn legal(state: &Value) -> Vec<String> {
    state["view"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

on_both_databases! {
#[tokio::test]
async fn moves_are_acknowledged_after_commit_and_broadcast_with_versions() {
    for (url, pg) in support::databases("live").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let (game, a, b) = new_game(addr, "reversi").await;
        let mut wa = socket(addr, Some(&a)).await;
        let mut wb = socket(addr, Some(&b)).await;
        let mut spectator = socket(addr, None).await;
        for ws in [&mut wa, &mut wb, &mut spectator] {
            send(ws, json!({"t": "watch", "game": game})).await;
            let sync = recv(ws).await;
            assert_eq!(
                (sync["t"].as_str(), sync["state"]["version"].as_u64()),
                (Some("sync"), Some(0))
            );
            // Then the chat lines the page may read: none yet.
            let chat = recv(ws).await;
            assert_eq!(
                (chat["t"].as_str(), chat["lines"].as_array().map(Vec::len)),
                (Some("chat"), Some(0))
            );
        }
        // Ben may not move first; the spectator may not move at all.
        send(
            &mut wb,
            json!({"t": "move", "game": game, "move": "d3", "ack": "b1"}),
        )
        .await;
        let e = recv(&mut wb).await;
        assert_eq!(
            (e["t"].as_str(), e["code"].as_str(), e["ack"].as_str()),
            (Some("error"), Some("not-your-turn"), Some("b1"))
        );
        send(
            &mut spectator,
            json!({"t": "move", "game": game, "move": "d3", "ack": "s1"}),
        )
        .await;
        assert_eq!(recv(&mut spectator).await["code"], "signed-out");
        // An illegal move is refused with the reason.
        send(
            &mut wa,
            json!({"t": "move", "game": game, "move": "a1", "ack": "a0"}),
        )
        .await;
        let e = recv(&mut wa).await;
        assert_eq!(e["code"], "refused");
        assert!(e["message"].as_str().unwrap().contains("a1"), "{e}");
        // A legal move: ack with the new version, and an event for everyone.
        send(
            &mut wa,
            json!({"t": "move", "game": game, "move": "d3", "ack": "a1", "v": 0}),
        )
        .await;
        let mut got = Vec::new();
        for _ in 0..2 {
            let m = recv(&mut wa).await;
            if m["t"] == "ack" {
                // The database has the move when its ack comes (tests/crash.rs kills a server to prove it).
                let stored = server.state.db.actions(&game).await.unwrap();
                assert_eq!(
                    stored
                        .iter()
                        .map(|a| (a.seq, a.body.as_str()))
                        .collect::<Vec<_>>(),
                    [(1, "d3")],
                    "stored when acknowledged"
                );
            }
            got.push(m);
        }
        let ack = got.iter().find(|m| m["t"] == "ack").expect("an ack");
        assert_eq!((ack["ack"].as_str(), ack["v"].as_u64()), (Some("a1"), Some(1)));
        let ev = got.iter().find(|m| m["t"] == "event").expect("an event");
        assert_eq!(ev["v"], 1);
        assert_eq!(ev["action"]["text"], "d3");
        assert_eq!(ev["delta"]["last_move"]["path"], json!([19]));
        for ws in [&mut wb, &mut spectator] {
            let ev = recv_until(ws, "event").await;
            assert_eq!(
                (ev["v"].as_u64(), ev["delta"]["view"]["turn"].as_str()),
                (Some(1), Some("second"))
            );
        }
        // The same action sent again (a client that missed the ack) is answered, not played twice.
        send(
            &mut wa,
            json!({"t": "move", "game": game, "move": "d3", "ack": "a1", "v": 0}),
        )
        .await;
        let again = recv(&mut wa).await;
        assert_eq!((again["t"].as_str(), again["v"].as_u64()), (Some("ack"), Some(1)));
        // An action on an old version is refused as stale, with the current version.
        send(
            &mut wb,
            json!({"t": "move", "game": game, "move": "c3", "ack": "b2", "v": 0}),
        )
        .await;
        let e = recv_until(&mut wb, "error").await;
        assert_eq!((e["code"].as_str(), e["v"].as_u64()), (Some("stale"), Some(1)));
        send(
            &mut wb,
            json!({"t": "move", "game": game, "move": "c3", "ack": "b3", "v": 1}),
        )
        .await;
        assert_eq!(recv_until(&mut wb, "ack").await["v"], 2);
        // A third user is not a player.
        let c = signup(addr, "cid").await;
        let mut wc = socket(addr, Some(&c)).await;
        send(
            &mut wc,
            json!({"t": "move", "game": game, "move": "c4", "ack": "c1"}),
        )
        .await;
        assert_eq!(recv(&mut wc).await["code"], "not-a-player");
        // Malformed messages get a clear error.
        send(&mut wc, json!({"t": "dance"})).await;
        assert_eq!(recv(&mut wc).await["code"], "bad-message");
        // A watcher who reconnects with the last version it saw gets just the missed events.
        send(
            &mut wa,
            json!({"t": "move", "game": game, "move": "c4", "ack": "a2", "v": 2}),
        )
        .await;
        recv_until(&mut wa, "ack").await;
        let mut late = socket(addr, None).await;
        send(&mut late, json!({"t": "watch", "game": game, "v": 1})).await;
        let missed: Vec<Value> = vec![recv(&mut late).await, recv(&mut late).await];
        assert_eq!(
            missed
                .iter()
                .map(|m| (m["t"].as_str().unwrap().to_owned(), m["v"].as_u64().unwrap()))
                .collect::<Vec<_>>(),
            [("event".to_owned(), 2), ("event".to_owned(), 3)]
        );
        // Resignation ends the game for everyone.
        send(&mut wb, json!({"t": "resign", "game": game, "ack": "b4"})).await;
        let ev = recv_until(&mut spectator, "event").await;
        // The spectator may see the earlier moves first.
        let ev = if ev["action"]["kind"] == "resign" {
            ev
        } else {
            loop {
                let e = recv_until(&mut spectator, "event").await;
                if e["action"]["kind"] == "resign" {
                    break e;
                }
            }
        };
        assert_eq!(ev["delta"]["over"]["winner"], "first");
        assert_eq!(ev["delta"]["over"]["termination"], "resignation");
        send(
            &mut wa,
            json!({"t": "move", "game": game, "move": "e3", "ack": "a3"}),
        )
        .await;
        let e = recv_until(&mut wa, "error").await;
        assert!(e["message"].as_str().unwrap().contains("over"), "{e}");
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn a_whole_game_survives_a_restart_and_ends() {
    for (url, pg) in support::databases("restart").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let (game, a, b) = new_game(addr, "cornered:size=5").await;
        let cookies = [a, b];
        let mut played = 0;
        let mut restarted = false;
        let mut server = Some(server);
        let mut addr = addr;
        loop {
            let mut ws = socket(addr, None).await;
            send(&mut ws, json!({"t": "watch", "game": game})).await;
            let state = recv_until(&mut ws, "sync").await["state"].clone();
            assert_eq!(
                state["moves"].as_array().unwrap().len(),
                played,
                "no accepted move is lost"
            );
            if !state["over"].is_null() {
                assert_eq!(state["view"]["moves"].as_array().unwrap().len(), 0);
                break;
            }
            let turn = if state["view"]["turn"] == "first" { 0 } else { 1 };
            let mut player = socket(addr, Some(&cookies[turn])).await;
            let mv = legal(&state)[played % legal(&state).len()].clone();
            send(&mut player, json!({"t": "move", "game": game, "move": mv, "ack": format!("m{played}"), "v": state["version"]})).await;
            let ack = recv_until(&mut player, "ack").await;
            assert_eq!(ack["v"].as_u64().unwrap() as usize, played + 1);
            played += 1;
            if played == 6 && !restarted {
                // Stop the server and start a new one on the same database.
                let config = config(&url);
                server.take().unwrap().stop().await;
                let s = gridplay_server::start(config).await.expect("restart");
                addr = s.addr;
                server = Some(s);
                restarted = true;
            }
        }
        assert!(restarted && played > 6, "played {played}");
        let r = http(addr, "GET", "/api/lobby", Some(&cookies[0]), None).await;
        assert_eq!(
            r.json()["finished"][0]["id"],
            game.as_str(),
            "the finished game is listed"
        );
        server.unwrap().stop().await;
        support::drop_database(pg).await;
    }
}
}

#[tokio::test]
async fn websocket_from_another_origin_is_refused() {
    use tokio_tungstenite::tungstenite::{client::IntoClientRequest, http::HeaderValue};
    let server = gridplay_server::start(config("sqlite::memory:"))
        .await
        .expect("server");
    let mut req = format!("ws://{}/ws", server.addr).into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", HeaderValue::from_static("http://evil.example"));
    let err = tokio_tungstenite::connect_async(req).await.expect_err("refused");
    assert!(err.to_string().contains("403"), "{err}");
    let mut req = format!("ws://{}/ws", server.addr).into_client_request().unwrap();
    req.headers_mut().insert(
        "origin",
        HeaderValue::from_str(&format!("http://{}", server.addr)).unwrap(),
    );
    assert!(
        tokio_tungstenite::connect_async(req).await.is_ok(),
        "the same origin is welcome"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_socket_over_its_message_budget_or_size_is_refused() {
    use futures_util::StreamExt;
    let mut cfg = config("sqlite::memory:");
    cfg.ws_per_second = 1;
    cfg.ws_burst = 3;
    let server = gridplay_server::start(cfg).await.expect("server");
    let mut ws = socket(server.addr, None).await;
    for _ in 0..3 {
        send(&mut ws, json!({"t": "ping"})).await;
        assert_eq!(recv(&mut ws).await["t"], "pong");
    }
    send(&mut ws, json!({"t": "ping"})).await;
    let e = recv(&mut ws).await;
    assert_eq!(
        (e["t"].as_str(), e["code"].as_str()),
        (Some("error"), Some("rate-limited"))
    );
    // A message larger than 8 KiB closes the socket.
    let mut ws = socket(server.addr, None).await;
    send(&mut ws, json!({"t": "ping", "pad": "x".repeat(9000)})).await;
    let closed = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                None | Some(Err(_)) => break true,
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) => break true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .unwrap_or(false);
    assert!(
        closed,
        "the server closes a socket that sends an oversized message"
    );
    server.stop().await;
}
