//! The platform around the games: clocks that flag, correspondence claims across a restart, aborts, rematches,
//! rated games and their ratings, profiles, leaderboards, spectators, tournaments (Swiss and round-robin, with
//! byes and withdrawals) and the rules pages' examples. Each test runs on SQLite and, when configured,
//! PostgreSQL.

#[macro_use]
mod support;

use std::net::SocketAddr;

use serde_json::{Value, json};
use support::{Socket, config, http, recv, recv_until, send, signup, socket};

/// A challenge from `a` (first) accepted by `b`, with extra settings; returns the game id.
async fn challenge(addr: SocketAddr, a: &str, b: &str, extra: Value) -> String {
    let mut body = json!({"spec": "reversi", "color": "first"});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    support::game_between(addr, a, b, &body).await
}

/// Watches a game and returns the socket and the state.
async fn watch(addr: SocketAddr, cookie: Option<&str>, game: &str) -> (Socket, Value) {
    let mut ws = socket(addr, cookie).await;
    send(&mut ws, json!({"t": "watch", "game": game})).await;
    let sync = recv_until(&mut ws, "sync").await;
    (ws, sync["state"].clone())
}

/// Sends an action and returns the answer (an ack or an error).
async fn act(ws: &mut Socket, msg: Value) -> Value {
    let ack = format!("a{}", rand_id());
    let mut msg = msg;
    msg["ack"] = json!(ack);
    send(ws, msg).await;
    loop {
        let m = recv(ws).await;
        if (m["t"] == "ack" || m["t"] == "error") && m["ack"] == json!(ack) {
            return m;
        }
    }
}

fn rand_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Plays the first legal move for whoever is to move, through their socket.
async fn play_first_legal(addr: SocketAddr, cookies: &[String; 2], game: &str) -> Value {
    let (_, state) = watch(addr, None, game).await;
    let turn = usize::from(state["view"]["turn"] != "first");
    let mv = state["view"]["moves"][0]["text"].as_str().unwrap().to_owned();
    let (mut ws, _) = watch(addr, Some(&cookies[turn]), game).await;
    let r = act(&mut ws, json!({"t": "move", "game": game, "move": mv})).await;
    assert_eq!(r["t"], "ack", "{r}");
    r
}

async fn state_of(addr: SocketAddr, game: &str) -> Value {
    let r = http(addr, "GET", &format!("/api/games/{game}"), None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

async fn sql(url: &str, q: &str) {
    use sqlx::{Connection, Executor};
    sqlx::any::install_default_drivers();
    let mut c = sqlx::AnyConnection::connect(url).await.expect("connect");
    c.execute(sqlx::AssertSqlSafe(q.to_owned())).await.expect(q);
}

on_both_databases! {
#[tokio::test]
async fn a_live_clock_runs_out_and_the_server_flags_it() {
    for (url, pg) in support::databases("clock").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let a = signup(addr, "ann").await;
        let b = signup(addr, "ben").await;
        let cookies = [a.clone(), b.clone()];
        let game = challenge(
            addr,
            &a,
            &b,
            json!({"time": {"live": {"initial": 2, "increment": 0}}}),
        )
        .await;
        let st = state_of(addr, &game).await;
        assert_eq!(st["time_label"], "2s+0");
        assert!(
            st["clock"]["running"].is_null(),
            "no clock runs before both sides move"
        );
        // Both players keep the game open: a flag that falls while its player has left ends the game as left.
        let pages = (
            watch(addr, Some(&a), &game).await,
            watch(addr, Some(&b), &game).await,
        );
        play_first_legal(addr, &cookies, &game).await;
        play_first_legal(addr, &cookies, &game).await;
        let (mut spectator, st) = watch(addr, None, &game).await;
        assert_eq!(st["clock"]["running"], "first");
        assert!(st["deadline"].as_i64().is_some());
        // Nobody moves: the server ends the game on time (the limit only guards against a hang).
        let ev = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            recv_until(&mut spectator, "event"),
        )
        .await
        .expect("the flag falls");
        assert_eq!(ev["action"]["kind"], "timeout");
        assert_eq!(ev["delta"]["over"]["termination"], "timeout");
        assert_eq!(ev["delta"]["over"]["winner"], "second");
        assert_eq!(ev["delta"]["clock"]["remaining"][0], 0);
        // A move after the flag is refused.
        let (mut wa, _) = watch(addr, Some(&a), &game).await;
        let r = act(&mut wa, json!({"t": "move", "game": game, "move": "f5"})).await;
        assert_eq!((&r["t"], &r["code"]), (&json!("error"), &json!("refused")), "{r}");
        assert!(r["message"].as_str().unwrap().contains("over"), "{r}");
        drop(pages);
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn a_correspondence_game_survives_a_restart_and_an_abandoned_one_is_claimed() {
    for (url, pg) in support::databases("corr").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let a = signup(addr, "ann").await;
        let b = signup(addr, "ben").await;
        let cookies = [a.clone(), b.clone()];
        let game = challenge(addr, &a, &b, json!({"time": {"correspondence": {"days": 1}}})).await;
        play_first_legal(addr, &cookies, &game).await;
        play_first_legal(addr, &cookies, &game).await;
        // First to move; second cannot claim yet.
        let (mut wb, st) = watch(addr, Some(&b), &game).await;
        assert_eq!(st["time_label"], "1 day");
        assert!(st["claimable"].as_bool().unwrap());
        let r = act(&mut wb, json!({"t": "claim", "game": game})).await;
        assert_eq!(r["code"], "refused", "{r}");
        assert!(r["message"].as_str().unwrap().contains("still has time"), "{r}");
        drop(wb);
        server.stop().await;
        // Two days pass while the server is down.
        sql(
            &url,
            &format!("UPDATE actions SET created_at = created_at - 172800000 WHERE game_id = '{game}'"),
        )
        .await;
        let server = gridplay_server::start(config(&url)).await.expect("restart");
        let addr = server.addr;
        let (mut wa, st) = watch(addr, Some(&a), &game).await;
        assert_eq!(
            st["moves"].as_array().unwrap().len(),
            2,
            "the moves survived the restart"
        );
        // The player to move cannot claim; the waiting one can.
        let r = act(&mut wa, json!({"t": "claim", "game": game})).await;
        assert_eq!(r["code"], "refused", "{r}");
        let (mut wb, _) = watch(addr, Some(&b), &game).await;
        let r = act(&mut wb, json!({"t": "claim", "game": game})).await;
        assert_eq!(r["t"], "ack", "{r}");
        let st = state_of(addr, &game).await;
        assert_eq!(st["over"]["termination"], "abandoned");
        assert_eq!(st["over"]["winner"], "second");
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn abort_before_both_moved_then_a_rematch_with_colours_swapped() {
    for (url, pg) in support::databases("abort").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let a = signup(addr, "ann").await;
        let b = signup(addr, "ben").await;
        let cookies = [a.clone(), b.clone()];
        let game = challenge(addr, &a, &b, json!({})).await;
        play_first_legal(addr, &cookies, &game).await;
        let (mut wb, st) = watch(addr, Some(&b), &game).await;
        assert!(st["abortable"].as_bool().unwrap());
        let r = act(&mut wb, json!({"t": "abort", "game": game})).await;
        assert_eq!(r["t"], "ack", "{r}");
        let st = state_of(addr, &game).await;
        assert_eq!(st["over"]["termination"], "aborted");
        assert!(st["over"]["winner"].is_null());
        // Once both have moved, no abort.
        let game2 = challenge(addr, &a, &b, json!({})).await;
        play_first_legal(addr, &cookies, &game2).await;
        play_first_legal(addr, &cookies, &game2).await;
        let (mut wa, _) = watch(addr, Some(&a), &game2).await;
        let r = act(&mut wa, json!({"t": "abort", "game": game2})).await;
        assert_eq!(r["code"], "refused", "{r}");
        let r = http(
            addr,
            "POST",
            &format!("/api/games/{game2}/rematch"),
            Some(&a),
            Some("{}"),
        )
        .await;
        assert_eq!(r.status, 409, "no rematch of a game in play: {}", r.body);
        let r = act(&mut wa, json!({"t": "resign", "game": game2})).await;
        assert_eq!(r["t"], "ack", "{r}");
        // Ben's page hears of Ann's rematch offer; accepting swaps the colours.
        let mut ben_page = socket(addr, Some(&b)).await;
        let r = http(
            addr,
            "POST",
            &format!("/api/games/{game2}/rematch"),
            Some(&a),
            Some("{}"),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let cid = r.json()["challenge"].as_str().unwrap().to_owned();
        let offer = recv_until(&mut ben_page, "rematch").await;
        assert_eq!(
            (offer["challenge"].as_str(), offer["from"].as_str()),
            (Some(cid.as_str()), Some("ann"))
        );
        let r = http(
            addr,
            "POST",
            &format!("/api/challenges/{cid}/accept"),
            Some(&b),
            Some("{}"),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let rematch = r.json()["game"].as_str().unwrap().to_owned();
        let started = recv_until(&mut ben_page, "started").await;
        assert_eq!(started["game"], rematch.as_str());
        let st = state_of(addr, &rematch).await;
        assert_eq!(st["players"][0]["name"], "ben");
        assert_eq!(st["players"][1]["name"], "ann");
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn rated_games_move_ratings_and_fill_profiles_leaderboards_and_the_live_list() {
    for (url, pg) in support::databases("rated").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let a = signup(addr, "ann").await;
        let b = signup(addr, "ben").await;
        let cookies = [a.clone(), b.clone()];
        let game = challenge(
            addr,
            &a,
            &b,
            json!({"rated": true, "time": {"live": {"initial": 600, "increment": 5}}}),
        )
        .await;
        play_first_legal(addr, &cookies, &game).await;
        // A spectator watches; the live list shows the game with its players, ratings and one spectator.
        let (_spectator, st) = watch(addr, None, &game).await;
        assert!(st["rated"].as_bool().unwrap());
        assert!(!st["hints"].as_bool().unwrap());
        let live = http(addr, "GET", "/api/live", None, None).await.json();
        let g = live["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == game.as_str())
            .unwrap()
            .clone();
        assert_eq!(g["spectators"], 1, "{g}");
        assert_eq!(g["names"], json!(["ann", "ben"]));
        assert_eq!(
            g["time"],
            json!({"kind": "live", "initial_ms": 600_000, "increment_ms": 5_000})
        );
        // Hints are off in rated games.
        let r = http(addr, "GET", &format!("/api/games/{game}/hint"), Some(&b), None).await;
        assert_eq!(r.status, 409, "{}", r.body);
        assert!(r.body.contains("allowed help"), "{}", r.body);
        // My games: Ben is to move.
        let mine = http(addr, "GET", "/api/my-games", Some(&b), None).await.json();
        assert_eq!(mine["waiting"], 1);
        let (mut wb, _) = watch(addr, Some(&b), &game).await;
        let r = act(&mut wb, json!({"t": "resign", "game": game})).await;
        assert_eq!(r["t"], "ack");
        let st = state_of(addr, &game).await;
        assert!(
            st["players"][0]["rating"].as_i64().unwrap() > 1500,
            "{}",
            st["players"]
        );
        assert!(st["players"][1]["rating"].as_i64().unwrap() < 1500);
        assert!(st["players"][0]["provisional"].as_bool().unwrap());
        let ann = http(addr, "GET", "/api/players/ANN", None, None).await.json();
        assert_eq!(ann["ratings"][0]["game"], "reversi");
        assert_eq!(ann["ratings"][0]["games"], 1);
        assert_eq!(ann["history"]["reversi"].as_array().unwrap().len(), 1);
        assert_eq!(ann["stats"][0]["wins"], 1);
        // The profile's games show each player's rating when the game was played, and the change.
        let played = &ann["recent"][0]["ratings"];
        assert_eq!(
            (played[0]["rating"].as_i64(), played[1]["rating"].as_i64()),
            (Some(1500), Some(1500)),
            "{played}"
        );
        assert!(
            played[0]["change"].as_i64().unwrap() > 0 && played[1]["change"].as_i64().unwrap() < 0,
            "{played}"
        );
        let ben = http(addr, "GET", "/api/players/ben", None, None).await.json();
        assert_eq!(
            (
                ben["stats"][0]["losses"].as_i64(),
                ben["stats"][0]["resigned"].as_i64()
            ),
            (Some(1), Some(1))
        );
        let board = http(addr, "GET", "/api/leaderboard/reversi", None, None)
            .await
            .json();
        assert_eq!(board["players"][0]["name"], "ann");
        assert_eq!(board["players"][1]["name"], "ben");
        assert_eq!(
            http(addr, "GET", "/api/leaderboard/chess", None, None)
                .await
                .status,
            404
        );
        assert_eq!(
            http(addr, "GET", "/api/players/nobody", None, None).await.status,
            404
        );
        // A casual game changes no rating.
        let casual = challenge(addr, &a, &b, json!({})).await;
        let (mut wa, _) = watch(addr, Some(&a), &casual).await;
        assert_eq!(
            act(&mut wa, json!({"t": "resign", "game": casual})).await["t"],
            "ack"
        );
        let ann2 = http(addr, "GET", "/api/players/ann", None, None).await.json();
        assert_eq!(ann2["ratings"], ann["ratings"]);
        // People must choose a clock or days, and bad clocks are refused with the reason.
        let r = http(
            addr,
            "POST",
            "/api/challenges",
            Some(&a),
            Some(r#"{"spec":"reversi","color":"first","time":"untimed"}"#),
        )
        .await;
        assert_eq!(r.status, 400);
        let r = http(
            addr,
            "POST",
            "/api/challenges",
            Some(&a),
            Some(r#"{"spec":"reversi","color":"first","time":{"live":{"initial":1,"increment":0}}}"#),
        )
        .await;
        assert!(r.body.contains("2 seconds to 3 hours"), "{}", r.body);
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

/// Resigns, as the first player, every game in play of a tournament's current round, except that a game
/// between the `draw` pair is agreed drawn. Returns how many games ended.
async fn finish_round(addr: SocketAddr, names: &[(String, String)], t: &Value) -> usize {
    let round = t["rounds_played"].as_array().unwrap().last().unwrap().clone();
    let mut n = 0;
    for g in round["games"].as_array().unwrap() {
        if g["status"] != "active" {
            continue;
        }
        let first = g["players"][0].as_str().unwrap();
        let cookie = &names.iter().find(|(n, _)| n == first).unwrap().1;
        let id = g["id"].as_str().unwrap();
        let (mut ws, _) = watch(addr, Some(cookie), id).await;
        let r = act(&mut ws, json!({"t": "resign", "game": id})).await;
        assert_eq!(r["t"], "ack", "{r}");
        n += 1;
    }
    n
}

async fn tournament(addr: SocketAddr, id: &str) -> Value {
    let r = http(addr, "GET", &format!("/api/tournaments/{id}"), None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Waits until the tournament has moved past `round` or finished (a minute at most, a guard against a hang).
async fn wait_round(addr: SocketAddr, id: &str, round: i64) -> Value {
    for _ in 0..1200 {
        let t = tournament(addr, id).await;
        if t["round"].as_i64().unwrap() > round || t["status"] == "finished" {
            return t;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("tournament {id} stuck at round {round}");
}

on_both_databases! {
#[tokio::test]
async fn a_four_player_swiss_runs_to_its_end_without_rematches() {
    for (url, pg) in support::databases("swiss").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let mut players = Vec::new();
        for n in ["ann", "ben", "cat", "dan"] {
            players.push((n.to_owned(), signup(addr, n).await));
        }
        let r = http(
            addr,
            "POST",
            "/api/tournaments",
            Some(&players[0].1),
            Some(r#"{"name":"Autumn Swiss","spec":"checkers","kind":"swiss","rounds":3,"rated":true,"time":{"correspondence":{"days":3}}}"#),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let id = r.json()["id"].as_str().unwrap().to_owned();
        for (_, c) in &players[1..] {
            let r = http(
                addr,
                "POST",
                &format!("/api/tournaments/{id}/join"),
                Some(c),
                Some("{}"),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let r = http(
            addr,
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&players[1].1),
            Some("{}"),
        )
        .await;
        assert_eq!(r.status, 403, "only the creator starts it");
        let r = http(
            addr,
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&players[0].1),
            Some("{}"),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let r = http(
            addr,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            Some(&signup(addr, "eve").await),
            Some("{}"),
        )
        .await;
        assert_eq!(r.status, 409, "joining closes at the start");
        let mut t = tournament(addr, &id).await;
        let mut pairs = std::collections::HashSet::new();
        for round in 1..=3 {
            assert_eq!(t["round"], round);
            let games = t["rounds_played"][round as usize - 1]["games"]
                .as_array()
                .unwrap()
                .clone();
            assert_eq!(games.len(), 2);
            for g in &games {
                let mut p = [
                    g["players"][0].as_str().unwrap().to_owned(),
                    g["players"][1].as_str().unwrap().to_owned(),
                ];
                p.sort_unstable();
                assert!(pairs.insert(p.clone()), "a rematch: {p:?}");
                // Hints are off in tournament games; aborting is refused.
                let st = state_of(addr, g["id"].as_str().unwrap()).await;
                assert_eq!(st["tournament"]["round"], round);
                assert!(!st["abortable"].as_bool().unwrap());
            }
            assert_eq!(finish_round(addr, &players, &t).await, 2);
            t = wait_round(addr, &id, round).await;
        }
        assert_eq!(t["status"], "finished");
        let standings = t["standings"].as_array().unwrap();
        let total: f64 = standings.iter().map(|s| s["points"].as_f64().unwrap()).sum();
        assert_eq!(total, 6.0, "{standings:?}");
        assert!(standings.iter().all(|s| s["played"] == 3));
        assert_eq!(standings[0]["rank"], 1);
        // Standings are sorted by points, then Buchholz.
        for w in standings.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            assert!(
                (a["points"].as_f64(), a["buchholz"].as_f64())
                    >= (b["points"].as_f64(), b["buchholz"].as_f64()),
                "{standings:?}"
            );
        }
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn a_round_robin_gives_byes_and_forfeits_after_a_withdrawal() {
    for (url, pg) in support::databases("robin").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let mut players = Vec::new();
        for n in ["ann", "ben", "cat"] {
            players.push((n.to_owned(), signup(addr, n).await));
        }
        let r = http(
            addr,
            "POST",
            "/api/tournaments",
            Some(&players[0].1),
            Some(r#"{"name":"Robin","spec":"cornered:size=5","kind":"round-robin"}"#),
        )
        .await;
        let id = r.json()["id"].as_str().unwrap().to_owned();
        for (_, c) in &players[1..] {
            http(
                addr,
                "POST",
                &format!("/api/tournaments/{id}/join"),
                Some(c),
                Some("{}"),
            )
            .await;
        }
        http(
            addr,
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&players[0].1),
            Some("{}"),
        )
        .await;
        let t = tournament(addr, &id).await;
        assert_eq!(t["rounds"], 3, "three players: three rounds, one rest each");
        let r1 = &t["rounds_played"][0];
        assert_eq!(
            (
                r1["games"].as_array().unwrap().len(),
                r1["byes"].as_array().unwrap().len()
            ),
            (1, 1)
        );
        finish_round(addr, &players, &t).await;
        let t = wait_round(addr, &id, 1).await;
        // Whoever plays in round 2 withdraws mid-game: the game is resigned and the later game is a forfeit.
        let g = &t["rounds_played"][1]["games"][0];
        let quitter = g["players"][1].as_str().unwrap().to_owned();
        let cookie = &players.iter().find(|(n, _)| *n == quitter).unwrap().1;
        let r = http(
            addr,
            "POST",
            &format!("/api/tournaments/{id}/withdraw"),
            Some(cookie),
            Some("{}"),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let t = wait_round(addr, &id, 2).await;
        let t = wait_round(addr, &id, t["round"].as_i64().unwrap()).await;
        assert_eq!(t["status"], "finished", "{t}");
        let all_byes: Vec<&Value> = t["rounds_played"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["byes"].as_array().unwrap())
            .collect();
        assert!(all_byes.iter().any(|b| b["kind"] == "forfeit"), "{all_byes:?}");
        let line = t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == quitter.as_str())
            .unwrap()
            .clone();
        assert!(line["withdrawn"].as_bool().unwrap());
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn rules_pages_show_the_librarys_examples_and_explain_bad_moves() {
    let (url, _) = support::databases("rules").await.remove(0);
    let server = gridplay_server::start(config(&url)).await.expect("server");
    let addr = server.addr;
    for entry in gridplay_games::registry().entries() {
        let game = entry.name;
        let r = http(addr, "GET", &format!("/api/rules/{game}"), None, None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let j = r.json();
        assert!(j["html"].as_str().unwrap().contains("<h"), "{game}");
        for x in j["examples"].as_array().unwrap() {
            assert!(
                !x["position"]["view"]["moves"].as_array().unwrap().is_empty(),
                "{game}: {x}"
            );
        }
    }
    let j = http(addr, "GET", "/api/rules/checkers", None, None).await.json();
    let forced = &j["examples"][1];
    let moves: Vec<&str> = forced["position"]["view"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["15x22"], "the capture is compulsory");
    let r = http(
        addr,
        "POST",
        "/api/rules-try",
        None,
        Some(r#"{"spec":"checkers","moves":["11-15","22-18","9-13"]}"#),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("move 3 (9-13)"), "{}", r.body);
    let r = http(
        addr,
        "POST",
        "/api/rules-try",
        None,
        Some(r#"{"spec":"checkers","moves":["11-15","22-18","15x22"]}"#),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["last_move"]["text"], "15x22");
    assert_eq!(
        http(addr, "GET", "/api/rules/chess", None, None).await.status,
        404
    );
    server.stop().await;
}
}

on_both_databases! {
/// The test game, which the server knows only through the registry, plays through the same code as the real
/// games: the catalog describes it from its module and the engine table, its rules page comes from its module,
/// two people play it to the end over the socket, the engine plays it at its own levels, and its file goes out
/// and back in. A server without `with_test_games` does not know it.
#[tokio::test]
async fn the_test_game_plays_through_the_platform_like_any_game() {
    for (url, pg) in support::databases("testgame").await {
        let server = gridplay_server::start(gridplay_server::Config {
            with_test_games: true,
            ..config(&url)
        })
        .await
        .expect("server");
        let addr = server.addr;
        let registry = gridplay_games::registry_with_test_games();
        let catalog = http(addr, "GET", "/api/catalog", None, None).await.json();
        let games = catalog["games"].as_array().unwrap();
        assert_eq!(games.len(), registry.entries().len());
        for (g, e) in games.iter().zip(registry.entries()) {
            assert_eq!(g["name"], e.name);
            assert_eq!(g["title"], e.module.title);
            let levels = gridplay_engine::engine(e.name).unwrap().levels.len();
            assert_eq!(g["levels"], json!(levels), "{}", e.name);
            assert!(g["look"]["light"].is_string() && g["entry"].is_string(), "{g}");
            let r = http(addr, "GET", &format!("/api/rules/{}", e.name), None, None).await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let t = games.iter().find(|g| g["name"] == "tictactoe").unwrap();
        assert_eq!(
            (t["levels"].as_i64(), t["entry"].as_str()),
            (Some(3), Some("place"))
        );

        let (a, b) = (format!("ta{}", rand_id()), format!("tb{}", rand_id()));
        let cookies = [signup(addr, &a).await, signup(addr, &b).await];
        let game = challenge(addr, &cookies[0], &cookies[1], json!({"spec": "tictactoe"})).await;
        let state = state_of(addr, &game).await;
        assert_eq!(state["rotate"], json!([false, false]));
        // X takes the left column while O plays the middle one.
        for mv in ["a1", "b1", "a2", "b2", "a3"] {
            let (_, st) = watch(addr, None, &game).await;
            let turn = usize::from(st["view"]["turn"] != "first");
            let (mut ws, _) = watch(addr, Some(&cookies[turn]), &game).await;
            let r = act(&mut ws, json!({"t": "move", "game": game, "move": mv})).await;
            assert_eq!(r["t"], "ack", "{mv}: {r}");
        }
        let end = state_of(addr, &game).await;
        assert_eq!(end["over"]["winner"], "first", "{end}");
        let file = http(addr, "GET", &format!("/api/games/{game}/export"), None, None).await;
        assert_eq!(file.status, 200);
        assert!(
            file.body.contains("[Game \"tictactoe\"]") && file.body.contains("a1 b1 a2 b2 a3"),
            "{}",
            file.body
        );
        let r = http(
            addr,
            "POST",
            "/api/import",
            Some(&cookies[0]),
            Some(&json!({ "text": file.body }).to_string()),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let copy = state_of(addr, r.json()["game"].as_str().unwrap()).await;
        assert_eq!(copy["moves"], end["moves"]);

        // The engine plays at the levels its table has, and no others.
        let r = http(
            addr,
            "POST",
            "/api/computer",
            Some(&cookies[0]),
            Some(r#"{"spec":"tictactoe","level":4,"color":"first"}"#),
        )
        .await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("levels are 1 to 3"), "{}", r.body);
        let r = http(
            addr,
            "POST",
            "/api/computer",
            Some(&cookies[0]),
            Some(r#"{"spec":"tictactoe","level":3,"color":"second"}"#),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let vs = r.json()["game"].as_str().unwrap().to_owned();
        let (mut ws, mut st) = watch(addr, None, &vs).await;
        while st["moves"].as_array().unwrap().is_empty() {
            let m = recv(&mut ws).await;
            if m["t"] == "event" {
                gridplay_server::apply_delta(&mut st, &m["delta"]);
            }
        }
        assert_eq!(st["moves"].as_array().unwrap().len(), 1, "{st}");
        server.stop().await;
        support::drop_database(pg).await;
    }
    // Without the flag the test game does not exist.
    let (url, _) = support::databases("notestgame").await.remove(0);
    let server = gridplay_server::start(config(&url)).await.expect("server");
    let r = http(server.addr, "GET", "/api/rules/tictactoe", None, None).await;
    assert_eq!(r.status, 404);
    let catalog = http(server.addr, "GET", "/api/catalog", None, None).await.json();
    assert!(
        catalog["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["name"] != "tictactoe")
    );
    server.stop().await;
}
}

on_both_databases! {
#[tokio::test]
async fn takebacks_in_casual_games_are_asked_answered_and_survive_a_restart() {
    for (url, pg) in support::databases("takeback").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let a = signup(addr, "ann").await;
        let b = signup(addr, "ben").await;
        let cookies = [a.clone(), b.clone()];
        let game = challenge(addr, &a, &b, json!({})).await;
        let (mut wa, _) = watch(addr, Some(&a), &game).await;
        let (mut wb, _) = watch(addr, Some(&b), &game).await;
        let ask = |answer: &str| json!({"t": "takeback", "game": game, "answer": answer});
        // Nothing to take back before one's first move, and nothing to answer without a request.
        let r = act(&mut wa, ask("offer")).await;
        assert_eq!(r["code"], "refused", "{r}");
        assert!(r["message"].as_str().unwrap().contains("no move of yours"), "{r}");
        play_first_legal(addr, &cookies, &game).await;
        let r = act(&mut wb, ask("accept")).await;
        assert_eq!(r["code"], "refused", "{r}");
        assert!(
            r["message"].as_str().unwrap().contains("no takeback request"),
            "{r}"
        );
        // Ann asks, Ben declines; Ann asks again and Ben agrees: Ann's move is taken back.
        assert_eq!(act(&mut wa, ask("offer")).await["t"], "ack");
        assert_eq!(state_of(addr, &game).await["takeback_offer"], "first");
        assert_eq!(
            act(&mut wa, ask("offer")).await["t"],
            "error",
            "one request at a time"
        );
        assert_eq!(act(&mut wb, ask("decline")).await["t"], "ack");
        assert!(state_of(addr, &game).await["takeback_offer"].is_null());
        assert_eq!(act(&mut wa, ask("offer")).await["t"], "ack");
        assert_eq!(act(&mut wb, ask("accept")).await["t"], "ack");
        let st = state_of(addr, &game).await;
        assert_eq!(
            (st["moves"].as_array().unwrap().len(), &st["view"]["turn"]),
            (0, &json!("first"))
        );
        // After Ben's reply, Ann's request takes back both moves: it is Ann's turn again.
        play_first_legal(addr, &cookies, &game).await;
        play_first_legal(addr, &cookies, &game).await;
        play_first_legal(addr, &cookies, &game).await;
        let before = state_of(addr, &game).await;
        assert_eq!(before["view"]["turn"], "second");
        play_first_legal(addr, &cookies, &game).await;
        assert_eq!(act(&mut wa, ask("offer")).await["t"], "ack");
        assert_eq!(act(&mut wb, ask("accept")).await["t"], "ack");
        let st = state_of(addr, &game).await;
        assert_eq!(st["moves"], json!(before["moves"].as_array().unwrap()[..2]));
        assert_eq!(st["view"]["turn"], "first");
        assert_eq!(st["movers"], "fs");
        // The takeback is in the record: a restart replays it.
        server.stop().await;
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let again = state_of(server.addr, &game).await;
        assert_eq!((&again["moves"], &again["view"]), (&st["moves"], &st["view"]));
        let addr = server.addr;
        // Rated games refuse takebacks.
        let rated = challenge(addr, &a, &b, json!({"rated": true})).await;
        play_first_legal(addr, &cookies, &rated).await;
        let (mut wr, _) = watch(addr, Some(&a), &rated).await;
        let r = act(
            &mut wr,
            json!({"t": "takeback", "game": rated, "answer": "offer"}),
        )
        .await;
        assert_eq!(r["code"], "refused", "{r}");
        assert!(r["message"].as_str().unwrap().contains("casual"), "{r}");
        // The engine grants a takeback at once.
        let eg = support::computer_game(addr, &a, r#"{"spec":"reversi","level":1,"color":"first"}"#).await;
        let (mut we, st) = watch(addr, Some(&a), &eg).await;
        let mv = st["view"]["moves"][0]["text"].as_str().unwrap().to_owned();
        assert_eq!(
            act(&mut we, json!({"t": "move", "game": eg, "move": mv})).await["t"],
            "ack"
        );
        let replied = tokio::time::timeout(std::time::Duration::from_secs(20), async {
            loop {
                let st = http(addr, "GET", &format!("/api/games/{eg}"), None, None)
                    .await
                    .json();
                if st["moves"].as_array().unwrap().len() == 2 {
                    return st;
                }
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        })
        .await
        .expect("the engine replies");
        assert_eq!(replied["view"]["turn"], "first");
        assert_eq!(
            act(&mut we, json!({"t": "takeback", "game": eg, "answer": "offer"})).await["t"],
            "ack"
        );
        let st = state_of(addr, &eg).await;
        assert_eq!(
            (st["moves"].as_array().unwrap().len(), &st["view"]["turn"]),
            (0, &json!("first"))
        );
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
