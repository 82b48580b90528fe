//! The OpenAPI document as a contract: every JSON answer the tests get from the API is checked against the
//! schema the document gives for its route, method and status, so that the document cannot drift from what
//! the server sends.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, OnceLock},
};

use serde_json::{Value, json};

fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        serde_json::from_str(gridplay_server::openapi_document()).expect("the document is JSON")
    })
}

/// The documented path that `path` (without its query) is an address of.
fn template(path: &str) -> Option<&'static str> {
    let path = path.split('?').next().unwrap_or(path);
    let parts: Vec<&str> = path.split('/').collect();
    document()["paths"].as_object()?.keys().find_map(|t| {
        let ts: Vec<&str> = t.split('/').collect();
        (ts.len() == parts.len()
            && ts
                .iter()
                .zip(&parts)
                .all(|(t, p)| t == p || (t.starts_with('{') && !p.is_empty())))
        .then_some(t.as_str())
    })
}

type Validators = Mutex<HashMap<(String, String, String), Arc<jsonschema::Validator>>>;

/// The validator of the schema at `schema` in the document, with the document's components beside it so
/// that its references resolve.
fn validator(key: (String, String, String), schema: &Value) -> Arc<jsonschema::Validator> {
    static CACHE: OnceLock<Validators> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().expect("cache");
    cache
        .entry(key)
        .or_insert_with(|| {
            let root = json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "components": document()["components"],
                "allOf": [schema],
            });
            Arc::new(jsonschema::validator_for(&root).expect("the schema compiles"))
        })
        .clone()
}

/// Checks an API answer against the document: a success must be documented for its route and method and
/// match its schema; an error must be the documented error body.
pub fn check(method: &str, path: &str, status: u16, body: &Value) {
    if !path.starts_with("/api/") || path.starts_with("/api/openapi.json") {
        return;
    }
    let Some(t) = template(path) else {
        if status == 404 {
            return;
        }
        panic!("{method} {path} answered {status} but the document has no such path");
    };
    let method = method.to_lowercase();
    let op = &document()["paths"][t][&method];
    if op.is_null() {
        assert_eq!(status, 405, "{method} {t} is not documented");
        return;
    }
    let schema = if (200..300).contains(&status) {
        let answer = &op["responses"][status.to_string()];
        assert!(
            !answer.is_null(),
            "{method} {t} answered {status}, which the document does not list"
        );
        // A stream's lines are checked one by one against its line's schema.
        let content = &answer["content"];
        match content
            .get("application/json")
            .or_else(|| content.get("application/x-ndjson"))
        {
            Some(c) => c["schema"].clone(),
            None => return,
        }
    } else {
        json!({ "$ref": "#/components/schemas/ErrorBody" })
    };
    let v = validator((t.to_owned(), method.clone(), status.to_string()), &schema);
    let errors: Vec<String> = v
        .iter_errors(body)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{method} {path} answered {status} with a body its schema refuses:\n{}\n{body}",
        errors.join("\n")
    );
}
