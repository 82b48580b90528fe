//! Bot accounts and the bot API, on SQLite and PostgreSQL: an account with no games becomes a bot; a bot
//! plays through the API only (its token's `bot` scope, never a page's socket); two bots play a rated game
//! from the challenge to the end through their event and game streams, with illegal moves and moves out of
//! turn refused; a bot that stops answering loses on time; bots are marked wherever their names are listed,
//! ranked on their own leaderboard, and kept out of tournaments for people.

#[macro_use]
mod support;

use serde_json::{Value, json};
use support::{LineStream, error_code, http, post, signup, with_token};

/// A token of the signed-in user with these scopes.
async fn token(addr: std::net::SocketAddr, cookie: &str, scopes: &[&str]) -> String {
    let r = post(
        addr,
        "/api/account/tokens",
        cookie,
        json!({"name": "bot", "scopes": scopes}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["token"].as_str().unwrap().to_owned()
}

/// A new account made a bot through its token: the token (read, play, bot).
async fn new_bot(addr: std::net::SocketAddr, name: &str) -> String {
    let cookie = signup(addr, name).await;
    let t = token(addr, &cookie, &["read", "play", "bot"]).await;
    let r = with_token(addr, "POST", "/api/account/bot", &t, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["bot"], true);
    t
}

/// The side (0 or 1) the bot of `name` plays in a state.
fn side_of(state: &Value, name: &str) -> usize {
    usize::from(state["players"][1]["name"] == name)
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_play_a_rated_game_through_the_bot_api() {
    for (url, pg) in support::databases("bots").await {
        let server = gridplay_server::start(support::config(&url))
            .await
            .expect("server");
        let addr = server.addr;

        // Only an account that never played becomes a bot, and only with the `bot` scope or its session.
        let ann = signup(addr, "ann").await;
        let ben = signup(addr, "ben").await;
        support::game_between(
            addr,
            &ann,
            &ben,
            &json!({"spec": "reversi", "color": "first", "opponent": "ben"}),
        )
        .await;
        let r = post(addr, "/api/account/bot", &ann, json!({})).await;
        assert_eq!(error_code(&r), (409, "has-games".into()), "{}", r.body);
        let cara = signup(addr, "cara").await;
        let player_token = token(addr, &cara, &["read", "play"]).await;
        let r = with_token(addr, "POST", "/api/account/bot", &player_token, None).await;
        assert_eq!(error_code(&r), (403, "token-scope".into()), "{}", r.body);
        let r = with_token(addr, "GET", "/api/bot/stream/event", &player_token, None).await;
        assert_eq!(error_code(&r), (403, "token-scope".into()), "{}", r.body);
        // A person's token with the bot scope still is no bot's.
        let person_bot_scope = token(addr, &ben, &["bot"]).await;
        match LineStream::open(addr, "/api/bot/stream/event", &person_bot_scope).await {
            Err((403, body)) => assert!(body.contains("not-bot"), "{body}"),
            Err(e) => panic!("{e:?}"),
            Ok(_) => panic!("a person opened a bot's event stream"),
        }
        let r = post(addr, "/api/account/bot", &cara, json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let r = post(addr, "/api/account/bot", &cara, json!({})).await;
        assert_eq!(error_code(&r), (409, "already-bot".into()), "{}", r.body);

        let bea = new_bot(addr, "bea").await;
        let bob = new_bot(addr, "bob").await;
        let mut bea_events = LineStream::open(addr, "/api/bot/stream/event", &bea)
            .await
            .expect("bea's events");
        let mut bob_events = LineStream::open(addr, "/api/bot/stream/event", &bob)
            .await
            .expect("bob's events");

        // A bot's event stream makes it online, and the lobby marks it.
        let mut seen = false;
        for _ in 0..50 {
            let lobby = http(addr, "GET", "/api/lobby", Some(&ben), None).await.json();
            if lobby["online_bots"]
                .as_array()
                .unwrap()
                .iter()
                .any(|n| n == "bea")
            {
                seen = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(seen, "bea is online and marked as a bot in the lobby");

        // bob challenges bea, rated, with a clock; bea hears of it and accepts.
        let r = with_token(
            addr,
            "POST",
            "/api/challenges",
            &bob,
            Some(
                json!({"spec": "reversi", "color": "first", "opponent": "bea", "rated": true,
                "time": {"live": {"initial": 600, "increment": 0}}}),
            ),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let challenge = r.json()["id"].as_str().unwrap().to_owned();
        let heard = bea_events.until("challenge").await;
        assert_eq!(heard["challenge"]["id"], challenge.as_str());
        assert_eq!(heard["challenge"]["from"], "bob");
        assert_eq!(heard["challenge"]["from_bot"], true);
        assert_eq!(heard["challenge"]["rated"], true);
        assert_eq!(heard["challenge"]["time"]["kind"], "live");
        let r = with_token(
            addr,
            "POST",
            &format!("/api/challenges/{challenge}/accept"),
            &bea,
            Some(json!({})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let game = r.json()["game"].as_str().unwrap().to_owned();
        assert_eq!(bea_events.until("challenge-gone").await["id"], challenge.as_str());
        for events in [&mut bea_events, &mut bob_events] {
            let started = events.until("game-start").await;
            assert_eq!(started["game"]["id"], game.as_str());
            assert_eq!(started["game"]["bots"], json!([true, true]));
        }

        // Both follow the game and play it out, each taking the first legal move when it is its turn.
        let path = format!("/api/bot/game/{game}/stream");
        let mut streams = [
            LineStream::open(addr, &path, &bob).await.expect("bob's game"),
            LineStream::open(addr, &path, &bea).await.expect("bea's game"),
        ];
        let tokens = [bob.clone(), bea.clone()];
        let first = streams[0].until("state").await;
        assert_eq!(
            streams[1].until("state").await["state"]["version"],
            first["state"]["version"]
        );
        assert_eq!(side_of(&first["state"], "bob"), 0);
        assert_eq!(first["state"]["players"][0]["bot"], true);
        assert!(first["now"].as_i64().is_some());
        // Out of turn, and an illegal move, are refused with reasons.
        let r = with_token(addr, "POST", &format!("/api/bot/game/{game}/move/d3"), &bea, None).await;
        assert_eq!(error_code(&r), (409, "not-your-turn".into()), "{}", r.body);
        let r = with_token(addr, "POST", &format!("/api/bot/game/{game}/move/a1"), &bob, None).await;
        assert_eq!(error_code(&r), (400, "refused".into()), "{}", r.body);
        let r = with_token(addr, "POST", &format!("/api/bot/game/{game}/move/z9"), &bob, None).await;
        assert_eq!(error_code(&r), (400, "refused".into()), "{}", r.body);
        let r = with_token(
            addr,
            "POST",
            &format!("/api/bot/game/{game}/draw/maybe"),
            &bob,
            None,
        )
        .await;
        assert_eq!(error_code(&r), (400, "bad-answer".into()), "{}", r.body);

        let mut last = first;
        let mut moves = 0;
        let last_state = loop {
            let st = &last["state"];
            if !st["over"].is_null() {
                break st.clone();
            }
            let side = if st["view"]["turn"] == "first" { 0 } else { 1 };
            let mv = st["view"]["moves"][0]["text"]
                .as_str()
                .expect("a legal move")
                .to_owned();
            let v = st["version"].as_u64().unwrap();
            let r = with_token(
                addr,
                "POST",
                &format!("/api/bot/game/{game}/move/{mv}?v={v}"),
                &tokens[side],
                None,
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(r.json()["v"], v + 1);
            // The same move again on the version it was made on is stale, not played twice.
            if moves == 0 {
                let r = with_token(
                    addr,
                    "POST",
                    &format!("/api/bot/game/{game}/move/{mv}?v={v}"),
                    &tokens[side],
                    None,
                )
                .await;
                assert_eq!(error_code(&r), (409, "stale".into()), "{}", r.body);
            }
            moves += 1;
            // Each stream tells every version in order.
            let a = streams[0].until("state").await;
            let b = streams[1].until("state").await;
            assert_eq!(a["state"]["version"], v + 1);
            assert_eq!(b["state"]["version"], v + 1);
            last = a;
        };
        assert!(moves >= 9, "a game of Reversi has moves: {moves}");
        assert!(last_state["over"]["winner"].is_string(), "{}", last_state["over"]);
        // The game's streams end after the state that ends the game; the event streams tell the finish.
        for s in &mut streams {
            assert!(s.next().await.is_none(), "the game's stream ends");
        }
        for events in [&mut bea_events, &mut bob_events] {
            let finished = events.until("game-finish").await;
            assert_eq!(finished["game"]["id"], game.as_str());
        }

        // Marked wherever their names are listed; ranked among bots, not people.
        let profile = http(addr, "GET", "/api/players/bea", None, None).await.json();
        assert_eq!(profile["bot"], true);
        assert_eq!(
            http(addr, "GET", "/api/players/ben", None, None).await.json()["bot"],
            false
        );
        let people = http(addr, "GET", "/api/leaderboard/reversi", None, None)
            .await
            .json();
        assert_eq!(people["bots"], false);
        assert!(people["players"].as_array().unwrap().is_empty(), "{people}");
        let bots = http(addr, "GET", "/api/leaderboard/reversi?bots=true", None, None)
            .await
            .json();
        assert_eq!(bots["bots"], true);
        let names: Vec<&str> = bots["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "{bots}");
        assert!(names.contains(&"bea") && names.contains(&"bob"), "{bots}");
        let mine = http(addr, "GET", "/api/my-games", Some(&ben), None).await.json();
        assert_eq!(mine["active"][0]["bots"], json!([false, false]));

        // A bot's session cannot move through a page's socket, in a game against a person.
        let r = with_token(
            addr,
            "POST",
            "/api/challenges",
            &bea,
            Some(json!({"spec": "reversi", "color": "first", "opponent": "ben"})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let id = r.json()["id"].as_str().unwrap().to_owned();
        let r = post(addr, &format!("/api/challenges/{id}/accept"), &ben, json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let against_ben = r.json()["game"].as_str().unwrap().to_owned();
        let bea_session = http(
            addr,
            "POST",
            "/api/signin",
            None,
            Some(r#"{"name":"bea","password":"password-bea"}"#),
        )
        .await
        .cookie()
        .expect("bea signs in");
        let mut ws = support::socket(addr, Some(&bea_session)).await;
        support::send(
            &mut ws,
            json!({"t": "move", "game": against_ben, "move": "d3", "ack": "a1"}),
        )
        .await;
        let refused = support::recv_until(&mut ws, "error").await;
        assert_eq!(refused["code"], "bot-api", "{refused}");
        let r = with_token(
            addr,
            "POST",
            &format!("/api/bot/game/{against_ben}/move/d3"),
            &bea,
            None,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        // A person's socket moves as before.
        let mut wb = support::socket(addr, Some(&ben)).await;
        support::send(&mut wb, json!({"t": "watch", "game": against_ben})).await;
        let st = support::recv_until(&mut wb, "sync").await;
        let mv = st["state"]["view"]["moves"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned();
        support::send(
            &mut wb,
            json!({"t": "move", "game": against_ben, "move": mv, "ack": "b1"}),
        )
        .await;
        assert_eq!(support::recv_until(&mut wb, "ack").await["ack"], "b1");

        // Tournaments for people refuse bots; those that allow bots take them.
        let r = post(
            addr,
            "/api/tournaments",
            &ben,
            json!({"name": "people", "spec": "reversi", "kind": "swiss"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let people_only = r.json()["id"].as_str().unwrap().to_owned();
        let r = with_token(
            addr,
            "POST",
            &format!("/api/tournaments/{people_only}/join"),
            &bea,
            Some(json!({})),
        )
        .await;
        assert_eq!(error_code(&r), (403, "no-bots".into()), "{}", r.body);
        let r = with_token(
            addr,
            "POST",
            "/api/tournaments",
            &bea,
            Some(json!({"name": "bots", "spec": "reversi", "kind": "swiss"})),
        )
        .await;
        assert_eq!(error_code(&r), (403, "no-bots".into()), "{}", r.body);
        let r = post(
            addr,
            "/api/tournaments",
            &ben,
            json!({"name": "open to bots", "spec": "reversi", "kind": "swiss", "bots": true}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let with_bots = r.json()["id"].as_str().unwrap().to_owned();
        let r = with_token(
            addr,
            "POST",
            &format!("/api/tournaments/{with_bots}/join"),
            &bea,
            Some(json!({})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let t = http(addr, "GET", &format!("/api/tournaments/{with_bots}"), None, None)
            .await
            .json();
        assert_eq!(t["bots"], true);
        let entrants = t["players_list"].as_array().unwrap();
        assert!(
            entrants.iter().any(|p| p["name"] == "bea" && p["bot"] == true),
            "{t}"
        );
        assert!(
            entrants.iter().any(|p| p["name"] == "ben" && p["bot"] == false),
            "{t}"
        );

        drop((bea_events, bob_events, streams));
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_stops_answering_loses_on_time() {
    for (url, pg) in support::databases("botclock").await {
        let server = gridplay_server::start(support::config(&url))
            .await
            .expect("server");
        let addr = server.addr;
        let bea = new_bot(addr, "bea").await;
        let ben = signup(addr, "ben").await;
        let r = post(
            addr,
            "/api/challenges",
            &ben,
            json!({"spec": "reversi", "color": "first", "opponent": "bea",
                "time": {"live": {"initial": 2, "increment": 0}}}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let id = r.json()["id"].as_str().unwrap().to_owned();
        let r = with_token(
            addr,
            "POST",
            &format!("/api/challenges/{id}/accept"),
            &bea,
            Some(json!({})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let game = r.json()["game"].as_str().unwrap().to_owned();
        let mut stream = LineStream::open(addr, &format!("/api/bot/game/{game}/stream"), &bea)
            .await
            .expect("stream");
        let st = stream.until("state").await;
        assert_eq!(side_of(&st["state"], "bea"), 1);
        // ben moves; bea answers once, then stops; ben moves again, and bea's clock runs out.
        let mut wb = support::socket(addr, Some(&ben)).await;
        let play = |st: &Value| {
            st["state"]["view"]["moves"][0]["text"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        support::send(
            &mut wb,
            json!({"t": "move", "game": game, "move": play(&st), "ack": "m1"}),
        )
        .await;
        support::recv_until(&mut wb, "ack").await;
        let st = stream.until("state").await;
        let r = with_token(
            addr,
            "POST",
            &format!("/api/bot/game/{game}/move/{}", play(&st)),
            &bea,
            None,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let st = stream.until("state").await;
        support::send(
            &mut wb,
            json!({"t": "move", "game": game, "move": play(&st), "ack": "m2"}),
        )
        .await;
        support::recv_until(&mut wb, "ack").await;
        let mut over = Value::Null;
        while let Some(line) = stream.next().await {
            over = line["state"]["over"].clone();
        }
        assert_eq!(over["termination"], "timeout", "{over}");
        assert_eq!(over["winner"], "first", "{over}");
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
