//! The authorization matrix: every operation of the OpenAPI document and every message a page's socket may
//! send (the document's `ClientMsg`), tried as each role, on SQLite and PostgreSQL. A role that may not act is
//! refused with the status and code its row names, and the refusal changes nothing; a role that may act
//! succeeds. An operation or a message without a row here fails the test, and so does a row whose refusal of
//! a signed-out asker disagrees with the document's `security`. Each operation is also asked with a personal
//! API token of each scope the asker may hold, and gets what the session gets only with the scope the
//! document names.

#[path = "../support/mod.rs"]
#[macro_use]
mod support;
mod table;

use std::{collections::BTreeSet, net::SocketAddr};

use gridplay_core::Player;
use gridplay_server::{
    clock::TimeControl,
    db::{Act, ActionKind, ActionRow, Db, GameRow, GameStatus, GameUpdate, ModKind, now_ms},
};
use serde_json::{Value, json};
use support::{http, recv, send, signup};
use table::{Http, Message, ROLES, Role, Route, SO, Subject, Ws, messages, routes};

/// The spec of the games without help that the subjects make (a challenge accepted, a tournament's, a claimable
/// game): another game than the casual games with help (Reversi), whose positions the fair-play rule then
/// never guards from the roles, which all ask from one address (docs/web.md, "Fair play"; the rule has a
/// matrix of its own, `help_matrix.rs`).
const NO_HELP_SPEC: &str = "cornered:size=5";

/// The accounts of one database's run.
struct People {
    first: String,
    second: String,
    stranger: String,
    admin: String,
    cookies: [String; 4],
}

/// One case: the subject made for it and who asks.
struct Case {
    /// The id of the subject's challenge, game or tournament.
    id: String,
    first: String,
    /// The asker's name (for the account routes' passwords).
    asker: String,
    /// A name no one has, for signing up.
    fresh: String,
    /// The asker's session cookie, if signed in.
    cookie: Option<String>,
}

struct Run {
    addr: SocketAddr,
    db: Db,
    people: People,
    made: u32,
}

impl Run {
    fn next_name(&mut self, stem: &str) -> String {
        self.made += 1;
        format!("{stem}{}", self.made)
    }

    async fn post(&self, path: &str, cookie: &str, body: Value) -> Value {
        let r = http(self.addr, "POST", path, Some(cookie), Some(&body.to_string())).await;
        assert_eq!(r.status, 200, "POST {path}: {}", r.body);
        r.json()
    }

    /// A casual game with help between the first and second players, the first to move.
    async fn game(&self) -> String {
        let [a, b, _, _] = &self.people.cookies;
        support::game_between(
            self.addr,
            a,
            b,
            &json!({"spec": "reversi", "color": "first", "opponent": self.people.second, "help": true}),
        )
        .await
    }

    /// Plays `t` (with `answer`) as the player of cookie index `who` and waits for its ack.
    async fn act(&self, who: usize, game: &str, t: &str, extra: Value) {
        let mut ws = support::socket(self.addr, Some(&self.people.cookies[who])).await;
        // Each action its own ack id: the server takes a repeated one for a retry of the action it acknowledged.
        let ack = format!("setup-{t}");
        let mut msg = json!({"t": t, "game": game, "ack": ack});
        if let (Some(m), Some(e)) = (msg.as_object_mut(), extra.as_object()) {
            m.extend(e.clone());
        }
        send(&mut ws, msg.clone()).await;
        let answer = answer_to(&mut ws, &ack).await;
        assert_eq!(answer["t"], "ack", "setting up with {msg}: {answer}");
    }

    /// Makes the subject of a case; its id.
    async fn subject(&mut self, subject: Subject) -> String {
        let [a, b, c, _] = self.people.cookies.clone();
        match subject {
            Subject::Nothing | Subject::OwnAccount => self.people.first.clone(),
            Subject::Puzzle => {
                use gridplay_server::db::puzzles::{NewPuzzle, puzzle_id};
                let position = "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X";
                let puzzle = NewPuzzle {
                    game: "reversi".into(),
                    spec: "reversi".into(),
                    position: position.into(),
                    solution: vec!["a4".into()],
                    proof: "exact solve of every move (14 empty squares)".into(),
                    steps: vec!["a4=E1000* b2=E0 c1=E-400".parse().unwrap()],
                    source: "test".into(),
                };
                self.db.add_puzzles(&[puzzle], 1).await.unwrap();
                puzzle_id("reversi", position)
            }
            Subject::Token => self
                .post(
                    "/api/account/tokens",
                    &a,
                    json!({"name": "the first's", "scopes": ["read"]}),
                )
                .await["id"]
                .as_str()
                .expect("a token id")
                .to_owned(),
            Subject::Report => self
                .post(
                    "/api/reports",
                    &c,
                    json!({"user": self.people.first, "reason": "a report"}),
                )
                .await["id"]
                .as_str()
                .expect("a report id")
                .to_owned(),
            Subject::Challenge => self
                .post(
                    "/api/challenges",
                    &a,
                    json!({"spec": NO_HELP_SPEC, "color": "first", "opponent": self.people.second}),
                )
                .await["id"]
                .as_str()
                .expect("a challenge id")
                .to_owned(),
            Subject::Game => self.game().await,
            Subject::AfterMove | Subject::TakebackAsked => {
                let game = self.game().await;
                self.act(0, &game, "move", json!({"move": "d3"})).await;
                if subject == Subject::TakebackAsked {
                    self.act(0, &game, "takeback", json!({"answer": "offer"})).await;
                }
                game
            }
            Subject::DrawOffered => {
                let game = self.game().await;
                self.act(1, &game, "draw", json!({"answer": "offer"})).await;
                game
            }
            Subject::Claimable => {
                let user = |name: &str| {
                    let db = self.db.clone();
                    let name = name.to_owned();
                    async move { db.user_named(&name).await.unwrap().expect("a user") }
                };
                let mut g = GameRow::new(
                    NO_HELP_SPEC.into(),
                    "cornered".into(),
                    [
                        Some(user(&self.people.first).await),
                        Some(user(&self.people.second).await),
                    ],
                    [None, None],
                );
                g.time = TimeControl::Correspondence { days: 1 };
                self.db.create_game(&g).await.unwrap();
                let two_days_ago = now_ms() - 2 * 86_400_000;
                let played = ActionRow {
                    seq: 1,
                    side: Player::First,
                    kind: ActionKind::Move,
                    body: "d3".into(),
                    at: two_days_ago,
                    clock: None,
                };
                let update = GameUpdate {
                    status: GameStatus::Active,
                    turn: Some(Player::Second),
                    winner: None,
                    termination: None,
                };
                self.db
                    .append_action(&g.id, &played, &update, None, None, None)
                    .await
                    .unwrap();
                g.id
            }
            Subject::Finished => {
                let game = self.game().await;
                self.act(0, &game, "resign", json!({})).await;
                let r = http(
                    self.addr,
                    "GET",
                    &format!("/api/games/{game}/analysis"),
                    Some(&a),
                    None,
                )
                .await;
                assert_eq!(r.status, 200, "the analysis of {game}: {}", r.body);
                game
            }
            Subject::Tournament => {
                let t = self
                    .post(
                        "/api/tournaments",
                        &a,
                        json!({"name": "Cup", "spec": NO_HELP_SPEC, "kind": "round-robin"}),
                    )
                    .await["id"]
                    .as_str()
                    .expect("a tournament id")
                    .to_owned();
                let r = http(
                    self.addr,
                    "POST",
                    &format!("/api/tournaments/{t}/join"),
                    Some(&b),
                    Some("{}"),
                )
                .await;
                assert_eq!(r.status, 200, "joining: {}", r.body);
                t
            }
        }
    }

    /// Asks a row's operation on a case, with a session cookie or an API token, and notes in `wrong` an answer
    /// other than `expect`, or a refusal that changed the subject.
    #[allow(clippy::too_many_arguments)]
    async fn ask(
        &self,
        r: &Route,
        case: &Case,
        cookie: Option<&str>,
        token: Option<&str>,
        expect: Http,
        asker: &str,
        wrong: &mut Vec<String>,
    ) {
        let path = r
            .path
            .replace("{id}", &case.id)
            .replace("{n}", "0")
            .replace("{game}", "reversi")
            .replace("{name}", &case.first)
            .replace("{move}", "d3")
            .replace("{answer}", "offer")
            .replace("{path}", "game.js");
        let before = self.snapshot(r.subject, &case.id).await;
        let body = r.body.map(|b| b(case).to_string());
        let bearer = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> = bearer.iter().map(|b| ("Authorization", b.as_str())).collect();
        let res = support::http_with(self.addr, r.method, &path, cookie, body.as_deref(), &headers).await;
        let got = if (200..300).contains(&res.status) {
            Http::Ok
        } else {
            let code = res.json()["error"]["code"].as_str().unwrap_or("").to_owned();
            match expect {
                Http::No(s, c) if s == res.status && c == code => expect,
                _ => {
                    wrong.push(format!(
                        "{} {path} as {asker}: {} {}",
                        r.method, res.status, res.body
                    ));
                    return;
                }
            }
        };
        if got != expect {
            wrong.push(format!(
                "{} {path} as {asker}: expected {expect:?}, got {got:?}",
                r.method
            ));
        } else if expect != Http::Ok {
            let after = self.snapshot(r.subject, &case.id).await;
            if after != before {
                wrong.push(format!(
                    "{} {path} as {asker}: refused, yet {before} became {after}",
                    r.method
                ));
            }
        }
    }

    /// The case for `role` on a new subject: for [`Subject::OwnAccount`], a new account for each signed-in role.
    async fn case(&mut self, subject: Subject, role: Role) -> Case {
        let id = self.subject(subject).await;
        let fresh = self.next_name("new");
        let (asker, cookie) = match (subject, role) {
            (_, Role::SignedOut) => (String::new(), None),
            (Subject::OwnAccount, _) => {
                let name = self.next_name("own");
                let cookie = signup(self.addr, &name).await;
                (name, Some(cookie))
            }
            (_, Role::First) => (self.people.first.clone(), Some(self.people.cookies[0].clone())),
            (_, Role::Second) => (self.people.second.clone(), Some(self.people.cookies[1].clone())),
            (_, Role::Stranger) => (self.people.stranger.clone(), Some(self.people.cookies[2].clone())),
            (_, Role::Admin) => (self.people.admin.clone(), Some(self.people.cookies[3].clone())),
        };
        Case {
            id,
            first: self.people.first.clone(),
            asker,
            fresh,
            cookie,
        }
    }

    /// What a refusal must leave as it was: the challenge's status, the game's version and end, the
    /// tournament's players and state.
    async fn snapshot(&self, subject: Subject, id: &str) -> String {
        match subject {
            Subject::OwnAccount => String::new(),
            // Whether the first player's tokens are as they were.
            Subject::Token => {
                let first = self
                    .db
                    .user_named(&self.people.first)
                    .await
                    .unwrap()
                    .expect("the first");
                let ids: Vec<String> = self
                    .db
                    .tokens(&first.id)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|t| t.id)
                    .collect();
                format!("{ids:?}")
            }
            // What an admin route or a report would change: the first player's record and the open reports.
            Subject::Nothing | Subject::Report => {
                let first = self
                    .db
                    .standing(&self.people.first)
                    .await
                    .unwrap()
                    .expect("the first player");
                let history = self.db.moderation_history(&first.id).await.unwrap().len();
                let open: Vec<String> = self
                    .db
                    .reports(None)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|r| r.id)
                    .collect();
                format!("{history} {open:?}")
            }
            Subject::Challenge => format!("{:?}", self.db.challenge(id).await.unwrap().map(|c| c.status)),
            Subject::Puzzle => format!("{:?}", self.db.puzzle(id).await.unwrap().map(|p| p.plays)),
            Subject::Tournament => {
                let t = http(self.addr, "GET", &format!("/api/tournaments/{id}"), None, None)
                    .await
                    .json();
                format!("{} {}", t["status"], t["players"])
            }
            _ => {
                let s = http(self.addr, "GET", &format!("/api/games/{id}"), None, None)
                    .await
                    .json();
                format!("{} {} {}", s["version"], s["over"], s["offers"])
            }
        }
    }
}

/// Reads the socket until the answer to the action acknowledged as `ack`.
async fn answer_to(ws: &mut support::Socket, ack: &str) -> Value {
    loop {
        let m = recv(ws).await;
        if (m["t"] == "ack" || m["t"] == "error") && m["ack"] == ack {
            return m;
        }
    }
}

/// The operations of the OpenAPI document, as `METHOD /path`.
fn documented() -> (BTreeSet<String>, BTreeSet<String>, Value) {
    let doc: Value = serde_json::from_str(gridplay_server::web::openapi::document()).expect("the document");
    let mut all = BTreeSet::new();
    let mut secured = BTreeSet::new();
    for (path, ops) in doc["paths"].as_object().expect("paths") {
        for (method, op) in ops.as_object().expect("operations") {
            let key = format!("{} {path}", method.to_uppercase());
            // Signing in is needed where every way in is the session or a token (an empty requirement makes
            // both optional).
            let reqs = op["security"].as_array().cloned().unwrap_or_default();
            if !reqs.is_empty() && reqs.iter().all(|r| r.as_object().is_some_and(|o| !o.is_empty())) {
                secured.insert(key.clone());
            }
            all.insert(key);
        }
    }
    (all, secured, doc)
}

/// The token scope the document gives an operation (`None`: it takes no token).
fn token_scope(doc: &Value, method: &str, path: &str) -> Option<String> {
    doc["paths"][path][method.to_lowercase()]["security"]
        .as_array()?
        .iter()
        .find_map(|req| req.get("token")?.get(0)?.as_str().map(str::to_owned))
}

/// The messages a page may send, from the document's `ClientMsg`: each `t`, and each answer where the message
/// takes one.
fn documented_messages(doc: &Value) -> BTreeSet<String> {
    let answers: Vec<String> = doc["components"]["schemas"]["DrawAnswer"]["enum"]
        .as_array()
        .expect("DrawAnswer's values")
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    let mut out = BTreeSet::new();
    let variants = doc["components"]["schemas"]["ClientMsg"]["oneOf"]
        .as_array()
        .expect("ClientMsg's variants");
    for v in variants {
        let t = v["properties"]["t"]["enum"][0]
            .as_str()
            .unwrap_or_else(|| panic!("a variant without `t`: {v}"));
        if v["properties"].get("answer").is_some() {
            out.extend(answers.iter().map(|a| format!("{t} {a}")));
        } else {
            out.insert(t.to_owned());
        }
    }
    out
}

fn message_key(m: &Message) -> String {
    m.answer
        .map_or_else(|| m.t.to_owned(), |a| format!("{} {a}", m.t))
}

#[test]
fn every_operation_and_message_has_a_row_and_the_document_agrees_on_who_must_sign_in() {
    let (all, secured, doc) = documented();
    let rows: BTreeSet<String> = routes()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert_eq!(routes().len(), rows.len(), "a route has two rows");
    // The socket's own operation is the messages' table.
    let missing: Vec<_> = all
        .iter()
        .filter(|k| !rows.contains(*k) && *k != "GET /ws")
        .collect();
    assert!(
        missing.is_empty(),
        "operations of the document without a row in the matrix: {missing:?}"
    );
    let extra: Vec<_> = rows.difference(&all).collect();
    assert!(
        extra.is_empty(),
        "rows for operations the document does not have: {extra:?}"
    );
    for r in routes() {
        let key = format!("{} {}", r.method, r.path);
        assert_eq!(
            r.expect[0] == SO,
            secured.contains(&key),
            "{key}: the matrix and the document's `security` disagree on whether one must be signed in"
        );
    }
    let sent: BTreeSet<String> = messages().iter().map(message_key).collect();
    assert_eq!(messages().len(), sent.len(), "a message has two rows");
    assert_eq!(
        sent,
        documented_messages(&doc),
        "the socket's messages and the matrix's rows"
    );
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_role_is_refused_or_served_as_its_row_says() {
    for (url, pg) in support::databases("authz").await {
        let server = gridplay_server::start(support::config(&url))
            .await
            .expect("server");
        let addr = server.addr;
        let names = ["ann", "ben", "cyd", "dee"].map(str::to_owned);
        let mut cookies = Vec::new();
        for n in &names {
            cookies.push(signup(addr, n).await);
        }
        let dee = server.state.db.standing("dee").await.unwrap().expect("dee");
        server
            .state
            .db
            .moderate(&dee.id, None, &Act::new(ModKind::Grant, "the matrix's admin"))
            .await
            .unwrap();
        let [first, second, stranger, admin] = names;
        let mut run = Run {
            addr,
            db: server.state.db.clone(),
            people: People {
                first,
                second,
                stranger,
                admin,
                cookies: cookies.try_into().unwrap(),
            },
            made: 0,
        };
        let mut wrong = Vec::new();
        let (_, _, doc) = documented();
        for r in routes() {
            let admin = r.admin.unwrap_or(r.expect[3]);
            for (role, expect) in ROLES.into_iter().zip(r.expect).chain([(Role::Admin, admin)]) {
                eprintln!("{} {} as {role:?}", r.method, r.path);
                let case = run.case(r.subject, role).await;
                let cookie = case.cookie.clone();
                let asker = format!("{role:?}");
                run.ask(&r, &case, cookie.as_deref(), None, expect, &asker, &mut wrong)
                    .await;
            }
        }
        // The same rows asked with a personal API token instead of the session, of each scope the asker may
        // have: the first player's (the admin's on the admin routes). A token with the scope the document gives
        // the operation gets what the session gets; any other is refused, and so is every token where the
        // document gives no scope, and the refusal changes nothing.
        for r in routes() {
            let (role, session_expect, scopes) = match r.admin {
                Some(a) => (Role::Admin, a, &["read", "play", "bot", "admin"][..]),
                None => (Role::First, r.expect[1], &["read", "play", "bot"][..]),
            };
            let needed = token_scope(&doc, r.method, r.path);
            for scope in scopes {
                eprintln!("{} {} as {role:?} with a {scope} token", r.method, r.path);
                let case = run.case(r.subject, role).await;
                let cookie = case.cookie.clone().expect("a signed-in asker");
                let made = run
                    .post(
                        "/api/account/tokens",
                        &cookie,
                        json!({"name": "matrix", "scopes": [scope]}),
                    )
                    .await;
                let token = made["token"].as_str().expect("a token").to_owned();
                let expect = match &needed {
                    None => Http::No(403, "token-refused"),
                    Some(n) if n == scope => session_expect,
                    Some(_) => Http::No(403, "token-scope"),
                };
                let asker = format!("{role:?}'s {scope} token");
                run.ask(&r, &case, None, Some(&token), expect, &asker, &mut wrong)
                    .await;
                // Revoked, so that the asker never holds more than one (with its session, if it still has one).
                let id = made["id"].as_str().expect("an id");
                let _ = http(
                    addr,
                    "POST",
                    &format!("/api/account/tokens/{id}/revoke"),
                    Some(&cookie),
                    Some("{}"),
                )
                .await;
            }
        }
        for m in messages() {
            for (role, expect) in ROLES.into_iter().zip(m.expect.clone()) {
                eprintln!("{} {:?} as {role:?}", m.t, m.answer);
                let case = run.case(m.subject, role).await;
                let before = run.snapshot(m.subject, &case.id).await;
                let mut ws = support::socket(addr, case.cookie.as_deref()).await;
                if m.subject != Subject::Nothing {
                    // Everyone watches first: the stranger and the visitor as spectators.
                    send(&mut ws, json!({"t": "watch", "game": case.id})).await;
                    support::recv_until(&mut ws, "sync").await;
                }
                let mut msg = json!({"t": m.t, "game": case.id, "ack": "x"});
                match m.t {
                    "move" => msg["move"] = json!("d3"),
                    "chat" => msg["text"] = json!("good luck"),
                    "tv" => msg = json!({"t": "tv", "games": [{"game": case.id}]}),
                    "lobby" | "ping" => msg = json!({"t": m.t}),
                    _ => {}
                }
                if let Some(a) = m.answer {
                    msg["answer"] = json!(a);
                }
                send(&mut ws, msg.clone()).await;
                let mut said = String::new();
                let got = if expect == Ws::Answered {
                    // Answered without an error: a ping sent after it comes back with no error before its pong.
                    send(&mut ws, json!({"t": "ping"})).await;
                    let mut pongs = if m.t == "ping" { 2 } else { 1 };
                    let mut got = Ws::Answered;
                    while pongs > 0 {
                        let a = recv(&mut ws).await;
                        match a["t"].as_str() {
                            Some("pong") => pongs -= 1,
                            Some("error") => {
                                said = a["message"].as_str().unwrap_or("").to_owned();
                                got = Ws::Refused(a["code"].as_str().unwrap_or("").to_owned());
                            }
                            _ => {}
                        }
                    }
                    got
                } else {
                    let a = answer_to(&mut ws, "x").await;
                    said = a["message"].as_str().unwrap_or("").to_owned();
                    if a["t"] == "ack" {
                        Ws::Ack
                    } else {
                        Ws::Refused(a["code"].as_str().unwrap_or("").to_owned())
                    }
                };
                if !got.is(&expect) {
                    wrong.push(format!(
                        "{msg} as {role:?}: expected {expect:?}, got {got:?} ({said})"
                    ));
                } else if matches!(expect, Ws::No(_)) {
                    let after = run.snapshot(m.subject, &case.id).await;
                    if after != before {
                        wrong.push(format!("{msg} as {role:?}: refused, yet {before} became {after}"));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "on {url}:\n{}", wrong.join("\n"));
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}
