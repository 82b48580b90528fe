//! Moderation, on SQLite and PostgreSQL: reports by players, the admins' queue, and each action on an account
//! with what it must do (a warning the player reads, a mute with its end, a neutral name, an engine user off
//! the leaderboards, a closed account signed out everywhere and refused at sign-in), each recorded with its
//! admin and reason.

#[macro_use]
mod support;

use gridplay_server::db::{Act, ModKind};
use serde_json::{Value, json};
use support::{http, post, recv_until, send, signup};

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_reach_the_queue_and_each_action_does_what_it_says() {
    for (url, pg) in support::databases("moderation").await {
        let server = gridplay_server::start(support::config(&url))
            .await
            .expect("server");
        let addr = server.addr;
        let db = server.state.db.clone();
        let ann = signup(addr, "ann").await;
        let ben = signup(addr, "ben").await;
        let cyd = signup(addr, "cyd").await;
        let modr = signup(addr, "mod").await;
        // No one is an admin until the operator says so.
        let r = http(addr, "GET", "/api/admin/reports", Some(&modr), None).await;
        assert_eq!(
            (r.status, r.json()["error"]["code"].clone()),
            (403, json!("not-admin")),
            "{}",
            r.body
        );
        let m = db.standing("mod").await.unwrap().unwrap();
        db.moderate(&m.id, None, &Act::new(ModKind::Grant, "the first admin"))
            .await
            .unwrap();

        // A rated game Ann wins: she is on the leaderboard.
        let game = support::game_between(
            addr,
            &ann,
            &ben,
            &json!({"spec": "reversi", "color": "first", "opponent": "ben", "rated": true}),
        )
        .await;
        let mut ws = support::socket(addr, Some(&ben)).await;
        send(&mut ws, json!({"t": "resign", "game": game, "ack": "r1"})).await;
        assert_eq!(recv_until(&mut ws, "ack").await["ack"], "r1");
        let board = http(addr, "GET", "/api/leaderboard/reversi", None, None)
            .await
            .json();
        assert!(board["players"].to_string().contains("\"ann\""), "{board}");
        let profile = http(addr, "GET", "/api/players/ann", None, None).await.json();
        assert_eq!(profile["recent"][0]["flagged"], false, "{profile}");

        // Ben reports Ann's conduct in that game; he cannot report himself, nor with an empty or hidden reason,
        // nor about a game she did not play.
        let r = post(
            addr,
            "/api/reports",
            &ben,
            json!({"user": "ann", "game": game, "reason": "She insulted me in the game."}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let report = r.json()["id"].as_str().unwrap().to_owned();
        for (body, status, code) in [
            (json!({"user": "ben", "reason": "me"}), 400, "own-report"),
            (json!({"user": "ann", "reason": "  "}), 400, "bad-reason"),
            (json!({"user": "ann", "reason": "a\u{202e}b"}), 400, "bad-reason"),
            (
                json!({"user": "cyd", "game": game, "reason": "x"}),
                400,
                "not-in-game",
            ),
            (json!({"user": "nobody", "reason": "x"}), 404, "not-found"),
        ] {
            let r = post(addr, "/api/reports", &ben, body.clone()).await;
            assert_eq!(
                (r.status, r.json()["error"]["code"].as_str().unwrap_or("")),
                (status, code),
                "{body}: {}",
                r.body
            );
        }
        // The queue shows the report with Ann's standing; only to admins.
        let r = http(addr, "GET", "/api/admin/reports", Some(&cyd), None).await;
        assert_eq!(r.status, 403, "{}", r.body);
        let q = http(addr, "GET", "/api/admin/reports", Some(&modr), None)
            .await
            .json();
        let reports = q["reports"].as_array().unwrap();
        assert_eq!(reports.len(), 1, "{q}");
        assert_eq!(reports[0]["report"]["reporter"], "ben");
        assert_eq!(reports[0]["report"]["user"], "ann");
        assert_eq!(reports[0]["report"]["game"], json!(game));
        assert_eq!(reports[0]["account"]["name"], "ann");
        assert_eq!(reports[0]["account"]["engine"], false);

        // Warn: recorded with the admin and the reason, and Ann reads it (without the admin's name).
        let act = |kind: &str, extra: Value| {
            let mut body = json!({"kind": kind, "reason": format!("{kind}: as reported")});
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            body
        };
        let r = post(
            addr,
            "/api/admin/users/ann/actions",
            &modr,
            act("warn", json!({})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["history"][0]["admin"], "mod");
        let mine = http(addr, "GET", "/api/account/moderation", Some(&ann), None)
            .await
            .json();
        assert_eq!(mine["history"][0]["kind"], "warn", "{mine}");
        assert_eq!(mine["history"][0]["reason"], "warn: as reported");
        assert!(mine["history"][0]["admin"].is_null(), "{mine}");
        // Mute: for the minutes given, 1 to 30 days' worth.
        for bad in [json!({}), json!({"minutes": 0}), json!({"minutes": 43_201})] {
            let r = post(addr, "/api/admin/users/ann/actions", &modr, act("mute", bad)).await;
            assert_eq!(r.json()["error"]["code"], "bad-minutes", "{}", r.body);
        }
        let before = gridplay_server::db::now_ms();
        let r = post(
            addr,
            "/api/admin/users/ann/actions",
            &modr,
            act("mute", json!({"minutes": 10})),
        )
        .await
        .json();
        let until = r["muted_until"].as_i64().unwrap();
        assert!((before + 600_000..before + 660_000).contains(&until), "{r}");
        assert_eq!(r["history"][0]["detail"], "10 minutes");
        // Engine user: off the leaderboard, marked on the profile, the rated game kept.
        let r = post(
            addr,
            "/api/admin/users/ann/actions",
            &modr,
            act("engine", json!({})),
        )
        .await;
        assert_eq!(r.json()["engine"], true, "{}", r.body);
        let board = http(addr, "GET", "/api/leaderboard/reversi", None, None)
            .await
            .json();
        assert!(!board["players"].to_string().contains("\"ann\""), "{board}");
        let profile = http(addr, "GET", "/api/players/ann", None, None).await.json();
        assert_eq!(profile["engine"], true);
        assert_eq!(profile["recent"].as_array().unwrap().len(), 1, "{profile}");
        assert_eq!(
            profile["recent"][0]["flagged"], true,
            "the rated game is kept and flagged: {profile}"
        );
        let ben_games = http(addr, "GET", "/api/players/ben", None, None).await.json();
        assert_eq!(ben_games["recent"][0]["flagged"], true, "{ben_games}");
        // Rename: a neutral name; the old one is free and Ann's session goes on under the new one.
        let r = post(
            addr,
            "/api/admin/users/ann/actions",
            &modr,
            act("rename", json!({})),
        )
        .await
        .json();
        let new_name = r["name"].as_str().unwrap().to_owned();
        assert!(new_name.starts_with("player-"), "{r}");
        assert_eq!(r["history"][0]["detail"], format!("ann → {new_name}"));
        let me = http(addr, "GET", "/api/me", Some(&ann), None).await.json();
        assert_eq!(me["user"]["name"], json!(new_name));
        assert_eq!(
            http(addr, "GET", "/api/players/ann", None, None).await.status,
            404
        );
        // Unknown actions, a closed account and one's own are refused with a sentence.
        let r = post(
            addr,
            &format!("/api/admin/users/{new_name}/actions"),
            &modr,
            act("ban-forever", json!({})),
        )
        .await;
        assert_eq!(r.json()["error"]["code"], "bad-action", "{}", r.body);
        let r = post(
            addr,
            "/api/admin/users/mod/actions",
            &modr,
            act("warn", json!({})),
        )
        .await;
        assert_eq!(r.json()["error"]["code"], "own-account", "{}", r.body);

        // Close Cyd's account: her sessions end, her open challenge is cancelled, and she cannot sign in.
        let r = post(
            addr,
            "/api/challenges",
            &cyd,
            json!({"spec": "reversi", "color": "first"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let challenge = r.json()["id"].as_str().unwrap().to_owned();
        let mut cyd_page = support::socket(addr, Some(&cyd)).await;
        let r = post(
            addr,
            "/api/admin/users/cyd/actions",
            &modr,
            act("close", json!({})),
        )
        .await
        .json();
        assert_eq!(r["closed"], true, "{r}");
        // Her open page hears it, and its socket ends: it acts no more.
        recv_until(&mut cyd_page, "signed-out").await;
        let end = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            futures_util::StreamExt::next(&mut cyd_page),
        )
        .await
        .expect("the socket ends");
        assert!(
            matches!(
                end,
                None | Some(Err(_)) | Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_)))
            ),
            "{end:?}"
        );
        let me = http(addr, "GET", "/api/me", Some(&cyd), None).await.json();
        assert!(me["user"].is_null(), "{me}");
        assert_eq!(
            db.challenge(&challenge).await.unwrap().unwrap().status,
            gridplay_server::db::ChallengeStatus::Cancelled
        );
        let r = http(
            addr,
            "POST",
            "/api/signin",
            None,
            Some(r#"{"name":"cyd","password":"password-cyd"}"#),
        )
        .await;
        assert_eq!(
            (r.status, r.json()["error"]["code"].clone()),
            (403, json!("account-closed")),
            "{}",
            r.body
        );
        let r = http(
            addr,
            "POST",
            "/api/signin",
            None,
            Some(r#"{"name":"cyd","password":"wrong-password"}"#),
        )
        .await;
        assert_eq!(
            r.json()["error"]["code"],
            "bad-credentials",
            "a wrong password learns nothing of the account"
        );
        let r = post(
            addr,
            "/api/admin/users/cyd/actions",
            &modr,
            act("warn", json!({})),
        )
        .await;
        assert_eq!(r.json()["error"]["code"], "account-closed", "{}", r.body);

        // Closing the report takes it off the queue and goes on the account's history.
        let r = post(
            addr,
            &format!("/api/admin/reports/{report}/close"),
            &modr,
            json!({"reason": "warned and muted"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let q = http(addr, "GET", "/api/admin/reports", Some(&modr), None)
            .await
            .json();
        assert_eq!(q["reports"], json!([]), "{q}");
        let r = post(
            addr,
            &format!("/api/admin/reports/{report}/close"),
            &modr,
            json!({"reason": "again"}),
        )
        .await;
        assert_eq!(r.status, 404, "{}", r.body);
        let standing = http(
            addr,
            "GET",
            &format!("/api/admin/users/{new_name}"),
            Some(&modr),
            None,
        )
        .await
        .json();
        let kinds: Vec<&str> = standing["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["kind"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds,
            ["close-report", "rename", "engine", "mute", "warn"],
            "{standing}"
        );
        assert!(
            standing["history"]
                .as_array()
                .unwrap()
                .iter()
                .all(|a| a["admin"] == "mod"),
            "{standing}"
        );
        assert_eq!(standing["reports"][0]["closed"], true);
        // The grant came from the command line: recorded with no admin.
        let own = http(addr, "GET", "/api/admin/users/mod", Some(&modr), None)
            .await
            .json();
        assert_eq!(own["history"][0]["kind"], "grant");
        assert!(own["history"][0]["admin"].is_null(), "{own}");

        // At most ten reports an hour from one player.
        for k in 0..9 {
            let r = post(
                addr,
                "/api/reports",
                &ben,
                json!({"user": new_name, "reason": format!("report {k}")}),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let r = post(
            addr,
            "/api/reports",
            &ben,
            json!({"user": new_name, "reason": "one more"}),
        )
        .await;
        assert_eq!(
            (r.status, r.json()["error"]["code"].clone()),
            (429, json!("too-many")),
            "{}",
            r.body
        );
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
