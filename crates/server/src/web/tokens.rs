//! Personal API tokens over HTTP: a signed-in user makes one with a name and scopes (`scopes.rs`), reads it
//! once, lists and revokes them. A program sends one as `Authorization: Bearer gp_…` and acts as its user,
//! within its scopes, under the same limits as the user's pages. These routes take the session only.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::game::codes::ErrorCode;
use crate::{
    db::TokenRow,
    ids, text,
    web::{
        AppState,
        auth::SignedIn,
        error::{ApiError, ApiResult, ErrorBody},
        scopes::Scope,
    },
};

/// Tokens one user may have in use at once.
pub(crate) const TOKENS_MAX: usize = 20;
/// A token's name, in characters.
const NAME_MAX: usize = 40;
/// What every token starts with, so that one found in a file or a log is known for what it is.
pub(crate) const PREFIX: &str = "gp_";

/// A token as its owner's list shows it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TokenJson {
    id: String,
    name: String,
    /// `read`, `play`, `bot`, `admin`.
    scopes: Vec<String>,
    created_at: i64,
    /// When it was last used (to the minute); absent if never.
    last_used_at: Option<i64>,
}

impl From<TokenRow> for TokenJson {
    fn from(t: TokenRow) -> TokenJson {
        TokenJson {
            id: t.id,
            name: t.name,
            scopes: t.scopes.split(' ').map(str::to_owned).collect(),
            created_at: t.created_at,
            last_used_at: (t.last_used_at > 0).then_some(t.last_used_at),
        }
    }
}

/// The signed-in user's tokens in use.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Tokens {
    tokens: Vec<TokenJson>,
}

/// A token to make.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct NewToken {
    /// What it is for, 1 to 40 characters.
    name: String,
    /// One or more of `read` (every GET), `play` (challenges, games, reports, tournaments), `bot` (the bot API
    /// and making the account a bot) and `admin` (the admins' routes; an admin's tokens only).
    scopes: Vec<String>,
}

/// A token just made: the only time it is shown.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TokenMade {
    /// Send it as `Authorization: Bearer TOKEN`. The server keeps only its SHA-256.
    token: String,
    #[serde(flatten)]
    about: TokenJson,
}

/// The signed-in user's API tokens in use, newest first (never the tokens themselves).
#[utoipa::path(get, path = "/account/tokens", tag = "account", security(("session" = [])),
    responses((status = 200, body = Tokens), (status = "4XX", body = ErrorBody, description = "Signed out")))]
pub(crate) async fn list(State(state): State<AppState>, SignedIn(me): SignedIn) -> ApiResult<Json<Tokens>> {
    let tokens = state.db.tokens(&me.id).await?;
    Ok(Json(Tokens {
        tokens: tokens.into_iter().map(TokenJson::from).collect(),
    }))
}

/// Makes an API token for the signed-in user, with a name and scopes; the answer holds the token, shown
/// this once.
#[utoipa::path(post, path = "/account/tokens", tag = "account", security(("session" = [])), request_body = NewToken,
    responses((status = 200, body = TokenMade), (status = "4XX", body = ErrorBody,
        description = "Signed out, a bad name (`bad-name`), no scope or an unknown one (`bad-scope`), `admin` for one who is not an admin (`not-admin`), or too many tokens (`too-many`)")))]
pub(crate) async fn create(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Json(t): Json<NewToken>,
) -> ApiResult<Json<TokenMade>> {
    let name = text::clean(&t.name, NAME_MAX)
        .map_err(|e| ApiError::bad_request(ErrorCode::BadName, format!("the token's name {e}")))?;
    let mut scopes = Vec::new();
    for s in &t.scopes {
        let scope = Scope::parse(s).ok_or_else(|| {
            ApiError::bad_request(
                ErrorCode::BadScope,
                format!("“{s}” is no scope: read, play, bot or admin"),
            )
        })?;
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    if scopes.is_empty() {
        return Err(ApiError::bad_request(
            ErrorCode::BadScope,
            "a token needs at least one scope",
        ));
    }
    scopes.sort_unstable();
    if scopes.contains(&Scope::Admin) && !state.db.is_admin(&me.id).await? {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::NotAdmin,
            "only the site's admins may make a token with the admin scope",
        ));
    }
    if state.db.tokens(&me.id).await?.len() >= TOKENS_MAX {
        return Err(ApiError::too_many(format!(
            "at most {TOKENS_MAX} tokens at once: revoke one first"
        )));
    }
    let token = format!("{PREFIX}{}", ids::token());
    let words: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
    let id = state
        .db
        .add_token(&me.id, &name, &words.join(" "), &token)
        .await?;
    Ok(Json(TokenMade {
        token,
        about: TokenJson {
            id,
            name,
            scopes: words.into_iter().map(str::to_owned).collect(),
            created_at: crate::db::now_ms(),
            last_used_at: None,
        },
    }))
}

/// A token revoked.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Revoked {
    ok: bool,
}

/// Revokes one of the signed-in user's tokens: it is refused from the next request on.
#[utoipa::path(post, path = "/account/tokens/{id}/revoke", tag = "account", security(("session" = [])),
    params(("id" = String, Path, description = "The token's id")),
    responses((status = 200, body = Revoked), (status = "4XX", body = ErrorBody, description = "Signed out, or no such token in use")))]
pub(crate) async fn revoke(
    State(state): State<AppState>,
    SignedIn(me): SignedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<Revoked>> {
    if !ids::plausible(&id) || !state.db.revoke_token(&me.id, &id).await? {
        return Err(ApiError::not_found("token"));
    }
    Ok(Json(Revoked { ok: true }))
}
