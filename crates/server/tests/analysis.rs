//! The analysis board's API on SQLite and PostgreSQL: positions reached by moves from a start (the game's own,
//! set up on the editor, or read from a position text or a game file) with the rules library's refusals; the
//! engine's lines streamed as the search deepens, for a signed-in user or a token with the `read` scope; and
//! the quota of analyses under way, which a closed stream gives back at once, its search stopped.

#[macro_use]
mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{LineStream, error_code, post, signup};

fn config(url: &str) -> gridplay_server::config::Config {
    let mut cfg = support::config(url);
    cfg.with_test_games = true;
    cfg.limits.analyses_per_user = 1;
    cfg.limits.lines_seconds = 30;
    cfg
}

/// A token of the signed-in user with the `read` scope only.
async fn read_token(addr: std::net::SocketAddr, cookie: &str) -> String {
    let r = post(
        addr,
        "/api/account/tokens",
        cookie,
        json!({"name": "analysis", "scopes": ["read"]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["token"].as_str().unwrap().to_owned()
}

/// The lines of `ask` once the user's quota has room again (within 5 s: a closed stream gives it back).
async fn when_free(addr: std::net::SocketAddr, token: &str, ask: &Value) -> LineStream {
    let asked = Instant::now();
    loop {
        match LineStream::post(addr, "/api/analysis/lines", token, ask).await {
            Ok(s) => return s,
            Err((429, _)) if asked.elapsed() < Duration::from_secs(5) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("{e:?}"),
        }
    }
}

/// A refusal's code and message.
fn refusal(r: &support::Response) -> (u16, String, String) {
    let (status, code) = error_code(r);
    (
        status,
        code,
        r.json()["error"]["message"].as_str().unwrap_or("").to_owned(),
    )
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_setups_and_imports_come_from_the_rules_library() {
    for (url, pg) in support::databases("analysisboard").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let anyone = "";

        // Moves from the game's start, written as the game writes them.
        let r = post(
            addr,
            "/api/analysis/position",
            anyone,
            json!({"spec": "reversi", "moves": ["F5", "d6"]}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let p = r.json();
        assert_eq!(p["moves"], json!(["f5", "d6"]));
        assert_eq!(p["standard"], true);
        assert_eq!(p["engine"], true);
        assert_eq!(p["view"]["turn"], "first");
        assert_eq!(p["last_move"]["text"], "d6");
        assert!(p["position"].as_str().unwrap().ends_with(" X"), "{p}");

        // An illegal move says which and why; a start that is no position says why.
        let r = post(
            addr,
            "/api/analysis/position",
            anyone,
            json!({"spec": "reversi", "moves": ["f5", "a1"]}),
        )
        .await;
        let (status, code, message) = refusal(&r);
        assert_eq!((status, code.as_str()), (400, "bad-move"));
        assert!(message.contains("move 2 (a1)"), "{message}");
        let r = post(
            addr,
            "/api/analysis/position",
            anyone,
            json!({"spec": "checkers", "start": "X:W21:B1"}),
        )
        .await;
        let (status, code, message) = refusal(&r);
        assert_eq!((status, code.as_str()), (400, "bad-position"));
        assert!(message.contains("side to move"), "{message}");
        // A Red man on its king row is impossible: it would have been crowned.
        let r = post(
            addr,
            "/api/analysis/position",
            anyone,
            json!({"spec": "checkers", "start": "B:W21:B30"}),
        )
        .await;
        let (status, code, message) = refusal(&r);
        assert_eq!((status, code.as_str()), (400, "bad-position"), "{message}");
        assert!(message.contains("king row"), "{message}");

        // The editor: an emptied centre square of Reversi is refused with the reason; a tic-tac-toe position
        // with X to move and as many X as O is set up, a start of its own.
        let start = post(addr, "/api/analysis/position", anyone, json!({"spec": "reversi"}))
            .await
            .json();
        let mut cells: Vec<Value> = start["view"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["piece"]["glyph"].clone())
            .collect();
        cells[27] = Value::Null;
        let r = post(
            addr,
            "/api/analysis/setup",
            anyone,
            json!({"spec": "reversi", "cells": cells, "turn": "first"}),
        )
        .await;
        let (status, code, message) = refusal(&r);
        assert_eq!((status, code.as_str()), (400, "bad-position"));
        assert!(message.contains("centre"), "{message}");
        let mut ttt = vec![Value::Null; 9];
        ttt[0] = json!("X");
        ttt[4] = json!("O");
        let r = post(
            addr,
            "/api/analysis/setup",
            anyone,
            json!({"spec": "tictactoe", "cells": ttt, "turn": "second"}),
        )
        .await;
        assert_eq!(
            error_code(&r).1,
            "bad-position",
            "O may not move after as many O as X: {}",
            r.body
        );
        let r = post(
            addr,
            "/api/analysis/setup",
            anyone,
            json!({"spec": "tictactoe", "cells": ttt, "turn": "first"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let set = r.json();
        assert_eq!(set["standard"], false);
        assert_eq!(set["moves"], json!([]));
        assert_eq!(set["view"]["moves"].as_array().unwrap().len(), 7);
        // Moves from the set-up start.
        let r = post(
            addr,
            "/api/analysis/position",
            anyone,
            json!({"spec": "tictactoe", "start": set["start"], "moves": ["b3"]}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["view"]["turn"], "second");

        // Reading in: a position text, a game file (of another game than the board's: it names its own),
        // and a text that is neither, with why it is neither.
        let r = post(
            addr,
            "/api/analysis/import",
            anyone,
            json!({"spec": "checkers", "text": "W:W21,22:B1,K5"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["standard"], false);
        assert_eq!(r.json()["view"]["turn"], "second");
        let r = post(
            addr,
            "/api/analysis/import",
            anyone,
            json!({"spec": "checkers", "text": "[Game \"reversi\"]\n\nf5 d6 c3"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["game"], "reversi");
        assert_eq!(r.json()["moves"], json!(["f5", "d6", "c3"]));
        let r = post(
            addr,
            "/api/analysis/import",
            anyone,
            json!({"spec": "checkers", "text": "hello"}),
        )
        .await;
        let (status, code, message) = refusal(&r);
        assert_eq!((status, code.as_str()), (400, "bad-position"));
        assert!(message.contains("neither"), "{message}");

        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_lines_stream_deeper_and_a_closed_stream_frees_the_quota() {
    for (url, pg) in support::databases("analysislines").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;

        // Signed out, a count of lines out of range, a game over: refused.
        let ask = json!({"spec": "tictactoe", "start": "XX1/OO1/3 X", "lines": 3});
        let r = post(addr, "/api/analysis/lines", "", ask.clone()).await;
        assert_eq!(r.status, 401, "{}", r.body);
        let ann = signup(addr, "ann").await;
        let r = post(
            addr,
            "/api/analysis/lines",
            &ann,
            json!({"spec": "tictactoe", "lines": 0}),
        )
        .await;
        assert_eq!(error_code(&r), (400, "bad-lines".into()), "{}", r.body);
        let r = post(
            addr,
            "/api/analysis/lines",
            &ann,
            json!({"spec": "tictactoe", "start": "XXX/OO1/3 O", "lines": 1}),
        )
        .await;
        assert_eq!(error_code(&r), (400, "game-over".into()), "{}", r.body);

        // A token that may only read streams the lines: deeper each time; the winning move first, proved.
        let token = read_token(addr, &ann).await;
        let mut stream = LineStream::post(addr, "/api/analysis/lines", &token, &ask)
            .await
            .expect("the lines");
        let mut updates = Vec::new();
        while let Some(u) = stream.next().await {
            updates.push(u);
        }
        assert!(!updates.is_empty());
        let depths: Vec<u64> = updates.iter().map(|u| u["depth"].as_u64().unwrap()).collect();
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
        let last = updates.last().unwrap();
        assert_eq!(last["moves"], 5);
        assert_eq!(last["lines"].as_array().unwrap().len(), 3);
        assert_eq!(last["lines"][0]["moves"][0], "c3");
        assert_eq!(last["lines"][0]["proof"], "win");
        assert_eq!(last["lines"][0]["plies"], 1);
        assert_eq!(last["lines"][1]["moves"][0], "c2");

        // One analysis under way at a time for this user: a long search holds the quota...
        let long = json!({"spec": "checkers", "lines": 2});
        let mut first = LineStream::post(addr, "/api/analysis/lines", &token, &long)
            .await
            .expect("a long search");
        let update = first.next().await.expect("a first depth");
        assert_eq!(update["moves"], 7);
        let r = post(addr, "/api/analysis/lines", &ann, long.clone()).await;
        assert_eq!(error_code(&r), (429, "too-many".into()), "{}", r.body);
        // ... until its stream is closed: the quota comes back and the search stops, so that the next search
        // (in the one thread of the analysis lane) answers at once rather than after the first's 30 s.
        drop(first);
        let closed = Instant::now();
        let mut again = when_free(addr, &token, &long).await;
        again.next().await.expect("a first depth");
        assert!(
            closed.elapsed() < Duration::from_secs(10),
            "{:?}",
            closed.elapsed()
        );
        drop(again);

        // While ann plays a person at Reversi without hints, the engine gives her no Reversi lines; other
        // games' lines it gives.
        let ben = signup(addr, "ben").await;
        support::game_between(
            addr,
            &ann,
            &ben,
            &json!({"spec": "reversi", "color": "first", "opponent": "ben"}),
        )
        .await;
        let reversi = json!({"spec": "reversi", "lines": 1});
        let r = post(addr, "/api/analysis/lines", &ann, reversi.clone()).await;
        let (status, code, message) = refusal(&r);
        assert_eq!((status, code.as_str()), (409, "refused"), "{message}");
        assert!(message.contains("finish it first"), "{message}");
        match LineStream::post(addr, "/api/analysis/lines", &token, &reversi).await {
            Err((409, body)) => assert!(body.contains("refused"), "{body}"),
            other => panic!("{:?}", other.map(|_| "a stream")),
        }
        let mut other = LineStream::post(
            addr,
            "/api/analysis/lines",
            &token,
            &json!({"spec": "cornered", "lines": 1}),
        )
        .await
        .expect("another game's lines");
        other.next().await.expect("a first depth");
        drop(other);

        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_counts_finished_games_between_accounts() {
    for (url, pg) in support::databases("explorer").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let ann = signup(addr, "ann").await;
        let ben = signup(addr, "ben").await;
        let mut sockets = [
            support::socket(addr, Some(&ann)).await,
            support::socket(addr, Some(&ben)).await,
        ];
        // Three games, ann first: f5 d6 and the first resigns; c4 e3 (the same game turned half round) and
        // the second resigns; f5 f6 and the first resigns. A fourth is left in play, and a game against the
        // engine ends: neither counts.
        let games: [(&[&str], usize); 3] = [(&["f5", "d6"], 0), (&["c4", "e3"], 1), (&["f5", "f6"], 0)];
        let mut n = 0;
        for (moves, resigns) in games {
            let id = support::game_between(
                addr,
                &ann,
                &ben,
                &json!({"spec": "reversi", "color": "first", "opponent": "ben"}),
            )
            .await;
            for (k, m) in moves.iter().enumerate() {
                n += 1;
                let r = support::act(
                    &mut sockets[k % 2],
                    json!({"t": "move", "game": id, "move": m}),
                    &format!("m{n}"),
                )
                .await;
                assert_eq!(r["t"], "ack", "{r}");
            }
            n += 1;
            let r = support::act(
                &mut sockets[resigns],
                json!({"t": "resign", "game": id}),
                &format!("r{n}"),
            )
            .await;
            assert_eq!(r["t"], "ack", "{r}");
        }
        let open = support::game_between(
            addr,
            &ann,
            &ben,
            &json!({"spec": "reversi", "color": "first", "opponent": "ben"}),
        )
        .await;
        let r = support::act(
            &mut sockets[0],
            json!({"t": "move", "game": open, "move": "f5"}),
            "open",
        )
        .await;
        assert_eq!(r["t"], "ack", "{r}");
        let r = post(
            addr,
            "/api/computer",
            &ann,
            json!({"spec": "reversi", "level": 1, "color": "first"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let vs_engine = r.json()["game"].as_str().unwrap().to_owned();
        let r = support::act(
            &mut sockets[0],
            json!({"t": "resign", "game": vs_engine}),
            "engine",
        )
        .await;
        assert_eq!(r["t"], "ack", "{r}");

        let explore = |moves: Value| {
            post(
                addr,
                "/api/analysis/explorer",
                "",
                json!({"spec": "reversi", "moves": moves}),
            )
        };
        // From the start every first move reaches one position: the three games count together, under the
        // first legal move's name.
        let r = explore(json!([])).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let e = r.json();
        assert_eq!(e["plies"], 30);
        assert_eq!(e["book"], true);
        let counted: Vec<&Value> = e["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["games"].as_i64() > Some(0))
            .collect();
        assert_eq!(counted.len(), 1, "{e}");
        assert_eq!(
            (
                counted[0]["games"].as_i64(),
                counted[0]["first_wins"].as_i64(),
                counted[0]["second_wins"].as_i64()
            ),
            (Some(3), Some(1), Some(2)),
            "{e}"
        );
        // After f5: d6 twice (once as its mirror image, e3 after c4), f6 once, most played first.
        let e = explore(json!(["f5"])).await.json();
        let played: Vec<(String, i64)> = e["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["games"].as_i64() > Some(0))
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_owned(),
                    m["games"].as_i64().unwrap(),
                )
            })
            .collect();
        assert_eq!(played, [("d6".to_owned(), 2), ("f6".to_owned(), 1)], "{e}");
        // The mirror image's position answers the same counts under its own moves.
        let e = explore(json!(["c4"])).await.json();
        let d6 = e["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == "e3")
            .expect("e3");
        assert_eq!(d6["games"], 2, "{e}");
        // Beyond the games' moves, nothing was played.
        let e = explore(json!(["f5", "d6"])).await.json();
        assert!(
            e["moves"].as_array().unwrap().iter().all(|m| m["games"] == 0),
            "{e}"
        );
        // A bad move is refused as on the board.
        let r = explore(json!(["a1"])).await;
        assert_eq!(error_code(&r), (400, "bad-move".into()), "{}", r.body);

        drop(sockets);
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
