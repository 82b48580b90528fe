//! The game layer without HTTP: a hub on a database, with no router, socket or session. A game is played
//! through `GameHub::act`: every acknowledged action is stored before its answer, a watcher hears each as an
//! event in order, a stale or illegal action is refused with its reason and changes nothing, and the end of
//! the game is in the database. On SQLite and, when configured, PostgreSQL.

#[macro_use]
mod support;

use gridplay_server::game::codes::ErrorCode;
use gridplay_server::{
    bus::Bus,
    config::Limits,
    db::{Db, GameRow, GameStatus, User},
    game::{
        engine_pool::EnginePool,
        live::{Action, GameHub, LiveError},
        lobby::Lobby,
    },
};

on_both_databases! {
#[tokio::test]
async fn a_game_is_played_through_the_hub_alone() {
    for (url, pg) in support::databases("game_layer").await {
        let db = Db::connect(&url, 2, 1).await.expect("the database");
        let hub = GameHub::new(
            db.clone(),
            gridplay_games::registry(),
            EnginePool::new(1, 1),
            Lobby::default(),
            Bus::default(),
            Limits::lenient(),
            gridplay_server::tasks::Tasks::default(),
        );
        let [ann, ben] = ["ann", "ben"].map(|n| User {
            id: format!("{n}-id"),
            name: n.to_owned(),
            bot: false,
        });
        for u in [&ann, &ben] {
            assert!(db.create_user(u, "-").await.expect("a user"));
        }
        let row = GameRow::new(
            "reversi".into(),
            "reversi".into(),
            [Some(ann.clone()), Some(ben.clone())],
            [None, None],
        );
        db.create_game(&row).await.expect("a game");
        let id = row.id.clone();
        let mut watch = hub.watch(&id, None).await.expect("a watcher").feed;

        // Two moves, each stored before its answer, and heard in order.
        let v = hub
            .act(&id, &ann, Action::Move("d3".into()), Some("a1".into()), Some(0))
            .await;
        assert_eq!(v.expect("a legal move"), 1);
        assert_eq!(
            db.actions(&id).await.expect("actions").len(),
            1,
            "stored before the answer"
        );
        let v = hub
            .act(&id, &ben, Action::Move("c3".into()), Some("b1".into()), Some(1))
            .await;
        assert_eq!(v.expect("a legal move"), 2);
        for expected in [1, 2] {
            let event = watch.recv().await.expect("an event");
            assert_eq!(event.version, expected);
            assert!(event.json.contains(r#""t":"event""#), "{}", event.json);
        }

        // Refusals change nothing: out of turn, at an old version, an illegal move.
        let err = |r: Result<u64, LiveError>| r.expect_err("refused").code();
        assert_eq!(
            err(hub.act(&id, &ben, Action::Move("c4".into()), None, Some(2)).await),
            ErrorCode::NotYourTurn
        );
        assert_eq!(
            err(hub.act(&id, &ann, Action::Move("c4".into()), None, Some(1)).await),
            ErrorCode::Stale
        );
        assert_eq!(
            err(hub.act(&id, &ann, Action::Move("a1".into()), None, Some(2)).await),
            ErrorCode::Refused
        );
        let outsider = User {
            id: "cat-id".into(),
            name: "cat".into(),
            bot: false,
        };
        assert_eq!(
            err(hub.act(&id, &outsider, Action::Resign, None, None).await),
            ErrorCode::NotAPlayer
        );
        assert_eq!(db.actions(&id).await.expect("actions").len(), 2);
        // A resent action is answered again, not played twice.
        let again = hub
            .act(&id, &ben, Action::Move("c3".into()), Some("b1".into()), Some(1))
            .await;
        assert_eq!(again.expect("the same answer"), 2);

        // A resignation ends the game, in the database too.
        assert_eq!(
            hub.act(&id, &ben, Action::Resign, None, None)
                .await
                .expect("resigned"),
            3
        );
        let stored = db.game(&id).await.expect("the row").expect("the game");
        assert_eq!((stored.status, stored.version), (GameStatus::Finished, 3));
        let state = hub.state(&id).await.expect("the state");
        assert_eq!(
            state.over.as_ref().map(|o| o.text.as_str()),
            Some("Black wins by resignation.")
        );
        support::drop_database(pg).await;
    }
}
}
