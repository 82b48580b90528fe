//! Rolling upgrades across a migration. During one, servers of the build before run beside the new build on
//! the database it has migrated, and may be restarted there before their turn to be upgraded:
//! - every migration is one that the build before can run beside: it adds tables, columns (with a default
//!   where they may not be null) and indexes, and takes away or renames nothing that a query names;
//! - a build that knows fewer migrations starts on a database migrated further (a server restarted
//!   mid-upgrade), on SQLite and PostgreSQL, and reports itself ready.
//!
//! - two servers of the build before, on PostgreSQL with games in play, are upgraded one after the other (the
//!   first new server migrates the database while the other old one still serves): every acknowledged move
//!   is stored once, and every game takes moves through the new servers.
//!
//! One binary plays both builds (`Config::schema`, a `SchemaPlan`): for a database migrated further, the
//! build before is this build told to apply and expect its migrations but the last; for the upgrade of
//! servers in play, the build before is this build and the new build is this build with one more additive
//! migration (a rehearsal: a column and a table that no query reads), which it applies at its start while
//! a server of the build before still serves. A restart by SIGTERM of `gridplay serve` processes, with
//! moves in flight, is the rolling restart in `crates/cli/tests/takeover.rs`.

#[macro_use]
mod support;

use std::net::SocketAddr;

use gridplay_server::db::{Db, SchemaPlan, schema_versions};
use serde_json::json;
use support::{recv_until, send, signup};

/// Each statement of each migration, with what kind of change it is; the ones a build before could trip on
/// are refused.
#[test]
fn every_migration_is_one_the_build_before_runs_beside() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), schema_versions().len(), "one file a migration");
    let mut wrong = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let code: String = text
            .lines()
            .map(|l| l.split("--").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join(" ");
        for stmt in code
            .split(';')
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ").to_uppercase())
        {
            if stmt.is_empty() {
                continue;
            }
            let additive = stmt.starts_with("CREATE TABLE")
                || stmt.starts_with("CREATE INDEX")
                || stmt.starts_with("CREATE UNIQUE INDEX")
                // An index dropped slows a query at worst.
                || stmt.starts_with("DROP INDEX")
                // Sessions ended: their users sign in again.
                || stmt == "DELETE FROM SESSIONS"
                || (stmt.starts_with("ALTER TABLE")
                    && stmt.contains(" ADD COLUMN ")
                    && (!stmt.contains("NOT NULL") || stmt.contains(" DEFAULT ")));
            if !additive {
                wrong.push(format!("{}: {stmt}", f.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "changes a build before could trip on:\n{}",
        wrong.join("\n")
    );
}

on_both_databases! {
#[tokio::test]
async fn a_build_that_knows_fewer_migrations_starts_on_a_database_migrated_further() {
    let versions = schema_versions();
    let before = versions[versions.len() - 2];
    for (url, pg) in support::databases("upgrade").await {
        let new = Db::connect(&url, 1, 1).await.expect("the new build migrates");
        assert!(new.migrations_applied().await.unwrap());
        let plan = SchemaPlan {
            up_to: Some(before),
            rehearsal: None,
        };
        let old = Db::connect_with(&url, 1, 1, plan)
            .await
            .expect("the build before starts on the migrated database");
        assert!(
            old.migrations_applied().await.unwrap(),
            "and finds its own migrations applied"
        );
        drop((new, old));
        support::drop_database(pg).await;
    }
}
}

/// Plays the first legal move of the side to move in `game` through the server at `addr`, as that side's
/// page does; returns the move once acknowledged.
async fn play(addr: SocketAddr, cookies: &[String; 2], game: &str) -> String {
    let mut probe = support::socket(addr, None).await;
    send(&mut probe, json!({"t": "watch", "game": game})).await;
    let state = recv_until(&mut probe, "sync").await["state"].clone();
    let side = usize::from(state["view"]["turn"] == "second");
    let mv = state["view"]["moves"][0]["text"]
        .as_str()
        .expect("a move to play")
        .to_owned();
    let mut ws = support::socket(addr, Some(&cookies[side])).await;
    let v = state["version"].as_u64().unwrap();
    send(
        &mut ws,
        json!({"t": "move", "game": game, "move": mv, "ack": "m", "v": v}),
    )
    .await;
    let ack = recv_until(&mut ws, "ack").await;
    assert_eq!(
        (ack["ack"].as_str(), ack["v"].as_u64()),
        (Some("m"), Some(v + 1)),
        "{ack}"
    );
    mv
}

/// The new build's migration: additive, as every migration must be, and read by no query of either build.
const REHEARSAL: &str = "ALTER TABLE games ADD COLUMN rehearsal BIGINT NOT NULL DEFAULT 0;
CREATE TABLE rehearsal_notes (id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE INDEX rehearsal_notes_body ON rehearsal_notes (body);";

on_postgres! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_upgraded_in_turn_across_a_migration_keep_every_acknowledged_move_once() {
    for (url, pg) in support::databases("rolling_upgrade").await {
        let old = || support::config(&url);
        let new = || gridplay_server::Config {
            schema: SchemaPlan {
                up_to: None,
                rehearsal: Some(REHEARSAL),
            },
            ..support::config(&url)
        };
        let a = gridplay_server::start(old()).await.expect("old server A");
        let b = gridplay_server::start(old()).await.expect("old server B");
        let cookies = [signup(a.addr, "ann").await, signup(b.addr, "ben").await];
        let mut games = Vec::new();
        for _ in 0..3 {
            let g = support::game_between(
                a.addr,
                &cookies[0],
                &cookies[1],
                &json!({"spec": "reversi", "color": "first", "opponent": "ben"}),
            )
            .await;
            games.push((g, Vec::new()));
        }
        // Each game moves through both servers: two moves a game a phase.
        let phase = async |one: SocketAddr, two: SocketAddr, games: &mut Vec<(String, Vec<String>)>| {
            for (g, played) in games.iter_mut() {
                played.push(play(one, &cookies, g).await);
                played.push(play(two, &cookies, g).await);
            }
        };
        let schema = async || -> i64 {
            use sqlx::Connection;
            let mut c = sqlx::AnyConnection::connect(&url).await.unwrap();
            sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
                .fetch_one(&mut c)
                .await
                .unwrap()
        };
        let last = *schema_versions().last().unwrap();
        assert_eq!(
            schema().await,
            last,
            "the servers of the build before migrated so far"
        );
        phase(a.addr, b.addr, &mut games).await;
        // A is upgraded: the new build applies its migration while B, of the build before, serves on.
        a.stop().await;
        let a = gridplay_server::start(new()).await.expect("new server A");
        assert_eq!(schema().await, last + 1, "the new build's migration is applied");
        let ready = support::http(a.addr, "GET", "/readyz", None, None).await;
        assert_eq!(ready.status, 200, "{}", ready.body);
        phase(b.addr, a.addr, &mut games).await;
        // Then B.
        b.stop().await;
        let b = gridplay_server::start(new()).await.expect("new server B");
        phase(a.addr, b.addr, &mut games).await;
        // Every acknowledged move is stored once, in order.
        for (g, played) in &games {
            let stored: Vec<String> = a
                .state
                .db
                .actions(g)
                .await
                .unwrap()
                .into_iter()
                .map(|r| r.body)
                .collect();
            assert_eq!(&stored, played, "{g}");
        }
        a.stop().await;
        b.stop().await;
        support::drop_database(pg).await;
    }
}
}
