//! Shared by the CLI's tests of running servers: a `gridplay serve` child process, a tiny HTTP client, and a
//! player's page over the WebSocket.
#![allow(dead_code, unreachable_pub)]

use std::{
    collections::BTreeMap,
    io::{BufRead, BufReader, Read, Write},
    net::{SocketAddr, TcpStream},
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex, mpsc},
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use sqlx::Connection;
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest, http::HeaderValue};

/// A `gridplay serve` child process, the address it listens on, and the lines it has written to standard
/// error so far.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
    pub lines: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// `gridplay serve` on `database`: on PostgreSQL with two writers of game actions, on SQLite its one.
    pub fn start(database: &str) -> Server {
        Server::start_with(database, &[], "warn")
    }

    /// The same with more arguments for `serve` (an `--addr` of their own replaces a free port) and the
    /// `RUST_LOG` filter.
    pub fn start_with(database: &str, more: &[&str], log: &str) -> Server {
        let mut args = vec!["serve", "--database", database];
        if !more.contains(&"--addr") {
            args.extend(["--addr", "127.0.0.1:0"]);
        }
        if database.starts_with("postgres") {
            args.extend(["--db-writers", "2"]);
        }
        args.extend(more);
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridplay"))
            .args(args)
            .env("RUST_LOG", log)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("gridplay serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let kept = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("gridplay serves http://") {
                    let _ = tx.send(rest.split(' ').next().unwrap_or_default().to_owned());
                }
                eprintln!("[server] {line}");
                kept.lock().unwrap().push(line);
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the server says where it listens")
            .parse()
            .expect("an address");
        Server { child, addr, lines }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP request over a fresh connection: the status and the body as JSON.
pub fn http(
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

pub fn signup(addr: SocketAddr, name: &str) -> String {
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

/// Signs in (a player that `signup` made) and returns the session cookie.
pub fn signin(addr: SocketAddr, name: &str) -> String {
    let (status, body, cookie) = http(
        addr,
        "POST",
        "/api/signin",
        None,
        Some(&json!({"name": name, "password": format!("password-{name}")})),
    );
    assert_eq!(status, 200, "{body}");
    cookie
}

/// A game between the players of these cookies, the first to move, with a live clock of `seconds` each (or
/// none), challenged and accepted at `addr`.
pub fn game_between(
    addr: SocketAddr,
    first_cookie: &str,
    second_cookie: &str,
    second: &str,
    seconds: Option<u32>,
) -> String {
    let mut challenge = json!({"spec": "reversi", "color": "first", "opponent": second});
    if let Some(seconds) = seconds {
        challenge["time"] = json!({"live": {"initial": seconds, "increment": 0}});
    }
    let (status, body, _) = http(
        addr,
        "POST",
        "/api/challenges",
        Some(first_cookie),
        Some(&challenge),
    );
    assert_eq!(status, 200, "{body}");
    let challenge = body["id"].as_str().unwrap().to_owned();
    let (status, body, _) = http(
        addr,
        "POST",
        &format!("/api/challenges/{challenge}/accept"),
        Some(second_cookie),
        Some(&json!({})),
    );
    assert_eq!(status, 200, "{body}");
    body["game"].as_str().unwrap().to_owned()
}

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A player's page watching one game.
pub struct Page {
    pub ws: Ws,
    pub state: Value,
}

impl Page {
    pub async fn watch(addr: SocketAddr, cookie: &str, game: &str) -> Page {
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

    pub async fn next(&mut self) -> Value {
        self.try_next().await.expect("the socket is open")
    }

    /// The next message, or `None` once the socket is closed (its server gone).
    pub async fn try_next(&mut self) -> Option<Value> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("a message within 20 s")?
                .ok()?;
            if let Message::Text(t) = msg {
                let m: Value = serde_json::from_str(&t).expect("JSON");
                match m["t"].as_str() {
                    Some("sync") => self.state = m["state"].clone(),
                    Some("event") => gridplay_server::apply_delta(&mut self.state, &m["delta"]),
                    _ => {}
                }
                return Some(m);
            }
        }
    }

    pub fn version(&self) -> u64 {
        self.state["version"].as_u64().expect("a version")
    }

    pub async fn until_version(&mut self, v: u64) {
        assert!(self.try_until_version(v).await, "the socket is open");
    }

    /// Reads until the page shows version `v`; `false` if the socket closes first.
    pub async fn try_until_version(&mut self, v: u64) -> bool {
        while self.version() < v {
            if self.try_next().await.is_none() {
                return false;
            }
        }
        true
    }

    /// Plays the first legal move and waits for its ack: the move.
    pub async fn play(&mut self, game: &str) -> String {
        self.try_play(game).await.expect("the socket is open")
    }

    /// Plays the first legal move and waits for its ack and for the page to show it (an ack can come before
    /// the move's event, and a page that still shows its turn would play again): the move, or `None` if the
    /// socket closes first.
    pub async fn try_play(&mut self, game: &str) -> Option<String> {
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
            .ok()?;
        loop {
            let m = self.try_next().await?;
            if m["t"] == "ack" && m["ack"] == ack.as_str() {
                break;
            }
            assert_ne!(m["t"], "error", "move {mv} refused: {m}");
        }
        self.try_until_version(v + 1).await.then_some(mv)
    }
}

/// A new database on the PostgreSQL server that `GRIDPLAY_TEST_POSTGRES` names (by default the machine's
/// local server): a connection to that server, the new database's name and its address. The tests that call
/// it are ignored outside a run that has PostgreSQL (scripts/test runs them), and fail if it cannot connect.
pub async fn new_database(tag: &str) -> (sqlx::PgConnection, String, String) {
    let admin = std::env::var("GRIDPLAY_TEST_POSTGRES")
        .ok()
        .filter(|v| !v.is_empty() && v != "none")
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_owned());
    let name = format!("gridplay_{tag}_{}", std::process::id());
    let mut conn = sqlx::PgConnection::connect(&admin)
        .await
        .unwrap_or_else(|e| panic!("this test needs PostgreSQL at {admin} (GRIDPLAY_TEST_POSTGRES): {e}"));
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
    (conn, name, url)
}

pub async fn drop_database(mut conn: sqlx::PgConnection, name: &str) {
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
    )))
    .execute(&mut conn)
    .await
    .expect("drop the database");
}

/// The moves each game's pages saw acknowledged, by game: move `i` of a game is its version `i + 1`.
pub type Acked = Arc<Mutex<BTreeMap<String, Vec<String>>>>;

/// Games between Ann and Ben, each played by both players' pages, each side playing its first legal move as
/// soon as it is to move, until the server goes away or the game ends. The moves acknowledged go to `acked`.
pub async fn load(server: &Server, games: usize, acked: &Acked) -> Vec<tokio::task::JoinHandle<()>> {
    let (ann, ben) = (signup(server.addr, "ann"), signup(server.addr, "ben"));
    let mut tasks = Vec::new();
    for _ in 0..games {
        let game = game_between(server.addr, &ann, &ben, "ben", None);
        acked.lock().unwrap().insert(game.clone(), Vec::new());
        let mut pages = [
            Page::watch(server.addr, &ann, &game).await,
            Page::watch(server.addr, &ben, &game).await,
        ];
        let acked = acked.clone();
        tasks.push(tokio::spawn(async move {
            // Each acknowledged move is the next version: both pages see it before the next move is played.
            let mut v = 0;
            loop {
                let [p0, p1] = &mut pages;
                let (ok0, ok1) = tokio::join!(p0.try_until_version(v), p1.try_until_version(v));
                if !(ok0 && ok1 && pages[0].state["over"].is_null()) {
                    return;
                }
                let side = usize::from(pages[0].state["view"]["turn"] == "second");
                let Some(mv) = pages[side].try_play(&game).await else {
                    return;
                };
                acked.lock().unwrap().get_mut(&game).expect("a game").push(mv);
                v += 1;
            }
        }));
    }
    tasks
}

pub fn acked_count(acked: &Acked) -> usize {
    acked.lock().unwrap().values().map(Vec::len).sum()
}

/// Waits until the pages have had `n` moves acknowledged in all.
pub async fn until_acked(acked: &Acked, n: usize) {
    while acked_count(acked) < n {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Every move of `acked` is stored in its game at its place, once: the stored moves begin with them.
pub fn assert_stored(server: &Server, acked: &BTreeMap<String, Vec<String>>) {
    for (game, moves) in acked {
        let (status, state, _) = http(server.addr, "GET", &format!("/api/games/{game}"), None, None);
        assert_eq!(status, 200, "{state}");
        let stored: Vec<&str> = state["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            stored.len() >= moves.len() && stored[..moves.len()] == moves[..],
            "game {game}: acknowledged {moves:?}, stored {stored:?}"
        );
        assert_eq!(state["version"], stored.len(), "game {game}: one action a move");
    }
}
