//! The games to watch: the live list leaves out untimed games against the engine that nobody has moved in for
//! a while, gives the first few games' boards for the watch page's mini-boards (bounded), and the socket's
//! `tv` message keeps those boards up to date with each game's events. On SQLite and, when configured,
//! PostgreSQL.

#[macro_use]
mod support;

use std::net::SocketAddr;

use serde_json::{Value, json};
use support::{config, http, recv, recv_until, send, signup, socket};

async fn get(addr: SocketAddr, path: &str) -> Value {
    let r = http(addr, "GET", path, None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

async fn computer_game(addr: SocketAddr, cookie: &str, time: Value) -> String {
    let mut body = json!({"spec": "reversi", "level": 1, "color": "first"});
    if !time.is_null() {
        body["time"] = time;
    }
    let r = http(
        addr,
        "POST",
        "/api/computer",
        Some(cookie),
        Some(&body.to_string()),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["game"].as_str().unwrap().to_owned()
}

fn listed(live: &Value) -> Vec<String> {
    live["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

/// Makes a game look as if its last move was long ago.
async fn age(url: &str, game: &str) {
    use sqlx::{Connection, Executor};
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url)
        .await
        .expect("the test database");
    conn.execute(sqlx::AssertSqlSafe(format!(
        "UPDATE games SET updated_at = 1000 WHERE id = '{game}'"
    )))
    .await
    .expect("update");
}

on_both_databases! {
#[tokio::test]
async fn the_live_list_leaves_out_idle_untimed_engine_games_and_gives_bounded_boards() {
    for (url, pg) in support::databases("watch").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let ann = signup(addr, "ann").await;
        let idle = computer_game(addr, &ann, Value::Null).await;
        let timed = computer_game(addr, &ann, json!({"correspondence": {"days": 3}})).await;
        let fresh = computer_game(addr, &ann, Value::Null).await;
        let live = get(addr, "/api/live").await;
        for g in [&idle, &timed, &fresh] {
            assert!(listed(&live).contains(g), "{g} in play");
        }
        // Nobody moved in two of them for long: the untimed one is left, the correspondence one is not.
        age(&url, &idle).await;
        age(&url, &timed).await;
        let live = get(addr, "/api/live").await;
        assert!(
            !listed(&live).contains(&idle),
            "an idle untimed engine game is not listed"
        );
        assert!(listed(&live).contains(&timed) && listed(&live).contains(&fresh));
        // Boards for the first games asked for, without their legal moves; none unless asked.
        assert!(live["games"][0].get("board").is_none());
        let live = get(addr, "/api/live?boards=1").await;
        let board = &live["games"][0]["board"];
        assert_eq!(
            board["view"]["cells"].as_array().map(Vec::len),
            Some(64),
            "{board}"
        );
        assert!(
            board["view"].get("moves").is_none(),
            "a mini-board needs no legal moves"
        );
        assert!(live["games"][1].get("board").is_none());
        // However many are asked for, at most twelve.
        for _ in 0..12 {
            computer_game(addr, &ann, Value::Null).await;
        }
        let live = get(addr, "/api/live?boards=100").await;
        let boards = live["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g.get("board").is_some())
            .count();
        assert_eq!(boards, 12);
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn a_watch_page_follows_its_boards_over_the_socket() {
    for (url, pg) in support::databases("tv").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let ann = signup(addr, "ann").await;
        let game = computer_game(addr, &ann, Value::Null).await;
        // A visitor follows the board from version 0.
        let mut tv = socket(addr, None).await;
        send(&mut tv, json!({"t": "tv", "games": [{"game": game, "v": 0}]})).await;
        // Ann plays d3: the board hears the move, and then the engine's answer, as events in order.
        let mut ws = socket(addr, Some(&ann)).await;
        send(&mut ws, json!({"t": "watch", "game": game})).await;
        recv_until(&mut ws, "sync").await;
        send(
            &mut ws,
            json!({"t": "move", "game": game, "move": "d3", "ack": "a1"}),
        )
        .await;
        let mut seen = Vec::new();
        while seen.len() < 2 {
            let m = recv(&mut tv).await;
            assert_eq!(m["t"], "tv", "{m}");
            assert_eq!(
                (m["m"]["t"].as_str(), m["m"]["game"].as_str()),
                (Some("event"), Some(game.as_str())),
                "{m}"
            );
            seen.push(m["m"]["v"].as_u64().unwrap());
        }
        assert_eq!(seen, [1, 2]);
        // A page follows at most twelve boards.
        let many: Vec<Value> = (0..13).map(|_| json!({"game": game})).collect();
        send(&mut tv, json!({"t": "tv", "games": many})).await;
        let e = recv_until(&mut tv, "error").await;
        assert_eq!(e["code"], "bad-message", "{e}");
        // A follower is not a spectator.
        let live = get(addr, "/api/live").await;
        let row = live["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == game.as_str())
            .cloned()
            .unwrap();
        assert_eq!(row["spectators"], 0, "{row}");
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
