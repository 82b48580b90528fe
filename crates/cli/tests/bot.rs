//! `gridplay bot` against a running `gridplay serve` (SQLite): the built-in engine, and the same engine as an
//! outside program through `cmd=` (`gridplay engine`, the line protocol), each accept a person's challenge and
//! play the game to its end through the bot API, across a restart of the server in the middle of the game.
//! Challenges its filters refuse are declined, and the first Ctrl-C with `--on-stop resign` resigns the game
//! in play and stops the bot.

mod support;

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use support::{Page, Server, http, signup};

/// A `gridplay bot` child process and the lines it has logged so far.
struct BotProcess {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl BotProcess {
    fn start(addr: std::net::SocketAddr, token: &str, more: &[&str]) -> BotProcess {
        let server = format!("http://{addr}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridplay"))
            .args(["bot", "--server", &server, "--games", "reversi"])
            .args(more)
            .env("GRIDPLAY_TOKEN", token)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("gridplay bot starts");
        let stderr = child.stderr.take().expect("stderr");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let kept = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("[bot] {line}");
                kept.lock().unwrap().push(line);
            }
        });
        BotProcess { child, lines }
    }

    /// Waits (up to a minute) for a logged line that contains `text`.
    fn until(&self, text: &str) -> String {
        self.until_count(text, 1)
    }

    /// Waits (up to a minute) for `n` logged lines that contain `text`: the last.
    fn until_count(&self, text: &str, n: usize) -> String {
        let started = Instant::now();
        loop {
            if let Some(l) = self
                .lines
                .lock()
                .unwrap()
                .iter()
                .filter(|l| l.contains(text))
                .nth(n - 1)
            {
                return l.clone();
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the bot never logged `{text}`: {:?}",
                self.lines.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A new account and a token of it with the scopes a bot needs.
fn bot_token(addr: std::net::SocketAddr, name: &str) -> String {
    let cookie = signup(addr, name);
    let (status, body, _) = http(
        addr,
        "POST",
        "/api/account/tokens",
        Some(&cookie),
        Some(&json!({"name": "bot", "scopes": ["read", "play", "bot"]})),
    );
    assert_eq!(status, 200, "{body}");
    body["token"].as_str().unwrap().to_owned()
}

/// Challenges `bot` as the player of `cookie`: the challenge's id.
fn challenge(addr: std::net::SocketAddr, cookie: &str, bot: &str, time: &Value) -> String {
    let (status, body, _) = http(
        addr,
        "POST",
        "/api/challenges",
        Some(cookie),
        Some(&json!({"spec": "reversi", "color": "first", "opponent": bot, "time": time})),
    );
    assert_eq!(status, 200, "{body}");
    body["id"].as_str().unwrap().to_owned()
}

/// The game a challenge became, once the bot has accepted it (up to a minute).
fn game_of(addr: std::net::SocketAddr, cookie: &str, bot: &str) -> String {
    let started = Instant::now();
    loop {
        let (_, body, _) = http(addr, "GET", "/api/my-games", Some(cookie), None);
        if let Some(g) = body["active"]
            .as_array()
            .and_then(|a| a.iter().find(|g| g["players"][1] == bot))
        {
            return g["id"].as_str().unwrap().to_owned();
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the bot never accepted: {body}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Plays the person's side (first) of `game` to its end, restarting the server once after `restart_at`
/// moves of the person (a new server on the same address and database): the final state.
async fn play_out(server: &mut Server, database: &str, cookie: &str, game: &str, restart_at: usize) -> Value {
    let mut page = Page::watch(server.addr, cookie, game).await;
    let mut moved = 0;
    loop {
        if !page.state["over"].is_null() {
            return page.state.clone();
        }
        if page.state["view"]["turn"] == "first" {
            if moved == restart_at {
                let addr = server.addr.to_string();
                server.child.kill().expect("kill");
                server.child.wait().expect("the server is gone");
                *server = Server::start_with(database, &["--addr", &addr][..], "warn");
                assert_eq!(server.addr.to_string(), addr);
                page = Page::watch(server.addr, cookie, game).await;
                moved += 1;
                continue;
            }
            if page.try_play(game).await.is_none() {
                page = Page::watch(server.addr, cookie, game).await;
                continue;
            }
            moved += 1;
        } else if page.try_next().await.is_none() {
            page = Page::watch(server.addr, cookie, game).await;
        }
    }
}

/// How a bot is tried: its engine and the time controls it takes (`--time`), a challenge's time control it
/// takes and one it declines, with the reason it logs.
struct Trial<'a> {
    engine: &'a str,
    takes: &'a str,
    accepted: Value,
    declined: Value,
    why: &'a str,
}

async fn a_bot_plays_a_person_across_a_restart(trial: Trial<'_>, tag: &str) {
    let engine = trial.engine;
    let dir = std::env::temp_dir().join(format!("gridplay-bot-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let database = format!("sqlite://{}", dir.join("site.db").display());
    let mut server = Server::start(&database);
    let addr = server.addr;
    let token = bot_token(addr, "robo");
    let logs = dir.join("games");
    let bot = BotProcess::start(
        addr,
        &token,
        &[
            "--engine",
            engine,
            "--time",
            trial.takes,
            "--move-time",
            "100",
            "--log-dir",
            logs.to_str().unwrap(),
        ],
    );
    bot.until("now a bot account");
    bot.until("connected");
    let pat = signup(addr, "pat");

    // A time control outside its filter: declined, with the reason in its log.
    let refused = challenge(addr, &pat, "robo", &trial.declined);
    bot.until(&format!("challenge {refused} from pat: declined, {}", trial.why));

    // One inside it: accepted and played to the end, with the server restarted in the middle.
    challenge(addr, &pat, "robo", &trial.accepted);
    let game = game_of(addr, &pat, "robo");
    bot.until(&format!("game {game}: "));
    let end = play_out(&mut server, &database, &pat, &game, 6).await;
    assert!(end["over"]["winner"].is_string(), "{}", end["over"]);
    assert_ne!(end["over"]["termination"], "timeout", "{}", end["over"]);
    assert_ne!(end["over"]["termination"], "resignation", "{}", end["over"]);
    assert!(end["moves"].as_array().unwrap().len() > 20, "{}", end["moves"]);
    // It lost its streams with the server and came back.
    bot.until_count("connected: waiting", 2);
    bot.until(&format!("game {game}: {}", end["over"]["text"].as_str().unwrap()));
    let log = std::fs::read_to_string(logs.join(format!("{game}.txt"))).expect("the game's log");
    assert!(log.contains("players pat vs robo"), "{log}");
    assert!(
        log.contains(&format!("moves {}", end["moves"][0].as_str().unwrap())),
        "{log}"
    );

    // Ctrl-C with `--on-stop resign`: the game in play is resigned and the bot stops.
    drop(bot);
    let mut bot = BotProcess::start(
        server.addr,
        &token,
        &["--engine", engine, "--on-stop", "resign", "--move-time", "100"],
    );
    bot.until("connected");
    challenge(
        server.addr,
        &pat,
        "robo",
        &json!({"live": {"initial": 300, "increment": 0}}),
    );
    let second = game_of(server.addr, &pat, "robo");
    let mut page = Page::watch(server.addr, &pat, &second).await;
    page.play(&second).await;
    page.until_version(2).await;
    let pid = bot.child.id().to_string();
    let sent = Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("kill -INT");
    assert!(sent.success());
    while page.state["over"].is_null() {
        page.next().await;
    }
    assert_eq!(
        page.state["over"]["termination"], "resignation",
        "{}",
        page.state["over"]
    );
    assert_eq!(page.state["over"]["winner"], "first");
    let started = Instant::now();
    let status = loop {
        if let Some(s) = bot.child.try_wait().expect("wait") {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the bot did not stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    bot.until("every game is over: stopped");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_built_in_engine_plays_a_person_through_the_bot_api() {
    let trial = Trial {
        engine: "level=2",
        takes: "live",
        accepted: json!({"live": {"initial": 300, "increment": 2}}),
        declined: json!({"correspondence": {"days": 3}}),
        why: "it plays live games only",
    };
    a_bot_plays_a_person_across_a_restart(trial, "level").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outside_engine_plays_a_person_through_the_bot_api() {
    // The engine's own share of a live clock is seconds a move: a game without one takes `--move-time`.
    let engine = format!("cmd={} engine", env!("CARGO_BIN_EXE_gridplay"));
    let trial = Trial {
        engine: &engine,
        takes: "correspondence",
        accepted: json!({"correspondence": {"days": 3}}),
        declined: json!({"live": {"initial": 60, "increment": 0}}),
        why: "it plays correspondence games only",
    };
    a_bot_plays_a_person_across_a_restart(trial, "cmd").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_several_games_at_once_up_to_its_bound() {
    let dir = std::env::temp_dir().join(format!("gridplay-bot-{}-several", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let database = format!("sqlite://{}", dir.join("site.db").display());
    let server = Server::start(&database);
    let addr = server.addr;
    let token = bot_token(addr, "robo");
    let bot = BotProcess::start(addr, &token, &["--engine", "level=1", "--max-games", "2"]);
    bot.until("connected");
    let people: Vec<String> = ["pat", "quin", "ria"].iter().map(|n| signup(addr, n)).collect();
    let corr = json!({"correspondence": {"days": 3}});
    // Two games at once: each person opens with a move, and the bot answers in both.
    let mut games = Vec::new();
    for p in &people[..2] {
        challenge(addr, p, "robo", &corr);
        games.push(game_of(addr, p, "robo"));
    }
    // The bound is reached: the third challenge is declined, with the reason in the log.
    let third = challenge(addr, &people[2], "robo", &corr);
    bot.until(&format!(
        "challenge {third} from ria: declined, it plays 2 games at once, and has as many"
    ));
    for (p, g) in people.iter().zip(&games) {
        let mut page = Page::watch(addr, p, g).await;
        page.play(g).await;
        page.until_version(2).await;
    }
    drop(bot);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
