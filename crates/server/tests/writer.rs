//! The database writer's group commits: many games' actions at once, several of one game in a group, and one
//! action whose number is taken, on SQLite and (when configured) PostgreSQL.

#[macro_use]
mod support;

use gridplay_core::Player;
use gridplay_server::db::{
    ActionKind, ActionRow, Db, DbError, EndReason, GameRow, GameStatus, GameUpdate, RateJob, User, Winner,
};

fn action(seq: i64) -> ActionRow {
    ActionRow {
        seq,
        side: if seq % 2 == 1 {
            Player::First
        } else {
            Player::Second
        },
        kind: ActionKind::Move,
        body: format!("{{\"move\":\"m{seq}\"}}"),
        at: 1_000 + seq,
        clock: None,
    }
}

fn update(seq: i64) -> GameUpdate {
    GameUpdate {
        status: GameStatus::Active,
        turn: Some(if seq % 2 == 1 {
            Player::Second
        } else {
            Player::First
        }),
        winner: None,
        termination: None,
    }
}

/// A new Reversi game between two engine levels; its id.
async fn new_game(db: &Db) -> String {
    let g = GameRow::new(
        "reversi".into(),
        "reversi".into(),
        [None, None],
        [Some(1), Some(1)],
    );
    db.create_game(&g).await.unwrap();
    g.id
}

on_both_databases! {
#[tokio::test]
async fn concurrent_actions_of_many_games_are_each_stored_once_and_each_game_keeps_its_newest_version() {
    for (url, pg) in support::databases("writer").await {
        // PostgreSQL with three writers: a game's actions still go in order, each to its one writer.
        let writers = if pg.is_some() { 3 } else { 1 };
        let db = Db::connect(&url, 4, writers).await.unwrap();
        let mut ids = Vec::new();
        for _ in 0..150 {
            ids.push(new_game(&db).await);
        }
        // Every game's first three actions sent at once, the third before the second, so that the writer's
        // groups hold several actions of one game out of order.
        let mut tasks = tokio::task::JoinSet::new();
        for id in &ids {
            for seq in [1, 3, 2] {
                let (db, id) = (db.clone(), id.clone());
                tasks.spawn(async move {
                    db.append_action(&id, &action(seq), &update(seq), None, None, None)
                        .await
                });
            }
        }
        while let Some(r) = tasks.join_next().await {
            r.unwrap().unwrap_or_else(|e| panic!("{url}: {e}"));
        }
        assert_eq!(db.count_moves().await.unwrap(), 3 * ids.len() as u64, "{url}");
        for id in &ids {
            let g = db.game(id).await.unwrap().unwrap();
            assert_eq!(g.version, 3, "{url}: game {id}");
            assert_eq!(g.turn, Some(Player::Second), "{url}: game {id}");
            let seqs: Vec<i64> = db.actions(id).await.unwrap().iter().map(|a| a.seq).collect();
            assert_eq!(seqs, [1, 2, 3], "{url}: game {id}");
        }
        // A fourth action for every game but the first, sent at once with a taken number for the first: that
        // one is a conflict, and the others of its group are stored all the same.
        let mut tasks = tokio::task::JoinSet::new();
        for (i, id) in ids.iter().enumerate() {
            let (db, id) = (db.clone(), id.clone());
            let seq = if i == 0 { 2 } else { 4 };
            tasks.spawn(async move {
                (
                    i,
                    db.append_action(&id, &action(seq), &update(seq), None, None, None)
                        .await,
                )
            });
        }
        while let Some(r) = tasks.join_next().await {
            match r.unwrap() {
                (0, r) => assert!(
                    matches!(r, Err(DbError::Conflict)),
                    "{url}: a taken number: {r:?}"
                ),
                (_, r) => r.unwrap_or_else(|e| panic!("{url}: {e}")),
            }
        }
        assert_eq!(db.count_moves().await.unwrap(), 4 * ids.len() as u64 - 1, "{url}");
        assert_eq!(db.game(&ids[0]).await.unwrap().unwrap().version, 3, "{url}");
        assert_eq!(db.game(&ids[1]).await.unwrap().unwrap().version, 4, "{url}");
        let w = db.writer_counts();
        assert!(
            w.commits < w.actions,
            "{url}: actions were committed in groups ({w:?})"
        );
        drop(db);
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn after_an_idle_second_the_writer_writes_again_even_if_the_database_dropped_its_connection() {
    for (url, pg) in support::databases("writer_idle").await {
        let db = Db::connect(&url, 2, 1).await.unwrap();
        let id = new_game(&db).await;
        db.append_action(&id, &action(1), &update(1), None, None, None)
            .await
            .unwrap_or_else(|e| panic!("{url}: {e}"));
        if let Some(name) = &pg {
            // PostgreSQL ends every connection to the test database, the writer's among them.
            support::terminate_connections(name).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1_300)).await;
        db.append_action(&id, &action(2), &update(2), None, None, None)
            .await
            .unwrap_or_else(|e| panic!("{url}: after an idle second: {e}"));
        assert_eq!(db.game(&id).await.unwrap().unwrap().version, 2, "{url}");
        drop(db);
        support::drop_database(pg).await;
    }
}
}

on_postgres! {
#[tokio::test]
async fn on_postgresql_each_action_s_notice_is_sent_with_its_commit() {
    for (url, pg) in support::databases("writer_notices").await {
        let db = Db::connect(&url, 4, 1).await.unwrap();
        let mut listener = sqlx::postgres::PgListener::connect(&url).await.unwrap();
        listener.listen("gridplay").await.unwrap();
        let mut ids = Vec::new();
        for _ in 0..40 {
            ids.push(new_game(&db).await);
        }
        // Forty actions at once whose notices do not fit in one payload together, then one alone: every
        // notice arrives, once, and each only after its action is stored.
        let notice = |id: &str, seq: i64| format!("test game {id} {seq} {}", "x".repeat(400));
        let mut tasks = tokio::task::JoinSet::new();
        for id in &ids {
            let (db, id, n) = (db.clone(), id.clone(), notice(id, 1));
            tasks.spawn(async move {
                db.append_action(&id, &action(1), &update(1), None, None, Some(n))
                    .await
            });
        }
        while let Some(r) = tasks.join_next().await {
            r.unwrap().unwrap();
        }
        db.append_action(
            &ids[0],
            &action(2),
            &update(2),
            None,
            None,
            Some(notice(&ids[0], 2)),
        )
        .await
        .unwrap();
        let mut expected: Vec<String> = ids.iter().map(|id| notice(id, 1)).collect();
        expected.push(notice(&ids[0], 2));
        let mut heard = Vec::new();
        while heard.len() < expected.len() {
            let n = tokio::time::timeout(std::time::Duration::from_secs(10), listener.recv())
                .await
                .expect("every notice within 10 s")
                .unwrap();
            for line in n.payload().lines() {
                let seq: i64 = line.split(' ').nth(3).unwrap().parse().unwrap();
                let id = line.split(' ').nth(2).unwrap();
                let stored = db.actions(id).await.unwrap();
                assert!(
                    stored.iter().any(|a| a.seq == seq),
                    "{id} {seq} heard before it was stored"
                );
                heard.push(line.to_owned());
            }
        }
        heard.sort();
        expected.sort();
        assert_eq!(heard, expected);
        assert_eq!(db.game(&ids[0]).await.unwrap().unwrap().version, 2);
        drop(db);
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test]
async fn rated_games_of_one_pair_ending_at_once_through_several_writers_each_count_once() {
    for (url, pg) in support::databases("writer_ratings").await {
        // SQLite takes one writer; PostgreSQL gets four, whose transactions rate the same two players at once.
        let writers = if pg.is_some() { 4 } else { 1 };
        let db = Db::connect(&url, 4, writers).await.unwrap();
        let users: Vec<User> = (0..2)
            .map(|i| User {
                id: format!("rated{i}"),
                name: format!("rated{i}"),
                bot: false,
            })
            .collect();
        for u in &users {
            assert!(db.create_user(u, "-").await.unwrap(), "{url}");
        }
        let mut ids = Vec::new();
        for _ in 0..40 {
            let mut g = GameRow::new(
                "reversi".into(),
                "reversi".into(),
                [Some(users[0].clone()), Some(users[1].clone())],
                [None, None],
            );
            g.rated = true;
            db.create_game(&g).await.unwrap();
            ids.push(g.id);
        }
        let finished = GameUpdate {
            status: GameStatus::Finished,
            turn: None,
            winner: Some(Winner::First),
            termination: Some(EndReason::Resignation),
        };
        let mut tasks = tokio::task::JoinSet::new();
        for id in &ids {
            let (db, id, finished) = (db.clone(), id.clone(), finished.clone());
            let rate = RateJob {
                game: "reversi".into(),
                users: [users[0].id.clone(), users[1].id.clone()],
                first_score: 1.0,
            };
            tasks.spawn(async move {
                db.append_action(&id, &action(1), &finished, Some(rate), None, None)
                    .await
            });
        }
        while let Some(r) = tasks.join_next().await {
            r.unwrap().unwrap_or_else(|e| panic!("{url}: {e}"));
        }
        for u in &users {
            let r = db.rating(&u.id, "reversi").await.unwrap().unwrap();
            assert_eq!(r.games, 40, "{url}: {}'s rating counts every game once", u.name);
            let history = db.rating_history(&u.id, "reversi").await.unwrap();
            assert_eq!(history.len(), 40, "{url}: {}", u.name);
        }
        let winner = db.rating(&users[0].id, "reversi").await.unwrap().unwrap();
        let loser = db.rating(&users[1].id, "reversi").await.unwrap().unwrap();
        assert!(winner.rating > loser.rating, "{url}: {winner:?} {loser:?}");
        drop(db);
        support::drop_database(pg).await;
    }
}
}

/// The columns of `games` that an index covers, read from the schema the migrations made.
async fn indexed_game_columns(url: &str) -> Vec<String> {
    use sqlx::{Connection, Row};
    let mut conn = sqlx::AnyConnection::connect(url).await.unwrap();
    let sql = if url.starts_with("sqlite:") {
        "SELECT DISTINCT c.name AS name FROM pragma_index_list('games') AS l, pragma_index_info(l.name) AS c"
    } else {
        "SELECT DISTINCT a.attname::text AS name FROM pg_index i JOIN pg_attribute a \
         ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'games'::regclass"
    };
    let rows = sqlx::query(sql).fetch_all(&mut conn).await.unwrap();
    rows.iter().map(|r| r.get::<String, _>("name")).collect()
}

on_both_databases! {
#[tokio::test]
async fn a_move_s_update_of_its_game_changes_no_indexed_column() {
    // A move changes its game's version, turn and time of the last move. With none of them indexed,
    // PostgreSQL rewrites the row in place without touching an index (a heap-only update), and SQLite
    // rewrites no index entry: every move of every game pays for this.
    for (url, pg) in support::databases("writer_indexes").await {
        let db = Db::connect(&url, 2, 1).await.unwrap();
        let id = new_game(&db).await;
        db.append_action(&id, &action(1), &update(1), None, None, None)
            .await
            .unwrap();
        let indexed = indexed_game_columns(&url).await;
        // The schema was read: the primary key and the players' and status indexes are there.
        for column in ["id", "first_user", "status"] {
            assert!(
                indexed.iter().any(|c| c == column),
                "{url}: {column} not in {indexed:?}"
            );
        }
        for column in ["version", "turn", "updated_at"] {
            assert!(
                !indexed.iter().any(|c| c == column),
                "{url}: {column} is indexed: {indexed:?}"
            );
        }
        drop(db);
        support::drop_database(pg).await;
    }
}
}
