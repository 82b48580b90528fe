//! The HTTP API's words and forms, in process (no socket): the catalog and rules in each language, free text,
//! the one JSON error format, and compression. Each test runs on SQLite and, when configured, PostgreSQL.

#[macro_use]
mod support;

use axum::{
    body::Body,
    http::{Request, StatusCode, header},
};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::app::{App, each_backend};
use tower::ServiceExt;

on_both_databases! {
#[tokio::test]
async fn the_catalog_and_rules_speak_the_asked_language() {
    each_backend("language", async |url| {
        let app = App::new(url, 1000).await;
        let (_, en, _) = app.call("GET", "/api/catalog", None, None).await;
        let (_, ja, _) = app.call("GET", "/api/catalog?lang=ja", None, None).await;
        let reversi = |c: &Value| {
            c["games"]
                .as_array()
                .expect("games")
                .iter()
                .find(|g| g["name"] == "reversi")
                .cloned()
                .expect("reversi")
        };
        assert_eq!(
            (en["language"].as_str(), reversi(&en)["title"].as_str()),
            (Some("en"), Some("Reversi"))
        );
        assert_eq!(
            (ja["language"].as_str(), reversi(&ja)["title"].as_str()),
            (Some("ja"), Some("リバーシ"))
        );
        assert_eq!(reversi(&ja)["sides"][0]["name"], "黒");
        assert_eq!(reversi(&ja)["words"]["White"], "白");
        assert_eq!(reversi(&en)["words"], json!({}));
        let (_, rules, _) = app.call("GET", "/api/rules/ywf?lang=ja", None, None).await;
        assert_eq!(rules["language"], "ja");
        assert!(
            rules["html"].as_str().expect("html").contains("良い子"),
            "{}",
            rules["html"]
        );
        assert!(
            rules["examples"][0]["title"]
                .as_str()
                .expect("title")
                .contains("はじめ")
        );
    })
    .await;
}
}

on_both_databases! {
#[tokio::test]
async fn free_text_is_normalized_and_refused_when_it_hides_something() {
    each_backend("text", async |url| {
        let app = App::new(url, 1000).await;
        let alice = app.signup("alice").await;
        let tournament = |name: &str| json!({"name": name, "spec": "reversi", "kind": "swiss"});
        for name in [
            "   ",
            "\u{200B}",
            "Official \u{202E}tnemanruot\u{202C} by admin",
            &"x".repeat(61),
        ] {
            let (s, j, _) = app
                .call("POST", "/api/tournaments", Some(&alice), Some(tournament(name)))
                .await;
            assert_eq!(
                (s, j["error"]["code"].as_str()),
                (StatusCode::BAD_REQUEST, Some("bad-name")),
                "{name:?}: {j}"
            );
        }
        let (s, j, _) = app
            .call(
                "POST",
                "/api/tournaments",
                Some(&alice),
                Some(tournament("  Cafe\u{301} Swiss ")),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{j}");
        let (_, t, _) = app
            .call(
                "GET",
                &format!("/api/tournaments/{}", j["id"].as_str().expect("id")),
                None,
                None,
            )
            .await;
        assert_eq!(t["name"], "Café Swiss");
        // An imported game's player names are shown to others: the same rule.
        let file = "[Game \"reversi\"]\n[First \"Ann\u{202E}\"]\n[Second \"Ben\"]\n\nf5d6";
        let (s, j, _) = app
            .call("POST", "/api/import", Some(&alice), Some(json!({"text": file})))
            .await;
        assert_eq!(
            (s, j["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad-file")),
            "{j}"
        );
        assert!(
            j["error"]["message"]
                .as_str()
                .expect("message")
                .contains("first player's name"),
            "{j}"
        );
    })
    .await;
}
}

impl App {
    /// A request with these headers: the status, the response's headers and its body as sent.
    async fn raw(
        &self,
        method: &str,
        path: &str,
        headers: &[(header::HeaderName, &str)],
        body: &str,
    ) -> (StatusCode, header::HeaderMap, Vec<u8>) {
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "localhost");
        for (k, v) in headers {
            req = req.header(k, *v);
        }
        let res = self
            .router
            .clone()
            .oneshot(req.body(Body::from(body.to_owned())).expect("request"))
            .await
            .expect("response");
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        (status, headers, bytes.to_vec())
    }
}

/// A request (method, path, headers, body) and the status and error code it must get.
type Case<'a> = (
    &'a str,
    &'a str,
    Vec<(header::HeaderName, &'a str)>,
    String,
    StatusCode,
    &'a str,
);

#[tokio::test]
async fn every_rejection_answers_the_documented_json() {
    let app = App::new("sqlite::memory:", 100).await;
    let cookie = app.signup("alice").await;
    let json_type = (header::CONTENT_TYPE, "application/json");
    let with_cookie = (header::COOKIE, cookie.as_str());
    let cases: Vec<Case<'_>> = vec![
        (
            "GET",
            "/api/nothing",
            vec![],
            String::new(),
            StatusCode::NOT_FOUND,
            "not-found",
        ),
        (
            "GET",
            "/no/such/page",
            vec![],
            String::new(),
            StatusCode::NOT_FOUND,
            "not-found",
        ),
        (
            "GET",
            "/assets/nothing.js",
            vec![],
            String::new(),
            StatusCode::NOT_FOUND,
            "not-found",
        ),
        (
            "GET",
            "/api/signin",
            vec![],
            String::new(),
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
        ),
        (
            "POST",
            "/api/signin",
            vec![json_type.clone()],
            "{not json".into(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "POST",
            "/api/signin",
            vec![],
            r#"{"name":"a","password":"b"}"#.into(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-media-type",
        ),
        (
            "POST",
            "/api/signin",
            vec![json_type.clone()],
            r#"{"name":"a"}"#.into(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad-body",
        ),
        (
            "POST",
            "/api/challenges",
            vec![json_type.clone(), with_cookie.clone()],
            format!(r#"{{"spec":"{}","color":"first"}}"#, "x".repeat(40_000)),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
        ),
        (
            "GET",
            "/ws",
            vec![],
            String::new(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
    ];
    for (method, path, headers, body, status, code) in cases {
        let (s, h, bytes) = app.raw(method, path, &headers, &body).await;
        let j: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            panic!(
                "{method} {path}: not JSON ({e}): {}",
                String::from_utf8_lossy(&bytes)
            )
        });
        assert_eq!(
            (s, j["error"]["code"].as_str()),
            (status, Some(code)),
            "{method} {path}: {j}"
        );
        assert!(
            j["error"]["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{method} {path}: {j}"
        );
        assert!(
            h.get(header::CONTENT_TYPE)
                .is_some_and(|v| v.as_bytes().starts_with(b"application/json")),
            "{method} {path}"
        );
    }
    // A browser that navigates to an unknown address gets the site's page (which says it is not found) with 404.
    let (s, h, bytes) = app
        .raw("GET", "/no/such/page", &[(header::ACCEPT, "text/html,*/*")], "")
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(h[header::CONTENT_TYPE].as_bytes().starts_with(b"text/html"));
    assert!(String::from_utf8_lossy(&bytes).contains("/assets/app.js"));
    // No other site may frame a page.
    let (_, h, _) = app.raw("GET", "/", &[], "").await;
    let csp = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap_or_default();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
}

#[tokio::test]
async fn responses_are_compressed_when_the_client_accepts_it() {
    let app = App::new("sqlite::memory:", 100).await;
    let (_, plain_headers, plain) = app.raw("GET", "/assets/app.js", &[], "").await;
    assert!(plain_headers.get(header::CONTENT_ENCODING).is_none());
    for encoding in ["gzip", "br"] {
        for path in ["/assets/app.js", "/api/catalog"] {
            let (s, h, bytes) = app
                .raw("GET", path, &[(header::ACCEPT_ENCODING, encoding)], "")
                .await;
            assert_eq!(s, StatusCode::OK);
            assert_eq!(
                h.get(header::CONTENT_ENCODING).and_then(|v| v.to_str().ok()),
                Some(encoding),
                "{path}"
            );
            if path == "/assets/app.js" {
                assert!(
                    bytes.len() * 2 < plain.len(),
                    "{encoding}: {} of {} bytes",
                    bytes.len(),
                    plain.len()
                );
            }
        }
    }
}
