//! The browser's files, embedded in the binary: one `cargo run` serves everything, with no CDN.

use axum::{
    http::{HeaderMap, HeaderValue, StatusCode, Uri, header},
    response::{IntoResponse, Response},
};
use rust_embed::Embed;

use crate::error::ApiError;

#[derive(Embed)]
#[folder = "web/"]
struct Web;

fn file(path: &str, if_none_match: Option<&HeaderValue>) -> Option<Response> {
    let f = Web::get(path)?;
    let mime = f.metadata.mimetype().to_owned();
    let etag = format!(
        "\"{}\"",
        f.metadata
            .sha256_hash()
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    if if_none_match.is_some_and(|v| v.as_bytes() == etag.as_bytes()) {
        return Some((StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response());
    }
    Some(
        (
            [
                (header::CONTENT_TYPE, mime),
                (header::ETAG, etag),
                (header::CACHE_CONTROL, "no-cache".to_owned()),
            ],
            f.data,
        )
            .into_response(),
    )
}

/// `/assets/...`: a file of `web/`.
pub(crate) async fn asset(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches("/assets/");
    file(path, headers.get(header::IF_NONE_MATCH))
        .unwrap_or_else(|| ApiError::not_found("file").into_response())
}

/// Any other address: a browser asking for a page gets the site's shell with status 404, and draws its own
/// not-found page; anything else gets the JSON error.
pub(crate) async fn not_found(headers: HeaderMap) -> Response {
    let wants_page = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"));
    match Web::get("index.html") {
        Some(f) if wants_page => (
            StatusCode::NOT_FOUND,
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            f.data,
        )
            .into_response(),
        _ => ApiError::not_found("page").into_response(),
    }
}

/// The page shell, for every page route: the modules draw the page the path names.
pub(crate) async fn page(headers: HeaderMap) -> Response {
    file("index.html", headers.get(header::IF_NONE_MATCH))
        .unwrap_or_else(|| ApiError::internal().into_response())
}
