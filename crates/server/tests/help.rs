//! Fair help: who may ask the engine for a move, and where. The engine suggests moves in games against the
//! engine, in casual games between people who both agreed to help (the challenge allowed it, the other player
//! accepted it), and in replays of finished games; never in a game between people without that agreement,
//! and never in a rated or tournament game. Each case runs on SQLite and, when configured, PostgreSQL.

#[macro_use]
mod support;

use std::net::SocketAddr;

use serde_json::{Value, json};
use support::{config, http, recv, recv_until, send, signup, socket};

async fn get(addr: SocketAddr, path: &str, cookie: Option<&str>) -> (u16, Value) {
    let r = http(addr, "GET", path, cookie, None).await;
    let body = serde_json::from_str(&r.body).unwrap_or(Value::Null);
    (r.status, body)
}

async fn post(addr: SocketAddr, path: &str, cookie: &str, body: &Value) -> (u16, Value) {
    let r = http(addr, "POST", path, Some(cookie), Some(&body.to_string())).await;
    (r.status, serde_json::from_str(&r.body).unwrap_or(Value::Null))
}

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("")
}

/// The hint asked by `cookie` in game `id`: the status and the move or error code.
async fn hint(addr: SocketAddr, id: &str, cookie: Option<&str>) -> (u16, String) {
    let (s, j) = get(addr, &format!("/api/games/{id}/hint"), cookie).await;
    let what = j["move"]
        .as_str()
        .map_or_else(|| code(&j).to_owned(), str::to_owned);
    (s, what)
}

/// A GET from another network address than the players' (the fair-play rule guards a game in play from
/// every account at a player's address: docs/web.md, "Fair play").
async fn get_away(addr: SocketAddr, path: &str, cookie: &str) -> (u16, Value) {
    let away = std::net::IpAddr::from([127, 0, 0, 2]);
    let r = support::http_from(away, addr, "GET", path, Some(cookie), None, &[]).await;
    let body = serde_json::from_str(&r.body).unwrap_or(Value::Null);
    (r.status, body)
}

/// Resigns game `id` as the user of `cookie`.
async fn resign(addr: SocketAddr, cookie: &str, id: &str) {
    let mut ws = socket(addr, Some(cookie)).await;
    send(&mut ws, json!({"t": "watch", "game": id})).await;
    recv_until(&mut ws, "sync").await;
    send(&mut ws, json!({"t": "resign", "game": id, "ack": "r1"})).await;
    loop {
        let m = recv(&mut ws).await;
        if m["ack"] == "r1" {
            assert_eq!(m["t"], "ack", "{m}");
            break;
        }
    }
}

on_both_databases! {
#[tokio::test]
async fn the_engine_helps_only_where_both_sides_may_ask_it() {
    for (url, pg) in support::databases("help").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let (ann, ben, cat) = (
            signup(addr, "ann").await,
            signup(addr, "ben").await,
            signup(addr, "cat").await,
        );
        let reversi = |extra: Value| {
            let mut body = json!({"spec": "reversi", "color": "first"});
            for (k, v) in extra.as_object().unwrap() {
                body[k] = v.clone();
            }
            body
        };
        let opening = ["d3", "c4", "f5", "e6"];

        // Against the engine: always.
        let body = json!({"spec": "reversi", "level": 1, "color": "first"});
        let (s, g) = post(addr, "/api/computer", &ann, &body).await;
        assert_eq!(s, 200, "{g}");
        let vs_engine = g["game"].as_str().unwrap().to_owned();
        let (_, st) = get(addr, &format!("/api/games/{vs_engine}"), None).await;
        assert_eq!(
            (st["hints"].as_bool(), st["help"].as_bool()),
            (Some(true), Some(false))
        );
        let (s, mv) = hint(addr, &vs_engine, Some(&ann)).await;
        assert_eq!(s, 200, "{mv}");
        assert!(opening.contains(&mv.as_str()), "{mv}");

        // Between people, casual, live 3+2, without help: neither player may ask.
        let live = json!({"live": {"initial": 180, "increment": 2}});
        let plain = support::game_between(addr, &ann, &ben, &reversi(json!({"time": live}))).await;
        let (_, st) = get(addr, &format!("/api/games/{plain}"), None).await;
        assert_eq!(
            (st["hints"].as_bool(), st["help"].as_bool()),
            (Some(false), Some(false))
        );
        for who in [&ann, &ben] {
            let (s, what) = hint(addr, &plain, Some(who)).await;
            assert_eq!((s, what.as_str()), (409, "refused"), "a casual game without help");
        }
        // Its first move, so that the start is no longer a position the fair-play rule guards for its
        // players (the game below with help starts there).
        support::play_moves(addr, &plain, [&ann, &ben], &["f5"]).await;

        // Between people, casual, with help allowed by the challenge and accepted: both see it, the player to
        // move may ask, the other is told it is not their turn, and an outsider is not a player.
        let (s, c) = post(
            addr,
            "/api/challenges",
            &ann,
            &reversi(json!({"help": true, "time": live})),
        )
        .await;
        assert_eq!(s, 200, "{c}");
        assert_eq!(c["help"], true);
        let (_, lobby) = get(addr, "/api/lobby", Some(&ben)).await;
        let listed = lobby["challenges"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == c["id"])
            .cloned();
        assert_eq!(
            listed.expect("the challenge in Ben's lobby")["help"],
            true,
            "the accepting player sees it"
        );
        let (s, g) = post(
            addr,
            &format!("/api/challenges/{}/accept", c["id"].as_str().unwrap()),
            &ben,
            &json!({}),
        )
        .await;
        assert_eq!(s, 200, "{g}");
        let helped = g["game"].as_str().unwrap().to_owned();
        let (_, st) = get(addr, &format!("/api/games/{helped}"), None).await;
        assert_eq!(
            (st["hints"].as_bool(), st["help"].as_bool()),
            (Some(true), Some(true))
        );
        let (s, mv) = hint(addr, &helped, Some(&ann)).await;
        assert_eq!(s, 200, "{mv}");
        assert!(opening.contains(&mv.as_str()), "{mv}");
        assert_eq!(
            hint(addr, &helped, Some(&ben)).await,
            (409, "not-your-turn".to_owned())
        );
        assert_eq!(
            hint(addr, &helped, Some(&cat)).await,
            (409, "not-a-player".to_owned())
        );
        assert_eq!(hint(addr, &helped, None).await.0, 401);

        // Rated: help cannot be asked for, and a rated game gives no hint.
        let (s, j) = post(
            addr,
            "/api/challenges",
            &ann,
            &reversi(json!({"help": true, "rated": true})),
        )
        .await;
        assert_eq!((s, code(&j)), (400, "bad-help"), "{j}");
        let rated = support::game_between(addr, &ann, &ben, &reversi(json!({"rated": true}))).await;
        let (_, st) = get(addr, &format!("/api/games/{rated}"), None).await;
        assert_eq!(st["hints"], false);
        assert_eq!(hint(addr, &rated, Some(&ann)).await, (409, "refused".to_owned()));

        // A tournament game: no hint.
        let (s, t) = post(
            addr,
            "/api/tournaments",
            &ann,
            &json!({"name": "Cup", "spec": "reversi", "kind": "round-robin", "time": {"correspondence": {"days": 3}}}),
        )
        .await;
        assert_eq!(s, 200, "{t}");
        let tid = t["id"].as_str().unwrap().to_owned();
        assert_eq!(
            post(addr, &format!("/api/tournaments/{tid}/join"), &ben, &json!({}))
                .await
                .0,
            200
        );
        assert_eq!(
            post(addr, &format!("/api/tournaments/{tid}/start"), &ann, &json!({}))
                .await
                .0,
            200
        );
        let (_, t) = get(addr, &format!("/api/tournaments/{tid}"), None).await;
        let tgame = t["rounds_played"][0]["games"][0]["id"]
            .as_str()
            .expect("a round-one game")
            .to_owned();
        let (_, st) = get(addr, &format!("/api/games/{tgame}"), None).await;
        assert_eq!(st["hints"], false);
        let first = if st["players"][0]["name"] == "ann" {
            &ann
        } else {
            &ben
        };
        assert_eq!(hint(addr, &tgame, Some(first)).await, (409, "refused".to_owned()));

        // A rematch of the helped game keeps its agreement.
        resign(addr, &ben, &helped).await;
        let (s, r) = post(addr, &format!("/api/games/{helped}/rematch"), &ann, &json!({})).await;
        assert_eq!(s, 200, "{r}");
        let (_, lobby) = get(addr, "/api/lobby", Some(&ben)).await;
        let again = lobby["challenges"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == r["challenge"])
            .cloned();
        assert_eq!(again.expect("the rematch offer")["help"], true);

        // Replays: no suggestion while the game is in play, for anyone; once it is over, any signed-in user
        // may ask at any move, and a move number past the end is not found.
        let ply = |id: &str, n: usize| format!("/api/games/{id}/ply/{n}/hint");
        let (s, j) = get_away(addr, &ply(&plain, 0), &cat).await;
        assert_eq!((s, code(&j)), (409, "refused"), "{j}");
        let (s, j) = get(addr, &ply(&plain, 0), Some(&ann)).await;
        assert_eq!(
            (s, code(&j)),
            (409, "refused"),
            "not even a player of a game in play: {j}"
        );
        resign(addr, &ann, &plain).await;
        // Cat asks from another address: at the players' own, the fair-play rule guards the start, where
        // their rated and tournament games stand.
        let (s, j) = get_away(addr, &ply(&plain, 0), &cat).await;
        assert_eq!(s, 200, "{j}");
        assert!(opening.contains(&j["move"].as_str().unwrap()), "{j}");
        let (s, j) = get(addr, &ply(&plain, 0), Some(&cat)).await;
        assert_eq!((s, code(&j)), (409, "refused"), "at the players' address: {j}");
        assert_eq!(get_away(addr, &ply(&plain, 2), &cat).await.0, 404);
        assert_eq!(get(addr, &ply(&plain, 0), None).await.0, 401);

        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn a_replay_of_an_imported_copy_of_a_game_in_play_gets_no_suggestion() {
    for (url, pg) in support::databases("help_import").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let (ann, ben) = (signup(addr, "ann").await, signup(addr, "ben").await);
        let game =
            support::game_between(addr, &ann, &ben, &json!({"spec": "reversi", "color": "first"})).await;
        // Ten moves in the game, then the same ten imported as a file.
        let line = ["f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2", "e6"];
        support::play_moves(addr, &game, [&ann, &ben], &line).await;
        let (s, j) = post(addr, "/api/import", &ann, &json!({"text": line.concat()})).await;
        assert_eq!(s, 200, "{j}");
        let copy = j["game"].as_str().unwrap().to_owned();
        let (s, j) = get(addr, &format!("/api/games/{copy}/ply/10/hint"), Some(&ann)).await;
        assert_eq!((s, code(&j)), (409, "refused"), "{j}");
        resign(addr, &ben, &game).await;
        let (s, j) = get(addr, &format!("/api/games/{copy}/ply/10/hint"), Some(&ann)).await;
        assert_eq!(s, 200, "once the game is over: {j}");
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
