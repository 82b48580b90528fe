//! Two `gridplay serve` processes on one PostgreSQL database; one is killed (SIGKILL) while its games have a
//! live clock running and an engine to move. The other takes both over: the engine's reply comes once, the
//! clock flags once, and every acknowledged move is stored exactly once. A server stopped gracefully hands
//! its running clocks over too. Runs where `GRIDPLAY_TEST_POSTGRES`
//! names a PostgreSQL server (`scripts/test` always sets it).

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::{SocketAddr, TcpStream},
    process::{Child, Command, Stdio},
    sync::mpsc,
    time::{Duration, Instant},
};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use sqlx::Connection;
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest, http::HeaderValue};

/// A `gridplay serve` child process and the address it listens on.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(database: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridplay"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--database",
                database,
                "--db-writers",
                "2",
            ])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("gridplay serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("gridplay serves http://") {
                    let _ = tx.send(rest.split(' ').next().unwrap_or_default().to_owned());
                }
                eprintln!("[server] {line}");
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the server says where it listens")
            .parse()
            .expect("an address");
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP request over a fresh connection: the status and the body as JSON.
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    req.push_str(&format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ));
    s.write_all(req.as_bytes()).expect("write");
    let mut raw = String::new();
    s.read_to_string(&mut raw).expect("read");
    let (head, body) = raw.split_once("\r\n\r\n").expect("a response");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: gp_session="))
        .map(|v| format!("gp_session={}", v.split(';').next().unwrap_or_default()))
        .unwrap_or_default();
    (status, serde_json::from_str(body).unwrap_or(Value::Null), cookie)
}

fn signup(addr: SocketAddr, name: &str) -> String {
    let (status, body, cookie) = http(
        addr,
        "POST",
        "/api/signup",
        None,
        Some(&json!({"name": name, "password": format!("password-{name}")})),
    );
    assert_eq!(status, 200, "{body}");
    cookie
}

/// A game between Alice (first) and Bob (signed in with these cookies) with a live clock of `seconds` each,
/// challenged and accepted at `addr`.
fn game_between(addr: SocketAddr, alice_cookie: &str, bob_cookie: &str, seconds: u32) -> String {
    let (status, body, _) = http(
        addr,
        "POST",
        "/api/challenges",
        Some(alice_cookie),
        Some(&json!({"spec": "reversi", "color": "first", "opponent": "bob",
                     "time": {"live": {"initial": seconds, "increment": 0}}})),
    );
    assert_eq!(status, 200, "{body}");
    let challenge = body["id"].as_str().unwrap().to_owned();
    let (status, body, _) = http(
        addr,
        "POST",
        &format!("/api/challenges/{challenge}/accept"),
        Some(bob_cookie),
        Some(&json!({})),
    );
    assert_eq!(status, 200, "{body}");
    body["game"].as_str().unwrap().to_owned()
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A player's page watching one game.
struct Page {
    ws: Ws,
    state: Value,
}

impl Page {
    async fn watch(addr: SocketAddr, cookie: &str, game: &str) -> Page {
        let mut req = format!("ws://{addr}/ws").into_client_request().expect("request");
        req.headers_mut()
            .insert("cookie", HeaderValue::from_str(cookie).expect("cookie"));
        let (mut ws, _) = tokio_tungstenite::connect_async(req).await.expect("websocket");
        ws.send(Message::Text(
            json!({"t": "watch", "game": game}).to_string().into(),
        ))
        .await
        .expect("send");
        let mut page = Page {
            ws,
            state: Value::Null,
        };
        while page.state.is_null() {
            page.next().await;
        }
        page
    }

    async fn next(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("a message within 20 s")
                .expect("the socket is open")
                .expect("a frame");
            if let Message::Text(t) = msg {
                let m: Value = serde_json::from_str(&t).expect("JSON");
                match m["t"].as_str() {
                    Some("sync") => self.state = m["state"].clone(),
                    Some("event") => gridplay_server::apply_delta(&mut self.state, &m["delta"]),
                    _ => {}
                }
                return m;
            }
        }
    }

    fn version(&self) -> u64 {
        self.state["version"].as_u64().expect("a version")
    }

    async fn until_version(&mut self, v: u64) {
        while self.version() < v {
            self.next().await;
        }
    }

    /// Plays the first legal move and waits for its ack: the move.
    async fn play(&mut self, game: &str) -> String {
        let mv = self.state["view"]["moves"][0]["text"]
            .as_str()
            .expect("a legal move")
            .to_owned();
        let v = self.version();
        let ack = format!("a{v}");
        self.ws
            .send(Message::Text(
                json!({"t": "move", "game": game, "move": mv, "ack": ack, "v": v})
                    .to_string()
                    .into(),
            ))
            .await
            .expect("send");
        loop {
            let m = self.next().await;
            if m["t"] == "ack" && m["ack"] == ack.as_str() {
                return mv;
            }
            assert_ne!(m["t"], "error", "move {mv} refused: {m}");
        }
    }
}

/// A new database on the PostgreSQL server that `GRIDPLAY_TEST_POSTGRES` names: a connection to that server,
/// the new database's name and its address; `None` where the variable is not set.
async fn new_database(tag: &str) -> Option<(sqlx::PgConnection, String, String)> {
    let Ok(admin) = std::env::var("GRIDPLAY_TEST_POSTGRES") else {
        eprintln!("GRIDPLAY_TEST_POSTGRES is not set: skipped");
        return None;
    };
    let name = format!("gridplay_{tag}_{}", std::process::id());
    let mut conn = sqlx::PgConnection::connect(&admin).await.expect("PostgreSQL");
    for sql in [
        format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        format!("CREATE DATABASE {name}"),
    ] {
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
            .execute(&mut conn)
            .await
            .expect("create the database");
    }
    let url = format!(
        "{}/{name}",
        admin.rsplit_once('/').map_or(admin.as_str(), |(b, _)| b)
    );
    Some((conn, name, url))
}

async fn drop_database(mut conn: sqlx::PgConnection, name: &str) {
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
    )))
    .execute(&mut conn)
    .await
    .expect("drop the database");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_s_clocks_and_engine_moves_are_taken_over() {
    let Some((conn, name, url)) = new_database("takeover").await else {
        return;
    };
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
    let clock_game = game_between(a.addr, &alice, &bob, 4);

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
    // The lease lasts 3 s and is swept every second; the engine at level 6 thinks 0.3 s.
    assert!(
        engine_after < Duration::from_secs(6),
        "the engine's move came {engine_after:?} after the kill"
    );
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
    drop(b);
    drop_database(conn, &name).await;
}

/// A server stopped as an operator stops it (SIGINT, as Ctrl-C) gives its games' timed work up, and another
/// server that already holds a copy of the game takes it over at its next sweep: here a live clock that runs
/// out after the stop flags once, on B, which never heard of the game from a move after the stop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_server_s_clocks_are_taken_over_by_a_server_that_holds_the_game() {
    let Some((conn, name, url)) = new_database("handover").await else {
        return;
    };
    let mut a = Server::start(&url);
    let b = Server::start(&url);
    let (alice, bob) = (signup(a.addr, "alice"), signup(a.addr, "bob"));
    let game = game_between(a.addr, &alice, &bob, 8);

    // Both moves through A, so that A holds the lease of Alice's running clock; then Bob watches on B too,
    // and B holds a copy of the game at its last version.
    let mut alice_page = Page::watch(a.addr, &alice, &game).await;
    let mut bob_page = Page::watch(a.addr, &bob, &game).await;
    let first = alice_page.play(&game).await;
    bob_page.until_version(1).await;
    let second = bob_page.play(&game).await;
    let mut watcher = Page::watch(b.addr, &bob, &game).await;
    assert_eq!(watcher.version(), 2);
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
    drop(b);
    drop_database(conn, &name).await;
}
