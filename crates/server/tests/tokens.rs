//! Personal API tokens, on SQLite and PostgreSQL: made on the account with a name and scopes, shown once and
//! kept hashed, sent as `Authorization: Bearer`, refused where the route needs a scope the token lacks, where
//! the route takes the session only, and once revoked or the account closed.

#[macro_use]
mod support;

use gridplay_server::db::{Act, ModKind};
use serde_json::json;
use support::{error_code, http, post, signup, with_token};

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_act_within_their_scopes_until_revoked() {
    for (url, pg) in support::databases("tokens").await {
        let server = gridplay_server::start(support::config(&url))
            .await
            .expect("server");
        let addr = server.addr;
        let db = server.state.db.clone();
        let ann = signup(addr, "ann").await;
        signup(addr, "ben").await;

        // Made with a name and scopes; the token is in the answer and nowhere else.
        let r = post(
            addr,
            "/api/account/tokens",
            &ann,
            json!({"name": "my bot", "scopes": ["read"]}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let made = r.json();
        let reader = made["token"].as_str().unwrap().to_owned();
        assert!(reader.starts_with("gp_") && reader.len() == 67, "{reader}");
        assert_eq!(made["scopes"], json!(["read"]));
        let r = post(
            addr,
            "/api/account/tokens",
            &ann,
            json!({"name": "player", "scopes": ["play", "read", "play"]}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let player = r.json()["token"].as_str().unwrap().to_owned();
        assert_eq!(r.json()["scopes"], json!(["read", "play"]));
        let list = http(addr, "GET", "/api/account/tokens", Some(&ann), None).await;
        assert_eq!(list.status, 200);
        assert_eq!(list.json()["tokens"].as_array().unwrap().len(), 2);
        assert!(
            !list.body.contains(&reader) && !list.body.contains(&player[3..]),
            "{}",
            list.body
        );
        assert_eq!(list.json()["tokens"][1]["name"], "my bot");

        // Bad names and scopes are refused with the reason; `admin` is for admins.
        for (body, status, want) in [
            (json!({"name": "", "scopes": ["read"]}), 400, "bad-name"),
            (json!({"name": "x\u{202e}", "scopes": ["read"]}), 400, "bad-name"),
            (json!({"name": "x", "scopes": []}), 400, "bad-scope"),
            (json!({"name": "x", "scopes": ["fly"]}), 400, "bad-scope"),
            (json!({"name": "x", "scopes": ["admin"]}), 403, "not-admin"),
        ] {
            let r = post(addr, "/api/account/tokens", &ann, body.clone()).await;
            assert_eq!(error_code(&r), (status, want.to_owned()), "{body}: {}", r.body);
        }

        // A read token reads as its user, and plays nothing.
        let me = with_token(addr, "GET", "/api/me", &reader, None).await;
        assert_eq!(me.json()["user"]["name"], "ann", "{}", me.body);
        let mine = with_token(addr, "GET", "/api/my-games", &reader, None).await;
        assert_eq!(mine.status, 200, "{}", mine.body);
        let challenge = json!({"spec": "reversi", "color": "first", "opponent": "ben"});
        let r = with_token(addr, "POST", "/api/challenges", &reader, Some(challenge.clone())).await;
        assert_eq!(error_code(&r), (403, "token-scope".to_owned()), "{}", r.body);
        assert!(r.body.contains("“play”"), "{}", r.body);
        // Even a route that needs no sign-in refuses a token short of its scope.
        let r = post(
            addr,
            "/api/account/tokens",
            &ann,
            json!({"name": "play only", "scopes": ["play"]}),
        )
        .await;
        let play_only = r.json()["token"].as_str().unwrap().to_owned();
        let r = with_token(addr, "GET", "/api/catalog", &play_only, None).await;
        assert_eq!(error_code(&r), (403, "token-scope".to_owned()), "{}", r.body);
        let r = with_token(addr, "GET", "/api/catalog", &reader, None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        // A play token challenges.
        let r = with_token(addr, "POST", "/api/challenges", &player, Some(challenge.clone())).await;
        assert_eq!(r.status, 200, "{}", r.body);
        // No token changes the password, deletes the account or makes tokens.
        for (path, body) in [
            (
                "/api/account/password",
                json!({"old": "password-ann", "new": "password-new"}),
            ),
            ("/api/account/delete", json!({"password": "password-ann"})),
            ("/api/account/tokens", json!({"name": "more", "scopes": ["read"]})),
        ] {
            let r = with_token(addr, "POST", path, &player, Some(body)).await;
            assert_eq!(
                error_code(&r),
                (403, "token-refused".to_owned()),
                "{path}: {}",
                r.body
            );
        }
        let r = with_token(addr, "GET", "/api/admin/reports", &player, None).await;
        assert_eq!(error_code(&r), (403, "token-scope".to_owned()), "{}", r.body);
        // An unknown token is refused, not taken for a visitor.
        let r = with_token(addr, "GET", "/api/me", "gp_nothing", None).await;
        assert_eq!(error_code(&r), (401, "bad-token".to_owned()), "{}", r.body);

        // Revoked: refused from the next request on.
        let id = list.json()["tokens"][1]["id"].as_str().unwrap().to_owned();
        let r = post(addr, &format!("/api/account/tokens/{id}/revoke"), &ann, json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let r = with_token(addr, "GET", "/api/me", &reader, None).await;
        assert_eq!(error_code(&r), (401, "bad-token".to_owned()));
        let r = post(addr, &format!("/api/account/tokens/{id}/revoke"), &ann, json!({})).await;
        assert_eq!(error_code(&r), (404, "not-found".to_owned()));

        // An admin's token with the admin scope reads the queue.
        let dee = signup(addr, "dee").await;
        let dee_id = db.user_named("dee").await.unwrap().unwrap().id;
        db.moderate(&dee_id, None, &Act::new(ModKind::Grant, "admin"))
            .await
            .unwrap();
        let r = post(
            addr,
            "/api/account/tokens",
            &dee,
            json!({"name": "mod tools", "scopes": ["admin"]}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let admin = r.json()["token"].as_str().unwrap().to_owned();
        let r = with_token(addr, "GET", "/api/admin/reports", &admin, None).await;
        assert_eq!(r.status, 200, "{}", r.body);

        // A closed account's tokens stop.
        let ann_id = db.user_named("ann").await.unwrap().unwrap().id;
        db.moderate(&ann_id, None, &Act::new(ModKind::Close, "spam"))
            .await
            .unwrap();
        let r = with_token(addr, "GET", "/api/me", &player, None).await;
        assert_eq!(error_code(&r), (401, "bad-token".to_owned()));

        // At most 20 at once.
        let ben = support::http(
            addr,
            "POST",
            "/api/signin",
            None,
            Some(r#"{"name":"ben","password":"password-ben"}"#),
        )
        .await
        .cookie()
        .unwrap();
        for i in 0..20 {
            let r = post(
                addr,
                "/api/account/tokens",
                &ben,
                json!({"name": format!("t{i}"), "scopes": ["read"]}),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let r = post(
            addr,
            "/api/account/tokens",
            &ben,
            json!({"name": "one more", "scopes": ["read"]}),
        )
        .await;
        assert_eq!(error_code(&r), (429, "too-many".to_owned()), "{}", r.body);

        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
