//! Several servers on one database (issue 39, in part): two moves raced at the same version through two
//! servers give one commit and one clean `stale` answer, and the server whose copy was out of date loads the
//! game afresh. Runs on SQLite (two servers on one file) and, when configured, PostgreSQL.

mod support;

use gridplay_server::{
    db::GameRow,
    live::{Action, LiveError},
};
use support::{config, signup};

#[tokio::test]
async fn moves_raced_at_one_version_through_two_servers_commit_once_and_the_other_is_stale() {
    for (url, pg) in support::databases("race").await {
        let a = gridplay_server::start(config(&url)).await.expect("server A");
        let b = gridplay_server::start(config(&url)).await.expect("server B");
        signup(a.addr, "alice").await;
        signup(b.addr, "bob").await;
        let db = &a.state.db;
        let alice = db.user_named("alice").await.unwrap().expect("alice");
        let bob = db.user_named("bob").await.unwrap().expect("bob");
        let mut wins = [0; 2];
        for round in 0..100 {
            let game = GameRow::new(
                "reversi".into(),
                "reversi".into(),
                [Some(alice.clone()), Some(bob.clone())],
                [None, None],
            );
            db.create_game(&game).await.unwrap();
            let id = game.id.as_str();
            // Both servers hold the game at version 0.
            assert_eq!(a.state.hub.state(id).await.unwrap().version, 0);
            assert_eq!(b.state.hub.state(id).await.unwrap().version, 0);
            let (ra, rb) = tokio::join!(
                a.state
                    .hub
                    .act(id, &alice, Action::Move("d3".into()), None, Some(0)),
                b.state
                    .hub
                    .act(id, &alice, Action::Move("c4".into()), None, Some(0)),
            );
            let stale = Err(LiveError::Stale { version: 1 });
            match (&ra, &rb) {
                (Ok(1), r) if *r == stale => wins[0] += 1,
                (r, Ok(1)) if *r == stale => wins[1] += 1,
                _ => panic!("round {round}: {ra:?} and {rb:?}"),
            }
            let actions = db.actions(id).await.unwrap();
            assert_eq!(actions.len(), 1, "round {round}: one commit");
            // Each server now answers with the stored move: the one that lost loads the game afresh.
            let stored = actions[0].body.clone();
            for server in [&a, &b] {
                let s = server.state.hub.state(id).await.unwrap();
                assert_eq!(
                    (s.version, s.moves.clone()),
                    (1, vec![stored.clone()]),
                    "round {round}"
                );
            }
        }
        assert_eq!(wins[0] + wins[1], 100);
        a.stop().await;
        b.stop().await;
        support::drop_database(pg).await;
    }
}

/// On PostgreSQL the servers hear of each other through LISTEN/NOTIFY: a move committed through B reaches a
/// page watching the game on A (as the state of the new version), and a challenge made through B reaches a
/// page following the lobby on A.
#[tokio::test]
async fn a_move_and_a_challenge_through_one_server_reach_the_pages_of_another() {
    for (url, pg) in support::databases("bus").await {
        if pg.is_none() {
            continue;
        }
        let a = gridplay_server::start(config(&url)).await.expect("server A");
        let b = gridplay_server::start(config(&url)).await.expect("server B");
        let alice_cookie = signup(a.addr, "alice").await;
        let bob_cookie = signup(b.addr, "bob").await;
        let db = &a.state.db;
        let alice = db.user_named("alice").await.unwrap().expect("alice");
        let bob = db.user_named("bob").await.unwrap().expect("bob");
        let game = GameRow::new(
            "reversi".into(),
            "reversi".into(),
            [Some(alice.clone()), Some(bob.clone())],
            [None, None],
        );
        db.create_game(&game).await.unwrap();
        let mut page = support::socket(a.addr, Some(&alice_cookie)).await;
        support::send(&mut page, serde_json::json!({"t": "watch", "game": game.id})).await;
        let sync = support::recv_until(&mut page, "sync").await;
        assert_eq!(sync["state"]["version"], 0);
        support::send(&mut page, serde_json::json!({"t": "lobby"})).await;
        // Alice's move through server B (her other tab).
        assert_eq!(
            b.state
                .hub
                .act(&game.id, &alice, Action::Move("d3".into()), None, Some(0))
                .await,
            Ok(1)
        );
        let seen = loop {
            let m = support::recv(&mut page).await;
            if m["t"] == "sync" || m["t"] == "event" {
                break m;
            }
        };
        assert_eq!(seen["state"]["version"], 1, "{seen}");
        assert_eq!(seen["state"]["moves"], serde_json::json!(["d3"]));
        // A challenge made through B: the lobby page on A hears of it.
        let r = support::http(
            b.addr,
            "POST",
            "/api/challenges",
            Some(&bob_cookie),
            Some(r#"{"spec":"checkers","color":"first"}"#),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        support::recv_until(&mut page, "lobby").await;
        a.stop().await;
        b.stop().await;
        support::drop_database(pg).await;
    }
}
