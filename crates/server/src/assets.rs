//! The browser's files, embedded in the binary: one `cargo run` serves everything, with no CDN.

use axum::{
    http::{HeaderMap, HeaderValue, StatusCode, Uri, header},
    response::{IntoResponse, Response},
};
use rust_embed::Embed;

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
        .unwrap_or_else(|| (StatusCode::NOT_FOUND, "no such file").into_response())
}

/// The page shell, for every page route: the modules draw the page the path names.
pub(crate) async fn page(headers: HeaderMap) -> Response {
    file("index.html", headers.get(header::IF_NONE_MATCH))
        .unwrap_or_else(|| (StatusCode::INTERNAL_SERVER_ERROR, "the page is missing").into_response())
}
