//! `gridplay bot`: one engine brought online as a bot account, through the bot API (docs/web.md, "Bots and the
//! API"). It follows the bot's event stream, accepts the challenges its filters allow (declining the others
//! with a reason in its log), plays each game in a task of its own with an engine process of its own (the
//! players of `gridplay match`: the built-in engine, `cmd=`, `nboard=`, `cake=`), and gives the engine the
//! game's clock. It reconnects after a cut or a server restart, and the event stream's first lines name every
//! game in play, so it resumes them. Ctrl-C finishes the games in play (or resigns them, `--on-stop resign`)
//! and stops; a second Ctrl-C stops at once.

use std::{
    collections::HashSet,
    path::PathBuf,
    sync::{Arc, Mutex, PoisonError},
    time::{Duration, Instant},
};

use clap::Args;
use futures_util::StreamExt;
use gridplay_core::GameRecord;
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::players::{PlayerOptions, Side};

#[derive(Clone, Debug, Args)]
pub(crate) struct BotArgs {
    /// The site's address: `https://gridplay.example` or `http://127.0.0.1:8080`.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    server: String,
    /// The bot account's API token, with the scopes `read`, `play` and `bot` (made on the account page; the
    /// account becomes a bot at the first start). Read from GRIDPLAY_TOKEN when not given.
    #[arg(long, env = "GRIDPLAY_TOKEN", hide_env_values = true)]
    token: String,
    /// The engine, as `gridplay match` names a player: `level=L` (the built-in engine at a level), `depth=N`,
    /// `time=MS`, `cmd=PROGRAM` (the gridplay protocol), `nboard=PROGRAM` (NBoard, Reversi),
    /// `cake=PROGRAM` (Cake's line driver, checkers). Each game starts its own.
    #[arg(long, default_value = "level=5")]
    engine: String,
    /// The games it accepts, by registry name, comma-separated (`reversi,checkers`); all when not given.
    #[arg(long, value_delimiter = ',')]
    games: Vec<String>,
    /// The kinds of time control it accepts: `live`, `correspondence`, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "live,correspondence")]
    time: Vec<String>,
    /// The shortest live clock it accepts, in seconds of initial time.
    #[arg(long, default_value_t = 0)]
    min_initial: u64,
    /// The longest live clock it accepts, in seconds of initial time.
    #[arg(long, default_value_t = 10_800)]
    max_initial: u64,
    /// Which games by rating: `any`, `rated` or `casual`.
    #[arg(long, default_value = "any")]
    rated: String,
    /// Games played at once; challenges beyond it are declined. Each game has its own engine process.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    max_games: u32,
    /// What the first Ctrl-C does to the games in play: `finish` them (new challenges are declined) or
    /// `resign` them. Then the bot stops; a second Ctrl-C stops it at once.
    #[arg(long, default_value = "finish")]
    on_stop: String,
    /// Time per move for `cmd=` and `cake=` engines in games without a live clock, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    move_time: u64,
    /// Search depth for `nboard=` engines (NBoard sets a depth, not a time).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    nboard_depth: u32,
    /// Seconds an external engine may take to answer a line before the game is resigned.
    #[arg(long, default_value_t = 60.0, value_parser = crate::matches::positive_seconds)]
    answer_limit: f64,
    /// A folder for each game's record, written when the game ends (`ID.txt`: the players, the result and
    /// the moves with the engine's time for each of the bot's).
    #[arg(long)]
    log_dir: Option<PathBuf>,
}

/// Kept from a live clock's time for the answer's way to the server and back.
const LATENCY: Duration = Duration::from_millis(300);
/// A stream with no line (not even the empty line sent every 7 s) for this long is taken for dead.
const SILENCE: Duration = Duration::from_secs(20);
/// The longest wait between reconnections of the event stream.
const BACKOFF_MAX: Duration = Duration::from_secs(30);
/// The first and the longest wait between reconnections of a game's stream: its clock may be running.
const GAME_BACKOFF: [Duration; 2] = [Duration::from_millis(250), Duration::from_secs(3)];

/// What a refused request said.
#[derive(Debug)]
struct Refused {
    /// The HTTP status, or none when the server could not be reached.
    status: Option<u16>,
    code: String,
    message: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.status {
            Some(s) => write!(f, "{s} {}: {}", self.code, self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

/// The site's API as the bot's token reaches it.
#[derive(Clone)]
struct Api {
    client: reqwest::Client,
    base: String,
}

type Lines = std::pin::Pin<Box<dyn futures_util::Stream<Item = anyhow::Result<Value>> + Send>>;

impl Api {
    fn new(server: &str, token: &str) -> anyhow::Result<Api> {
        let mut auth = reqwest::header::HeaderValue::from_str(&format!("Bearer {token}"))
            .map_err(|_| anyhow::anyhow!("the token has characters no header may carry"))?;
        auth.set_sensitive(true);
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(reqwest::header::AUTHORIZATION, auth);
        let client = reqwest::Client::builder()
            .default_headers(headers)
            .user_agent(concat!("gridplay-bot/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| anyhow::anyhow!("the HTTP client: {e}"))?;
        Ok(Api {
            client,
            base: server.trim_end_matches('/').to_owned(),
        })
    }

    async fn answer(res: Result<reqwest::Response, reqwest::Error>) -> Result<reqwest::Response, Refused> {
        let res = res.map_err(|e| Refused {
            status: None,
            code: "unreachable".into(),
            message: format!("the server did not answer: {e}"),
        })?;
        if res.status().is_success() {
            return Ok(res);
        }
        let status = res.status().as_u16();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        Err(Refused {
            status: Some(status),
            code: body["error"]["code"].as_str().unwrap_or("error").to_owned(),
            message: body["error"]["message"]
                .as_str()
                .unwrap_or("no reason given")
                .to_owned(),
        })
    }

    async fn get(&self, path: &str) -> Result<Value, Refused> {
        let res = Api::answer(self.client.get(format!("{}{path}", self.base)).send().await).await?;
        res.json().await.map_err(|e| Refused {
            status: None,
            code: "bad-answer".into(),
            message: format!("the answer to {path} is not JSON: {e}"),
        })
    }

    async fn post(&self, path: &str) -> Result<Value, Refused> {
        let req = self.client.post(format!("{}{path}", self.base)).json(&json!({}));
        let res = Api::answer(req.send().await).await?;
        Ok(res.json().await.unwrap_or(Value::Null))
    }

    /// An NDJSON stream, line by line (the empty lines that keep it alive left out).
    async fn lines(&self, path: &str) -> Result<Lines, Refused> {
        let res = Api::answer(self.client.get(format!("{}{path}", self.base)).send().await).await?;
        let bytes = res.bytes_stream();
        let lines = futures_util::stream::unfold(
            (
                bytes,
                Vec::<u8>::new(),
                std::collections::VecDeque::<Value>::new(),
            ),
            |(mut bytes, mut buf, mut ready)| async move {
                loop {
                    if let Some(v) = ready.pop_front() {
                        return Some((Ok(v), (bytes, buf, ready)));
                    }
                    match bytes.next().await {
                        None => return None,
                        Some(Err(e)) => return Some((Err(anyhow::Error::new(e)), (bytes, buf, ready))),
                        Some(Ok(chunk)) => {
                            buf.extend_from_slice(&chunk);
                            while let Some(at) = buf.iter().position(|&b| b == b'\n') {
                                let line: Vec<u8> = buf.drain(..=at).collect();
                                let text = String::from_utf8_lossy(&line);
                                if text.trim().is_empty() {
                                    continue;
                                }
                                match serde_json::from_str(text.trim()) {
                                    Ok(v) => ready.push_back(v),
                                    Err(e) => {
                                        return Some((
                                            Err(anyhow::anyhow!("a line that is not JSON: {e}")),
                                            (bytes, buf, ready),
                                        ));
                                    }
                                }
                            }
                            if ready.is_empty() {
                                // An empty line: the stream is alive.
                                ready.push_back(Value::Null);
                            }
                        }
                    }
                }
            },
        );
        Ok(Box::pin(lines))
    }
}

/// What the first Ctrl-C asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Running,
    Finish,
    Resign,
}

/// The bot: its API, its account, its games in play.
struct Bot {
    api: Api,
    args: BotArgs,
    name: String,
    /// The games it plays now.
    games: Mutex<HashSet<String>>,
    /// Challenges accepted whose game has not started yet (they count towards `--max-games`).
    accepting: Mutex<HashSet<String>>,
    stop: watch::Receiver<Stop>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn say(what: &str) {
    let at = time_of_day();
    eprintln!("{at} {what}");
}

/// The time of day (UTC) for the log.
fn time_of_day() -> String {
    let s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("{:02}:{:02}:{:02}", s / 3600 % 24, s / 60 % 60, s % 60)
}

/// Checks the arguments that clap leaves as text.
fn check(args: &BotArgs) -> anyhow::Result<()> {
    if !matches!(args.rated.as_str(), "any" | "rated" | "casual") {
        return Err(anyhow::anyhow!(
            "--rated takes any, rated or casual, not `{}`",
            args.rated
        ));
    }
    if !matches!(args.on_stop.as_str(), "finish" | "resign") {
        return Err(anyhow::anyhow!(
            "--on-stop takes finish or resign, not `{}`",
            args.on_stop
        ));
    }
    for t in &args.time {
        if !matches!(t.as_str(), "live" | "correspondence") {
            return Err(anyhow::anyhow!("--time takes live and correspondence, not `{t}`"));
        }
    }
    if args.min_initial > args.max_initial {
        return Err(anyhow::anyhow!("--min-initial is more than --max-initial"));
    }
    for g in &args.games {
        if crate::registry().entry(g).is_none() {
            return Err(anyhow::anyhow!("--games: no game is named `{g}`"));
        }
    }
    if !(args.server.starts_with("http://") || args.server.starts_with("https://")) {
        return Err(anyhow::anyhow!(
            "--server is an http:// or https:// address, not `{}`",
            args.server
        ));
    }
    Ok(())
}

/// Why the engine cannot play `spec`, if it cannot (without starting it).
fn engine_plays(engine: &str, spec: &str) -> anyhow::Result<()> {
    let parsed = crate::game_spec(spec)?;
    let game = parsed.name();
    if engine.starts_with("nboard=") && game != "reversi" {
        return Err(anyhow::anyhow!("an NBoard engine plays Reversi only"));
    }
    if engine.starts_with("cake=") && game != "checkers" {
        return Err(anyhow::anyhow!("a Cake-style engine plays checkers only"));
    }
    if engine.starts_with("cmd=") {
        return Ok(());
    }
    if engine == "greedy" && game != "tactics" {
        return Err(anyhow::anyhow!("the greedy player plays Grid Tactics only"));
    }
    if gridplay_engine::top_level(game).is_none() && !matches!(engine, "random" | "greedy") {
        return Err(anyhow::anyhow!("no built-in engine plays `{game}`"));
    }
    if let Some(level) = engine.strip_prefix("level=").and_then(|l| l.split(',').next()) {
        let level: u8 = level
            .parse()
            .map_err(|_| anyhow::anyhow!("`{engine}`: a level is a number"))?;
        crate::check_level(spec, level)?;
    }
    Ok(())
}

pub(crate) fn run(args: &BotArgs) -> anyhow::Result<()> {
    check(args)?;
    // The built-in engine makes its tables before its first game's clock runs (external ones are programs).
    let external = ["cmd=", "nboard=", "cake="]
        .iter()
        .any(|p| args.engine.starts_with(p));
    if !external && !matches!(args.engine.as_str(), "random" | "greedy") {
        for engine in gridplay_engine::ENGINES {
            if args.games.is_empty() || args.games.iter().any(|g| g == engine.game) {
                gridplay_engine::prepare(engine.game);
            }
        }
    }
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))?;
    runtime.block_on(serve(args.clone()))
}

async fn serve(args: BotArgs) -> anyhow::Result<()> {
    let api = Api::new(&args.server, &args.token)?;
    // Who the token is, and that it may do what a bot does; an account with no games becomes a bot.
    let me = api
        .get("/api/me")
        .await
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.server))?;
    let Some(user) = me["user"].as_object() else {
        return Err(anyhow::anyhow!(
            "the token is not accepted (revoked, or its account closed)"
        ));
    };
    let name = user.get("name").and_then(Value::as_str).unwrap_or("?").to_owned();
    if user.get("bot") != Some(&Value::Bool(true)) {
        api.post("/api/account/bot").await.map_err(|e| {
            anyhow::anyhow!("{name} cannot become a bot account: {e} (a bot needs an account that has never played, and a token with the read, play and bot scopes)")
        })?;
        say(&format!("{name} is now a bot account"));
    }
    let (stop_tx, stop) = watch::channel(Stop::Running);
    let bot = Arc::new(Bot {
        api,
        args,
        name,
        games: Mutex::default(),
        accepting: Mutex::default(),
        stop,
    });
    say(&format!(
        "{} plays on {} with `{}` (at most {} games at once); Ctrl-C to {}",
        bot.name,
        bot.args.server,
        bot.args.engine,
        bot.args.max_games,
        if bot.args.on_stop == "resign" {
            "resign and stop"
        } else {
            "finish the games and stop"
        }
    ));
    let mut events = tokio::spawn(Arc::clone(&bot).events());
    tokio::select! {
        r = &mut events => return r?,
        _ = tokio::signal::ctrl_c() => {}
    }
    let how = if bot.args.on_stop == "resign" {
        Stop::Resign
    } else {
        Stop::Finish
    };
    let _ = stop_tx.send(how);
    let playing: Vec<String> = lock(&bot.games).iter().cloned().collect();
    say(&format!(
        "stopping: {} game(s) in play will be {}; Ctrl-C again stops at once",
        playing.len(),
        if how == Stop::Resign {
            "resigned"
        } else {
            "finished"
        }
    ));
    if how == Stop::Resign {
        for id in &playing {
            match bot.api.post(&format!("/api/bot/game/{id}/resign")).await {
                Ok(_) => say(&format!("game {id}: resigned")),
                Err(e) => say(&format!("game {id}: cannot resign: {e}")),
            }
        }
    }
    loop {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {
                say("stopped at once");
                return Ok(());
            }
            () = tokio::time::sleep(Duration::from_millis(200)) => {
                if lock(&bot.games).is_empty() {
                    say("every game is over: stopped");
                    return Ok(());
                }
            }
        }
    }
}

impl Bot {
    fn stopping(&self) -> Stop {
        *self.stop.borrow()
    }

    /// Follows the event stream for as long as the bot runs, reconnecting after a cut. Ends with an error only
    /// where the token itself is refused.
    async fn events(self: Arc<Self>) -> anyhow::Result<()> {
        let mut backoff = Duration::from_secs(1);
        loop {
            match self.api.lines("/api/bot/stream/event").await {
                Ok(mut lines) => {
                    say("connected: waiting for challenges");
                    backoff = Duration::from_secs(1);
                    loop {
                        match tokio::time::timeout(SILENCE, lines.next()).await {
                            Ok(Some(Ok(Value::Null))) => {}
                            Ok(Some(Ok(event))) => Arc::clone(&self).on_event(&event).await,
                            Ok(Some(Err(e))) => {
                                say(&format!("the event stream broke: {e}"));
                                break;
                            }
                            Ok(None) => {
                                say("the event stream ended (the server stops or restarts)");
                                break;
                            }
                            Err(_) => {
                                say("the event stream went silent");
                                break;
                            }
                        }
                    }
                }
                Err(e) if matches!(e.status, Some(401 | 403)) => {
                    return Err(anyhow::anyhow!("the server refuses the bot: {e}"));
                }
                Err(e) => say(&format!("cannot reach the event stream: {e}")),
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(BACKOFF_MAX);
        }
    }

    async fn on_event(self: Arc<Self>, event: &Value) {
        match event["t"].as_str() {
            Some("challenge") => self.answer(&event["challenge"]).await,
            Some("game-start") => {
                let id = event["game"]["id"].as_str().unwrap_or_default().to_owned();
                if !id.is_empty() && lock(&self.games).insert(id.clone()) {
                    tokio::spawn(Arc::clone(&self).play(id));
                }
            }
            _ => {}
        }
    }

    /// Whether a challenge is one to accept, or why not.
    fn take(&self, c: &Value) -> anyhow::Result<()> {
        if self.stopping() != Stop::Running {
            return Err(anyhow::anyhow!("the bot is stopping"));
        }
        let spec = c["spec"].as_str().unwrap_or_default();
        let game = c["game"].as_str().unwrap_or_default();
        if !self.args.games.is_empty() && !self.args.games.iter().any(|g| g == game) {
            return Err(anyhow::anyhow!("it plays {} only", self.args.games.join(", ")));
        }
        engine_plays(&self.args.engine, spec)?;
        let kind = c["time"]["kind"].as_str().unwrap_or_default();
        if !self.args.time.iter().any(|t| t == kind) {
            return Err(anyhow::anyhow!(
                "it plays {} games only",
                self.args.time.join(" and ")
            ));
        }
        if kind == "live" {
            let initial = c["time"]["initial_ms"].as_u64().unwrap_or(0) / 1000;
            if initial < self.args.min_initial || initial > self.args.max_initial {
                return Err(anyhow::anyhow!(
                    "it plays clocks of {} to {} s only",
                    self.args.min_initial,
                    self.args.max_initial
                ));
            }
        }
        let rated = c["rated"].as_bool().unwrap_or(false);
        match (self.args.rated.as_str(), rated) {
            ("rated", false) => return Err(anyhow::anyhow!("it plays rated games only")),
            ("casual", true) => return Err(anyhow::anyhow!("it plays casual games only")),
            _ => {}
        }
        let busy = lock(&self.games).len() + lock(&self.accepting).len();
        if busy >= self.args.max_games as usize {
            return Err(anyhow::anyhow!(
                "it plays {} games at once, and has as many",
                self.args.max_games
            ));
        }
        Ok(())
    }

    async fn answer(self: Arc<Self>, c: &Value) {
        let id = c["id"].as_str().unwrap_or_default();
        let from = c["from"].as_str().unwrap_or("?");
        match self.take(c) {
            Ok(()) => {
                lock(&self.accepting).insert(id.to_owned());
                match self.api.post(&format!("/api/challenges/{id}/accept")).await {
                    Ok(a) => {
                        say(&format!(
                            "challenge {id} from {from} ({}): accepted",
                            c["spec"].as_str().unwrap_or("?")
                        ));
                        lock(&self.accepting).remove(id);
                        // Played from here; the event stream's `game-start` for it then finds it under way.
                        if let Some(game) = a["game"].as_str()
                            && lock(&self.games).insert(game.to_owned())
                        {
                            tokio::spawn(Arc::clone(&self).play(game.to_owned()));
                        }
                    }
                    Err(e) => {
                        lock(&self.accepting).remove(id);
                        say(&format!("challenge {id} from {from}: cannot accept: {e}"));
                    }
                }
            }
            Err(why) => {
                say(&format!("challenge {id} from {from}: declined, {why}"));
                if let Err(e) = self.api.post(&format!("/api/challenges/{id}/decline")).await {
                    say(&format!("challenge {id}: cannot decline: {e}"));
                }
            }
        }
    }

    /// Plays game `id` to its end, following its stream and reconnecting after a cut.
    async fn play(self: Arc<Self>, id: String) {
        let mut game = Game::default();
        let mut backoff = GAME_BACKOFF[0];
        loop {
            match self.api.lines(&format!("/api/bot/game/{id}/stream")).await {
                Ok(mut lines) => {
                    backoff = GAME_BACKOFF[0];
                    loop {
                        match tokio::time::timeout(SILENCE, lines.next()).await {
                            Ok(Some(Ok(Value::Null))) => {}
                            Ok(Some(Ok(line))) => {
                                if self.on_state(&id, &mut game, &line).await {
                                    self.finish(&id, &mut game, &line["state"]);
                                    return;
                                }
                            }
                            Ok(Some(Err(_)) | None) | Err(_) => break,
                        }
                    }
                }
                Err(e) if matches!(e.status, Some(403 | 404)) => {
                    say(&format!("game {id}: {e}"));
                    lock(&self.games).remove(&id);
                    return;
                }
                Err(e) => say(&format!("game {id}: cannot follow it: {e}")),
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(GAME_BACKOFF[1]);
        }
    }

    /// Acts on one state of a game: its move when it is the bot's turn. Returns whether the game is over.
    async fn on_state(&self, id: &str, game: &mut Game, line: &Value) -> bool {
        let st = &line["state"];
        if !game.announced {
            game.announced = true;
            say(&format!("game {id}: {} — playing", describe(st)));
        }
        if !st["over"].is_null() {
            return true;
        }
        let version = st["version"].as_u64().unwrap_or(0);
        if self.stopping() == Stop::Resign {
            let _ = self.api.post(&format!("/api/bot/game/{id}/resign")).await;
            return false;
        }
        let Some(side) = [0, 1]
            .into_iter()
            .find(|&i| st["players"][i]["name"] == self.name.as_str())
        else {
            return false;
        };
        let turn = match st["view"]["turn"].as_str() {
            Some("first") => 0,
            Some("second") => 1,
            _ => return false,
        };
        if turn != side || game.moved_at == Some(version) {
            return false;
        }
        let spec = st["spec"].as_str().unwrap_or_default().to_owned();
        let moves: Vec<String> = st["moves"]
            .as_array()
            .map(|m| m.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        let clock = clock_of(st, line["now"].as_i64(), side);
        let engine = self.args.engine.clone();
        let options = PlayerOptions {
            move_time: self.args.move_time,
            nboard_depth: self.args.nboard_depth,
            answer_limit: self.args.answer_limit,
        };
        let mut player = game.player.take();
        let started = Instant::now();
        let chosen = tokio::task::spawn_blocking(move || {
            let restored = crate::registry().restore(&spec)?;
            let record = GameRecord::replay(restored.start(), moves.iter().map(String::as_str))
                .map_err(|(i, e)| anyhow::anyhow!("move {} of the game does not replay here: {e}", i + 1))?;
            let side = match player.as_mut() {
                Some(s) => s,
                None => player.insert(Side::parse(&engine, &spec, &options)?),
            };
            let mut rng = gridplay_core::playout::seeded(version);
            let mv = side.choose(&record, &mut rng, version, clock);
            Ok::<_, anyhow::Error>((mv, player))
        })
        .await;
        let failed = |why: anyhow::Error| async move {
            say(&format!("game {id}: the engine cannot move ({why:#}): resigning"));
            if let Err(e) = self.api.post(&format!("/api/bot/game/{id}/resign")).await {
                say(&format!("game {id}: cannot resign: {e}"));
            }
        };
        let mv = match chosen {
            Ok(Ok((Ok(mv), player))) => {
                game.player = player;
                mv
            }
            Ok(Ok((Err(why), player))) => {
                if let Some(mut p) = player {
                    p.kill();
                }
                failed(why).await;
                return false;
            }
            Ok(Err(why)) => {
                failed(why).await;
                return false;
            }
            Err(e) => {
                failed(e.into()).await;
                return false;
            }
        };
        let spent = started.elapsed();
        match self
            .api
            .post(&format!("/api/bot/game/{id}/move/{mv}?v={version}"))
            .await
        {
            Ok(_) => {
                game.moved_at = Some(version);
                game.log.push(format!("{mv} {:.3}s", spent.as_secs_f64()));
            }
            Err(e) if e.code == "stale" || e.code == "not-your-turn" => {}
            // The server went away: the stream comes back with the position when it is back, and the move is
            // chosen again then.
            Err(e) if e.status.is_none() => {
                say(&format!("game {id}: the move {mv} did not reach the server: {e}"));
            }
            Err(e) => {
                say(&format!("game {id}: the move {mv} was refused: {e}; resigning"));
                let _ = self.api.post(&format!("/api/bot/game/{id}/resign")).await;
            }
        }
        false
    }

    fn finish(&self, id: &str, game: &mut Game, st: &Value) {
        if let Some(mut p) = game.player.take() {
            p.kill();
        }
        lock(&self.games).remove(id);
        let over = &st["over"];
        let result = over["text"].as_str().unwrap_or("over").to_owned();
        say(&format!("game {id}: {result}"));
        if let Some(dir) = &self.args.log_dir {
            let players: Vec<String> = (0..2)
                .map(|i| st["players"][i]["name"].as_str().unwrap_or("?").to_owned())
                .collect();
            let moves: Vec<&str> = st["moves"]
                .as_array()
                .map(|m| m.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let text = format!(
                "game {id}\nspec {}\nplayers {} vs {}\nresult {result}\nmoves {}\nbot's moves and times {}\n",
                st["spec"].as_str().unwrap_or("?"),
                players[0],
                players[1],
                moves.join(" "),
                game.log.join(", ")
            );
            if let Err(e) = std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(dir.join(format!("{id}.txt")), text))
            {
                say(&format!(
                    "game {id}: cannot write its log in {}: {e}",
                    dir.display()
                ));
            }
        }
    }
}

/// A game the bot plays: its engine, the version it last moved at, and its moves' log.
#[derive(Default)]
struct Game {
    /// Whether its start is in the log.
    announced: bool,
    player: Option<Side>,
    moved_at: Option<u64>,
    log: Vec<String>,
}

/// The bot's time on a live clock, from a state sent at server time `now`: what it has left less the way
/// there and back, and the increment.
fn clock_of(st: &Value, now: Option<i64>, side: usize) -> Option<gridplay_engine::Clock> {
    if st["time"]["kind"] != "live" {
        return None;
    }
    let c = &st["clock"];
    let mut left = c["remaining"][side].as_i64()?;
    let running = c["running"].as_str() == Some(if side == 0 { "first" } else { "second" });
    if running {
        left -= now? - c["since"].as_i64()?;
    }
    let left = Duration::from_millis(u64::try_from(left.max(0)).unwrap_or(0)).saturating_sub(LATENCY);
    let increment = Duration::from_millis(st["time"]["increment_ms"].as_u64().unwrap_or(0));
    Some(gridplay_engine::Clock {
        left: left.max(Duration::from_millis(10)),
        increment,
    })
}

/// A game's state in a few words: the players, the game and the time control.
fn describe(st: &Value) -> String {
    let player = |i: usize| st["players"][i]["name"].as_str().unwrap_or("?").to_owned();
    format!(
        "{} vs {}, {}, {}",
        player(0),
        player(1),
        st["title"].as_str().or(st["spec"].as_str()).unwrap_or("?"),
        st["time_label"].as_str().unwrap_or("?")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_given_to_the_engine_is_the_time_left_less_the_way() {
        let st = json!({"time": {"kind": "live", "initial_ms": 60000, "increment_ms": 2000},
            "clock": {"remaining": [30000, 40000], "running": "second", "since": 1000}});
        let c = clock_of(&st, Some(6000), 1).unwrap();
        assert_eq!(c.left, Duration::from_millis(35000) - LATENCY);
        assert_eq!(c.increment, Duration::from_millis(2000));
        let c = clock_of(&st, Some(6000), 0).unwrap();
        assert_eq!(
            c.left,
            Duration::from_millis(30000) - LATENCY,
            "a clock that does not run keeps its time"
        );
        let corr = json!({"time": {"kind": "correspondence", "days": 3}, "clock": null});
        assert!(clock_of(&corr, Some(0), 0).is_none());
    }

    #[test]
    fn an_engine_is_checked_against_the_game_before_a_challenge_is_taken() {
        assert!(engine_plays("level=3", "reversi").is_ok());
        assert!(engine_plays("level=99", "reversi").is_err());
        assert!(engine_plays("nboard=./ntest", "checkers").is_err());
        assert!(engine_plays("cake=./cakecli", "checkers").is_ok());
        assert!(engine_plays("cmd=./mine", "tactics").is_ok());
    }
}
