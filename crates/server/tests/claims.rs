//! Claims after a player leaves a live game, the two players on two servers on PostgreSQL (whose bus tells each
//! server who watches on the other), and on one server on SQLite (whose servers share no bus): while a page of the opponent's is
//! open there is nothing to claim; once all are gone, the state says since when and from when a claim is
//! allowed (`gone`), a claim before then is refused, and after it the win or a draw is the claimer's. A player
//! who comes back is no longer gone, and one whose clock runs out while gone has left the game too; each
//! profile counts the games its player left, and a challenge or a tournament may ask for a good record of them.

#[macro_use]
mod support;

use serde_json::{Value, json};
use support::{Socket, act, config, game_between, recv, send, signup, socket};

/// Watches `id` on a new socket; the socket and the state's version.
async fn watch(addr: std::net::SocketAddr, cookie: &str, id: &str) -> (Socket, u64) {
    let mut ws = socket(addr, Some(cookie)).await;
    send(&mut ws, json!({"t": "watch", "game": id})).await;
    let sync = support::recv_until(&mut ws, "sync").await;
    let v = sync["state"]["version"].as_u64().expect("a version");
    (ws, v)
}

/// A game of challenge `body` from the first player to the second, each watching on their server (the
/// first's socket, then the second's), where both have moved (d3, c3): its id and the two sockets.
async fn started(
    addrs: [std::net::SocketAddr; 2],
    cookies: [&str; 2],
    body: &Value,
) -> (String, Socket, Socket) {
    let id = game_between(addrs[0], cookies[0], cookies[1], body).await;
    let mut sockets = Vec::new();
    for (i, mv) in ["d3", "c3"].into_iter().enumerate() {
        let (mut ws, v) = watch(addrs[i], cookies[i], &id).await;
        let m = act(
            &mut ws,
            json!({"t": "move", "game": id, "move": mv, "v": v}),
            &format!("m{i}"),
        )
        .await;
        assert_eq!(m["t"], "ack", "{m}");
        sockets.push(ws);
    }
    let second = sockets.pop().expect("two sockets");
    let first = sockets.pop().expect("two sockets");
    (id, first, second)
}

/// Reads the page's messages until a state (a `sync`) whose `gone` for `side` satisfies `want`; the state.
async fn state_where(ws: &mut Socket, side: usize, want: fn(&Value) -> bool) -> Value {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        assert!(std::time::Instant::now() < until, "no such state within 20 s");
        let m = recv(ws).await;
        if m["t"] == "sync" && want(&m["state"]["gone"][side]) {
            return m["state"].clone();
        }
    }
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_pages_are_all_gone_can_be_claimed_against_from_another_server() {
    for (url, pg) in support::databases("claims").await {
        let mut cfg = config(&url);
        cfg.limits.claim_floor_seconds = 2;
        let a = gridplay_server::start(cfg.clone()).await.expect("server A");
        let other = gridplay_server::start(cfg).await.expect("server B");
        let b = if pg.is_some() { &other } else { &a };
        let ann = signup(a.addr, "ann").await;
        let ben = signup(b.addr, "ben").await;
        // A 1+0 game: the claim's time is its floor, 2 s (a thirtieth of a minute).
        let body = json!({"spec": "reversi", "color": "first", "opponent": "ben",
            "time": {"live": {"initial": 60, "increment": 0}}});
        for (round, draw) in [(0, false), (1, true)] {
            let (id, mut wa, mut wb) = started([a.addr, b.addr], [&ann, &ben], &body).await;
            // Ben's page is open: nothing to claim.
            let m = act(&mut wa, json!({"t": "claim", "game": id, "draw": draw}), "c0").await;
            assert_eq!(
                (m["t"].as_str(), m["code"].as_str()),
                (Some("error"), Some("refused")),
                "{m}"
            );
            if round == 1 {
                // A page that closes and comes back: gone, then here again.
                drop(wb);
                state_where(&mut wa, 1, |g| !g.is_null()).await;
                let (again, _) = watch(b.addr, &ben, &id).await;
                state_where(&mut wa, 1, Value::is_null).await;
                wb = again;
            }
            // Ben's last page closes: Ann's page hears it, with the time from which she may claim.
            drop(wb);
            let state = state_where(&mut wa, 1, |g| !g.is_null()).await;
            let gone = &state["gone"][1];
            let (since, claim_at) = (
                gone["since"].as_i64().unwrap(),
                gone["claim_at"].as_i64().unwrap(),
            );
            assert_eq!(claim_at - since, 2000, "{state}");
            assert!(state["gone"][0].is_null(), "{state}");
            // Too early: refused, with the seconds to wait.
            let m = act(&mut wa, json!({"t": "claim", "game": id, "draw": draw}), "c1").await;
            assert_eq!(m["t"], "error", "{m}");
            assert!(m["message"].as_str().unwrap().contains("claim in"), "{m}");
            tokio::time::sleep(std::time::Duration::from_millis(2_200)).await;
            let m = act(&mut wa, json!({"t": "claim", "game": id, "draw": draw}), "c2").await;
            assert_eq!(m["t"], "ack", "{m}");
            let over = a.state.hub.state(&id).await.unwrap().over.clone().expect("over");
            assert_eq!(over.termination.as_str(), "left");
            assert_eq!(
                over.winner,
                if draw {
                    None
                } else {
                    Some(gridplay_core::Player::First)
                }
            );
            assert!(
                over.text.contains(if draw {
                    "Draw"
                } else {
                    "the opponent left the game"
                }),
                "{}",
                over.text
            );
            // The stored game says so too, on the other server.
            let row = b.state.db.game(&id).await.unwrap().expect("stored");
            assert_eq!(row.termination.map(|t| t.as_str()), Some("left"));
        }
        // A clock that runs out while its player's pages are all gone: the game was left, claimed or not.
        let quick = json!({"spec": "reversi", "color": "first", "opponent": "ben",
            "time": {"live": {"initial": 3, "increment": 0}}});
        let (id, mut wa, wb) = started([a.addr, b.addr], [&ann, &ben], &quick).await;
        let next = a.state.hub.state(&id).await.unwrap().view.moves[0].text.clone();
        let m = act(
            &mut wa,
            json!({"t": "move", "game": id, "move": next, "v": 2}),
            "m2",
        )
        .await;
        assert_eq!(m["t"], "ack", "{m}");
        drop(wb);
        let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let over = loop {
            assert!(std::time::Instant::now() < until, "the flag within 20 s");
            if let Some(over) = a.state.hub.state(&id).await.unwrap().over.clone() {
                break over;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        };
        assert_eq!(
            (over.winner, over.termination.as_str()),
            (Some(gridplay_core::Player::First), "left"),
            "{}",
            over.text
        );
        // Each profile counts the games its player left, of the finished games between people.
        for (name, left) in [("ben", 3), ("ann", 0)] {
            let r = support::http(a.addr, "GET", &format!("/api/players/{name}"), None, None).await;
            assert_eq!(r.json()["left"], json!({"left": left, "finished": 3}), "{name}");
        }
        // A challenge that asks for a good record: Ben, who left all three, may not accept it; Cat, with no
        // game yet, may; a challenge without it is Ben's to accept.
        let picky = json!({"spec": "reversi", "color": "first", "good_record": true,
            "time": {"live": {"initial": 60, "increment": 0}}});
        let r = support::post(a.addr, "/api/challenges", &ann, picky.clone()).await;
        let open = r.json()["id"].as_str().expect("a challenge").to_owned();
        assert_eq!(r.json()["good_record"], true);
        let r = support::post(a.addr, &format!("/api/challenges/{open}/accept"), &ben, json!({})).await;
        assert_eq!(support::error_code(&r), (409, "record".into()), "{}", r.body);
        assert!(
            r.json()["error"]["message"].as_str().unwrap().contains("3 of 3"),
            "{}",
            r.body
        );
        let cat = signup(a.addr, "cat").await;
        let r = support::post(a.addr, &format!("/api/challenges/{open}/accept"), &cat, json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let mut plain = picky;
        plain["good_record"] = json!(false);
        let r = support::post(a.addr, "/api/challenges", &ann, plain).await;
        let open = r.json()["id"].as_str().expect("a challenge").to_owned();
        let r = support::post(a.addr, &format!("/api/challenges/{open}/accept"), &ben, json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        // A tournament that asks for a good record: Ben may not join it, Cat may; another without it is open
        // to Ben.
        let tournament = |good_record: bool| {
            json!({"name": "Cup", "spec": "reversi", "kind": "swiss", "rounds": 1, "good_record": good_record,
                   "time": {"live": {"initial": 60, "increment": 0}}})
        };
        let r = support::post(a.addr, "/api/tournaments", &ann, tournament(true)).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let cup = r.json()["id"].as_str().expect("a tournament").to_owned();
        let r = support::http(a.addr, "GET", &format!("/api/tournaments/{cup}"), None, None).await;
        assert_eq!(r.json()["good_record"], true, "{}", r.body);
        let r = support::post(a.addr, &format!("/api/tournaments/{cup}/join"), &ben, json!({})).await;
        assert_eq!(support::error_code(&r), (409, "record".into()), "{}", r.body);
        assert!(
            r.json()["error"]["message"].as_str().unwrap().contains("3 of 3"),
            "{}",
            r.body
        );
        let r = support::post(a.addr, &format!("/api/tournaments/{cup}/join"), &cat, json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let r = support::post(a.addr, "/api/tournaments", &ann, tournament(false)).await;
        let open_cup = r.json()["id"].as_str().expect("a tournament").to_owned();
        let r = support::post(
            a.addr,
            &format!("/api/tournaments/{open_cup}/join"),
            &ben,
            json!({}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        a.stop().await;
        other.stop().await;
        support::drop_database(pg).await;
    }
}
}
