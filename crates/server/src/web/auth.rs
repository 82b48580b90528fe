//! Accounts and sessions: sign up, sign in and sign out with a password (Argon2id, hashed off the async
//! runtime), and a server-side session named by an HttpOnly, SameSite cookie.

use std::net::{IpAddr, SocketAddr};

use axum::{
    Json,
    extract::{ConnectInfo, FromRequestParts, MatchedPath, Request, State},
    http::{HeaderMap, Method, StatusCode, header, request::Parts},
    middleware::Next,
    response::{IntoResponse, Response},
};
use axum_extra::extract::{
    CookieJar,
    cookie::{Cookie, SameSite},
};
use serde::{Deserialize, Serialize};

use crate::game::codes::ErrorCode;
use crate::{
    db::{User, now_ms},
    game::live::Asker,
    ids,
    web::AppState,
    web::error::{ApiError, ApiResult, ErrorBody},
    web::scopes,
};

pub const COOKIE: &str = "gp_session";
const SESSION_DAYS: i64 = 30;

/// Names are 3 to 20 characters: ASCII letters, digits, `_` and `-`, starting with a letter or a digit.
/// They are unique without regard to case.
pub(crate) fn check_name(name: &str) -> Result<(), ApiError> {
    let bad = |m: &str| Err(ApiError::bad_request(ErrorCode::BadName, m));
    if !(3..=20).contains(&name.chars().count()) {
        return Err(ApiError::bad_request(
            ErrorCode::BadName,
            format!(
                "a name has 3 to 20 characters, and this one has {}",
                name.chars().count()
            ),
        ));
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
    if name.to_ascii_lowercase().starts_with(DELETED) {
        return bad("names beginning with \u{201c}deleted-\u{201d} mark deleted accounts");
    }
    Ok(())
}

/// Passwords are 8 to 200 bytes.
pub(crate) fn check_password(password: &str) -> Result<(), ApiError> {
    if password.len() < 8 {
        return Err(ApiError::bad_request(
            ErrorCode::BadPassword,
            "a password has at least 8 characters",
        ));
    }
    if password.len() > 200 {
        return Err(ApiError::bad_request(
            ErrorCode::BadPassword,
            "a password has at most 200 bytes",
        ));
    }
    Ok(())
}

/// The signed-in user, if any: by the session cookie, or by a personal API token (`Authorization: Bearer`)
/// that has the scope the route needs. A token that is unknown, revoked or short of that scope is refused
/// (`401 bad-token`, `403 token-scope`, or `403 token-refused` on a route that takes the session only).
#[derive(Clone, Debug)]
pub(crate) struct MaybeUser(pub Option<User>);

/// A signed-in user; requests without one get 401.
#[derive(Clone, Debug)]
pub(crate) struct SignedIn(pub User);

/// The token of an `Authorization: Bearer` header, if the request has one.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (kind, token) = value.split_once(' ')?;
    kind.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// A request's API token, checked by [`check_token`]: the user it acts for.
#[derive(Clone, Debug)]
struct TokenAuth(User);

/// The user an API token acts for, if the route (`path` as the router names it) takes a token and the token
/// has the scope the route needs (`scopes::needed`, the rule the OpenAPI document states).
async fn token_user(
    state: &AppState,
    method: &Method,
    path: Option<&str>,
    token: &str,
) -> Result<User, ApiError> {
    let found = if token.len() <= 100 {
        state.db.token_user(token).await?
    } else {
        None
    };
    let Some(found) = found else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            ErrorCode::BadToken,
            "the API token is unknown or revoked",
        ));
    };
    match path.and_then(|p| scopes::needed(method, p)) {
        None => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::TokenRefused,
            "this route takes the session of a signed-in page, not an API token",
        )),
        Some(s) if !found.scopes.split(' ').any(|x| x == s.as_str()) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::TokenScope,
            format!("this token may not do this: it needs the “{}” scope", s.as_str()),
        )),
        Some(_) => Ok(found.user),
    }
}

/// Checks the API token of every request that carries one, before its handler runs, whether or not the
/// handler reads the user: a token short of the route's scope is refused on every route.
pub(crate) async fn check_token(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    if let Some(token) = bearer(req.headers()).map(str::to_owned) {
        let path = req
            .extensions()
            .get::<MatchedPath>()
            .map(|p| p.as_str().to_owned());
        match token_user(&state, req.method(), path.as_deref(), &token).await {
            Ok(user) => {
                req.extensions_mut().insert(TokenAuth(user));
            }
            Err(e) => return e.into_response(),
        }
    }
    next.run(req).await
}

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = ApiError;

    /// The account, which the fair-play rule also records as seen at the request's address.
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let user = if let Some(token) = bearer(&parts.headers) {
            if let Some(TokenAuth(user)) = parts.extensions.get::<TokenAuth>() {
                Some(user.clone())
            } else {
                let path = parts.extensions.get::<MatchedPath>().map(MatchedPath::as_str);
                Some(token_user(state, &parts.method, path, token).await?)
            }
        } else {
            let jar = CookieJar::from_headers(&parts.headers);
            match jar.get(COOKIE) {
                Some(c) if c.value().len() == 64 => state.db.session_user(c.value()).await?,
                _ => None,
            }
        };
        if let Some(u) = &user {
            let Ok(ClientIp(ip)) = ClientIp::from_request_parts(parts, state).await;
            state.hub.saw(&u.id, ip);
        }
        Ok(MaybeUser(user))
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

/// The client's address: the peer's, or where the peer is a trusted proxy (`Config::trusted_proxies`), the
/// one its `X-Forwarded-For` names (`client_ip`). The unspecified address when the server runs without one
/// (in-process tests).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
        let forwarded = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok());
        Ok(ClientIp(client_ip(
            peer,
            forwarded,
            &state.config.trusted_proxies,
        )))
    }
}

/// The asker of the fair-play rule: the account, if any, and the client's address.
pub(crate) fn asker(user: Option<&User>, ClientIp(address): ClientIp) -> Asker {
    Asker {
        user: user.map(|u| u.id.clone()),
        address,
    }
}

/// Who a request is from. A peer that is not a trusted proxy is the client. A trusted proxy's request is the
/// client's that the proxies' `X-Forwarded-For` names: its addresses read from the right (each proxy appends
/// the address it saw), the first that is not a trusted proxy. An address that does not parse, or a list of
/// proxies only, leaves the peer: a client cannot choose its address by writing the header itself, since the
/// nearest proxy appends what it saw after anything the client wrote.
pub(crate) fn client_ip<'a>(
    peer: IpAddr,
    forwarded: impl Iterator<Item = &'a str>,
    trusted: &[IpAddr],
) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let hops: Vec<&str> = forwarded.flat_map(|v| v.split(',')).map(str::trim).collect();
    for hop in hops.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(ip) if trusted.contains(&ip) => {}
            Ok(ip) => return ip,
            Err(_) => return peer,
        }
    }
    peer
}

/// A name and a password.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub(crate) struct Credentials {
    name: String,
    password: String,
}

/// Who the session is: a user, or `null` when signed out.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct Me {
    user: Option<UserJson>,
}

/// A signed-in user.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct UserJson {
    id: String,
    name: String,
    /// One of the site's admins (made by `gridplay admin grant`): the admin pages are theirs.
    admin: bool,
    /// A bot account (it plays through the bot API).
    bot: bool,
}

impl UserJson {
    /// The user as the pages see it, with whether they are an admin.
    async fn of(state: &AppState, u: User) -> ApiResult<UserJson> {
        let admin = state.db.is_admin(&u.id).await?;
        Ok(UserJson {
            id: u.id,
            name: u.name,
            admin,
            bot: u.bot,
        })
    }
}

fn limit(state: &AppState, ip: IpAddr) -> ApiResult<()> {
    state.auth_limiter.check_key(&ip).map_err(|_| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
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
    let user = UserJson::of(state, user).await?;
    Ok((jar.add(cookie), Json(Me { user: Some(user) })))
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

/// Makes an account and signs in: the answer sets the session cookie.
#[utoipa::path(post, path = "/signup", tag = "account", request_body = Credentials,
    responses((status = 200, body = Me, headers(("Set-Cookie" = String, description = "The session, `gp_session`"))),
        (status = "4XX", body = ErrorBody, description = "A bad name or password, a name taken, or too many attempts")))]
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
        return Err(ApiError::conflict(ErrorCode::NameTaken, "that name is taken"));
    }
    if state.signup_limiter.check_key(&ip).is_err() {
        return Err(ApiError::too_many(format!(
            "at most {} new accounts an hour from one address: try again later",
            state.config.limits.signups_per_hour
        )));
    }
    let user = User {
        id: ids::short(12),
        name: c.name,
        bot: false,
    };
    let hash = hash(c.password).await?;
    if !state.db.create_user(&user, &hash).await? {
        return Err(ApiError::conflict(ErrorCode::NameTaken, "that name is taken"));
    }
    start_session(&state, jar, user).await
}

/// Signs in: the answer sets the session cookie.
#[utoipa::path(post, path = "/signin", tag = "account", request_body = Credentials,
    responses((status = 200, body = Me, headers(("Set-Cookie" = String, description = "The session, `gp_session`"))),
        (status = "4XX", body = ErrorBody, description = "Wrong name or password (`bad-credentials`), an account closed by the moderators (`account-closed`), or too many attempts")))]
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
            ErrorCode::BadCredentials,
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
    if state.db.is_closed(&user.id).await? {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::AccountClosed,
            "this account was closed by the site's moderators",
        ));
    }
    start_session(&state, jar, user).await
}

/// Signs out this browser.
#[utoipa::path(post, path = "/signout", tag = "account", responses((status = 200, body = Me)))]
pub(crate) async fn signout(
    State(state): State<AppState>,
    jar: CookieJar,
) -> ApiResult<(CookieJar, Json<Me>)> {
    if let Some(c) = jar.get(COOKIE) {
        state.db.delete_session(c.value()).await?;
    }
    Ok(signed_out(jar))
}

/// The answer that ends the browser's session: the cookie cleared and no user.
fn signed_out(jar: CookieJar) -> (CookieJar, Json<Me>) {
    (
        jar.remove(Cookie::build(COOKIE).path("/")),
        Json(Me { user: None }),
    )
}

/// How the name of a deleted account begins; the pages show such a name as "a deleted player".
pub(crate) const DELETED: &str = "deleted-";

/// A new password, with the present one to prove who asks.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub(crate) struct PasswordChange {
    #[schema(format = Password)]
    old: String,
    /// 8 to 200 characters.
    #[schema(format = Password)]
    new: String,
}

/// A password changed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct PasswordChanged {
    ok: bool,
    /// How many of the user's other sessions ended.
    other_sessions_ended: u64,
}

/// The present password, to confirm an account's deletion.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub(crate) struct PasswordOnly {
    #[schema(format = Password)]
    password: String,
}

/// Checks a signed-in user's password (rate-limited as a sign-in is).
async fn check_own_password(state: &AppState, ip: IpAddr, user: &User, password: String) -> ApiResult<()> {
    limit(state, ip)?;
    let stored = state.db.user_by_name(&user.name).await?.map(|(_, h)| h);
    let ok = match stored {
        Some(h) if !h.is_empty() && password.len() <= 200 => verify(password, h).await?,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::BadCredentials,
            "the present password is wrong",
        ))
    }
}

/// Changes the password (the present one required); every other session of the user ends.
#[utoipa::path(post, path = "/account/password", tag = "account", security(("session" = [])), request_body = PasswordChange,
    responses((status = 200, body = PasswordChanged), (status = "4XX", body = ErrorBody,
        description = "Signed out, the present password wrong, or a bad new one")))]
pub(crate) async fn change_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    SignedIn(user): SignedIn,
    jar: CookieJar,
    Json(c): Json<PasswordChange>,
) -> ApiResult<Json<PasswordChanged>> {
    check_own_password(&state, ip, &user, c.old).await?;
    check_password(&c.new)?;
    let hash = hash(c.new).await?;
    state.db.set_password(&user.id, &hash).await?;
    let ended = state
        .db
        .delete_sessions_of(&user.id, jar.get(COOKIE).map(Cookie::value))
        .await?;
    Ok(Json(PasswordChanged {
        ok: true,
        other_sessions_ended: ended,
    }))
}

/// Signs the user out on every device, this one included.
#[utoipa::path(post, path = "/account/signout-everywhere", tag = "account", security(("session" = [])),
    responses((status = 200, body = Me), (status = "4XX", body = ErrorBody, description = "Signed out")))]
pub(crate) async fn signout_everywhere(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    jar: CookieJar,
) -> ApiResult<(CookieJar, Json<Me>)> {
    state.db.delete_sessions_of(&user.id, None).await?;
    Ok(signed_out(jar))
}

/// Deletes the account (the password required). The user's games stay, under a deleted player's name.
#[utoipa::path(post, path = "/account/delete", tag = "account", security(("session" = [])), request_body = PasswordOnly,
    responses((status = 200, body = Me), (status = "4XX", body = ErrorBody, description = "Signed out, or the password wrong")))]
pub(crate) async fn delete_account(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    SignedIn(user): SignedIn,
    jar: CookieJar,
    Json(c): Json<PasswordOnly>,
) -> ApiResult<(CookieJar, Json<Me>)> {
    check_own_password(&state, ip, &user, c.password).await?;
    let tombstone = format!("{DELETED}{}", ids::short(8).to_lowercase());
    state.db.delete_account(&user.id, &tombstone).await?;
    state.lobby.changed();
    Ok(signed_out(jar))
}

/// Who the session is.
#[utoipa::path(get, path = "/me", tag = "account", responses((status = 200, body = Me)))]
pub(crate) async fn me(State(state): State<AppState>, MaybeUser(user): MaybeUser) -> ApiResult<Json<Me>> {
    let user = match user {
        Some(u) => Some(UserJson::of(&state, u).await?),
        None => None,
    };
    Ok(Json(Me { user }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trusted_proxys_request_is_the_client_it_names() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let proxy = [ip("127.0.0.1"), ip("10.0.0.9")];
        let of = |peer: &str, xff: &[&str]| client_ip(ip(peer), xff.iter().copied(), &proxy);
        assert_eq!(
            of("203.0.113.7", &["198.51.100.1"]),
            ip("203.0.113.7"),
            "no proxy: the peer, whatever it writes"
        );
        assert_eq!(of("127.0.0.1", &["198.51.100.1"]), ip("198.51.100.1"));
        assert_eq!(
            of("127.0.0.1", &["6.6.6.6, 198.51.100.1"]),
            ip("198.51.100.1"),
            "what the client wrote comes first"
        );
        assert_eq!(
            of("127.0.0.1", &["6.6.6.6", "198.51.100.1, 10.0.0.9"]),
            ip("198.51.100.1"),
            "two proxies"
        );
        assert_eq!(of("127.0.0.1", &["2001:db8::1"]), ip("2001:db8::1"));
        assert_eq!(
            of("127.0.0.1", &[]),
            ip("127.0.0.1"),
            "no header: the proxy itself"
        );
        assert_eq!(
            of("127.0.0.1", &["1.2.3.4, junk"]),
            ip("127.0.0.1"),
            "a hop that does not parse"
        );
        assert_eq!(of("127.0.0.1", &["10.0.0.9"]), ip("127.0.0.1"), "proxies only");
    }
}
