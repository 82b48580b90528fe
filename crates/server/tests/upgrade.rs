//! Rolling upgrades across a migration. During one, servers of the build before run beside the new build on
//! the database it has migrated, and may be restarted there before their turn to be upgraded:
//! - every migration is one that the build before can run beside: it adds tables, columns (with a default
//!   where they may not be null) and indexes, and takes away or renames nothing that a query names;
//! - a build that knows fewer migrations starts on a database migrated further (a server restarted
//!   mid-upgrade), on SQLite and PostgreSQL, and reports itself ready.
//!
//! The game's side of a restart (every acknowledged move kept once, no game stuck) is the rolling restart in
//! `crates/cli/tests/takeover.rs`.

mod support;

use gridplay_server::db::{Db, schema_versions};

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

#[tokio::test]
async fn a_build_that_knows_fewer_migrations_starts_on_a_database_migrated_further() {
    let versions = schema_versions();
    let before = versions[versions.len() - 2];
    for (url, pg) in support::databases("upgrade").await {
        let new = Db::connect(&url, 1, 1).await.expect("the new build migrates");
        assert!(new.migrations_applied().await.unwrap());
        let old = Db::connect_up_to(&url, 1, 1, Some(before))
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
