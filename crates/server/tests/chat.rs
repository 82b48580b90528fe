//! Game chat, on SQLite and PostgreSQL: the players' and spectators' rooms each read by their own, live over
//! the socket and kept with the game; the limits (length, the free-text rule, rate, repeats, mutes); the
//! replay's chat once the game is over; reporting a line; and, on PostgreSQL, a line said through one server
//! heard on another.

#[macro_use]
mod support;

use gridplay_server::db::{Act, ModKind, now_ms};
use serde_json::{Value, json};
use support::{Socket, http, post, recv, recv_until, send, signup};

/// A socket that watches `game`, and the chat lines it was given when it began.
async fn watching(addr: std::net::SocketAddr, cookie: Option<&str>, game: &str) -> (Socket, Vec<Value>) {
    let mut ws = support::socket(addr, cookie).await;
    send(&mut ws, json!({"t": "watch", "game": game})).await;
    let first = recv_until(&mut ws, "chat").await;
    assert_eq!(first["reset"], true, "{first}");
    (ws, first["lines"].as_array().unwrap().clone())
}

/// The next chat line a socket hears (skipping the game's events).
async fn line(ws: &mut Socket) -> Value {
    let m = recv_until(ws, "chat").await;
    assert_eq!(m["reset"], false, "{m}");
    let lines = m["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 1, "{m}");
    lines[0].clone()
}

/// Says `text` and returns the refusal's code, or `None` when the line came back.
async fn say(ws: &mut Socket, game: &str, text: &str) -> Option<String> {
    send(ws, json!({"t": "chat", "game": game, "text": text, "ack": "c"})).await;
    loop {
        let m = recv(ws).await;
        match m["t"].as_str() {
            Some("error") => {
                assert_eq!(m["ack"], "c", "{m}");
                return Some(m["code"].as_str().unwrap().to_owned());
            }
            Some("chat") if m["lines"][0]["text"] == text.trim() => return None,
            _ => {}
        }
    }
}

fn texts(lines: &[Value]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            format!(
                "{}:{}:{}",
                l["room"].as_str().unwrap(),
                l["name"].as_str().unwrap(),
                l["text"].as_str().unwrap()
            )
        })
        .collect()
}

async fn chat_of(addr: std::net::SocketAddr, game: &str, cookie: Option<&str>) -> Vec<String> {
    let r = http(addr, "GET", &format!("/api/games/{game}/chat"), cookie, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    texts(r.json()["lines"].as_array().unwrap())
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_room_is_read_by_its_own_and_every_limit_holds() {
    for (url, pg) in support::databases("chat").await {
        let server = gridplay_server::start(support::config(&url))
            .await
            .expect("server");
        let addr = server.addr;
        let db = server.state.db.clone();
        let ann = signup(addr, "ann").await;
        let ben = signup(addr, "ben").await;
        let cyd = signup(addr, "cyd").await;
        let game = support::game_between(
            addr,
            &ann,
            &ben,
            &json!({"spec": "reversi", "color": "first", "opponent": "ben"}),
        )
        .await;
        let (mut a, history) = watching(addr, Some(&ann), &game).await;
        assert!(history.is_empty());
        let (mut b, _) = watching(addr, Some(&ben), &game).await;
        let (mut c, _) = watching(addr, Some(&cyd), &game).await;
        let (mut v, _) = watching(addr, None, &game).await;

        // A player's line reaches both players; a spectator's reaches the spectators and the visitor, and not
        // the players: Ben's next line after Ann's first is her second.
        assert_eq!(say(&mut a, &game, "good luck").await, None);
        let heard = line(&mut b).await;
        assert_eq!(
            (
                heard["room"].as_str(),
                heard["name"].as_str(),
                heard["text"].as_str()
            ),
            (Some("players"), Some("ann"), Some("good luck"))
        );
        assert_eq!(say(&mut c, &game, "  nice opening ").await, None);
        let heard = line(&mut v).await;
        assert_eq!(
            (
                heard["room"].as_str(),
                heard["name"].as_str(),
                heard["text"].as_str()
            ),
            (Some("spectators"), Some("cyd"), Some("nice opening"))
        );
        let spectators_line = heard["id"].as_str().unwrap().to_owned();
        assert_eq!(say(&mut a, &game, "thanks").await, None);
        assert_eq!(line(&mut b).await["text"], "thanks");
        // Ben may say what Ann said: repeats are each author's own.
        assert_eq!(say(&mut b, &game, "good luck").await, None);
        // Cyd heard none of the players' three lines: his next is Dan's.
        let dan = signup(addr, "dan").await;
        let (mut d, _) = watching(addr, Some(&dan), &game).await;
        assert_eq!(say(&mut d, &game, "wow").await, None);
        assert_eq!(line(&mut c).await["text"], "wow");
        drop(v);

        // A visitor cannot chat.
        let (mut v, _) = watching(addr, None, &game).await;
        assert_eq!(say(&mut v, &game, "hi").await.as_deref(), Some("signed-out"));

        // Length, the free-text rule and repeats, case aside.
        assert_eq!(
            say(&mut a, &game, &"x".repeat(141)).await.as_deref(),
            Some("bad-text")
        );
        assert_eq!(say(&mut a, &game, &"é".repeat(140)).await, None);
        assert_eq!(
            say(&mut a, &game, "a\u{202e}b").await.as_deref(),
            Some("bad-text")
        );
        assert_eq!(say(&mut a, &game, "   ").await.as_deref(), Some("bad-text"));
        assert_eq!(say(&mut a, &game, "Thanks").await.as_deref(), Some("repeated"));
        // Ten lines a minute: Ann has said three.
        for i in 0..7 {
            assert_eq!(say(&mut a, &game, &format!("line {i}")).await, None, "line {i}");
        }
        assert_eq!(
            say(&mut a, &game, "one too many").await.as_deref(),
            Some("rate-limited")
        );

        // A muted player is refused, and told until when.
        let ben_id = db.user_named("ben").await.unwrap().unwrap().id;
        let mute = Act {
            until: Some(now_ms() + 600_000),
            ..Act::new(ModKind::Mute, "spam")
        };
        db.moderate(&ben_id, None, &mute).await.unwrap();
        send(
            &mut b,
            json!({"t": "chat", "game": game, "text": "let me talk", "ack": "m"}),
        )
        .await;
        let e = recv_until(&mut b, "error").await;
        assert_eq!(e["code"], "muted", "{e}");
        assert!(e["message"].as_str().unwrap().contains("UTC"), "{e}");

        // A page that starts watching gets what its reader may read, oldest first.
        let (_, history) = watching(addr, Some(&ben), &game).await;
        let history = texts(&history);
        assert_eq!(history.len(), 11, "{history:?}");
        assert_eq!(history[0], "players:ann:good luck");
        assert!(history.iter().all(|l| l.starts_with("players:")), "{history:?}");
        let (_, seen) = watching(addr, None, &game).await;
        let spectators = ["spectators:cyd:nice opening", "spectators:dan:wow"];
        assert_eq!(texts(&seen), spectators);

        // Over HTTP, the same rooms: while the game is played the players read theirs only.
        assert_eq!(chat_of(addr, &game, Some(&ann)).await, history);
        assert_eq!(chat_of(addr, &game, Some(&cyd)).await, spectators);
        assert_eq!(chat_of(addr, &game, None).await, spectators);
        // Once it is over, the players' replay shows both rooms; a spectator's still shows one.
        send(&mut a, json!({"t": "resign", "game": game, "ack": "r"})).await;
        assert_eq!(recv_until(&mut a, "ack").await["ack"], "r");
        let both = chat_of(addr, &game, Some(&ann)).await;
        assert_eq!(both.len(), 13, "{both:?}");
        // The player's open page is given both rooms as the game ends, without a reload.
        let reset = recv_until(&mut a, "chat").await;
        assert_eq!(reset["reset"], true, "{reset}");
        assert_eq!(texts(reset["lines"].as_array().unwrap()), both);
        assert!(both.contains(&"spectators:cyd:nice opening".to_owned()));
        assert_eq!(chat_of(addr, &game, Some(&cyd)).await, spectators);

        // A line is reported with its author and game, and the admins read it with the game's chat.
        let r = post(
            addr,
            "/api/reports",
            &ann,
            json!({"user": "cyd", "game": game, "line": spectators_line, "reason": "rude"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let r = post(
            addr,
            "/api/reports",
            &ann,
            json!({"user": "ben", "line": spectators_line, "reason": "rude"}),
        )
        .await;
        assert_eq!(
            (r.status, r.json()["error"]["code"].clone()),
            (400, json!("not-their-line")),
            "{}",
            r.body
        );
        let modr = signup(addr, "mod").await;
        let m = db.user_named("mod").await.unwrap().unwrap().id;
        db.moderate(&m, None, &Act::new(ModKind::Grant, "admin"))
            .await
            .unwrap();
        let q = http(addr, "GET", "/api/admin/reports", Some(&modr), None)
            .await
            .json();
        let queued = &q["reports"][0];
        assert_eq!(queued["report"]["line"], spectators_line.as_str(), "{q}");
        assert_eq!(queued["chat"].as_array().unwrap().len(), 13, "{q}");

        // Against the engine the players' room is closed: no one would read it.
        let r = post(
            addr,
            "/api/computer",
            &ann,
            json!({"spec": "reversi", "level": 1, "color": "first"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let vs_engine = r.json()["game"].as_str().unwrap().to_owned();
        let (mut e, _) = watching(addr, Some(&ann), &vs_engine).await;
        assert_eq!(
            say(&mut e, &vs_engine, "hello engine").await.as_deref(),
            Some("no-chat")
        );

        // A deleted account's lines go with it.
        let r = post(
            addr,
            "/api/account/delete",
            &cyd,
            json!({"password": "password-cyd"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(
            chat_of(addr, &game, Some(&ann))
                .await
                .iter()
                .all(|l| !l.contains("nice opening"))
        );

        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_postgres! {
/// On PostgreSQL a line said through one server reaches a page watching on another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_said_on_one_server_is_heard_on_another() {
    for (url, pg) in support::databases("chat_servers").await {
        let one = gridplay_server::start(support::config(&url))
            .await
            .expect("server 1");
        let two = gridplay_server::start(support::config(&url))
            .await
            .expect("server 2");
        let ann = signup(one.addr, "ann").await;
        let ben = signup(one.addr, "ben").await;
        let game = support::game_between(
            one.addr,
            &ann,
            &ben,
            &json!({"spec": "reversi", "color": "first", "opponent": "ben"}),
        )
        .await;
        let (mut a, _) = watching(one.addr, Some(&ann), &game).await;
        let (mut b, _) = watching(two.addr, Some(&ben), &game).await;
        assert_eq!(say(&mut a, &game, "hello from one").await, None);
        let heard = line(&mut b).await;
        assert_eq!(
            (heard["name"].as_str(), heard["text"].as_str()),
            (Some("ann"), Some("hello from one"))
        );
        one.stop().await;
        two.stop().await;
        support::drop_database(pg).await;
    }
}
}
