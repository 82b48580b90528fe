//! A `gridplay serve` on SQLite, its database written by games played as fast as the players' pages can:
//! - copied by `gridplay backup` while it runs, the copy has every move acknowledged before the backup began,
//!   and `gridplay restore` puts it back once the server is stopped (not before), keeping the file replaced;
//! - killed (SIGKILL) and started again on the same file, it has every move it acknowledged, once each;
//! - its files copied while it is frozen (SIGSTOP: the files as a power cut would leave them), at several
//!   moments, each copy opens with every move acknowledged before its freeze.

mod support;

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use support::{Acked, Server, acked_count, assert_stored, load, until_acked};

fn signal(server: &Server, name: &str) {
    let done = Command::new("sh")
        .args(["-c", &format!("kill -{name} {}", server.child.id())])
        .status()
        .expect("kill");
    assert!(done.success(), "kill -{name}");
}

fn database(dir: &Path) -> String {
    format!("sqlite://{}/gridplay.db", dir.display())
}

/// A new empty folder of this test's own, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(tag: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!("gridplay-crash-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        Folder(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_under_load_keeps_every_acknowledged_move() {
    let dir = Folder::new("kill");
    let url = database(dir.path());
    let mut server = Server::start(&url);
    let acked = Acked::default();
    let tasks = load(&server, 6, &acked).await;
    until_acked(&acked, 120).await;
    server.child.kill().expect("kill -9");
    server.child.wait().expect("the killed server is gone");
    for t in tasks {
        t.await.expect("a page's task");
    }
    let acked = acked.lock().unwrap().clone();
    eprintln!(
        "{} moves acknowledged before the kill",
        acked.values().map(Vec::len).sum::<usize>()
    );
    let server = Server::start(&url);
    assert_stored(&server, &acked);
}

/// How many times the copy test freezes the server and copies its files.
const COPIES: usize = 8;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copy_of_the_files_taken_mid_write_has_every_move_acknowledged_before_it() {
    let dir = Folder::new("cut");
    let url = database(dir.path());
    let server = Server::start(&url);
    let acked = Acked::default();
    let tasks = load(&server, 6, &acked).await;
    let mut copies = Vec::new();
    for i in 0..COPIES {
        until_acked(&acked, 40 + 15 * i).await;
        // Frozen mid-write, the server sends nothing more: every ack that reaches a page from now on was sent
        // before the freeze, so its move must be in the files. The pages read what is on the way, then the
        // acknowledged moves are counted and the files copied.
        signal(&server, "STOP");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let before = acked.lock().unwrap().clone();
        let copy = Folder::new(&format!("copy{i}"));
        for file in ["gridplay.db", "gridplay.db-wal"] {
            let from = dir.path().join(file);
            if from.exists() {
                std::fs::copy(&from, copy.path().join(file)).expect("copy");
            }
        }
        signal(&server, "CONT");
        copies.push((copy, before));
    }
    drop(server);
    for t in tasks {
        t.await.expect("a page's task");
    }
    for (copy, before) in &copies {
        eprintln!(
            "a copy after {} acknowledged moves",
            before.values().map(Vec::len).sum::<usize>()
        );
        let server = Server::start(&database(copy.path()));
        assert_stored(&server, before);
    }
}

/// `gridplay` with these arguments: whether it succeeded, and what it wrote to standard error.
fn gridplay(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gridplay"))
        .args(args)
        .output()
        .expect("gridplay runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_load_has_every_move_acknowledged_before_it_and_restores_once_no_server_runs() {
    let dir = Folder::new("backup");
    let url = database(dir.path());
    let server = Server::start(&url);
    let acked = Acked::default();
    let tasks = load(&server, 6, &acked).await;
    until_acked(&acked, 60).await;
    // The moves acknowledged before the backup begins; the games go on while it copies.
    let before = acked.lock().unwrap().clone();
    let copy = dir.path().join("copy.db");
    let copy = copy.to_str().expect("a path");
    let (ok, err) = gridplay(&["backup", "--database", &url, "--to", copy]);
    assert!(ok, "{err}");
    let (ok, err) = gridplay(&["backup", "--database", &url, "--to", copy]);
    assert!(
        !ok && err.contains("exists already"),
        "a second copy onto the first: {err}"
    );
    // No restore while the server has the database open.
    let (ok, err) = gridplay(&["restore", copy, "--database", &url]);
    assert!(!ok && err.contains("stop it first"), "{err}");
    until_acked(&acked, acked_count(&acked) + 20).await;
    drop(server);
    for t in tasks {
        t.await.expect("a page's task");
    }
    let all = acked.lock().unwrap().clone();
    let (ok, err) = gridplay(&["restore", copy, "--database", &url]);
    assert!(ok, "{err}");
    assert!(err.contains("is kept as"), "{err}");
    let server = Server::start(&url);
    assert_stored(&server, &before);
    // The database replaced is kept: it has every move, those after the backup too.
    let kept = std::fs::read_dir(dir.path())
        .expect("the folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            let name = p.to_string_lossy();
            name.contains("gridplay.db.replaced-") && !name.ends_with("-wal") && !name.ends_with("-shm")
        })
        .expect("the replaced database");
    drop(server);
    let server = Server::start(&database_file(&kept));
    assert_stored(&server, &all);
}

fn database_file(file: &Path) -> String {
    format!("sqlite://{}", file.display())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_a_server_under_load_as_ctrl_c_does_keeping_every_acknowledged_move() {
    let dir = Folder::new("term");
    let url = database(dir.path());
    let mut server = Server::start(&url);
    let acked = Acked::default();
    let tasks = load(&server, 6, &acked).await;
    until_acked(&acked, 60).await;
    signal(&server, "TERM");
    let status = server.child.wait().expect("the server exits");
    assert!(status.success(), "SIGTERM ends the server cleanly: {status}");
    for t in tasks {
        t.await.expect("a page's task");
    }
    let acked = acked.lock().unwrap().clone();
    let server = Server::start(&url);
    assert_stored(&server, &acked);
}
