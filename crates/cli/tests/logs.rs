//! `gridplay serve --log-format json`: every log line is a JSON object; a request's lines carry its id (the
//! client's `X-Request-Id`, answered back), and a game's lines carry the game's id.

mod support;

use std::{
    io::{Read, Write},
    net::TcpStream,
    time::{Duration, Instant},
};

use futures_util::SinkExt;
use serde_json::{Value, json};
use support::{Page, Server, game_between, signup};
use tokio_tungstenite::tungstenite::Message;

/// The server's JSON lines so far, once one satisfies `found` (a minute at most, a guard against a hang).
async fn lines_until(server: &Server, found: impl Fn(&Value) -> bool) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let lines: Vec<Value> = server
            .lines
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
            .collect();
        if lines.iter().any(&found) {
            return lines;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no such line in {lines:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_lines_carry_the_request_id_and_the_game_id() {
    let dir = std::env::temp_dir().join(format!("gridplay-logs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let url = format!("sqlite://{}/gridplay.db", dir.display());
    let server = Server::start_with(&url, &["--log-format", "json"], "warn,gridplay_server=debug");
    // A request with its own id: the answer names it, and the request's line carries it.
    let mut s = TcpStream::connect(server.addr).expect("connect");
    write!(
        s,
        "GET /api/lobby HTTP/1.1\r\nHost: x\r\nX-Request-Id: probe-42\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("read");
    assert!(
        answer.to_lowercase().contains("x-request-id: probe-42"),
        "{answer}"
    );
    let lines = lines_until(&server, |l| l["span"]["id"] == "probe-42").await;
    let line = lines.iter().find(|l| l["span"]["id"] == "probe-42").unwrap();
    assert_eq!(
        (
            &line["span"]["name"],
            &line["span"]["path"],
            &line["fields"]["message"]
        ),
        (&json!("request"), &json!("/api/lobby"), &json!("answered")),
        "{line}"
    );
    // A game that ends: the line that says so carries the game's id.
    let (ann, ben) = (signup(server.addr, "ann"), signup(server.addr, "ben"));
    let game = game_between(server.addr, &ann, &ben, "ben", None);
    let mut page = Page::watch(server.addr, &ann, &game).await;
    page.ws
        .send(Message::Text(
            json!({"t": "resign", "game": game, "ack": "r"})
                .to_string()
                .into(),
        ))
        .await
        .expect("send");
    while page.next().await["t"] != "ack" {}
    let over = |l: &Value| l["fields"]["message"] == "the game is over";
    let lines = lines_until(&server, over).await;
    let line = lines.iter().find(|l| over(l)).unwrap();
    assert_eq!(line["span"]["name"], "game", "{line}");
    assert_eq!(line["span"]["id"], game.as_str(), "{line}");
    assert_eq!(line["fields"]["termination"], "resignation", "{line}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
