//! What a personal API token may do: its scopes, and the scope each route of the API needs. The rule is one
//! function, [`needed`]: the OpenAPI document writes each operation's scope from it, and the extractors that
//! read a token refuse a request whose route needs a scope the token lacks, so that the two cannot differ.
//!
//! - `read`: every `GET` of the API (games, players, one's own games and account);
//! - `play`: every other route a player uses (challenges, games against the engine, reports, tournaments);
//! - `bot`: the bot API (`/api/bot/...`) and making the account a bot (`/api/account/bot`), streams included;
//! - `admin`: the admins' routes (`/api/admin/...`), for an admin's token;
//! - no token at all for the account's keys: signing in and out, the password, deleting the account, and
//!   the tokens themselves, which take the session only.

use axum::http::Method;

/// One thing a token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Scope {
    Read,
    Play,
    Bot,
    Admin,
}

impl Scope {
    pub(crate) const ALL: [Scope; 4] = [Scope::Read, Scope::Play, Scope::Bot, Scope::Admin];

    #[must_use]
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Play => "play",
            Scope::Bot => "bot",
            Scope::Admin => "admin",
        }
    }

    #[must_use]
    pub(crate) fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// Routes under `/api` that take the session only: a token never signs in, changes the password, deletes the
/// account or makes tokens.
const SESSION_ONLY: &[&str] = &[
    "/api/signup",
    "/api/signin",
    "/api/signout",
    "/api/account/password",
    "/api/account/signout-everywhere",
    "/api/account/delete",
    "/api/account/tokens",
    "/api/account/tokens/{id}/revoke",
];

/// The scope a token needs on a route of the API (`path` as the router names it, `/api/games/{id}`), or
/// `None` where no token is taken.
#[must_use]
pub(crate) fn needed(method: &Method, path: &str) -> Option<Scope> {
    if !path.starts_with("/api/") || SESSION_ONLY.contains(&path) {
        return None;
    }
    if path.starts_with("/api/admin/") {
        return Some(Scope::Admin);
    }
    // The analysis board changes nothing.
    if path.starts_with("/api/analysis/") {
        return Some(Scope::Read);
    }
    if path.starts_with("/api/bot/") || path == "/api/account/bot" {
        return Some(Scope::Bot);
    }
    Some(if method == Method::GET {
        Scope::Read
    } else {
        Scope::Play
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_needs_the_scope_of_its_kind() {
        assert_eq!(needed(&Method::GET, "/api/games/{id}"), Some(Scope::Read));
        assert_eq!(needed(&Method::POST, "/api/challenges"), Some(Scope::Play));
        assert_eq!(needed(&Method::GET, "/api/admin/reports"), Some(Scope::Admin));
        assert_eq!(
            needed(&Method::POST, "/api/admin/users/{name}/actions"),
            Some(Scope::Admin)
        );
        assert_eq!(needed(&Method::GET, "/api/bot/stream/event"), Some(Scope::Bot));
        assert_eq!(
            needed(&Method::POST, "/api/bot/game/{id}/move/{move}"),
            Some(Scope::Bot)
        );
        assert_eq!(needed(&Method::POST, "/api/account/bot"), Some(Scope::Bot));
        assert_eq!(needed(&Method::POST, "/api/account/delete"), None);
        assert_eq!(needed(&Method::GET, "/api/account/tokens"), None);
        assert_eq!(needed(&Method::GET, "/ws"), None);
        for s in Scope::ALL {
            assert_eq!(Scope::parse(s.as_str()), Some(s));
        }
        assert_eq!(Scope::parse("robot"), None);
    }
}
