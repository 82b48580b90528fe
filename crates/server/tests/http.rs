//! The HTTP API, in process (no socket): accounts, the lobby, challenges, games against the engine, and the
//! guards (Origin, body size, rate limits, errors). Each test runs on SQLite and, when configured, PostgreSQL.

#[macro_use]
mod support;

use axum::{
    body::Body,
    http::{HeaderValue, Request, StatusCode, header},
};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::app::{App, each_backend};
use tower::ServiceExt;

on_both_databases! {
#[tokio::test]
async fn accounts_sign_up_in_and_out() {
    each_backend("accounts", async |url| {
        let app = App::new(url, 1000).await;
        let (s, me, _) = app.call("GET", "/api/me", None, None).await;
        assert_eq!((s, &me["user"]), (StatusCode::OK, &Value::Null));
        let cookie = app.signup("Alice").await;
        let (_, me, _) = app.call("GET", "/api/me", Some(&cookie), None).await;
        assert_eq!(me["user"]["name"], "Alice");
        // Names are unique without regard to case.
        let (s, j, _) = app
            .call(
                "POST",
                "/api/signup",
                None,
                Some(json!({"name": "alice", "password": "another one"})),
            )
            .await;
        assert_eq!(
            (s, j["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("name-taken"))
        );
        for (name, why) in [
            ("al", "3 to 20"),
            ("bad name", "only the letters"),
            ("_alice", "starts with"),
            ("a".repeat(21).as_str(), "3 to 20"),
        ] {
            let (s, j, _) = app
                .call(
                    "POST",
                    "/api/signup",
                    None,
                    Some(json!({"name": name, "password": "long enough"})),
                )
                .await;
            assert_eq!(s, StatusCode::BAD_REQUEST, "{name}");
            assert!(
                j["error"]["message"].as_str().unwrap().contains(why),
                "{name}: {j}"
            );
        }
        let (s, j, _) = app
            .call(
                "POST",
                "/api/signup",
                None,
                Some(json!({"name": "bob", "password": "short"})),
            )
            .await;
        assert_eq!(
            (s, j["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad-password"))
        );
        // Sign in: a wrong password and an unknown name get the same answer.
        let (s, j, _) = app
            .call(
                "POST",
                "/api/signin",
                None,
                Some(json!({"name": "alice", "password": "wrong password"})),
            )
            .await;
        assert_eq!(
            (s, j["error"]["code"].as_str()),
            (StatusCode::UNAUTHORIZED, Some("bad-credentials"))
        );
        let (s2, j2, _) = app
            .call(
                "POST",
                "/api/signin",
                None,
                Some(json!({"name": "nobody", "password": "wrong password"})),
            )
            .await;
        assert_eq!((s2, &j2), (s, &j));
        let (s, _, second) = app
            .call(
                "POST",
                "/api/signin",
                None,
                Some(json!({"name": "ALICE", "password": "correct horse"})),
            )
            .await;
        assert_eq!(s, StatusCode::OK);
        let second = second.expect("cookie");
        assert_ne!(second, cookie);
        // Signing out ends that session only.
        let (s, _, _) = app
            .call("POST", "/api/signout", Some(&second), Some(json!({})))
            .await;
        assert_eq!(s, StatusCode::OK);
        let (_, me, _) = app.call("GET", "/api/me", Some(&second), None).await;
        assert_eq!(me["user"], Value::Null);
        let (_, me, _) = app.call("GET", "/api/me", Some(&cookie), None).await;
        assert_eq!(me["user"]["name"], "Alice");
    })
    .await;
}
}

on_both_databases! {
#[tokio::test]
async fn challenges_make_games_once() {
    each_backend("challenges", async |url| {
        let app = App::new(url, 1000).await;
        let (alice, bob, carol) = (
            app.signup("alice").await,
            app.signup("bob").await,
            app.signup("carol").await,
        );
        // A bad spec is refused with the rules library's reason. The refusal reads as a sentence that names the game and the setting as the form does.
        let refusal = async |spec: &str| {
            let (s, j, _) = app
                .call("POST", "/api/challenges", Some(&alice), Some(json!({"spec": spec, "color": "first"})))
                .await;
            assert_eq!((s, j["error"]["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad-spec")), "{j}");
            j["error"]["message"].as_str().unwrap().to_owned()
        };
        assert_eq!(
            refusal("cornered:size=99").await,
            "Cornered Reversi: Board size cannot be \u{201c}99\u{201d}; choose a whole number from 2 to 25."
        );
        assert_eq!(
            refusal("reversi:first=blue").await,
            "Reversi: First to move cannot be \u{201c}blue\u{201d}; choose \u{201c}black\u{201d} or \u{201c}white\u{201d}."
        );
        assert_eq!(
            refusal("reversi:colour=blue").await,
            "Reversi has no setting \u{201c}colour\u{201d}: its settings are First to move (first)."
        );
        assert!(refusal("chess").await.starts_with("There is no game \u{201c}chess\u{201d}; the games are Reversi (reversi), "));
        assert!(
            refusal("tactics:army=wwww").await.starts_with("Grid Tactics: First player's army cannot be \u{201c}wwww\u{201d}; it needs "),
        );
        // Visitors cannot challenge.
        let (s, _, _) = app
            .call(
                "POST",
                "/api/challenges",
                None,
                Some(json!({"spec": "reversi", "color": "first"})),
            )
            .await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
        let (s, c, _) = app
            .call(
                "POST",
                "/api/challenges",
                Some(&alice),
                Some(json!({"spec": "checkers", "color": "second"})),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{c}");
        let id = c["id"].as_str().unwrap().to_owned();
        // Everyone sees an open challenge, visitors included; visitors see only the number online.
        let (_, lobby, _) = app.call("GET", "/api/lobby", None, None).await;
        assert_eq!(lobby["challenges"][0]["id"], id.as_str());
        assert!(lobby.get("online").is_none() && lobby.get("online_count").is_some());
        let (s, _, _) = app
            .call(
                "POST",
                &format!("/api/challenges/{id}/accept"),
                Some(&alice),
                Some(json!({})),
            )
            .await;
        assert_eq!(
            s,
            StatusCode::BAD_REQUEST,
            "one cannot accept one's own challenge"
        );
        let (s, g, _) = app
            .call(
                "POST",
                &format!("/api/challenges/{id}/accept"),
                Some(&bob),
                Some(json!({})),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{g}");
        let game = g["game"].as_str().unwrap().to_owned();
        let (s, _, _) = app
            .call(
                "POST",
                &format!("/api/challenges/{id}/accept"),
                Some(&carol),
                Some(json!({})),
            )
            .await;
        assert_eq!(s, StatusCode::NOT_FOUND, "a challenge makes one game");
        // Alice chose the second side: Bob moves first.
        let (s, st, _) = app.call("GET", &format!("/api/games/{game}"), None, None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(st["players"][0]["name"], "bob");
        assert_eq!(st["players"][1]["name"], "alice");
        assert_eq!(st["version"], 0);
        assert_eq!(
            st["view"]["moves"].as_array().unwrap().len(),
            7,
            "checkers has 7 first moves"
        );
        let (_, lobby, _) = app.call("GET", "/api/lobby", Some(&bob), None).await;
        assert_eq!(lobby["games"][0]["id"], game.as_str());
        assert_eq!(lobby["games"][0]["my_turn"], true);
        let (_, lobby, _) = app.call("GET", "/api/lobby", Some(&alice), None).await;
        assert_eq!(lobby["games"][0]["my_turn"], false);
        // A direct challenge: only its target may accept or decline; its creator may cancel.
        let (_, c, _) = app
            .call(
                "POST",
                "/api/challenges",
                Some(&alice),
                Some(json!({"spec": "ywf", "color": "random", "opponent": "BOB"})),
            )
            .await;
        let direct = c["id"].as_str().unwrap().to_owned();
        assert_eq!(c["target"], "bob");
        let (_, lobby, _) = app.call("GET", "/api/lobby", Some(&carol), None).await;
        assert!(
            lobby["challenges"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["id"] != direct.as_str()),
            "carol does not see it"
        );
        let (s, _, _) = app
            .call(
                "POST",
                &format!("/api/challenges/{direct}/accept"),
                Some(&carol),
                Some(json!({})),
            )
            .await;
        assert_eq!(s, StatusCode::FORBIDDEN);
        let (s, j, _) = app
            .call(
                "POST",
                &format!("/api/challenges/{direct}/decline"),
                Some(&bob),
                Some(json!({})),
            )
            .await;
        assert_eq!((s, j["status"].as_str()), (StatusCode::OK, Some("declined")));
        let (s, _, _) = app
            .call(
                "POST",
                "/api/challenges",
                Some(&alice),
                Some(json!({"spec": "ywf", "color": "first", "opponent": "nobody"})),
            )
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        let (s, _, _) = app
            .call(
                "POST",
                "/api/challenges",
                Some(&alice),
                Some(json!({"spec": "ywf", "color": "first", "opponent": "alice"})),
            )
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
    })
    .await;
}
}

on_both_databases! {
#[tokio::test]
async fn the_engine_moves_first_when_it_has_the_first_side() {
    each_backend("computer", async |url| {
        let app = App::new(url, 1000).await;
        let alice = app.signup("alice").await;
        let (s, j, _) = app
            .call(
                "POST",
                "/api/computer",
                Some(&alice),
                Some(json!({"spec": "reversi", "level": 9, "color": "first"})),
            )
            .await;
        assert_eq!(
            (s, j["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad-level"))
        );
        let (s, j, _) = app
            .call(
                "POST",
                "/api/computer",
                Some(&alice),
                Some(json!({"spec": "reversi", "level": 2, "color": "second"})),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{j}");
        let game = j["game"].as_str().unwrap().to_owned();
        let mut version = 0;
        for _ in 0..100 {
            let (_, st, _) = app.call("GET", &format!("/api/games/{game}"), None, None).await;
            version = st["version"].as_u64().unwrap();
            if version > 0 {
                assert_eq!(st["players"][0]["level"], 2);
                assert_eq!(st["view"]["turn"], "second");
                assert_eq!(st["moves"].as_array().unwrap().len(), 1);
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(version, 1, "the engine played the first move");
    })
    .await;
}
}

#[tokio::test]
async fn guards_refuse_cross_origin_large_and_repeated_requests() {
    let app = App::new("sqlite::memory:", 3).await;
    let cookie = app.signup("alice").await;
    // A POST from another site's page is refused.
    let req = Request::builder()
        .method("POST")
        .uri("/api/challenges")
        .header(header::HOST, "localhost")
        .header(header::ORIGIN, "http://evil.example")
        .header(header::COOKIE, &cookie)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"spec":"reversi","color":"first"}"#))
        .unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    // Bodies are bounded.
    let big = json!({"spec": "x".repeat(40_000), "color": "first"});
    let (s, _, _) = app
        .call("POST", "/api/challenges", Some(&cookie), Some(big))
        .await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    // Malformed JSON gets a client error, not a crash.
    let req = Request::builder()
        .method("POST")
        .uri("/api/signin")
        .header(header::HOST, "localhost")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{not json"))
        .unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    assert!(res.status().is_client_error(), "{}", res.status());
    // Sign-in attempts are limited per address: the quota is 3 a minute and sign-up used one.
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let (s, _, _) = app
            .call(
                "POST",
                "/api/signin",
                None,
                Some(json!({"name": "alice", "password": "nope nope"})),
            )
            .await;
        statuses.push(s);
    }
    assert_eq!(
        statuses,
        [
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
            StatusCode::TOO_MANY_REQUESTS
        ]
    );
    // Unknown routes get JSON errors; pages and assets are served.
    let (s, j, _) = app.call("GET", "/api/nothing", None, None).await;
    assert_eq!(
        (s, j["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not-found"))
    );
    let (s, _, _) = app.call("GET", "/api/games/unknown1", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Ids that cannot be ours are refused before any lookup, with the documented JSON.
    for path in [
        "/api/games/aaaaaaaaaaaaaaaaa",
        "/api/games/ab%2Ecd/ply/1",
        "/api/tournaments/a-b",
        "/api/games/x%20y/export",
    ] {
        let (s, j, _) = app.call("GET", path, None, None).await;
        assert_eq!(
            (s, j["error"]["code"].as_str()),
            (StatusCode::NOT_FOUND, Some("not-found")),
            "{path}"
        );
    }
    let get = async |path: &str, extra: Option<(header::HeaderName, HeaderValue)>| {
        let mut req = Request::builder().uri(path).header(header::HOST, "localhost");
        if let Some((k, v)) = extra {
            req = req.header(k, v);
        }
        app.router
            .clone()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap()
    };
    // Pages carry who is signed in: asked for afresh each time, kept by no shared cache, with a policy
    // that allows their import map by its hash and forbids framing.
    for path in ["/", "/game/abc"] {
        let res = get(path, None).await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(
            res.headers()[header::CACHE_CONTROL],
            "private, no-cache",
            "{path}"
        );
        let csp = res.headers()[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            csp.contains("script-src 'self' 'sha256-") && csp.contains("frame-ancestors 'none'"),
            "{csp}"
        );
        let body = res.into_body().collect().await.unwrap().to_bytes();
        let html = String::from_utf8_lossy(&body);
        assert!(
            html.contains(r#"<script type="importmap">"#) && html.contains(r#"id="boot""#),
            "{path}"
        );
    }
    // A file by its plain name is revalidated (304 with its ETag); by its hashed name it is cached for good.
    for path in ["/assets/app.js", "/assets/board.js", "/assets/style.css"] {
        let res = get(path, None).await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let etag = res.headers().get(header::ETAG).expect("an ETag").clone();
        assert_eq!(
            get(path, Some((header::IF_NONE_MATCH, etag))).await.status(),
            StatusCode::NOT_MODIFIED,
            "{path}"
        );
    }
    let page = get("/", None)
        .await
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes();
    let page = String::from_utf8_lossy(&page).into_owned();
    let hashed = page
        .split(r#"<link rel="modulepreload" href=""#)
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("a preloaded module")
        .to_owned();
    let res = get(
        &hashed,
        Some((header::ACCEPT_ENCODING, HeaderValue::from_static("br, gzip"))),
    )
    .await;
    assert_eq!(res.status(), StatusCode::OK, "{hashed}");
    assert_eq!(
        res.headers()[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(res.headers()[header::CONTENT_ENCODING], "br");
}

on_both_databases! {
#[tokio::test]
async fn finished_games_replay_export_and_import() {
    each_backend("replay", async |url| {
        let app = App::new(url, 1000).await;
        let alice = app.signup("alice").await;
        let (_, j, _) = app.call("POST", "/api/import", Some(&alice), Some(json!({"text": "[Game \"reversi\"]\n[First \"Ann\"]\n[Second \"Ben\"]\n[Result \"0-1\"]\n\nf5d6c3d3c4"}))).await;
        let game = j["game"].as_str().unwrap_or_else(|| panic!("{j}")).to_owned();
        let (s, st, _) = app.call("GET", &format!("/api/games/{game}"), None, None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(st["moves"], json!(["f5", "d6", "c3", "d3", "c4"]));
        assert_eq!(st["movers"], "fsfsf", "who made each move");
        assert_eq!(st["players"][0]["name"], "Ann");
        // The stated result the moves do not reach is kept as a resignation.
        assert_eq!(st["over"]["winner"], "second");
        assert_eq!(st["over"]["termination"], "resignation");
        // Every ply's board comes from the server.
        let (s, p0, _) = app.call("GET", &format!("/api/games/{game}/ply/0"), None, None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(p0["last_move"], Value::Null);
        assert_eq!(p0["view"]["score"], json!({"first": 2, "second": 2}));
        let (_, p1, _) = app.call("GET", &format!("/api/games/{game}/ply/1"), None, None).await;
        assert_eq!(p1["last_move"]["text"], "f5");
        assert_eq!(p1["view"]["score"], json!({"first": 4, "second": 1}));
        let (s, _, _) = app.call("GET", &format!("/api/games/{game}/ply/6"), None, None).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
        // Export writes the transcript back.
        let req = Request::builder().uri(format!("/api/games/{game}/export")).header(header::HOST, "localhost").body(Body::empty()).unwrap();
        let res = app.router.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()[header::CONTENT_DISPOSITION].to_str().unwrap().contains(".txt"));
        let text = String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
        assert!(text.contains("[Result \"0-1\"]") && text.contains("f5d6c3d3c4"), "{text}");
        // The engine analyses the finished game: a score for each position, the start included.
        let (s, _, _) = app.call("GET", &format!("/api/games/{game}/analysis"), None, None).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "analyses need an account");
        let (s, an, _) = app.call("GET", &format!("/api/games/{game}/analysis"), Some(&alice), None).await;
        assert_eq!(s, StatusCode::OK, "{an}");
        assert_eq!(an["scores"].as_array().unwrap().len(), 6);
        assert_eq!(an["marks"].as_array().unwrap().len(), 5);
        assert!(an["scores"].as_array().unwrap().iter().all(|v| v.as_i64().unwrap().abs() <= 3000));
        // Each side's review: an accuracy in percent, and the counts that agree with the marks.
        for (i, side) in an["sides"].as_array().expect("the sides' review").iter().enumerate() {
            let accuracy = side["accuracy"].as_f64().expect("an accuracy");
            assert!((0.0..=100.0).contains(&accuracy), "{an}");
            let counted: u64 = ["inaccuracies", "mistakes", "blunders"]
                .iter()
                .map(|k| side[k].as_u64().unwrap())
                .sum();
            // The first player made moves 1, 3 and 5.
            let marked = an["marks"].as_array().unwrap().iter().skip(i).step_by(2).filter(|m| !m.is_null()).count();
            assert_eq!(counted as usize, marked, "{an}");
        }
        // Bad files are refused with the reason; visitors cannot import.
        let (s, j, _) = app.call("POST", "/api/import", Some(&alice), Some(json!({"text": "f5f5"}))).await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        assert!(j["error"]["message"].as_str().unwrap().contains("move 2"), "{j}");
        let (s, _, _) = app.call("POST", "/api/import", None, Some(json!({"text": "f5"}))).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
        // A PDN file makes a checkers replay.
        let pdn = "[Event \"x\"]\n[Black \"B\"]\n[White \"W\"]\n[Result \"*\"]\n\n1. 9-13 21-17 2. 6-9 17-14 3. 9x18 22x15x6 *";
        let (s, j, _) = app.call("POST", "/api/import", Some(&alice), Some(json!({"text": pdn}))).await;
        assert_eq!(s, StatusCode::OK, "{j}");
        let (_, st, _) = app.call("GET", &format!("/api/games/{}", j["game"].as_str().unwrap()), None, None).await;
        assert_eq!(st["game"], "checkers");
        assert_eq!(st["moves"].as_array().unwrap().len(), 6);
        assert_eq!(st["over"], Value::Null);
        // An imported file is not in play: the engine analyses it, finished or not.
        let (s, j, _) = app.call("GET", &format!("/api/games/{}/analysis", st["id"].as_str().unwrap()), Some(&alice), None).await;
        assert_eq!(s, StatusCode::OK, "{j}");
        assert_eq!(j["scores"].as_array().unwrap().len(), 7, "{j}");
    })
    .await;
}
}

#[tokio::test]
async fn hints_are_for_the_player_to_move() {
    let app = App::new("sqlite::memory:", 1000).await;
    let (alice, bob) = (app.signup("alice").await, app.signup("bob").await);
    let (_, c, _) = app
        .call(
            "POST",
            "/api/challenges",
            Some(&alice),
            Some(json!({"spec": "reversi", "color": "first", "help": true})),
        )
        .await;
    let (_, g, _) = app
        .call(
            "POST",
            &format!("/api/challenges/{}/accept", c["id"].as_str().unwrap()),
            Some(&bob),
            Some(json!({})),
        )
        .await;
    let game = g["game"].as_str().unwrap();
    let (s, h, _) = app
        .call("GET", &format!("/api/games/{game}/hint"), Some(&alice), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{h}");
    assert!(
        ["d3", "c4", "f5", "e6"].contains(&h["move"].as_str().unwrap()),
        "{h}"
    );
    let (s, h, _) = app
        .call("GET", &format!("/api/games/{game}/hint"), Some(&bob), None)
        .await;
    assert_eq!(
        (s, h["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("not-your-turn"))
    );
    let carol = app.signup("carol").await;
    let (s, h, _) = app
        .call("GET", &format!("/api/games/{game}/hint"), Some(&carol), None)
        .await;
    assert_eq!(
        (s, h["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("not-a-player"))
    );
    let (s, _, _) = app
        .call("GET", &format!("/api/games/{game}/hint"), None, None)
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

on_both_databases! {
#[tokio::test]
async fn account_password_change_signout_everywhere_and_deletion() {
    each_backend("account", async |url| {
        let app = App::new(url, 1000).await;
        let here = app.signup("Carol").await;
        let (_, _, there) = app
            .call(
                "POST",
                "/api/signin",
                None,
                Some(json!({"name": "Carol", "password": "correct horse"})),
            )
            .await;
        let there = there.expect("a second session");
        let me = async |cookie: &str| {
            app.call("GET", "/api/me", Some(cookie), None).await.1["user"]["name"].clone()
        };
        // A wrong present password is refused; a right one changes it and ends the other session only.
        let password = "/api/account/password";
        let wrong = json!({"old": "wrong horse", "new": "battery staple"});
        assert_eq!(
            app.post_code(password, &here, wrong).await,
            (StatusCode::FORBIDDEN, Some("bad-credentials".into()))
        );
        let short = json!({"old": "correct horse", "new": "short"});
        assert_eq!(
            app.post_code(password, &here, short).await,
            (StatusCode::BAD_REQUEST, Some("bad-password".into()))
        );
        let (s, j, _) = app
            .call(
                "POST",
                "/api/account/password",
                Some(&here),
                Some(json!({"old": "correct horse", "new": "battery staple"})),
            )
            .await;
        assert_eq!(
            (s, &j["other_sessions_ended"]),
            (StatusCode::OK, &json!(1)),
            "{j}"
        );
        assert_eq!(me(&here).await, "Carol");
        assert_eq!(me(&there).await, Value::Null);
        let signin = async |password: &str| {
            app.call(
                "POST",
                "/api/signin",
                None,
                Some(json!({"name": "Carol", "password": password})),
            )
            .await
        };
        assert_eq!(signin("correct horse").await.0, StatusCode::UNAUTHORIZED);
        let (s, _, third) = signin("battery staple").await;
        assert_eq!(s, StatusCode::OK);
        // Signing out everywhere ends every session, this one included.
        let (s, _, _) = app
            .call("POST", "/api/account/signout-everywhere", Some(&here), None)
            .await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(me(&here).await, Value::Null);
        assert_eq!(me(&third.expect("cookie")).await, Value::Null);
        // Deleting: the password is required; afterwards no sign-in works, the name is free, and a game the
        // user played is still there under a deleted player's name.
        let (_, _, c) = signin("battery staple").await;
        let carol = c.expect("cookie");
        let dave = app.signup("Dave").await;
        let (_, ch, _) = app
            .call(
                "POST",
                "/api/challenges",
                Some(&carol),
                Some(json!({"spec": "reversi", "color": "first", "opponent": "Dave"})),
            )
            .await;
        let (s, g, _) = app
            .call(
                "POST",
                &format!("/api/challenges/{}/accept", ch["id"].as_str().expect("id")),
                Some(&dave),
                Some(json!({})),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{g}");
        let (s, j, _) = app
            .call(
                "POST",
                "/api/account/delete",
                Some(&carol),
                Some(json!({"password": "wrong horse"})),
            )
            .await;
        assert_eq!(
            (s, j["error"]["code"].as_str()),
            (StatusCode::FORBIDDEN, Some("bad-credentials"))
        );
        let (s, _, _) = app
            .call(
                "POST",
                "/api/account/delete",
                Some(&carol),
                Some(json!({"password": "battery staple"})),
            )
            .await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(me(&carol).await, Value::Null);
        assert_eq!(signin("battery staple").await.0, StatusCode::UNAUTHORIZED);
        let (_, games, _) = app.call("GET", "/api/my-games", Some(&dave), None).await;
        let names = games["active"][0]["players"].to_string();
        assert!(names.contains("deleted-") && names.contains("Dave"), "{games}");
        let (s, _, _) = app
            .call(
                "POST",
                "/api/signup",
                None,
                Some(json!({"name": "Carol", "password": "a new one!"})),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "the name is free again");
        let (s, j, _) = app
            .call(
                "POST",
                "/api/signup",
                None,
                Some(json!({"name": "Deleted-x", "password": "a new one!"})),
            )
            .await;
        assert_eq!(
            (s, j["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad-name"))
        );
    })
    .await;
}
}

/// The army builder's question: whether a spec makes a game, and each army setting clause by clause (the
/// army in force, the default where none is given, and the second army copying the first).
#[tokio::test]
async fn a_spec_is_checked_clause_by_clause_as_it_is_edited() {
    let app = App::new("sqlite::memory:", 1000).await;
    let check = async |spec: &str| {
        app.call("POST", "/api/specs/check", None, Some(json!({"spec": spec})))
            .await
    };
    let (s, j, _) = check("tactics:size=24").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        (j["ok"].as_bool(), j["spec"].as_str()),
        (Some(true), Some("tactics:size=24")),
        "{j}"
    );
    assert_eq!(
        j["armies"]["army"]["value"], "wwwhhhaaa",
        "the default army of 24x24"
    );
    assert_eq!(
        j["armies"]["army"]["met"],
        json!([true, true, true, true, true, true])
    );
    let (_, j, _) = check("tactics:army=wwwwhhaa").await;
    assert_eq!(j["ok"], false);
    assert!(
        j["error"]
            .as_str()
            .unwrap()
            .starts_with("Grid Tactics: First player's army cannot be"),
        "{j}"
    );
    // Eight units, four warriors: every clause met but the last.
    assert_eq!(
        j["armies"]["army"]["met"],
        json!([true, true, true, true, true, false])
    );
    assert_eq!(
        j["armies"]["army2"]["value"], "wwwwhhaa",
        "the second army copies the first"
    );
    let (_, j, _) = check("tactics:army=xyz").await;
    assert_eq!(
        (j["armies"]["army"]["value"].as_str(), j["ok"].as_bool()),
        (Some(""), Some(false))
    );
    let (_, j, _) = check("reversi").await;
    assert_eq!(
        (j["ok"].as_bool(), j["armies"].as_object().map(|a| a.len())),
        (Some(true), Some(0))
    );
    let (s, j, _) = check("re versi").await;
    assert_eq!(
        (s, j["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-spec"))
    );
}
