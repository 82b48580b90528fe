//! Hardening: the quotas (429 `too-many` with the limit in the sentence), the engine's lanes (analyses never
//! delay a game's engine), stored and shared analyses, the refusal to analyse a copy of a game in play, draw
//! offers spaced by moves, sockets per address and per user, fair clocks across a restart, and hashed,
//! purged sessions. Servers run on port 0 on SQLite (and PostgreSQL where configured).

#[macro_use]
mod support;

use std::time::{Duration, Instant};

use gridplay_server::config::Limits;
use serde_json::{Value, json};
use support::{config, http, recv_until, send, signup, socket};
use tokio_tungstenite::{connect_async, tungstenite::client::IntoClientRequest};

fn post(body: &Value) -> Option<String> {
    Some(body.to_string())
}

async fn state(addr: std::net::SocketAddr, game: &str) -> Value {
    let r = http(addr, "GET", &format!("/api/games/{game}"), None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Plays the first legal move for whoever is to move (`cookies[0]` plays first), over a socket; the move.
async fn play_first_legal(addr: std::net::SocketAddr, game: &str, cookies: [&str; 2]) -> String {
    let s = state(addr, game).await;
    let mv = s["view"]["moves"][0]["text"].as_str().unwrap().to_owned();
    let who = if s["view"]["turn"] == "first" {
        cookies[0]
    } else {
        cookies[1]
    };
    act(
        addr,
        who,
        json!({"t": "move", "game": game, "move": mv, "ack": "m"}),
    )
    .await;
    mv
}

/// Sends one action over a fresh socket and returns the answer (an `ack` or an `error`).
async fn act(addr: std::net::SocketAddr, cookie: &str, mut msg: Value) -> Value {
    static ACKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut ws = socket(addr, Some(cookie)).await;
    msg["ack"] = json!(format!(
        "a{}",
        ACKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    send(&mut ws, msg).await;
    loop {
        let m = support::recv(&mut ws).await;
        if m["t"] == "ack" || m["t"] == "error" {
            return m;
        }
    }
}

fn assert_too_many(r: &support::Response, limit: &str) {
    assert_eq!(r.status, 429, "{}", r.body);
    let j = r.json();
    assert_eq!(j["error"]["code"], "too-many", "{j}");
    assert!(j["error"]["message"].as_str().unwrap().contains(limit), "{j}");
}

on_both_databases! {
#[tokio::test]
async fn quotas_answer_too_many_with_the_limit() {
    for (url, pg) in support::databases("quotas").await {
        let mut cfg = config(&url);
        cfg.limits = Limits {
            open_challenges: 2,
            tournaments_per_day: 1,
            hints_per_minute: 2,
            signups_per_hour: 3,
            ..Limits::lenient()
        };
        let server = gridplay_server::start(cfg).await.expect("server");
        let addr = server.addr;
        let (alice, bob, carol) = (
            signup(addr, "alice").await,
            signup(addr, "bob").await,
            signup(addr, "carol").await,
        );
        let r = http(
            addr,
            "POST",
            "/api/signup",
            None,
            post(&json!({"name": "dave", "password": "correct horse"})).as_deref(),
        )
        .await;
        assert_too_many(&r, "3 new accounts");
        // Open challenges per user.
        for _ in 0..2 {
            let r = http(
                addr,
                "POST",
                "/api/challenges",
                Some(&alice),
                post(&json!({"spec": "reversi", "color": "first"})).as_deref(),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let r = http(
            addr,
            "POST",
            "/api/challenges",
            Some(&alice),
            post(&json!({"spec": "reversi", "color": "first"})).as_deref(),
        )
        .await;
        assert_too_many(&r, "2 open challenges");
        // Tournaments per day.
        let t = json!({"name": "Cup", "spec": "reversi", "kind": "swiss", "time": {"correspondence": {"days": 3}}});
        assert_eq!(
            http(addr, "POST", "/api/tournaments", Some(&bob), post(&t).as_deref())
                .await
                .status,
            200
        );
        let r = http(addr, "POST", "/api/tournaments", Some(&bob), post(&t).as_deref()).await;
        assert_too_many(&r, "1 new tournaments a day");
        // Hints per minute.
        let game = support::game_between(
            addr,
            &bob,
            &carol,
            &json!({"spec": "reversi", "color": "first", "help": true}),
        )
        .await;
        for _ in 0..2 {
            let r = http(addr, "GET", &format!("/api/games/{game}/hint"), Some(&bob), None).await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let r = http(addr, "GET", &format!("/api/games/{game}/hint"), Some(&bob), None).await;
        assert_too_many(&r, "2 hints a minute");
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

#[tokio::test]
async fn a_direct_challenge_reaches_its_target_whatever_else_is_open() {
    let server = gridplay_server::start(config("sqlite::memory:"))
        .await
        .expect("server");
    let addr = server.addr;
    let (alice, bob, carol) = (
        signup(addr, "alice").await,
        signup(addr, "bob").await,
        signup(addr, "carol").await,
    );
    for _ in 0..250 {
        let r = http(
            addr,
            "POST",
            "/api/challenges",
            Some(&alice),
            post(&json!({"spec": "reversi", "color": "first"})).as_deref(),
        )
        .await;
        assert_eq!(r.status, 200);
    }
    let r = http(
        addr,
        "POST",
        "/api/challenges",
        Some(&carol),
        post(&json!({"spec": "checkers", "color": "first", "opponent": "bob"})).as_deref(),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let direct = r.json()["id"].as_str().unwrap().to_owned();
    let lobby = http(addr, "GET", "/api/lobby", Some(&bob), None).await.json();
    let to_bob: Vec<&Value> = lobby["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["to_me"] == true)
        .collect();
    assert_eq!(to_bob.len(), 1, "the direct challenge is in bob's lobby");
    assert_eq!(to_bob[0]["id"], direct.as_str());
    server.stop().await;
}

#[tokio::test]
async fn draw_offers_wait_for_moves_between_them() {
    let mut cfg = config("sqlite::memory:");
    cfg.limits.draw_offer_plies = 2;
    let server = gridplay_server::start(cfg).await.expect("server");
    let addr = server.addr;
    let (a, b) = (signup(addr, "alice").await, signup(addr, "bob").await);
    let game = support::game_between(addr, &a, &b, &json!({"spec": "reversi", "color": "first"})).await;
    let offer = json!({"t": "draw", "game": game, "answer": "offer"});
    assert_eq!(act(addr, &a, offer.clone()).await["t"], "ack");
    assert_eq!(
        act(addr, &b, json!({"t": "draw", "game": game, "answer": "decline"})).await["t"],
        "ack"
    );
    let again = act(addr, &a, offer.clone()).await;
    assert_eq!(again["code"], "too-many", "{again}");
    assert!(
        again["message"].as_str().unwrap().contains("2 more moves"),
        "{again}"
    );
    play_first_legal(addr, &game, [&a, &b]).await;
    assert_eq!(
        act(addr, &a, offer.clone()).await["code"],
        "too-many",
        "one move is not enough"
    );
    play_first_legal(addr, &game, [&a, &b]).await;
    assert_eq!(act(addr, &a, offer).await["t"], "ack", "two moves later");
    server.stop().await;
}

#[tokio::test]
async fn sockets_are_limited_per_address_and_per_user() {
    let mut cfg = config("sqlite::memory:");
    cfg.limits.sockets_per_address = 4;
    cfg.limits.sockets_per_user = 2;
    let server = gridplay_server::start(cfg).await.expect("server");
    let addr = server.addr;
    let alice = signup(addr, "alice").await;
    let refused = |cookie: Option<&str>| {
        let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
        if let Some(c) = cookie {
            req.headers_mut().insert("cookie", c.parse().unwrap());
        }
        async move {
            match connect_async(req).await {
                Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
                    let body =
                        String::from_utf8_lossy(res.body().as_deref().unwrap_or_default()).into_owned();
                    // The refused connection is closed, not kept: a flood holds nothing open.
                    assert_eq!(
                        res.headers().get("connection").and_then(|v| v.to_str().ok()),
                        Some("close")
                    );
                    (res.status().as_u16(), body)
                }
                Ok(_) => (101, String::new()),
                Err(e) => panic!("{e}"),
            }
        }
    };
    let a1 = socket(addr, Some(&alice)).await;
    let a2 = socket(addr, Some(&alice)).await;
    let (status, body) = refused(Some(&alice)).await;
    assert_eq!(status, 429, "a third page for one account");
    assert!(body.contains("too-many") && body.contains("2 pages"), "{body}");
    let v1 = socket(addr, None).await;
    let v2 = socket(addr, None).await;
    let (status, body) = refused(None).await;
    assert_eq!(status, 429, "a fifth socket from one address");
    assert!(body.contains("4 connections"), "{body}");
    // A closed socket makes room again.
    drop(v1);
    drop(a1);
    let mut ok = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if refused(None).await.0 == 101 {
            ok = true;
            break;
        }
    }
    assert!(ok, "a socket is admitted once another has closed");
    drop((a2, v2));
    server.stop().await;
}

/// Imports a game as a transcript; returns its id.
async fn import(addr: std::net::SocketAddr, cookie: &str, moves: &[String], result: &str) -> String {
    let text = format!("[Game \"reversi\"]\n[Result \"{result}\"]\n\n{}", moves.concat());
    let r = http(
        addr,
        "POST",
        "/api/import",
        Some(cookie),
        post(&json!({ "text": text })).as_deref(),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["game"].as_str().unwrap().to_owned()
}

on_both_databases! {
#[tokio::test]
async fn analyses_need_an_account_are_computed_once_stored_and_limited_per_user() {
    for (url, pg) in support::databases("analyses").await {
        let mut cfg = config(&url);
        cfg.limits.analyses_per_user = 1;
        let server = gridplay_server::start(cfg.clone()).await.expect("server");
        let addr = server.addr;
        let (alice, bob) = (signup(addr, "alice").await, signup(addr, "bob").await);
        let moves: Vec<String> = ["f5", "d6", "c3", "d3", "c4"].map(String::from).to_vec();
        let one = import(addr, &alice, &moves, "0-1").await;
        let path = format!("/api/games/{one}/analysis");
        assert_eq!(
            http(addr, "GET", &path, None, None).await.status,
            401,
            "visitors do not analyse"
        );
        // Two users at once share one computation, and the result is the same.
        let (ra, rb) = tokio::join!(http(addr, "GET", &path, Some(&alice), None), async {
            tokio::time::sleep(Duration::from_millis(30)).await;
            http(addr, "GET", &path, Some(&bob), None).await
        });
        assert_eq!((ra.status, rb.status), (200, 200), "{} {}", ra.body, rb.body);
        assert_eq!(ra.json(), rb.json());
        // One user's analyses in flight are limited: once the server counts Alice's first analysis as under way,
        // a second of hers is refused. (Should the first end before the second arrives, the pair is tried again
        // on new games; a server without the limit never refuses.)
        let alice_id = server
            .state
            .db
            .user_named("alice")
            .await
            .unwrap()
            .expect("alice")
            .id;
        let mut refused = None;
        for _ in 0..10 {
            let (two, three) = (
                import(addr, &alice, &moves[..4], "1-0").await,
                import(addr, &bob, &moves[..3], "1-0").await,
            );
            let cookie = alice.clone();
            let first = tokio::spawn(async move {
                http(
                    addr,
                    "GET",
                    &format!("/api/games/{two}/analysis"),
                    Some(&cookie),
                    None,
                )
                .await
            });
            while server.state.hub.analyses_under_way(&alice_id) == 0 && !first.is_finished() {
                tokio::task::yield_now().await;
            }
            let second = http(
                addr,
                "GET",
                &format!("/api/games/{three}/analysis"),
                Some(&alice),
                None,
            )
            .await;
            let first = first.await.unwrap();
            assert_eq!(first.status, 200, "{}", first.body);
            if second.status != 200 {
                refused = Some(second);
                break;
            }
        }
        assert_too_many(
            &refused.expect("a second analysis refused"),
            "1 analyses under way",
        );
        server.stop().await;
        // The analysis is stored: after a restart it comes back at once, the same.
        let server = gridplay_server::start(cfg).await.expect("server");
        let again = http(server.addr, "GET", &path, Some(&bob), None).await;
        assert_eq!(again.json(), ra.json());
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

#[tokio::test]
async fn a_copy_of_a_game_in_play_is_not_analysed_until_that_game_ends() {
    let server = gridplay_server::start(config("sqlite::memory:"))
        .await
        .expect("server");
    let addr = server.addr;
    let (a, b, spy) = (
        signup(addr, "alice").await,
        signup(addr, "bob").await,
        signup(addr, "eve").await,
    );
    let game = support::game_between(addr, &a, &b, &json!({"spec": "reversi", "color": "first"})).await;
    let mut moves = Vec::new();
    for _ in 0..12 {
        moves.push(play_first_legal(addr, &game, [&a, &b]).await);
    }
    // The moves so far, and the moves so far with a continuation, both with a stated result.
    let copy = import(addr, &spy, &moves, "1-0").await;
    let r = http(
        addr,
        "GET",
        &format!("/api/games/{copy}/analysis"),
        Some(&spy),
        None,
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["error"]["code"], "refused");
    let other = import(addr, &spy, &moves[..6], "1-0").await;
    let r = http(
        addr,
        "GET",
        &format!("/api/games/{other}/analysis"),
        Some(&spy),
        None,
    )
    .await;
    assert_eq!(
        r.status, 200,
        "six shared moves are an opening, not a copy: {}",
        r.body
    );
    assert_eq!(
        act(addr, &a, json!({"t": "resign", "game": game})).await["t"],
        "ack"
    );
    let r = http(
        addr,
        "GET",
        &format!("/api/games/{copy}/analysis"),
        Some(&spy),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "once the game is over: {}", r.body);
    server.stop().await;
}

#[tokio::test]
async fn a_computer_game_keeps_its_reply_time_while_many_analyses_run() {
    let mut cfg = config("sqlite::memory:");
    cfg.limits.analyses_per_user = 2;
    let server = gridplay_server::start(cfg).await.expect("server");
    let addr = server.addr;
    let mut users = Vec::new();
    for name in ["ann", "ben", "cat", "dan"] {
        users.push(signup(addr, name).await);
    }
    // Eight finished games, each analysed by two users at once: the analysis lane is busy for a long while.
    let openings = [
        ["f5", "d6"],
        ["f5", "f6"],
        ["f5", "f4"],
        ["d3", "c3"],
        ["d3", "c5"],
        ["d3", "e3"],
        ["c4", "e3"],
        ["c4", "c3"],
    ];
    let mut analyses = Vec::new();
    for (i, o) in openings.iter().enumerate() {
        let moves: Vec<String> = o.iter().map(|m| (*m).to_owned()).collect();
        let id = import(addr, &users[i % 4], &moves, "1-0").await;
        for u in [&users[i % 4], &users[(i + 1) % 4]] {
            let (u, id) = (u.clone(), id.clone());
            analyses.push(tokio::spawn(async move {
                http(addr, "GET", &format!("/api/games/{id}/analysis"), Some(&u), None)
                    .await
                    .status
            }));
        }
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A computer game on a 20 s clock: each of the engine's replies comes as fast as without analyses.
    let r = http(addr, "POST", "/api/computer", Some(&users[0]), post(&json!({"spec": "reversi", "level": 1, "color": "first", "time": {"live": {"initial": 20, "increment": 0}}})).as_deref()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let game = r.json()["game"].as_str().unwrap().to_owned();
    let mut ws = socket(addr, Some(&users[0])).await;
    send(&mut ws, json!({"t": "watch", "game": game})).await;
    let mut s = recv_until(&mut ws, "sync").await["state"].clone();
    let mut worst = Duration::ZERO;
    for _ in 0..4 {
        let mv = s["view"]["moves"][0]["text"].as_str().unwrap().to_owned();
        let v = s["version"].as_u64().unwrap();
        send(
            &mut ws,
            json!({"t": "move", "game": game, "move": mv, "v": v, "ack": format!("m{v}")}),
        )
        .await;
        let t0 = Instant::now();
        loop {
            let m = recv_until(&mut ws, "event").await;
            gridplay_server::apply_delta(&mut s, &m["delta"]);
            if m["v"].as_u64() == Some(v + 2) {
                break;
            }
        }
        worst = worst.max(t0.elapsed());
    }
    // The order of events is the test: all four replies came while analyses were still under way. How fast
    // they came is a report (`gridplay bench server` measures the lanes under load).
    let busy = analyses.iter().filter(|a| !a.is_finished()).count();
    assert!(
        busy > 0,
        "the analyses were still running while the engine replied"
    );
    eprintln!("the engine's slowest reply while {busy} analyses ran: {worst:?}");
    for a in analyses {
        let status = a.await.unwrap();
        assert!(status == 200 || status == 429, "{status}");
    }
    server.stop().await;
}

/// The running side's time left now, from a game's state (`clock`: time left when the clock last started,
/// and when).
fn left_now(s: &Value) -> i64 {
    let c = &s["clock"];
    let side = if c["running"] == "first" { 0 } else { 1 };
    let since = c["since"].as_i64().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    c["remaining"][side].as_i64().unwrap() - (now - since)
}

#[tokio::test]
async fn time_while_no_server_runs_is_charged_to_no_clock() {
    let dir = std::env::temp_dir().join(format!("gridplay-test-{}-downtime", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = config(&format!("sqlite://{}/db.sqlite", dir.display()));
    let server = gridplay_server::start(cfg.clone()).await.expect("server");
    let addr = server.addr;
    let (a, b) = (signup(addr, "alice").await, signup(addr, "bob").await);
    let game = support::game_between(
        addr,
        &a,
        &b,
        &json!({"spec": "reversi", "color": "first", "time": {"live": {"initial": 60, "increment": 0}}}),
    )
    .await;
    play_first_legal(addr, &game, [&a, &b]).await;
    play_first_legal(addr, &game, [&a, &b]).await;
    let before = left_now(&state(addr, &game).await);
    server.stop().await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let server = gridplay_server::start(cfg).await.expect("server");
    let after = left_now(&state(server.addr, &game).await);
    assert!(before > 55_000, "{before}");
    assert!(
        before - after < 1_500,
        "the clock lost {} ms across a 5 s stop",
        before - after
    );
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn sessions_are_stored_as_hashes_and_expired_ones_are_purged() {
    use sqlx::Row;
    let dir = std::env::temp_dir().join(format!("gridplay-test-{}-sessions", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let url = format!("sqlite://{}/db.sqlite", dir.display());
    let server = gridplay_server::start(config(&url)).await.expect("server");
    let cookie = signup(server.addr, "alice").await;
    let token = cookie.trim_start_matches("gp_session=");
    let pool = sqlx::SqlitePool::connect(&url).await.expect("sqlite");
    let ids: Vec<String> = sqlx::query("SELECT id FROM sessions")
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get("id"))
        .collect();
    assert_eq!(ids, [gridplay_server::db::session_key(token)]);
    assert!(!ids[0].contains(token));
    // The cookie still signs in.
    let me = http(server.addr, "GET", "/api/me", Some(&cookie), None)
        .await
        .json();
    assert_eq!(me["user"]["name"], "alice");
    // An expired session is purged; the live one stays.
    let db = &server.state.db;
    let user = me["user"]["id"].as_str().unwrap();
    db.create_session("old-token", user, 1).await.unwrap();
    let purged = db.purge(gridplay_server::db::now_ms()).await.unwrap();
    assert_eq!(purged.sessions, 1);
    let left: i64 = sqlx::query("SELECT COUNT(*) AS n FROM sessions")
        .fetch_one(&pool)
        .await
        .unwrap()
        .get("n");
    assert_eq!(left, 1);
    pool.close().await;
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Behind a trusted proxy each client has its own sign-in limit, named by the proxy's X-Forwarded-For; without
/// the proxy trusted, the header is the client's own words and counts for nothing.
#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_limit() {
    for trusted in [true, false] {
        let server = gridplay_server::start(gridplay_server::Config {
            auth_per_minute: 2,
            trusted_proxies: if trusted {
                vec!["127.0.0.1".parse().unwrap()]
            } else {
                Vec::new()
            },
            ..config("sqlite::memory:")
        })
        .await
        .expect("server");
        let attempt = |client: &'static str| async move {
            let body = r#"{"name":"nobody","password":"password-x"}"#;
            let r = support::http_with(
                server.addr,
                "POST",
                "/api/signin",
                None,
                Some(body),
                &[("X-Forwarded-For", client)],
            )
            .await;
            r.json()["error"]["code"].as_str().unwrap_or("").to_owned()
        };
        assert_eq!(attempt("198.51.100.1").await, "bad-credentials");
        assert_eq!(attempt("198.51.100.1").await, "bad-credentials");
        assert_eq!(
            attempt("198.51.100.1").await,
            "rate-limited",
            "a third attempt in the minute"
        );
        let other = attempt("198.51.100.2").await;
        if trusted {
            assert_eq!(
                other, "bad-credentials",
                "another client behind the proxy has attempts of its own"
            );
        } else {
            assert_eq!(
                other, "rate-limited",
                "an untrusted peer's header changes nothing"
            );
        }
        server.stop().await;
    }
}
