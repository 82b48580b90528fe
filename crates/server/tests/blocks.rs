//! Blocks, on SQLite and PostgreSQL: a player blocks another from the profile; then neither challenges the
//! other (directly, by accepting an open challenge, or by a rematch), neither sees the other's open challenges,
//! and the blocked player's chat lines are hidden from the blocker, in the history and live. The block is kept
//! with the account until it is lifted, and lifting it restores all of it.

#[macro_use]
mod support;

use std::net::SocketAddr;

use serde_json::{Value, json};
use support::{Socket, error_code, http, post, recv, recv_until, send, signup};

async fn get(addr: SocketAddr, path: &str, cookie: Option<&str>) -> support::Response {
    http(addr, "GET", path, cookie, None).await
}

async fn block(addr: SocketAddr, cookie: &str, name: &str, on: bool) -> support::Response {
    let method = if on { "PUT" } else { "DELETE" };
    http(
        addr,
        method,
        &format!("/api/players/{name}/block"),
        Some(cookie),
        None,
    )
    .await
}

/// The ids of the open challenges the lobby shows to `cookie`'s user.
async fn lobby_challenges(addr: SocketAddr, cookie: &str) -> Vec<String> {
    get(addr, "/api/lobby", Some(cookie)).await.json()["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn open_challenge(addr: SocketAddr, cookie: &str) -> String {
    let r = post(
        addr,
        "/api/challenges",
        cookie,
        json!({"spec": "reversi", "color": "first"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_owned()
}

/// Says `text` in `game` and waits for it to come back to the speaker.
async fn say(ws: &mut Socket, game: &str, text: &str) {
    send(ws, json!({"t": "chat", "game": game, "text": text, "ack": text})).await;
    loop {
        let m = recv(ws).await;
        assert_ne!(m["t"], "error", "{m}");
        if m["t"] == "chat" && m["lines"][0]["text"] == text {
            return;
        }
    }
}

async fn watch(addr: SocketAddr, cookie: &str, game: &str) -> (Socket, Vec<Value>) {
    let mut ws = support::socket(addr, Some(cookie)).await;
    send(&mut ws, json!({"t": "watch", "game": game})).await;
    let first = recv_until(&mut ws, "chat").await;
    (ws, first["lines"].as_array().unwrap().clone())
}

fn texts(lines: &[Value]) -> Vec<&str> {
    lines.iter().map(|l| l["text"].as_str().unwrap()).collect()
}

on_both_databases! {
#[tokio::test]
async fn a_block_stops_challenges_both_ways_and_hides_the_blocked_players_lines() {
    for (url, pg) in support::databases("blocks").await {
        let server = gridplay_server::start(support::config(&url))
            .await
            .expect("server");
        let addr = server.addr;
        let (ann, ben, cat) = (
            signup(addr, "ann").await,
            signup(addr, "ben").await,
            signup(addr, "cat").await,
        );
        // A game between Ann and Ben from before the block, with a line from each.
        let game = support::game_between(
            addr,
            &ann,
            &ben,
            &json!({"spec": "reversi", "color": "first", "opponent": "ben"}),
        )
        .await;
        let (mut ann_ws, _) = watch(addr, &ann, &game).await;
        let (mut ben_ws, _) = watch(addr, &ben, &game).await;
        say(&mut ben_ws, &game, "hello from ben").await;
        // Lines said in the same millisecond have no order between them (the history is ordered by time).
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        say(&mut ann_ws, &game, "hello from ann").await;

        // Refusals: oneself, no such player, signed out.
        assert_eq!(
            error_code(&block(addr, &ann, "ann", true).await),
            (400, "self-block".into())
        );
        assert_eq!(
            error_code(&block(addr, &ann, "nobody", true).await),
            (404, "not-found".into())
        );
        let r = http(addr, "PUT", "/api/players/ben/block", None, None).await;
        assert_eq!(r.status, 401);

        // Ann's open challenge, and Ben's, before the block: each sees the other's.
        let anns = open_challenge(addr, &ann).await;
        let bens = open_challenge(addr, &ben).await;
        assert!(lobby_challenges(addr, &ben).await.contains(&anns));

        // Ann blocks Ben: her profile of him says so; nobody else's does; twice changes nothing.
        let r = block(addr, &ann, "ben", true).await;
        assert_eq!(
            (r.status, r.json()["blocked"].clone()),
            (200, json!(true)),
            "{}",
            r.body
        );
        assert_eq!(block(addr, &ann, "ben", true).await.status, 200);
        assert_eq!(
            get(addr, "/api/players/ben", Some(&ann)).await.json()["blocked"],
            true
        );
        assert_eq!(
            get(addr, "/api/players/ben", Some(&cat)).await.json()["blocked"],
            false
        );
        assert_eq!(get(addr, "/api/players/ben", None).await.json()["blocked"], false);
        assert_eq!(
            get(addr, "/api/players/ann", Some(&ben)).await.json()["blocked"],
            false
        );

        // No challenges either way, directly or by an open challenge; the others' lobbies are as before.
        for (from, to) in [(&ann, "ben"), (&ben, "ann")] {
            let r = post(
                addr,
                "/api/challenges",
                from,
                json!({"spec": "reversi", "color": "first", "opponent": to}),
            )
            .await;
            assert_eq!(error_code(&r), (409, "blocked".into()), "{}", r.body);
        }
        assert!(
            !lobby_challenges(addr, &ben).await.contains(&anns),
            "Ben no longer sees Ann's challenge"
        );
        assert!(
            !lobby_challenges(addr, &ann).await.contains(&bens),
            "nor Ann Ben's"
        );
        assert!(
            lobby_challenges(addr, &cat).await.contains(&anns),
            "Cat sees both"
        );
        assert!(lobby_challenges(addr, &cat).await.contains(&bens));
        let r = post(addr, &format!("/api/challenges/{anns}/accept"), &ben, json!({})).await;
        assert_eq!(error_code(&r), (409, "blocked".into()), "{}", r.body);
        let r = post(addr, &format!("/api/challenges/{bens}/accept"), &ann, json!({})).await;
        assert_eq!(error_code(&r), (409, "blocked".into()), "{}", r.body);

        // Chat: Ben's lines are hidden from Ann, in the history and live; Ben still reads Ann's.
        let lines = get(addr, &format!("/api/games/{game}/chat"), Some(&ann))
            .await
            .json();
        assert_eq!(
            texts(lines["lines"].as_array().unwrap()),
            ["hello from ann"],
            "{lines}"
        );
        let lines = get(addr, &format!("/api/games/{game}/chat"), Some(&ben))
            .await
            .json();
        assert_eq!(
            texts(lines["lines"].as_array().unwrap()),
            ["hello from ben", "hello from ann"]
        );
        drop(ann_ws);
        let (mut ann_ws, history) = watch(addr, &ann, &game).await;
        assert_eq!(texts(&history), ["hello from ann"]);
        say(&mut ben_ws, &game, "are you there").await;
        // Ann's socket gets her own line back, and nothing of Ben's, said before it, comes first.
        send(
            &mut ann_ws,
            json!({"t": "chat", "game": game, "text": "still here", "ack": "s"}),
        )
        .await;
        loop {
            let m = recv(&mut ann_ws).await;
            assert_ne!(m["t"], "error", "{m}");
            if m["t"] == "chat" {
                assert_eq!(texts(m["lines"].as_array().unwrap()), ["still here"], "{m}");
                break;
            }
        }
        let lines = get(addr, &format!("/api/games/{game}/chat"), Some(&ann))
            .await
            .json();
        assert_eq!(
            texts(lines["lines"].as_array().unwrap()),
            ["hello from ann", "still here"]
        );

        // A rematch of the game between them is refused too.
        let m = support::act_in(addr, &ann, &game, json!({"t": "resign"}), "r").await;
        assert_eq!(m["t"], "ack", "{m}");
        let r = post(addr, &format!("/api/games/{game}/rematch"), &ben, json!({})).await;
        assert_eq!(error_code(&r), (409, "blocked".into()), "{}", r.body);

        // Lifted: all as before.
        let r = block(addr, &ann, "ben", false).await;
        assert_eq!((r.status, r.json()["blocked"].clone()), (200, json!(false)));
        assert_eq!(
            get(addr, "/api/players/ben", Some(&ann)).await.json()["blocked"],
            false
        );
        assert!(lobby_challenges(addr, &ben).await.contains(&anns));
        let r = post(
            addr,
            "/api/challenges",
            &ben,
            json!({"spec": "reversi", "color": "first", "opponent": "ann"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let lines = get(addr, &format!("/api/games/{game}/chat"), Some(&ann))
            .await
            .json();
        assert_eq!(lines["lines"].as_array().unwrap().len(), 4, "{lines}");

        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
