//! The help matrix: every operation that gives the engine's output (tagged `engine` in the OpenAPI document)
//! and a game's file, asked with every way of naming a position of a rated game in play (the game, a casual
//! game with help that reaches the same position, its import, its exported file, its moves, its position text,
//! a mirror image, a colour-swapped copy, and the positions one and two plies ahead), as every asker (the
//! player by session and by API token, a second account at the player's address, a stranger at another
//! address, a spectator at a third), on SQLite and PostgreSQL. The rule (docs/web.md, "Fair play"): the
//! player and anyone at the player's address get nothing that bears on the game; the others get what they ask.
//! An `engine` operation without a row fails the test.

#[macro_use]
mod support;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use gridplay_core::DynPosition;
use serde_json::{Value, json};
use support::{LOOPBACK, http_from, recv_until, send, socket};

/// Who asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asker {
    /// A stranger at another address: asks first, so that what is stored (an analysis) is there for the rest.
    Stranger,
    /// A signed-in account at a third address, watching the game.
    Spectator,
    /// The player to move, by session.
    Player,
    /// The same player, by a personal API token.
    PlayerToken,
    /// Another account at the player's address.
    SameAddress,
}

const ASKERS: [Asker; 5] = [
    Asker::Stranger,
    Asker::Spectator,
    Asker::Player,
    Asker::PlayerToken,
    Asker::SameAddress,
];

impl Asker {
    /// Whether the rule guards the game from this asker.
    fn guarded(self) -> bool {
        matches!(self, Asker::Player | Asker::PlayerToken | Asker::SameAddress)
    }
}

/// How a position of the game in play is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Naming {
    /// The game itself.
    Game,
    /// A casual game with help, between the player and the second account, that reaches the same position.
    HelpGame,
    /// The game's moves imported as a file.
    Import,
    /// The game's exported file, imported.
    File,
    /// The game's moves from the start.
    Moves,
    /// The live position's text.
    Text,
    /// The moves' mirror image (the board turned over its a1-h8 diagonal).
    Mirror,
    /// The live position with the colours swapped and the other side to move.
    Swapped,
    /// One ply past the live position.
    Ahead1,
    /// Two plies past it.
    Ahead2,
    /// A puzzle at the live position (a wrong answer's refutation is one ply past it).
    Puzzle,
}

/// What an operation answers an asker.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Out {
    /// The engine's output.
    Given,
    /// A refusal: status and code.
    No(u16, String),
    /// The explorer's answer with the book's scores withheld.
    Withheld,
}

fn no(status: u16, code: &str) -> Out {
    Out::No(status, code.to_owned())
}

/// The rule: nothing for the guarded, the output for the rest.
fn rule(a: Asker) -> Out {
    if a.guarded() {
        no(409, "refused")
    } else {
        Out::Given
    }
}

/// The explorer and a puzzle's refutation under the rule: the engine's part withheld from the guarded.
fn explorer_rule(a: Asker) -> Out {
    if a.guarded() { Out::Withheld } else { Out::Given }
}

/// One row: an operation (as the OpenAPI document names it), a naming, and what each asker gets.
struct Row {
    op: &'static str,
    naming: Naming,
    expect: fn(Asker) -> Out,
}

const COPIES: [Naming; 5] = [
    Naming::Import,
    Naming::File,
    Naming::Mirror,
    Naming::Ahead1,
    Naming::Ahead2,
];
const BOARDS: [Naming; 6] = [
    Naming::Moves,
    Naming::Text,
    Naming::Mirror,
    Naming::Swapped,
    Naming::Ahead1,
    Naming::Ahead2,
];

fn rows() -> Vec<Row> {
    let mut rows = vec![
        // The game's own hint: no help in a rated game; the others are not its players.
        Row {
            op: "GET /api/games/{id}/hint",
            naming: Naming::Game,
            expect: |a| match a {
                Asker::Player | Asker::PlayerToken => no(409, "refused"),
                _ => no(409, "not-a-player"),
            },
        },
        // A game with help that reaches the guarded position: its player to move is refused by the rule.
        Row {
            op: "GET /api/games/{id}/hint",
            naming: Naming::HelpGame,
            expect: |a| match a {
                Asker::Player | Asker::PlayerToken => no(409, "refused"),
                Asker::SameAddress => no(409, "not-your-turn"),
                _ => no(409, "not-a-player"),
            },
        },
        Row {
            op: "GET /api/games/{id}/ply/{n}/hint",
            naming: Naming::Game,
            expect: |_| no(409, "refused"),
        },
        Row {
            op: "GET /api/games/{id}/analysis",
            naming: Naming::Game,
            expect: |_| no(409, "ongoing"),
        },
        Row {
            op: "GET /api/games/{id}/analysis/stored",
            naming: Naming::Game,
            expect: |_| no(404, "not-found"),
        },
        Row {
            op: "GET /api/games/{id}/export",
            naming: Naming::Game,
            expect: rule,
        },
    ];
    for naming in COPIES {
        for op in [
            "GET /api/games/{id}/ply/{n}/hint",
            "GET /api/games/{id}/analysis",
            "GET /api/games/{id}/analysis/stored",
        ] {
            rows.push(Row {
                op,
                naming,
                expect: rule,
            });
        }
    }
    // A wrong answer to a puzzle at the live position: its refutation withheld from the guarded.
    rows.push(Row {
        op: "POST /api/puzzles/{id}/move",
        naming: Naming::Puzzle,
        expect: explorer_rule,
    });
    for naming in BOARDS {
        rows.push(Row {
            op: "POST /api/analysis/lines",
            naming,
            expect: rule,
        });
        rows.push(Row {
            op: "POST /api/analysis/explorer",
            naming,
            expect: explorer_rule,
        });
    }
    rows
}

/// The guarded game's moves: the tiger opening, which the engine's book holds.
const LINE: [&str; 4] = ["f5", "d6", "c3", "d3"];
/// Its mirror image over the a1-h8 diagonal.
const MIRROR: [&str; 4] = ["e6", "f4", "c3", "c4"];

const HOME: IpAddr = LOOPBACK;
const AWAY: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
const WATCHING: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 4));

/// How a request is signed.
enum Auth<'a> {
    Cookie(&'a str),
    Token(&'a str),
}

struct World {
    addr: SocketAddr,
    /// Ann plays the guarded game (first, to move); Ben is her opponent; Cat is a second account at Ann's
    /// address; Dan a stranger elsewhere; Eve a spectator elsewhere.
    ann: String,
    ann_token: String,
    cat: String,
    dan: String,
    eve: String,
    game: String,
    help_game: String,
    copies: Vec<(Naming, String, usize)>,
    ahead: [String; 2],
    /// A puzzle at the live position, and a wrong answer to it.
    puzzle: String,
    puzzle_wrong: String,
}

impl World {
    fn auth(&self, a: Asker) -> (IpAddr, Auth<'_>) {
        match a {
            Asker::Player => (HOME, Auth::Cookie(&self.ann)),
            Asker::PlayerToken => (HOME, Auth::Token(&self.ann_token)),
            Asker::SameAddress => (HOME, Auth::Cookie(&self.cat)),
            Asker::Stranger => (AWAY, Auth::Cookie(&self.dan)),
            Asker::Spectator => (WATCHING, Auth::Cookie(&self.eve)),
        }
    }

    async fn ask(&self, a: Asker, method: &str, path: &str, body: Option<&Value>) -> support::Response {
        let (from, auth) = self.auth(a);
        let body = body.map(Value::to_string);
        match auth {
            Auth::Cookie(c) => http_from(from, self.addr, method, path, Some(c), body.as_deref(), &[]).await,
            Auth::Token(t) => {
                let header = format!("Bearer {t}");
                http_from(
                    from,
                    self.addr,
                    method,
                    path,
                    None,
                    body.as_deref(),
                    &[("Authorization", &header)],
                )
                .await
            }
        }
    }

    /// The moves (or position text) that name the position for the analysis board.
    fn board(&self, naming: Naming) -> Value {
        let moves = |m: &[&str]| json!({"spec": "reversi", "moves": m});
        match naming {
            Naming::Moves => moves(&LINE),
            Naming::Mirror => moves(&MIRROR),
            Naming::Text => json!({"spec": "reversi", "start": position_text(&LINE)}),
            Naming::Swapped => json!({"spec": "reversi", "start": swap_colours(&position_text(&LINE))}),
            Naming::Ahead1 => moves(&self.ahead_moves(1)),
            Naming::Ahead2 => moves(&self.ahead_moves(2)),
            other => panic!("{other:?} is not a board naming"),
        }
    }

    fn ahead_moves(&self, n: usize) -> Vec<&str> {
        LINE.iter()
            .copied()
            .chain(self.ahead[..n].iter().map(String::as_str))
            .collect()
    }

    /// What `op` answers `a` for `naming`.
    async fn answer(&self, op: &str, naming: Naming, a: Asker) -> Out {
        let (method, path) = op.split_once(' ').expect("METHOD PATH");
        let (game, plies) = match naming {
            Naming::Game => (self.game.clone(), LINE.len()),
            Naming::Puzzle => (self.puzzle.clone(), 0),
            Naming::HelpGame => (self.help_game.clone(), LINE.len()),
            _ => self
                .copies
                .iter()
                .find(|(n, _, _)| *n == naming)
                .map_or((String::new(), 0), |(_, id, plies)| (id.clone(), *plies)),
        };
        let path = path.replace("{id}", &game).replace("{n}", &plies.to_string());
        let body = match op {
            "POST /api/analysis/lines" => {
                let mut b = self.board(naming);
                b["lines"] = json!(1);
                Some(b)
            }
            "POST /api/analysis/explorer" => Some(self.board(naming)),
            "POST /api/puzzles/{id}/move" => Some(json!({"moves": [self.puzzle_wrong]})),
            _ => None,
        };
        let r = self.ask(a, method, &path, body.as_ref()).await;
        if r.status != 200 {
            let (status, code) = support::error_code(&r);
            return Out::No(status, code);
        }
        match op {
            "POST /api/analysis/explorer" => {
                let j = r.json();
                if j["withheld"] == true {
                    assert_eq!(j["book"], false, "withheld scores are not in the answer: {j}");
                    assert!(
                        j["moves"].as_array().unwrap().iter().all(|m| m["book"].is_null()),
                        "{j}"
                    );
                    Out::Withheld
                } else {
                    assert_eq!(j["book"], true, "the book holds this position: {j}");
                    Out::Given
                }
            }
            "POST /api/puzzles/{id}/move" => {
                let j = r.json();
                assert_eq!(j["result"], "failed", "{j}");
                if j["withheld"] == true {
                    assert_eq!(j["refutation"], json!([]), "{j}");
                    Out::Withheld
                } else {
                    assert!(!j["refutation"].as_array().unwrap().is_empty(), "{j}");
                    Out::Given
                }
            }
            "POST /api/analysis/lines" => {
                assert!(
                    r.body.lines().next().is_some_and(|l| l.contains("\"depth\"")),
                    "{}",
                    r.body
                );
                Out::Given
            }
            _ => Out::Given,
        }
    }
}

/// The position text after `moves` from Reversi's start.
fn position_after(moves: &[&str]) -> Box<dyn DynPosition> {
    let mut pos = gridplay_games::registry()
        .game("reversi")
        .expect("reversi")
        .start();
    for m in moves {
        pos.play(m).expect("a legal move");
    }
    pos
}

fn position_text(moves: &[&str]) -> String {
    position_after(moves).to_text()
}

/// The same discs with the colours swapped and the other side to move.
fn swap_colours(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            other => other,
        })
        .collect()
}

async fn signup_from(addr: SocketAddr, from: IpAddr, name: &str) -> String {
    let body = json!({"name": name, "password": format!("password-{name}")}).to_string();
    let r = http_from(from, addr, "POST", "/api/signup", None, Some(&body), &[]).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.cookie().expect("a session cookie")
}

async fn post_from(addr: SocketAddr, from: IpAddr, path: &str, cookie: &str, body: &Value) -> Value {
    let r = http_from(
        from,
        addr,
        "POST",
        path,
        Some(cookie),
        Some(&body.to_string()),
        &[],
    )
    .await;
    assert_eq!(r.status, 200, "POST {path}: {}", r.body);
    r.json()
}

async fn import(addr: SocketAddr, cookie: &str, text: &str) -> String {
    post_from(addr, AWAY, "/api/import", cookie, &json!({"text": text})).await["game"]
        .as_str()
        .expect("a game")
        .to_owned()
}

async fn world(addr: SocketAddr) -> World {
    let ann = signup_from(addr, HOME, "ann").await;
    let ben = signup_from(addr, HOME, "ben").await;
    let cat = signup_from(addr, HOME, "cat").await;
    let dan = signup_from(addr, AWAY, "dan").await;
    let eve = signup_from(addr, WATCHING, "eve").await;
    let token = post_from(
        addr,
        HOME,
        "/api/account/tokens",
        &ann,
        &json!({"name": "matrix", "scopes": ["read", "play"]}),
    )
    .await["token"]
        .as_str()
        .expect("a token")
        .to_owned();

    let rated = json!({"spec": "reversi", "color": "first", "opponent": "ben", "rated": true});
    let game = support::game_between(addr, &ann, &ben, &rated).await;
    support::play_moves(addr, &game, [&ann, &ben], &LINE).await;
    let mut watch = socket(addr, Some(&eve)).await;
    send(&mut watch, json!({"t": "watch", "game": game})).await;
    recv_until(&mut watch, "sync").await;

    let helped = json!({"spec": "reversi", "color": "first", "opponent": "cat", "help": true});
    let help_game = support::game_between(addr, &ann, &cat, &helped).await;
    support::play_moves(addr, &help_game, [&ann, &cat], &LINE).await;

    // The plies ahead: the first legal move, then the first reply to it.
    let live = position_after(&LINE);
    let first = live.legal_moves()[0].clone();
    let mut next = live.box_clone();
    next.play(&first).expect("legal");
    let second = next.legal_moves()[0].clone();
    let ahead = [first, second];

    let file = http_from(
        AWAY,
        addr,
        "GET",
        &format!("/api/games/{game}/export"),
        Some(&dan),
        None,
        &[],
    )
    .await;
    assert_eq!(file.status, 200, "the stranger downloads the file: {}", file.body);
    let ahead_line = |n: usize| {
        LINE.iter()
            .copied()
            .chain(ahead[..n].iter().map(String::as_str))
            .collect::<String>()
    };
    let copies = vec![
        (Naming::Import, import(addr, &dan, &LINE.concat()).await, 4),
        (Naming::File, import(addr, &dan, &file.body).await, 4),
        (Naming::Mirror, import(addr, &dan, &MIRROR.concat()).await, 4),
        (Naming::Ahead1, import(addr, &dan, &ahead_line(1)).await, 5),
        (Naming::Ahead2, import(addr, &dan, &ahead_line(2)).await, 6),
    ];
    drop(watch);
    World {
        addr,
        ann,
        ann_token: token,
        cat,
        dan,
        eve,
        game,
        help_game,
        copies,
        ahead,
        puzzle: String::new(),
        puzzle_wrong: String::new(),
    }
}

/// The operations the OpenAPI document tags `engine`, as `METHOD /path`.
async fn engine_operations(addr: SocketAddr) -> Vec<String> {
    let doc = support::http(addr, "GET", "/api/openapi.json", None, None)
        .await
        .json();
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("an item") {
            let tagged = op["tags"]
                .as_array()
                .is_some_and(|t| t.iter().any(|x| x == "engine"));
            if tagged {
                ops.push(format!("{} {path}", method.to_uppercase()));
            }
        }
    }
    ops
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_engine_output_bears_on_a_game_in_play_for_its_players_whatever_names_the_position() {
    for (url, pg) in support::databases("help_matrix").await {
        let mut cfg = support::config(&url);
        cfg.limits.lines_seconds = 1;
        let server = gridplay_server::start(cfg).await.expect("server");
        let addr = server.addr;
        let rows = rows();

        let ops = engine_operations(addr).await;
        assert!(
            ops.len() >= 6,
            "the document tags the engine's operations: {ops:?}"
        );
        for op in &ops {
            assert!(
                rows.iter().any(|r| r.op == op),
                "{op} gives engine output and has no row in the help matrix"
            );
        }

        let mut w = world(addr).await;
        (w.puzzle, w.puzzle_wrong) = live_puzzle(&server.state.db).await;
        let mut wrong = Vec::new();
        for row in &rows {
            for a in ASKERS {
                let got = w.answer(row.op, row.naming, a).await;
                let want = (row.expect)(a);
                if got != want {
                    wrong.push(format!(
                        "{} by {:?} as {a:?}: {got:?}, where the rule says {want:?}",
                        row.op, row.naming
                    ));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {} cases:\n{}",
            wrong.len(),
            rows.len() * ASKERS.len(),
            wrong.join("\n")
        );

        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

/// Stores a puzzle at the guarded game's live position: its first legal move right, the others wrong; its id
/// and a wrong move.
async fn live_puzzle(db: &gridplay_server::db::Db) -> (String, String) {
    use gridplay_server::db::puzzles::{NewPuzzle, puzzle_id};
    let pos = position_after(&LINE);
    let moves = pos.legal_moves();
    let step = moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            if i == 0 {
                format!("{m}=S300*")
            } else {
                format!("{m}=S-300")
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let puzzle = NewPuzzle {
        game: "reversi".into(),
        spec: "reversi".into(),
        position: pos.to_text(),
        solution: vec![moves[0].clone()],
        proof: "test".into(),
        steps: vec![step.parse().expect("a step")],
        source: "test".into(),
    };
    db.add_puzzles(&[puzzle], 1).await.expect("stored");
    (puzzle_id("reversi", &pos.to_text()), moves[1].clone())
}
