//! Two `gridplay serve` processes on one PostgreSQL database; one is killed (SIGKILL) while its games have a
//! live clock running and an engine to move. The other takes both over: the engine's reply comes once, the
//! clock flags once, and every acknowledged move is stored exactly once. A server stopped gracefully hands
//! its running clocks over too, and a rolling restart of two servers loses no acknowledged move and leaves no
//! game stuck. Needs PostgreSQL (`GRIDPLAY_TEST_POSTGRES`, by default the machine's local server): ignored
//! outside a run that has it; scripts/test runs it.

mod support;

use std::{
    process::Command,
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use support::{
    Acked, Page, Server, assert_stored, drop_database, game_between, http, load, new_database, signup,
    until_acked,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: scripts/test runs it"]
async fn a_killed_server_s_clocks_and_engine_moves_are_taken_over_on_postgres() {
    let (conn, name, url) = new_database("takeover").await;
    let mut a = Server::start(&url);
    let b = Server::start(&url);
    let (alice, bob, carol) = (
        signup(a.addr, "alice"),
        signup(a.addr, "bob"),
        signup(a.addr, "carol"),
    );

    // On A: Carol against the engine (level 6, a live clock); Alice against Bob with a 4-second clock.
    let (status, body, _) = http(
        a.addr,
        "POST",
        "/api/computer",
        Some(&carol),
        Some(&json!({"spec": "reversi", "level": 6, "color": "first",
                     "time": {"live": {"initial": 300, "increment": 0}}})),
    );
    assert_eq!(status, 200, "{body}");
    let engine_game = body["game"].as_str().unwrap().to_owned();
    let clock_game = game_between(a.addr, &alice, &bob, "bob", Some(4));

    // Both players move, so that Alice's clock runs; then Carol moves, and the engine is to move.
    let mut acked = Vec::new();
    let mut alice_page = Page::watch(a.addr, &alice, &clock_game).await;
    let mut bob_page = Page::watch(a.addr, &bob, &clock_game).await;
    acked.push((clock_game.clone(), alice_page.play(&clock_game).await));
    bob_page.until_version(1).await;
    acked.push((clock_game.clone(), bob_page.play(&clock_game).await));
    let mut carol_page = Page::watch(a.addr, &carol, &engine_game).await;
    acked.push((engine_game.clone(), carol_page.play(&engine_game).await));
    carol_page.until_version(1).await;
    assert_eq!(carol_page.version(), 1, "the engine has not answered yet");

    a.child.kill().expect("kill -9");
    let killed = Instant::now();
    a.child.wait().expect("the killed server is gone");
    // Alice opens the game on B at once: a flag that falls while she has left would end it as left.
    let alice_on_b = Page::watch(b.addr, &alice, &clock_game).await;

    // B takes both games over: the engine answers once, and Alice's clock runs out once.
    let mut carol_page = Page::watch(b.addr, &carol, &engine_game).await;
    carol_page.until_version(2).await;
    let engine_after = killed.elapsed();
    let mut watcher = Page::watch(b.addr, &bob, &clock_game).await;
    while watcher.state["over"].is_null() {
        watcher.next().await;
    }
    let flag_after = killed.elapsed();
    eprintln!(
        "after the kill: the engine answered on B in {engine_after:?}, the clock flagged in {flag_after:?}"
    );
    assert_eq!(
        watcher.state["over"]["termination"], "timeout",
        "{}",
        watcher.state
    );
    // How soon is a report, not a test (the lease lasts 3 s and is swept every second): what matters is that
    // B answered and flagged at all, once each. Two more sweeps pass before the games are read, so that a
    // second answer or flag would be there to see.
    tokio::time::sleep(Duration::from_secs(2)).await;

    for (game, versions) in [(&engine_game, 2), (&clock_game, 3)] {
        let (status, state, _) = http(b.addr, "GET", &format!("/api/games/{game}"), None, None);
        assert_eq!(status, 200);
        assert_eq!(state["version"], versions, "{state}");
        let moves: Vec<&str> = state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let mine: Vec<&str> = acked
            .iter()
            .filter(|(g, _)| g == game)
            .map(|(_, m)| m.as_str())
            .collect();
        assert_eq!(
            &moves[..mine.len()],
            &mine[..],
            "every acknowledged move stored once, in order"
        );
    }
    drop((alice_on_b, b));
    drop_database(conn, &name).await;
}

/// A server stopped as an operator stops it (SIGINT, as Ctrl-C) gives its games' timed work up, and another
/// server that already holds a copy of the game takes it over at its next sweep: here a live clock that runs
/// out after the stop flags once, on B, which never heard of the game from a move after the stop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: scripts/test runs it"]
async fn a_stopped_server_s_clocks_are_taken_over_by_a_server_that_holds_the_game_on_postgres() {
    let (conn, name, url) = new_database("handover").await;
    let mut a = Server::start(&url);
    let b = Server::start(&url);
    let (alice, bob) = (signup(a.addr, "alice"), signup(a.addr, "bob"));
    let game = game_between(a.addr, &alice, &bob, "bob", Some(8));

    // Both moves through A, so that A holds the lease of Alice's running clock; then Bob watches on B too,
    // and B holds a copy of the game at its last version.
    let mut alice_page = Page::watch(a.addr, &alice, &game).await;
    let mut bob_page = Page::watch(a.addr, &bob, &game).await;
    let first = alice_page.play(&game).await;
    bob_page.until_version(1).await;
    let second = bob_page.play(&game).await;
    let mut watcher = Page::watch(b.addr, &bob, &game).await;
    assert_eq!(watcher.version(), 2);
    // Alice keeps a page open on B: a player whose flag falls while she has left loses by leaving, and
    // this test is about the clock.
    let alice_on_b = Page::watch(b.addr, &alice, &game).await;
    drop((alice_page, bob_page));

    // The shell's own `kill`, which needs no package.
    let stopped = Command::new("sh")
        .args(["-c", &format!("kill -INT {}", a.child.id())])
        .status()
        .expect("kill -INT");
    assert!(stopped.success());
    a.child.wait().expect("the stopped server exits");
    let stopped = Instant::now();

    // Alice's 8 seconds run out on B's watch.
    while watcher.state["over"].is_null() {
        watcher.next().await;
    }
    eprintln!(
        "after the stop: the clock flagged on B in {:?}",
        stopped.elapsed()
    );
    assert_eq!(
        watcher.state["over"]["termination"], "timeout",
        "{}",
        watcher.state
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (status, state, _) = http(b.addr, "GET", &format!("/api/games/{game}"), None, None);
    assert_eq!(status, 200);
    assert_eq!(state["version"], 3, "two moves and one flag: {state}");
    assert_eq!(state["moves"], json!([first, second]), "{state}");
    drop((alice_on_b, b));
    drop_database(conn, &name).await;
}

/// A rolling restart: two servers on one PostgreSQL database with games in play through the first; the first
/// is stopped (SIGTERM) and started again, then the second. Every acknowledged move is stored once, and every
/// game still in play takes its next move through the restarted server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: scripts/test runs it"]
async fn a_rolling_restart_loses_no_acknowledged_move_and_leaves_no_game_stuck_on_postgres() {
    let (conn, name, url) = new_database("rolling").await;
    let mut a = Server::start(&url);
    let mut b = Server::start(&url);
    let acked = Acked::default();
    let tasks = load(&a, 4, &acked).await;
    until_acked(&acked, 40).await;
    let stop = |server: &mut Server| {
        let done = Command::new("sh")
            .args(["-c", &format!("kill -TERM {}", server.child.id())])
            .status()
            .expect("kill -TERM");
        assert!(done.success());
        let status = server.child.wait().expect("the server exits");
        assert!(status.success(), "SIGTERM stops the server cleanly: {status}");
    };
    stop(&mut a);
    for t in tasks {
        t.await.expect("a page's task");
    }
    let acked = acked.lock().unwrap().clone();
    assert_stored(&b, &acked);
    let a = Server::start(&url);
    stop(&mut b);
    assert_stored(&a, &acked);
    // No game stuck: each game still in play takes the next move through the restarted server.
    let (ann, ben) = (support::signin(a.addr, "ann"), support::signin(a.addr, "ben"));
    for (game, moves) in &acked {
        let mut pages = [
            Page::watch(a.addr, &ann, game).await,
            Page::watch(a.addr, &ben, game).await,
        ];
        if !pages[0].state["over"].is_null() {
            continue;
        }
        let side = usize::from(pages[0].state["view"]["turn"] == "second");
        let version = pages[side].version();
        assert!(version as usize >= moves.len(), "{game}");
        pages[side].play(game).await;
        pages[1 - side].until_version(version + 1).await;
    }
    drop(a);
    drop_database(conn, &name).await;
}
