//! The OpenAPI document at `/api/openapi.json`: it is OpenAPI 3, each of its references names a schema it
//! holds, and every route of the server is in it: each operation it lists is answered by a handler (not the
//! router's "no such route" nor 405), and no route is added to the router outside the document's list.

mod support;

use std::collections::BTreeSet;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::app::App;

/// Every `$ref` in `v`.
fn refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                out.push(r);
            }
            m.values().for_each(|x| refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

/// A concrete address for a documented path: each parameter filled with a value of its kind.
fn fill(path: &str) -> String {
    path.replace("{id}", "abcdefgh")
        .replace("{n}", "0")
        .replace("{game}", "reversi")
        .replace("{name}", "Nobody")
        .replace("{path}", "no-such-file.js")
}

async fn document(app: &App) -> Value {
    let (status, doc, _) = app.call("GET", "/api/openapi.json", None, None).await;
    assert_eq!(status, StatusCode::OK);
    doc
}

#[tokio::test]
async fn the_document_is_openapi_3_and_its_references_resolve() {
    let dir = tempdir("refs");
    let app = App::new(&format!("sqlite://{dir}/db.sqlite"), 1000).await;
    let doc = document(&app).await;
    assert!(
        doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")),
        "{}",
        doc["openapi"]
    );
    assert_eq!(doc["info"]["title"], "gridplay");
    let schemas = doc["components"]["schemas"].as_object().expect("schemas");
    for name in [
        "GameState",
        "BoardView",
        "ErrorBody",
        "Catalog",
        "NewChallenge",
        "TimeInput",
    ] {
        assert!(schemas.contains_key(name), "{name} is described");
    }
    let mut all = Vec::new();
    refs(&doc, &mut all);
    assert!(
        all.len() > 50,
        "the answers name their schemas: {} references",
        all.len()
    );
    for r in all {
        let name = r
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("{r}"));
        assert!(schemas.contains_key(name), "{r} names no schema of the document");
    }
    // Each operation says what it answers, and those that need a session say so.
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            assert!(
                op["responses"].as_object().is_some_and(|r| !r.is_empty()),
                "{method} {path}"
            );
        }
    }
    // The session, or a token with the operation's scope; a route anyone may read takes a token as an option;
    // the account's keys take the session only.
    assert_eq!(
        doc["paths"]["/api/challenges"]["post"]["security"],
        json!([{ "session": [] }, { "token": ["play"] }])
    );
    assert_eq!(
        doc["paths"]["/api/catalog"]["get"]["security"],
        json!([{}, { "token": ["read"] }])
    );
    assert_eq!(
        doc["paths"]["/api/admin/reports"]["get"]["security"],
        json!([{ "session": [] }, { "token": ["admin"] }])
    );
    assert_eq!(
        doc["paths"]["/api/account/tokens"]["post"]["security"],
        json!([{ "session": [] }])
    );
    assert_eq!(doc["components"]["securitySchemes"]["token"]["scheme"], "bearer");
}

#[tokio::test]
async fn every_documented_operation_is_answered_by_its_handler() {
    let dir = tempdir("probe");
    let app = App::new(&format!("sqlite://{dir}/db.sqlite"), 1000).await;
    let cookie = app.signup("Prober").await;
    let doc = document(&app).await;
    let mut probed = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            let body = (method != "get").then(|| json!({}));
            let (status, answer, _) = app
                .call(&method.to_uppercase(), &fill(path), Some(&cookie), body)
                .await;
            let message = answer["error"]["message"].as_str().unwrap_or_default();
            assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert!(
                !["no such API route", "no such page"].contains(&message),
                "{method} {path} is documented but the router has no such route"
            );
            probed += 1;
        }
    }
    assert!(probed >= 50, "{probed} operations");
}

/// The paths the router is given outside `routes!` (the only way a route could miss the document): every
/// literal path of a `.route(` call in the server's sources, and the lists of pages and files.
#[tokio::test]
async fn no_route_is_added_outside_the_document() {
    let dir = tempdir("source");
    let app = App::new(&format!("sqlite://{dir}/db.sqlite"), 1000).await;
    let doc = document(&app).await;
    let documented: BTreeSet<&str> = doc["paths"]
        .as_object()
        .expect("paths")
        .keys()
        .map(String::as_str)
        .collect();
    let mut literal = Vec::new();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut dirs = vec![src];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("src") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).expect("source");
                for part in text.split(".route(").skip(1) {
                    let arg = part.trim_start();
                    if let Some(rest) = arg.strip_prefix('"') {
                        literal.push((
                            p.display().to_string(),
                            rest.split('"').next().unwrap_or_default().to_owned(),
                        ));
                    } else {
                        let name = arg.split([',', ')']).next().unwrap_or_default().trim();
                        assert!(
                            ["page", "openapi::ASSETS"].contains(&name),
                            "{}: a route from `{name}`, which the document does not list",
                            p.display()
                        );
                    }
                }
            }
        }
    }
    // `/metrics` is answered on its own address, apart from the site (docs/operations.md), not by the API.
    literal.retain(|(file, path)| !(path == "/metrics" && file.ends_with("lib.rs")));
    for (file, path) in literal {
        assert!(
            documented.contains(path.as_str()),
            "{file}: the route {path} is not in the document"
        );
    }
    for page in [
        "/",
        "/game/{id}",
        "/replay/{id}",
        "/watch",
        "/tournament/{id}",
        "/assets/{path}",
        "/ws",
    ] {
        assert!(documented.contains(page), "{page}");
    }
    // The pages are answered as pages.
    let (status, _, _) = app.call("GET", "/replay/abcdefgh", None, None).await;
    assert_eq!(status, StatusCode::OK);
}

fn tempdir(tag: &str) -> String {
    let dir = std::env::temp_dir().join(format!("gridplay-openapi-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.display().to_string()
}
