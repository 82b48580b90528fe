//! The HTTP API in process (no socket), for the HTTP tests: a router on a fresh database, and a call helper.

use axum::{
    Router,
    body::Body,
    http::{Request, StatusCode, header},
};
use gridplay_server::{AppState, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// The server's router on its own database.
pub struct App {
    pub router: Router,
}

impl App {
    pub async fn new(url: &str, auth_per_minute: u32) -> App {
        let mut config = super::config(url);
        config.auth_per_minute = auth_per_minute;
        let state = AppState::new(config).await.expect("state");
        App {
            router: router(state),
        }
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value, Option<String>) {
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "localhost");
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c);
        }
        let body = match body {
            Some(b) => {
                req = req.header(header::CONTENT_TYPE, "application/json");
                Body::from(b.to_string())
            }
            None => Body::empty(),
        };
        let res = self
            .router
            .clone()
            .oneshot(req.body(body).expect("request"))
            .await
            .expect("response");
        let status = res.status();
        let cookie = res
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("gp_session="))
            .map(|v| v.split(';').next().unwrap_or_default().to_owned());
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if !json.is_null() {
            super::contract::check(method, path, status.as_u16(), &json);
        }
        (status, json, cookie)
    }

    /// The status and error code of a POST.
    pub async fn post_code(&self, path: &str, cookie: &str, body: Value) -> (StatusCode, Option<String>) {
        let (s, j, _) = self.call("POST", path, Some(cookie), Some(body)).await;
        (s, j["error"]["code"].as_str().map(str::to_owned))
    }

    pub async fn signup(&self, name: &str) -> String {
        let (s, j, c) = self
            .call(
                "POST",
                "/api/signup",
                None,
                Some(json!({"name": name, "password": "correct horse"})),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{j}");
        c.expect("cookie")
    }
}

/// Runs `f` on each database of [`super::databases`], dropping the PostgreSQL one afterwards.
pub async fn each_backend(tag: &str, f: impl AsyncFn(&str)) {
    for (url, pg) in super::databases(tag).await {
        f(&url).await;
        super::drop_database(pg).await;
    }
}
