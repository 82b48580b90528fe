//! The engine-use review, on SQLite and PostgreSQL: finished games between people are reviewed in the
//! background and each side's figures stored; a player whose rated games are the engine's moves is flagged in
//! the admins' queue with the evidence, one who plays the first legal move is not, and a player of no game,
//! or anyone but an admin, gets nothing.

#[macro_use]
mod support;

use gridplay_core::GameRecord;
use gridplay_engine::Request;
use gridplay_search::StopFlag;
use gridplay_server::db::{Act, ModKind};
use serde_json::{Value, json};
use support::{act, http, recv_until, send, signup, socket};

/// Plays a rated Reversi game between the users of `cookies` (the first moves first) to its end: the first
/// plays the engine's moves at level 6, the second the first legal move. Returns the game's id.
async fn engine_against_first_legal(addr: std::net::SocketAddr, cookies: [&str; 2]) -> String {
    let id = support::game_between(
        addr,
        cookies[0],
        cookies[1],
        &json!({"spec": "reversi", "color": "first", "rated": true,
                "time": {"live": {"initial": 600, "increment": 0}}}),
    )
    .await;
    let mut sockets = Vec::new();
    for c in cookies {
        let mut ws = socket(addr, Some(c)).await;
        send(&mut ws, json!({"t": "watch", "game": id})).await;
        recv_until(&mut ws, "sync").await;
        sockets.push(ws);
    }
    let registry = gridplay_games::registry();
    let mut record = GameRecord::new(registry.game("reversi").unwrap().start());
    let request = Request {
        level: Some(6),
        ..Request::default()
    };
    while record.outcome().is_none() {
        let side = record.position().turn().index();
        let mv = if side == 0 {
            gridplay_engine::think_game(&record, &request, &StopFlag::new())
                .expect("a move")
                .best
        } else {
            record.position().legal_moves()[0].clone()
        };
        let v = record.moves().len();
        let m = act(
            &mut sockets[side],
            json!({"t": "move", "game": id, "move": mv, "v": v}),
            &format!("m{v}"),
        )
        .await;
        assert_eq!(m["t"], "ack", "{mv}: {m}");
        record.play(&mv).unwrap();
    }
    id
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_like_player_is_queued_for_review_with_the_evidence() {
    for (url, pg) in support::databases("review").await {
        let mut cfg = support::config(&url);
        cfg.limits.review_seconds = 1;
        cfg.limits.review_min_games = 2;
        let server = gridplay_server::start(cfg).await.expect("server");
        let addr = server.addr;
        let db = server.state.db.clone();
        let (ann, ben, admin) = (
            signup(addr, "ann").await,
            signup(addr, "ben").await,
            signup(addr, "mod").await,
        );
        let m = db.standing("mod").await.unwrap().unwrap();
        db.moderate(&m.id, None, &Act::new(ModKind::Grant, "the first admin"))
            .await
            .unwrap();
        let r = http(addr, "GET", "/api/admin/review", Some(&admin), None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["players"], json!([]), "nothing reviewed yet");

        let games = [
            engine_against_first_legal(addr, [&ann, &ben]).await,
            engine_against_first_legal(addr, [&ann, &ben]).await,
        ];

        // The reviewer takes both games within some seconds (each is analysed once, in the analysis lane).
        let mut queue = Value::Null;
        for _ in 0..240 {
            let r = http(addr, "GET", "/api/admin/review", Some(&admin), None).await;
            assert_eq!(r.status, 200, "{}", r.body);
            queue = r.json();
            let recent = &queue["players"][0]["flagged"][0]["recent"];
            if recent.as_array().is_some_and(|g| g.len() == 2) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
        let players = queue["players"].as_array().expect("players");
        assert_eq!(players.len(), 1, "Ann alone is flagged: {queue}");
        assert_eq!(players[0]["name"], "ann");
        let p = &players[0]["flagged"][0];
        assert_eq!(p["game"], "reversi");
        assert_eq!(p["flagged"], true);
        let (agreement, accuracy) = (p["agreement"].as_f64().unwrap(), p["accuracy"].as_f64().unwrap());
        let rule = &p["rule"];
        assert!(
            agreement >= rule["agreement"].as_f64().unwrap()
                && accuracy >= rule["accuracy"].as_f64().unwrap(),
            "{p}"
        );
        assert_eq!(rule["min_games"], 2, "the server's --review-min-games");
        // The evidence: each game's figures, linked by id, with the move times of a game played over sockets.
        let ids: Vec<&str> = p["recent"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        assert!(games.iter().all(|g| ids.contains(&g.as_str())), "{p}");
        for g in p["recent"].as_array().unwrap() {
            assert!(g["counted"].as_i64().unwrap() > 10, "{g}");
            assert!(
                g["agreed"].as_i64().unwrap() <= g["counted"].as_i64().unwrap(),
                "{g}"
            );
            assert!(g["move_ms_median"].as_i64().is_some(), "{g}");
            assert_eq!(g["rated"], true);
        }

        // Ben's figures are on his account for the admins, unflagged; the replay shows the same agreement.
        let r = http(addr, "GET", "/api/admin/users/ben", Some(&admin), None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let ben_review = &r.json()["review"][0];
        assert_eq!(ben_review["games"], 2, "{ben_review}");
        assert_eq!(ben_review["flagged"], false, "{ben_review}");
        assert!(
            ben_review["agreement"].as_f64().unwrap() < agreement,
            "{ben_review} {p}"
        );
        let r = http(
            addr,
            "GET",
            &format!("/api/games/{}/analysis", games[0]),
            Some(&admin),
            None,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let sides = &r.json()["sides"];
        let in_queue = p["recent"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == json!(games[0]))
            .unwrap();
        assert_eq!(sides[0]["agreed"], in_queue["agreed"], "{sides}");
        assert_eq!(sides[0]["counted"], in_queue["counted"], "{sides}");

        // Only admins read the queue.
        let r = http(addr, "GET", "/api/admin/review", Some(&ben), None).await;
        assert_eq!(r.status, 403, "{}", r.body);
        let r = http(addr, "GET", "/api/admin/review", None, None).await;
        assert_eq!(r.status, 401, "{}", r.body);

        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
