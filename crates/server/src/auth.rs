//! Accounts and sessions: sign up, sign in and sign out with a password (Argon2id, hashed off the async
//! runtime), and a server-side session named by an HttpOnly, SameSite cookie.

use std::net::{IpAddr, SocketAddr};

use axum::{
    Json,
    extract::{ConnectInfo, FromRequestParts, State},
    http::{StatusCode, request::Parts},
};
use axum_extra::extract::{
    CookieJar,
    cookie::{Cookie, SameSite},
};
use serde::{Deserialize, Serialize};

use crate::{
    AppState,
    db::{User, now_ms},
    error::{ApiError, ApiResult},
    ids,
};

pub(crate) const COOKIE: &str = "gp_session";
const SESSION_DAYS: i64 = 30;

/// Names are 3 to 20 characters: ASCII letters, digits, `_` and `-`, starting with a letter or a digit.
/// They are unique without regard to case.
pub(crate) fn check_name(name: &str) -> Result<(), ApiError> {
    let bad = |m: &str| Err(ApiError::bad_request("bad-name", m));
    if !(3..=20).contains(&name.len()) {
        return bad("a name has 3 to 20 characters");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return bad("a name may hold only the letters a-z and A-Z, digits, '_' and '-'");
    }
    if !name.as_bytes()[0].is_ascii_alphanumeric() {
        return bad("a name starts with a letter or a digit");
    }
    Ok(())
}

/// Passwords are 8 to 200 bytes.
pub(crate) fn check_password(password: &str) -> Result<(), ApiError> {
    if password.len() < 8 {
        return Err(ApiError::bad_request(
            "bad-password",
            "a password has at least 8 characters",
        ));
    }
    if password.len() > 200 {
        return Err(ApiError::bad_request(
            "bad-password",
            "a password has at most 200 bytes",
        ));
    }
    Ok(())
}

/// The signed-in user, if any.
#[derive(Clone, Debug)]
pub(crate) struct MaybeUser(pub Option<User>);

/// A signed-in user; requests without one get 401.
#[derive(Clone, Debug)]
pub(crate) struct SignedIn(pub User);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let jar = CookieJar::from_headers(&parts.headers);
        match jar.get(COOKIE) {
            Some(c) if c.value().len() == 64 => Ok(MaybeUser(state.db.session_user(c.value()).await?)),
            _ => Ok(MaybeUser(None)),
        }
    }
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match MaybeUser::from_request_parts(parts, state).await? {
            MaybeUser(Some(u)) => Ok(SignedIn(u)),
            MaybeUser(None) => Err(ApiError::unauthorized()),
        }
    }
}

/// The client's address, or the unspecified address when the server runs without one (in-process tests).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let ip = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
        Ok(ClientIp(ip))
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct Credentials {
    name: String,
    password: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct Me {
    user: Option<UserJson>,
}

#[derive(Debug, Serialize)]
pub(crate) struct UserJson {
    id: String,
    name: String,
}

impl From<User> for UserJson {
    fn from(u: User) -> UserJson {
        UserJson {
            id: u.id,
            name: u.name,
        }
    }
}

fn limit(state: &AppState, ip: IpAddr) -> ApiResult<()> {
    state.auth_limiter.check_key(&ip).map_err(|_| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate-limited",
            "too many attempts from your address: wait a minute",
        )
    })
}

async fn start_session(state: &AppState, jar: CookieJar, user: User) -> ApiResult<(CookieJar, Json<Me>)> {
    let token = ids::token();
    state
        .db
        .create_session(&token, &user.id, now_ms() + SESSION_DAYS * 86_400_000)
        .await?;
    let cookie = Cookie::build((COOKIE, token))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.config.secure_cookies)
        .path("/")
        .max_age(time_days(SESSION_DAYS))
        .build();
    Ok((
        jar.add(cookie),
        Json(Me {
            user: Some(user.into()),
        }),
    ))
}

fn time_days(days: i64) -> time::Duration {
    time::Duration::days(days)
}

async fn hash(password: String) -> ApiResult<String> {
    tokio::task::spawn_blocking(move || password_auth::generate_hash(password))
        .await
        .map_err(|_| ApiError::internal())
}

async fn verify(password: String, hash: String) -> ApiResult<bool> {
    tokio::task::spawn_blocking(move || password_auth::verify_password(password, &hash).is_ok())
        .await
        .map_err(|_| ApiError::internal())
}

pub(crate) async fn signup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    Json(c): Json<Credentials>,
) -> ApiResult<(CookieJar, Json<Me>)> {
    limit(&state, ip)?;
    check_name(&c.name)?;
    check_password(&c.password)?;
    if state.db.user_by_name(&c.name).await?.is_some() {
        return Err(ApiError::conflict("name-taken", "that name is taken"));
    }
    let user = User {
        id: ids::short(12),
        name: c.name,
    };
    let hash = hash(c.password).await?;
    if !state.db.create_user(&user, &hash).await? {
        return Err(ApiError::conflict("name-taken", "that name is taken"));
    }
    start_session(&state, jar, user).await
}

pub(crate) async fn signin(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    Json(c): Json<Credentials>,
) -> ApiResult<(CookieJar, Json<Me>)> {
    limit(&state, ip)?;
    let wrong = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "bad-credentials",
            "wrong name or password",
        )
    };
    if c.name.len() > 20 || c.password.len() > 200 {
        return Err(wrong());
    }
    let Some((user, stored)) = state.db.user_by_name(&c.name).await? else {
        return Err(wrong());
    };
    if !verify(c.password, stored).await? {
        return Err(wrong());
    }
    start_session(&state, jar, user).await
}

pub(crate) async fn signout(
    State(state): State<AppState>,
    jar: CookieJar,
) -> ApiResult<(CookieJar, Json<Me>)> {
    if let Some(c) = jar.get(COOKIE) {
        state.db.delete_session(c.value()).await?;
    }
    let jar = jar.remove(Cookie::build(COOKIE).path("/"));
    Ok((jar, Json(Me { user: None })))
}

pub(crate) async fn me(MaybeUser(user): MaybeUser) -> Json<Me> {
    Json(Me {
        user: user.map(UserJson::from),
    })
}
