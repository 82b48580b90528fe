//! The matrix's rows: who asks ([`Role`]), what each case is played on ([`Subject`]), and what every
//! operation ([`routes`]) and socket message ([`messages`]) answers each role.

use serde_json::{Value, json};

use super::Case;

/// Who asks. Each subject names its first and second: a game's first and second players, a challenge's
/// creator and the player it challenges, a tournament's creator and a player who joined. The stranger is
/// signed in and none of these, and so is the admin (made by the operator), who alone may use the admin
/// routes; on a game's socket the stranger and the signed-out visitor are spectators
/// (they watch the game before they act). Where an operation acts on the asker's own account, each
/// signed-in role is an account of its own, made for that case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    SignedOut,
    First,
    Second,
    Stranger,
    Admin,
}

pub(crate) const ROLES: [Role; 4] = [Role::SignedOut, Role::First, Role::Second, Role::Stranger];

/// What a route answers a role: success (2xx), or a refusal's status and error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Http {
    Ok,
    No(u16, &'static str),
}

/// What the socket answers a role: an action acknowledged, a message answered without an error (watching,
/// the lobby, a ping), or an error's code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ws {
    Ack,
    Answered,
    No(&'static str),
    /// What the socket answered: an error's code (compared with [`Ws::No`]).
    Refused(String),
}

impl Ws {
    /// Whether an answer is what a row expects.
    pub(crate) fn is(&self, expect: &Ws) -> bool {
        match (self, expect) {
            (Ws::Refused(code), Ws::No(want)) => code == want,
            _ => self == expect,
        }
    }
}

/// What a case is played on, made afresh for each case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Subject {
    /// Nothing in particular: the id in a path is the first player's name or the game's.
    Nothing,
    /// The asker's own account: each signed-in role is a new account.
    OwnAccount,
    /// The first player challenges the second, who alone may accept.
    Challenge,
    /// A casual Reversi game with help agreed, the first player to move, nothing played yet.
    Game,
    /// The same game after the first player's move.
    AfterMove,
    /// The first player has moved and asks to take it back.
    TakebackAsked,
    /// The second player offers a draw; the first is to move.
    DrawOffered,
    /// A one-day correspondence game: the first player moved two days ago and the second has not answered.
    Claimable,
    /// The first player resigned at once; the game is analysed.
    Finished,
    /// The first player made a round-robin tournament and the second joined it.
    Tournament,
    /// The stranger reported the first player.
    Report,
    /// The first player made an API token.
    Token,
    /// A Reversi puzzle (FFO #2: a4 wins, nothing else does).
    Puzzle,
}

pub(crate) const SO: Http = Http::No(401, "signed-out");

/// One row per operation: method, path (with `{id}`, `{n}`, `{game}`, `{name}`, `{move}` and `{answer}` to fill), subject, body, and
/// what each role of [`ROLES`] gets.
pub(crate) struct Route {
    pub(crate) method: &'static str,
    pub(crate) path: &'static str,
    pub(crate) subject: Subject,
    pub(crate) body: Option<fn(&Case) -> Value>,
    pub(crate) expect: [Http; 4],
    /// What the admin gets: where not named, what the stranger gets (an admin is no party to a subject).
    pub(crate) admin: Option<Http>,
}

const fn route(
    method: &'static str,
    path: &'static str,
    subject: Subject,
    body: Option<fn(&Case) -> Value>,
    expect: [Http; 4],
) -> Route {
    Route {
        method,
        path,
        subject,
        body,
        expect,
        admin: None,
    }
}

/// A row of the admin routes: refused to every role but the admin's.
fn admin_route(
    method: &'static str,
    path: &'static str,
    subject: Subject,
    body: Option<fn(&Case) -> Value>,
) -> Route {
    let no = Http::No(403, "not-admin");
    Route {
        admin: Some(Http::Ok),
        ..route(method, path, subject, body, [SO, no, no, no])
    }
}

const ALL: [Http; 4] = [Http::Ok; 4];
const SIGNED_IN: [Http; 4] = [SO, Http::Ok, Http::Ok, Http::Ok];
const NOT_FOUND: Http = Http::No(404, "not-found");
/// The bot API refuses every role, none of which is a bot (`tests/bots.rs` plays it as bots).
const NOT_BOT: [Http; 4] = [
    SO,
    Http::No(403, "not-bot"),
    Http::No(403, "not-bot"),
    Http::No(403, "not-bot"),
];

pub(crate) fn routes() -> Vec<Route> {
    use Subject::*;
    let forbidden = Http::No(403, "forbidden");
    vec![
        // The pages: each shows what its asker may see, and asks a signed-out visitor to sign in where needed.
        route("GET", "/", Nothing, None, ALL),
        route("GET", "/account", Nothing, None, ALL),
        route("GET", "/admin", Nothing, None, ALL),
        route("GET", "/assets/{path}", Nothing, None, ALL),
        route("GET", "/game/{id}", Game, None, ALL),
        route("GET", "/games", Nothing, None, ALL),
        route("GET", "/leaderboard", Nothing, None, ALL),
        route("GET", "/player/{name}", Nothing, None, ALL),
        route("GET", "/replay/{id}", Finished, None, ALL),
        route("GET", "/tournament/{id}", Tournament, None, ALL),
        route("GET", "/watch", Nothing, None, ALL),
        route("GET", "/leaderboard/{game}", Nothing, None, ALL),
        route("GET", "/rules/{game}", Nothing, None, ALL),
        route("GET", "/analysis/{game}", Nothing, None, ALL),
        route("GET", "/tournaments", Nothing, None, ALL),
        route("GET", "/healthz", Nothing, None, ALL),
        route("GET", "/readyz", Nothing, None, ALL),
        route("GET", "/api/catalog", Nothing, None, ALL),
        route("GET", "/api/lobby", Nothing, None, ALL),
        route("GET", "/api/me", Nothing, None, ALL),
        route("GET", "/api/openapi.json", Nothing, None, ALL),
        route("GET", "/api/live", Nothing, None, ALL),
        route("GET", "/api/leaderboard/{game}", Nothing, None, ALL),
        route("GET", "/api/players/{name}", Nothing, None, ALL),
        // Blocks of the first player by a new account of each role's: a block between the players would
        // refuse the challenges of the cases after it.
        route("PUT", "/api/players/{name}/block", OwnAccount, None, SIGNED_IN),
        route("DELETE", "/api/players/{name}/block", OwnAccount, None, SIGNED_IN),
        route("GET", "/api/rules/{game}", Nothing, None, ALL),
        route("GET", "/api/tournaments", Nothing, None, ALL),
        route("GET", "/api/tournaments/{id}", Tournament, None, ALL),
        route("GET", "/api/games/{id}", Game, None, ALL),
        route("GET", "/api/games/{id}/spectators", Game, None, ALL),
        route("GET", "/api/games/{id}/chat", Game, None, ALL),
        route("GET", "/api/games/{id}/ply/{n}", Finished, None, ALL),
        route("GET", "/api/games/{id}/export", Finished, None, ALL),
        route("GET", "/api/games/{id}/analysis/stored", Finished, None, ALL),
        route("GET", "/api/my-games", Nothing, None, SIGNED_IN),
        route(
            "POST",
            "/api/reports",
            Nothing,
            Some(|c| json!({"user": c.first, "reason": "rude in chat"})),
            [SO, Http::No(400, "own-report"), Http::Ok, Http::Ok],
        ),
        route("GET", "/api/account/moderation", Nothing, None, SIGNED_IN),
        admin_route("GET", "/api/admin/reports", Nothing, None),
        admin_route("GET", "/api/admin/review", Nothing, None),
        admin_route(
            "POST",
            "/api/admin/reports/{id}/close",
            Report,
            Some(|_| json!({"reason": "dealt with"})),
        ),
        admin_route("GET", "/api/admin/users/{name}", Nothing, None),
        admin_route(
            "POST",
            "/api/admin/users/{name}/actions",
            Nothing,
            Some(|_| json!({"kind": "warn", "reason": "be polite"})),
        ),
        route(
            "GET",
            "/api/games/{id}/hint",
            Game,
            None,
            [
                SO,
                Http::Ok,
                Http::No(409, "not-your-turn"),
                Http::No(409, "not-a-player"),
            ],
        ),
        route("GET", "/api/games/{id}/ply/{n}/hint", Finished, None, SIGNED_IN),
        route("GET", "/api/games/{id}/analysis", Finished, None, SIGNED_IN),
        route(
            "POST",
            "/api/signup",
            Nothing,
            Some(|c| json!({"name": c.fresh, "password": "password-new"})),
            ALL,
        ),
        route(
            "POST",
            "/api/signin",
            Nothing,
            Some(|c| json!({"name": c.first, "password": format!("password-{}", c.first)})),
            ALL,
        ),
        route("POST", "/api/signout", OwnAccount, None, ALL),
        route(
            "POST",
            "/api/account/password",
            OwnAccount,
            Some(|c| json!({"old": format!("password-{}", c.asker), "new": "another-password"})),
            SIGNED_IN,
        ),
        route(
            "POST",
            "/api/account/signout-everywhere",
            OwnAccount,
            None,
            SIGNED_IN,
        ),
        route(
            "POST",
            "/api/account/delete",
            OwnAccount,
            Some(|c| json!({"password": format!("password-{}", c.asker)})),
            SIGNED_IN,
        ),
        route("GET", "/api/account/tokens", OwnAccount, None, SIGNED_IN),
        route(
            "POST",
            "/api/account/tokens",
            OwnAccount,
            Some(|_| json!({"name": "a program", "scopes": ["read"]})),
            SIGNED_IN,
        ),
        // Only its owner revokes a token; to anyone else there is no such token.
        route(
            "POST",
            "/api/account/tokens/{id}/revoke",
            Token,
            Some(|_| json!({})),
            [SO, Http::Ok, NOT_FOUND, NOT_FOUND],
        ),
        route(
            "POST",
            "/api/account/bot",
            OwnAccount,
            Some(|_| json!({})),
            SIGNED_IN,
        ),
        route("GET", "/api/bot/stream/event", Nothing, None, NOT_BOT),
        route("GET", "/api/bot/game/{id}/stream", Game, None, NOT_BOT),
        route(
            "POST",
            "/api/bot/game/{id}/move/{move}",
            Game,
            Some(|_| json!({})),
            NOT_BOT,
        ),
        route(
            "POST",
            "/api/bot/game/{id}/resign",
            Game,
            Some(|_| json!({})),
            NOT_BOT,
        ),
        route(
            "POST",
            "/api/bot/game/{id}/abort",
            Game,
            Some(|_| json!({})),
            NOT_BOT,
        ),
        route(
            "POST",
            "/api/bot/game/{id}/draw/{answer}",
            Game,
            Some(|_| json!({})),
            NOT_BOT,
        ),
        route(
            "POST",
            "/api/challenges",
            Nothing,
            Some(|_| json!({"spec": "reversi", "color": "first"})),
            SIGNED_IN,
        ),
        route(
            "POST",
            "/api/challenges/{id}/accept",
            Challenge,
            Some(|_| json!({})),
            [SO, Http::No(400, "own-challenge"), Http::Ok, forbidden],
        ),
        route(
            "POST",
            "/api/challenges/{id}/decline",
            Challenge,
            Some(|_| json!({})),
            [SO, Http::Ok, Http::Ok, forbidden],
        ),
        route(
            "POST",
            "/api/computer",
            Nothing,
            Some(|_| json!({"spec": "reversi", "level": 1, "color": "first"})),
            SIGNED_IN,
        ),
        route(
            "POST",
            "/api/games/{id}/rematch",
            Finished,
            Some(|_| json!({})),
            [SO, Http::Ok, Http::Ok, forbidden],
        ),
        route(
            "POST",
            "/api/import",
            Nothing,
            Some(
                |_| json!({"text": "[Game \"reversi\"]\n[First \"Ann\"]\n[Second \"Ben\"]\n[Result \"0-1\"]\n\nf5d6c3d3c4"}),
            ),
            SIGNED_IN,
        ),
        route(
            "POST",
            "/api/rules-try",
            Nothing,
            Some(|_| json!({"spec": "reversi", "moves": ["f5"]})),
            ALL,
        ),
        // The analysis board: anyone reaches positions; the engine's lines need an account (its quota).
        route(
            "POST",
            "/api/analysis/position",
            Nothing,
            Some(|_| json!({"spec": "reversi", "moves": ["f5"]})),
            ALL,
        ),
        route(
            "POST",
            "/api/analysis/import",
            Nothing,
            Some(|_| json!({"spec": "reversi", "text": "f5d6c3"})),
            ALL,
        ),
        route(
            "POST",
            "/api/analysis/setup",
            Nothing,
            Some(|_| {
                let mut cells = vec![Value::Null; 64];
                for (i, g) in [(27, "O"), (28, "X"), (35, "X"), (36, "O"), (37, "X")] {
                    cells[i] = json!(g);
                }
                json!({"spec": "reversi", "cells": cells, "turn": "second"})
            }),
            ALL,
        ),
        route("GET", "/puzzles/{game}", Nothing, None, ALL),
        route("GET", "/api/puzzles/{game}/next", Puzzle, None, ALL),
        route("GET", "/puzzles/{game}/{id}", Puzzle, None, ALL),
        route("GET", "/api/puzzle/{id}", Puzzle, None, ALL),
        route("GET", "/api/puzzles/{game}/history", Nothing, None, SIGNED_IN),
        route(
            "POST",
            "/api/puzzles/{id}/move",
            Puzzle,
            Some(|_| json!({"moves": ["a4"]})),
            ALL,
        ),
        route(
            "POST",
            "/api/analysis/explorer",
            Nothing,
            Some(|_| json!({"spec": "reversi", "moves": ["f5"]})),
            ALL,
        ),
        route(
            "POST",
            "/api/analysis/lines",
            Nothing,
            // One empty cross: the only move ends the game, and the answer ends at once. (Cornered Reversi,
            // which the roles do not play: a player of a game without hints gets no lines of that game.)
            Some(
                |_| json!({"spec": "cornered:size=5", "start": "WBWBW/BWBWB/WBWBW/BWBWB/WBWB1 W", "lines": 2}),
            ),
            SIGNED_IN,
        ),
        route(
            "POST",
            "/api/specs/check",
            Nothing,
            Some(|_| json!({"spec": "reversi"})),
            ALL,
        ),
        route(
            "POST",
            "/api/tournaments",
            Nothing,
            Some(|_| json!({"name": "Cup", "spec": super::NO_HELP_SPEC, "kind": "round-robin"})),
            SIGNED_IN,
        ),
        route(
            "POST",
            "/api/tournaments/{id}/join",
            Tournament,
            Some(|_| json!({})),
            [SO, Http::No(409, "joined"), Http::No(409, "joined"), Http::Ok],
        ),
        route(
            "POST",
            "/api/tournaments/{id}/withdraw",
            Tournament,
            Some(|_| json!({})),
            [SO, Http::Ok, Http::Ok, Http::No(409, "not-in")],
        ),
        route(
            "POST",
            "/api/tournaments/{id}/start",
            Tournament,
            Some(|_| json!({})),
            [SO, Http::Ok, forbidden, forbidden],
        ),
    ]
}

/// One row per message a page may send (`draw` and `takeback` once per answer): the message's `t` (and
/// answer), its subject, and what each role of [`ROLES`] gets.
pub(crate) struct Message {
    pub(crate) t: &'static str,
    pub(crate) answer: Option<&'static str>,
    pub(crate) subject: Subject,
    pub(crate) expect: [Ws; 4],
}

fn message(t: &'static str, answer: Option<&'static str>, subject: Subject, expect: [Ws; 4]) -> Message {
    Message {
        t,
        answer,
        subject,
        expect,
    }
}

const OUT: Ws = Ws::No("signed-out");
const STRANGER: Ws = Ws::No("not-a-player");
const REFUSED: Ws = Ws::No("refused");
const ANSWERED: Ws = Ws::Answered;
const ACK: Ws = Ws::Ack;

pub(crate) fn messages() -> Vec<Message> {
    use Subject::*;
    vec![
        message("lobby", None, Nothing, [ANSWERED; 4]),
        message("ping", None, Nothing, [ANSWERED; 4]),
        message("watch", None, Game, [ANSWERED; 4]),
        message("tv", None, Game, [ANSWERED; 4]),
        // A player says it in the players' room, the stranger in the spectators'.
        message("chat", None, Game, [OUT, ANSWERED, ANSWERED, ANSWERED]),
        message("move", None, Game, [OUT, ACK, Ws::No("not-your-turn"), STRANGER]),
        message("resign", None, Game, [OUT, ACK, ACK, STRANGER]),
        message("abort", None, Game, [OUT, ACK, ACK, STRANGER]),
        message("draw", Some("offer"), Game, [OUT, ACK, ACK, STRANGER]),
        message("draw", Some("accept"), DrawOffered, [OUT, ACK, REFUSED, STRANGER]),
        message(
            "draw",
            Some("decline"),
            DrawOffered,
            [OUT, ACK, REFUSED, STRANGER],
        ),
        message(
            "takeback",
            Some("offer"),
            AfterMove,
            [OUT, ACK, REFUSED, STRANGER],
        ),
        message(
            "takeback",
            Some("accept"),
            TakebackAsked,
            [OUT, REFUSED, ACK, STRANGER],
        ),
        message(
            "takeback",
            Some("decline"),
            TakebackAsked,
            [OUT, REFUSED, ACK, STRANGER],
        ),
        message("claim", None, Claimable, [OUT, ACK, REFUSED, STRANGER]),
    ]
}
