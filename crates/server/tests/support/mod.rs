//! Shared by the server's tests: databases for both backends, a tiny HTTP client and a WebSocket client.
#![allow(dead_code, unreachable_pub, unused_macros)]

pub mod app;
pub mod contract;

use std::{
    net::{IpAddr, SocketAddr},
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use gridplay_server::Config;
use serde_json::Value;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use tokio_tungstenite::{
    MaybeTlsStream, WebSocketStream, connect_async,
    tungstenite::{Message, client::IntoClientRequest, http::HeaderValue},
};

/// A test of both databases, as two tests: `NAME::sqlite`, and `NAME::postgres`, which is ignored outside a
/// run that has PostgreSQL (scripts/test runs it with `--include-ignored`), so that a test left out shows as
/// ignored, never as passed. The body reads its database from [`databases`].
macro_rules! on_both_databases {
    ($(#[$attr:meta])* async fn $name:ident() $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            $(#[$attr])*
            async fn sqlite() {
                crate::support::BACKEND.scope(crate::support::Backend::Sqlite, async $body).await
            }
            $(#[$attr])*
            #[ignore = "needs PostgreSQL: scripts/test runs it"]
            async fn postgres() {
                crate::support::BACKEND.scope(crate::support::Backend::Postgres, async $body).await
            }
        }
    };
}

/// A test that needs PostgreSQL (several servers that hear each other), as `NAME::postgres`, ignored outside
/// a run that has it.
macro_rules! on_postgres {
    ($(#[$attr:meta])* async fn $name:ident() $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            $(#[$attr])*
            #[ignore = "needs PostgreSQL: scripts/test runs it"]
            async fn postgres() {
                crate::support::BACKEND.scope(crate::support::Backend::Postgres, async $body).await
            }
        }
    };
}

/// The database a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

tokio::task_local! {
    /// The database of the test running ([`on_both_databases`], [`on_postgres`]).
    pub static BACKEND: Backend;
}

/// The PostgreSQL server the tests use: `GRIDPLAY_TEST_POSTGRES`, or the machine's local server. A test on
/// PostgreSQL runs only when asked for (it is ignored otherwise), and fails if it cannot connect.
pub fn postgres_admin() -> String {
    std::env::var("GRIDPLAY_TEST_POSTGRES")
        .ok()
        .filter(|v| !v.is_empty() && v != "none")
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

/// The database address of the running test ([`BACKEND`]), as a one-item list: a fresh SQLite file, or a
/// fresh database on the PostgreSQL server that [`postgres_admin`] names. The second value names the
/// PostgreSQL database, for [`drop_database`].
pub async fn databases(tag: &str) -> Vec<(String, Option<String>)> {
    let backend = BACKEND
        .try_with(|b| *b)
        .expect("a test of a database is declared with on_both_databases! or on_postgres!");
    vec![database(backend, tag).await]
}

/// A fresh database on `backend`, with the name of a PostgreSQL one (for [`drop_database`]).
pub async fn database(backend: Backend, tag: &str) -> (String, Option<String>) {
    match backend {
        Backend::Sqlite => {
            let dir = std::env::temp_dir().join(format!("gridplay-test-{}-{tag}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            (format!("sqlite://{}/db.sqlite", dir.display()), None)
        }
        Backend::Postgres => {
            let admin = postgres_admin();
            let name = format!("gridplay_{}_{tag}", std::process::id()).to_lowercase();
            let mut conn = sqlx_pg(&admin).await;
            exec(&mut conn, &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await;
            exec(&mut conn, &format!("CREATE DATABASE {name}")).await;
            let base = admin
                .rsplit_once('/')
                .map_or(admin.as_str(), |(b, _)| b)
                .to_owned();
            (format!("{base}/{name}"), Some(name))
        }
    }
}

async fn sqlx_pg(url: &str) -> sqlx::AnyConnection {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    sqlx::AnyConnection::connect(url).await.unwrap_or_else(|e| {
        panic!("this test needs PostgreSQL at {url} (GRIDPLAY_TEST_POSTGRES) and cannot connect: {e}")
    })
}

async fn exec(conn: &mut sqlx::AnyConnection, sql: &str) {
    use sqlx::Executor;
    conn.execute(sqlx::AssertSqlSafe(sql.to_owned()))
        .await
        .expect(sql);
}

/// Drops a PostgreSQL test database made by [`databases`].
pub async fn drop_database(name: Option<String>) {
    if let Some(name) = name {
        let mut conn = sqlx_pg(&postgres_admin()).await;
        exec(&mut conn, &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await;
    }
}

/// Ends every connection to the test database `name` (as a database restart would).
pub async fn terminate_connections(name: &str) {
    let mut conn = sqlx_pg(&postgres_admin()).await;
    exec(
        &mut conn,
        &format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        ),
    )
    .await;
}

pub fn config(database: &str) -> Config {
    Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        database: database.to_owned(),
        auth_per_minute: 1000,
        ws_per_second: 1000,
        ws_burst: 1000,
        limits: gridplay_server::config::Limits::lenient(),
        // On PostgreSQL, several writers of game actions (the default on a machine of 12 cores or more), so
        // that every test of a game runs through them on any machine.
        db_writers: database.starts_with("postgres").then_some(3),
        ..Config::default()
    }
}

/// An HTTP/1.1 response: status, headers (lower-case names) and body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// The session cookie the response sets, as `name=value`.
    pub fn cookie(&self) -> Option<String> {
        self.headers
            .iter()
            .find(|(k, v)| k == "set-cookie" && v.starts_with("gp_session="))
            .map(|(_, v)| v.split(';').next().unwrap_or_default().to_owned())
    }
}

/// Sends one request over a fresh connection.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
) -> Response {
    http_with(addr, method, path, cookie, body, &[]).await
}

/// A signed-in `POST` of a JSON body.
pub async fn post(addr: SocketAddr, path: &str, cookie: &str, body: Value) -> Response {
    http(addr, "POST", path, Some(cookie), Some(&body.to_string())).await
}

/// A request with a personal API token (`Authorization: Bearer`) instead of a cookie.
pub async fn with_token(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> Response {
    let auth = format!("Bearer {token}");
    let body = body.map(|b| b.to_string());
    http_with(
        addr,
        method,
        path,
        None,
        body.as_deref(),
        &[("Authorization", &auth)],
    )
    .await
}

/// A refusal's status and error code.
pub fn error_code(r: &Response) -> (u16, String) {
    (
        r.status,
        r.json()["error"]["code"].as_str().unwrap_or("").to_owned(),
    )
}

/// `http` with more headers: `(name, value)`.
pub async fn http_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
    more: &[(&str, &str)],
) -> Response {
    http_from(LOOPBACK, addr, method, path, cookie, body, more).await
}

/// The address the tests' requests come from unless one names another.
pub const LOOPBACK: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

/// [`http_with`] from the loopback address `from` (127.0.0.2 is another address than 127.0.0.1, as another
/// household is).
pub async fn http_from(
    from: IpAddr,
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
    more: &[(&str, &str)],
) -> Response {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(SocketAddr::new(from, 0))
        .expect("bind the source address");
    let mut s = socket.connect(addr).await.expect("connect");
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in more {
        req.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(body.unwrap_or(""));
    s.write_all(req.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.expect("read");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .expect("status");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { dechunk(body) } else { body.to_owned() };
    if let Ok(v) = serde_json::from_str::<Value>(&body) {
        contract::check(method, path, status, &v);
    }
    Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

/// Signs up and returns the session cookie.
pub async fn signup(addr: SocketAddr, name: &str) -> String {
    let r = http(
        addr,
        "POST",
        "/api/signup",
        None,
        Some(&format!(r#"{{"name":"{name}","password":"password-{name}"}}"#)),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.cookie().expect("a session cookie")
}

/// A game against the engine (`body` as `/api/computer` takes it) for the user of `cookie`: its id.
pub async fn computer_game(addr: SocketAddr, cookie: &str, body: &str) -> String {
    let r = http(addr, "POST", "/api/computer", Some(cookie), Some(body)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["game"].as_str().expect("the game's id").to_owned()
}

/// A challenge (`body` as `/api/challenges` takes it) made by the user of cookie `a` and accepted by `b`'s:
/// the new game's id.
pub async fn game_between(addr: SocketAddr, a: &str, b: &str, body: &Value) -> String {
    let r = http(addr, "POST", "/api/challenges", Some(a), Some(&body.to_string())).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_owned();
    let r = http(
        addr,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        Some(b),
        Some("{}"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["game"].as_str().unwrap().to_owned()
}

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens the WebSocket with a cookie (or none) and reads the hello.
pub async fn socket(addr: SocketAddr, cookie: Option<&str>) -> Socket {
    let mut req = format!("ws://{addr}/ws").into_client_request().expect("request");
    if let Some(c) = cookie {
        req.headers_mut()
            .insert("cookie", HeaderValue::from_str(c).expect("cookie"));
    }
    let (mut ws, _) = connect_async(req).await.expect("websocket");
    let hello = recv(&mut ws).await;
    assert_eq!(hello["t"], "hello");
    ws
}

pub async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.expect("send");
}

/// The next JSON message, within 10 seconds.
pub async fn recv(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("a frame");
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).expect("JSON");
        }
    }
}

/// Watches game `id` with a new socket of `cookie`'s user and sends it `msg` with the acknowledgement id `ack`
/// (a move carries the version the watch gave): the answer, the acknowledgement or the error.
pub async fn act_in(addr: SocketAddr, cookie: &str, id: &str, mut msg: Value, ack: &str) -> Value {
    let mut ws = socket(addr, Some(cookie)).await;
    send(&mut ws, serde_json::json!({"t": "watch", "game": id})).await;
    let sync = recv_until(&mut ws, "sync").await;
    msg["game"] = serde_json::json!(id);
    if msg["t"] == "move" {
        msg["v"] = sync["state"]["version"].clone();
    }
    act(&mut ws, msg, ack).await
}

/// Plays `moves` in game `id`, the players of `cookies` in turn from the first, each acknowledged. Each move
/// has an ack id of its own (`m0`, `m1`...): the actor takes a repeated one for a resend.
pub async fn play_moves(addr: SocketAddr, id: &str, cookies: [&str; 2], moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let msg = serde_json::json!({"t": "move", "move": mv});
        let m = act_in(addr, cookies[i % 2], id, msg, &format!("m{i}")).await;
        assert_eq!(m["t"], "ack", "{mv}: {m}");
    }
}

/// Sends a game action over a page's socket with the acknowledgement id `ack` and waits for its answer: the
/// acknowledgement or the error.
pub async fn act(ws: &mut Socket, mut msg: Value, ack: &str) -> Value {
    msg["ack"] = serde_json::json!(ack);
    send(ws, msg).await;
    loop {
        let m = recv(ws).await;
        if (m["t"] == "ack" || m["t"] == "error") && m["ack"] == serde_json::json!(ack) {
            return m;
        }
    }
}

/// Reads messages until one of type `t` (skipping others); returns it.
pub async fn recv_until(ws: &mut Socket, t: &str) -> Value {
    loop {
        let m = recv(ws).await;
        if m["t"] == t {
            return m;
        }
    }
}

/// An NDJSON answer read line by line as it comes (the bot API's streams), each line checked against the
/// OpenAPI document's schema for its route.
pub struct LineStream {
    reader: tokio::io::BufReader<TcpStream>,
    method: &'static str,
    path: String,
    lines: std::collections::VecDeque<Value>,
    partial: String,
    ended: bool,
}

impl LineStream {
    /// Opens `GET path` with `Authorization: Bearer token`: the stream, or the refusal's status and body.
    pub async fn open(addr: SocketAddr, path: &str, token: &str) -> Result<LineStream, (u16, String)> {
        LineStream::request(addr, "GET", path, token, None).await
    }

    /// Opens `POST path` with a JSON body and `Authorization: Bearer token`, as [`LineStream::open`].
    pub async fn post(
        addr: SocketAddr,
        path: &str,
        token: &str,
        body: &Value,
    ) -> Result<LineStream, (u16, String)> {
        LineStream::request(addr, "POST", path, token, Some(body.to_string())).await
    }

    async fn request(
        addr: SocketAddr,
        method: &'static str,
        path: &str,
        token: &str,
        body: Option<String>,
    ) -> Result<LineStream, (u16, String)> {
        use tokio::io::AsyncBufReadExt;
        let mut s = TcpStream::connect(addr).await.expect("connect");
        let content = body.as_ref().map_or(String::new(), |b| {
            format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                b.len()
            )
        });
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nAccept-Encoding: gzip, br\r\n{content}\r\n{}",
            body.as_deref().unwrap_or("")
        );
        s.write_all(req.as_bytes()).await.expect("write");
        let mut reader = tokio::io::BufReader::new(s);
        let mut status_line = String::new();
        reader.read_line(&mut status_line).await.expect("status");
        let status: u16 = status_line
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("status");
        let mut headers = Vec::new();
        loop {
            let mut l = String::new();
            reader.read_line(&mut l).await.expect("header");
            if l.trim().is_empty() {
                break;
            }
            headers.push(l.trim().to_lowercase());
        }
        let stream = LineStream {
            reader,
            method,
            path: path.to_owned(),
            lines: Default::default(),
            partial: String::new(),
            ended: false,
        };
        if status != 200 {
            // The refusal again, uncompressed and checked against the document.
            let auth = format!("Bearer {token}");
            let r = http_with(
                addr,
                method,
                path,
                None,
                body.as_deref(),
                &[("Authorization", &auth)],
            )
            .await;
            return Err((r.status, r.body));
        }
        assert!(
            headers.iter().any(|h| h == "content-type: application/x-ndjson"),
            "{headers:?}"
        );
        assert!(
            !headers.iter().any(|h| h.starts_with("content-encoding")),
            "a stream goes out uncompressed: {headers:?}"
        );
        Ok(stream)
    }

    /// The next piece of the chunked body, or `None` at its end.
    async fn chunk(&mut self) -> Option<String> {
        use tokio::io::AsyncBufReadExt;
        let mut size = String::new();
        if self.reader.read_line(&mut size).await.ok()? == 0 {
            return None;
        }
        let n = usize::from_str_radix(size.trim(), 16).ok()?;
        if n == 0 {
            return None;
        }
        let mut data = vec![0; n + 2];
        self.reader.read_exact(&mut data).await.ok()?;
        data.truncate(n);
        Some(String::from_utf8(data).expect("UTF-8"))
    }

    /// The next line, within 15 s, skipping the empty lines that keep the stream alive; `None` once the
    /// stream has ended.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(v) = self.lines.pop_front() {
                return Some(v);
            }
            if self.ended {
                return None;
            }
            match tokio::time::timeout(Duration::from_secs(15), self.chunk())
                .await
                .expect("a line within 15 s")
            {
                None => self.ended = true,
                Some(text) => {
                    self.partial.push_str(&text);
                    while let Some((line, rest)) = self.partial.split_once('\n') {
                        let line = line.trim().to_owned();
                        self.partial = rest.to_owned();
                        if !line.is_empty() {
                            let v: Value = serde_json::from_str(&line).expect("a JSON line");
                            contract::check(self.method, &self.path, 200, &v);
                            self.lines.push_back(v);
                        }
                    }
                }
            }
        }
    }

    /// Reads lines until one with `"t": t` (skipping others); panics if the stream ends first.
    pub async fn until(&mut self, t: &str) -> Value {
        loop {
            let v = self
                .next()
                .await
                .unwrap_or_else(|| panic!("the stream ended before a `{t}` line"));
            if v["t"] == t {
                return v;
            }
        }
    }
}
