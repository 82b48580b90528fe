//! The errors a client can get: a status, a stable code and a sentence for people. Internal failures are logged
//! and answered with a plain "internal error", so nothing about the server leaks.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Serialize;

use crate::{
    db::DbError,
    game::{codes::ErrorCode, live::LiveError},
};

/// An error answer of the HTTP API.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    pub(crate) fn bad_request(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub(crate) fn unauthorized() -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, ErrorCode::SignedOut, "sign in first")
    }

    pub(crate) fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, ErrorCode::Forbidden, message)
    }

    pub(crate) fn not_found(what: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            ErrorCode::NotFound,
            format!("no such {what}"),
        )
    }

    pub(crate) fn conflict(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// A quota is reached: `message` says which and how to go on.
    pub(crate) fn too_many(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooMany, message)
    }

    pub(crate) fn internal() -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Internal,
            "internal error",
        )
    }
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> ApiError {
        tracing::error!("{e}");
        ApiError::internal()
    }
}

impl From<LiveError> for ApiError {
    fn from(e: LiveError) -> ApiError {
        match e {
            LiveError::NotFound => ApiError::not_found("game"),
            LiveError::Internal => ApiError::internal(),
            LiveError::TooMany(why) => ApiError::too_many(why),
            e => ApiError::conflict(e.code(), e.message()),
        }
    }
}

/// The body of every error answer.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct ErrorBody {
    pub error: ErrorDetail,
}

/// What went wrong: a stable code for programs and a sentence for people.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct ErrorDetail {
    pub code: ErrorCode,
    pub message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        metrics::counter!(crate::telemetry::ERRORS, "kind" => self.code.as_str()).increment(1);
        let body = Json(ErrorBody {
            error: ErrorDetail {
                code: self.code,
                message: self.message,
            },
        });
        (self.status, body).into_response()
    }
}

pub(crate) type ApiResult<T> = Result<T, ApiError>;

/// The stable code and a sentence for an error answer that did not come from a handler (axum's extractors, a
/// method the route does not take, a body over the limit).
fn code_of(status: StatusCode) -> (ErrorCode, &'static str) {
    match status.as_u16() {
        400 => (ErrorCode::BadRequest, "the request could not be read"),
        404 => (ErrorCode::NotFound, "no such page"),
        405 => (
            ErrorCode::MethodNotAllowed,
            "this address does not take that method",
        ),
        413 => (ErrorCode::TooLarge, "the request body is too large"),
        415 => (
            ErrorCode::UnsupportedMediaType,
            "send the body as JSON (Content-Type: application/json)",
        ),
        422 => (
            ErrorCode::BadBody,
            "the request body does not have the expected fields",
        ),
        429 => (ErrorCode::TooMany, "too many requests: wait a moment"),
        s if s >= 500 => (ErrorCode::Internal, "internal error"),
        _ => (ErrorCode::Error, "the request was refused"),
    }
}

/// Every rejected request answers the documented JSON: answers that are not JSON already (nor the site's
/// HTML not-found page) are rewritten with their status's code and, as the message, the text they carried.
pub(crate) async fn json_errors(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    use axum::http::header;
    let res = next.run(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let kind = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if kind.starts_with("application/json") || kind.starts_with("text/html") {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let (code, sentence) = code_of(status);
    let message = if text.trim().is_empty() || status.is_server_error() {
        sentence.to_owned()
    } else {
        text.trim().to_owned()
    };
    let mut out = ApiError::new(status, code, message).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().insert(name.clone(), value.clone());
        }
    }
    out
}
