//! The server's load benchmark (`gridplay bench server`): many simulated players on loopback WebSockets, each
//! pair playing games of one spec move after move, every move committed to the database before its ack.
//!
//! It reports moves per second, the latency from sending a move to receiving its ack and to the opponent's
//! page seeing it (percentiles), and checks afterwards that the database holds every acknowledged move exactly
//! once. By default it starts a server in this process; with targets it drives servers already running on one
//! PostgreSQL database, each pair's two players on two different servers.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use futures_util::{SinkExt, StreamExt};
use rand::{RngExt, SeedableRng, rngs::SmallRng};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_tungstenite::{
    connect_async_with_config,
    tungstenite::{Message, client::IntoClientRequest, http::HeaderValue},
};

use gridplay_server::{
    Config,
    db::{Db, User, now_ms},
    ids,
};

/// How much a simulated page's socket reads at once: a page's messages are small (the server reads its own
/// sockets with the same size).
const READ_BUFFER: usize = 4 * 1024;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Simulated players (an even number: they play in pairs).
    pub players: usize,
    /// How long to play.
    pub duration: Duration,
    /// The database; `None` uses a new SQLite file in a temporary directory.
    pub database: Option<String>,
    /// The game every pair plays.
    pub spec: String,
    /// Also weigh every event against the whole state it describes (the players keep the whole state, which
    /// costs them time: leave it off when measuring throughput).
    pub weigh: bool,
    /// Running servers to drive (`http://HOST:PORT`), all on `database`; none starts one in this process.
    pub targets: Vec<String>,
    /// The in-process server's writers of game actions (`Config::db_writers`; `None`: its default).
    pub db_writers: Option<u32>,
    /// A live clock of this many seconds a side (no increment) on every game, as games between people
    /// have; `None`: untimed games. A game whose clock runs is timed work, which one server does
    /// (`bus.rs`): with several servers, the others' copies follow it.
    pub clock_s: Option<u32>,
}

/// What was measured.
#[derive(Clone, Debug)]
pub struct LoadReport {
    pub players: usize,
    pub moves: u64,
    pub games_finished: u64,
    /// Events the movers received, and their bytes (each event is one WebSocket text message).
    pub events: u64,
    pub event_bytes: u64,
    /// With `weigh`: the bytes the same events would have had carrying the whole state after them, as
    /// events did before they carried what changed.
    pub whole_state_bytes: Option<u64>,
    /// This process's resident memory (server and simulated players together) before and after, in bytes.
    pub rss_start: u64,
    pub rss_end: u64,
    pub elapsed: Duration,
    /// This process's CPU time (user and system, server and players together) during the run: the figure
    /// to compare between builds, less noisy than moves per second on a shared machine.
    pub cpu: Duration,
    /// Send-to-ack latency percentiles: 50, 90, 99, and the maximum.
    pub p50: Duration,
    pub p90: Duration,
    pub p99: Duration,
    pub max: Duration,
    /// Send-to-seen latency percentiles of the opponent's page (on another server when there are several):
    /// 50, 99.
    pub seen_p50: Duration,
    pub seen_p99: Duration,
    /// Moves of the benchmark's games found in the database afterwards.
    pub stored: u64,
    /// Every game holds exactly the moves acknowledged in it.
    pub exact: bool,
    pub database: String,
    /// The servers driven (1 when the benchmark starts its own).
    pub servers: usize,
    /// The in-process server's database writers during the run, all together (none when driving other
    /// servers)...
    pub writer: Option<gridplay_server::db::WriterCounts>,
    /// ...and how many there were.
    pub writers: u32,
}

impl LoadReport {
    #[must_use]
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64()
    }

    /// CPU time per acknowledged move, in microseconds.
    #[must_use]
    pub fn cpu_us_per_move(&self) -> f64 {
        self.cpu.as_secs_f64() * 1e6 / self.moves.max(1) as f64
    }
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(f, "database     {}", self.database)?;
        writeln!(f, "servers      {}", self.servers)?;
        writeln!(
            f,
            "players      {} ({} games at once)",
            self.players,
            self.players / 2
        )?;
        writeln!(
            f,
            "moves        {} in {:.1} s: {:.0} moves/s",
            self.moves,
            self.elapsed.as_secs_f64(),
            self.moves_per_second()
        )?;
        writeln!(
            f,
            "cpu          {:.0} us per move ({:.1} s of CPU in {:.1} s: server and players in one process)",
            self.cpu_us_per_move(),
            self.cpu.as_secs_f64(),
            self.elapsed.as_secs_f64()
        )?;
        writeln!(f, "games ended  {}", self.games_finished)?;
        write!(
            f,
            "events       {} of {:.0} bytes on average",
            self.events,
            self.event_bytes as f64 / self.events.max(1) as f64,
        )?;
        match self.whole_state_bytes {
            Some(w) => writeln!(
                f,
                " ({:.0} with the whole state instead of what changed)",
                w as f64 / self.events.max(1) as f64
            )?,
            None => writeln!(f)?,
        }
        writeln!(
            f,
            "memory       {:.0} MB resident before, {:.0} MB after (server and players in one process)",
            self.rss_start as f64 / 1e6,
            self.rss_end as f64 / 1e6
        )?;
        writeln!(
            f,
            "move -> ack  p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(self.p50),
            ms(self.p90),
            ms(self.p99),
            ms(self.max)
        )?;
        writeln!(
            f,
            "move -> seen p50 {:.2} ms, p99 {:.2} ms (the opponent's page{})",
            ms(self.seen_p50),
            ms(self.seen_p99),
            if self.servers > 1 {
                ", on another server"
            } else {
                ""
            }
        )?;
        if let Some(w) = self.writer {
            writeln!(
                f,
                "writer       {} commits of {:.1} actions on average; writing {:.0}% of the run (wall time){}",
                w.commits,
                w.actions as f64 / w.commits.max(1) as f64,
                w.busy_ns as f64 / 1e9 / self.elapsed.as_secs_f64() * 100.0 / f64::from(self.writers.max(1)),
                if self.writers > 1 {
                    format!(", each of {} writers on average", self.writers)
                } else {
                    String::new()
                }
            )?;
        }
        write!(
            f,
            "stored       {} moves in the database (every acknowledged move exactly once: {})",
            self.stored, self.exact
        )
    }
}

/// The address of a target, `http://HOST:PORT`.
async fn target_addr(target: &str) -> Result<std::net::SocketAddr, String> {
    let host = target
        .strip_prefix("http://")
        .ok_or_else(|| format!("target {target:?}: use http://HOST:PORT"))?
        .trim_end_matches('/');
    tokio::net::lookup_host(host)
        .await
        .map_err(|e| format!("target {target:?}: {e}"))?
        .next()
        .ok_or_else(|| format!("target {target:?}: no address"))
}

/// Runs the benchmark against a server started in this process, or against `options.targets`.
pub async fn run(options: LoadOptions) -> Result<LoadReport, String> {
    let dir = std::env::temp_dir().join(format!("gridplay-bench-{}", std::process::id()));
    let database = options
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}/bench.db", dir.display()));
    let (server, db, addrs) = if options.targets.is_empty() {
        let config = Config {
            addr: ([127, 0, 0, 1], 0).into(),
            database: database.clone(),
            ws_per_second: 100_000,
            ws_burst: 100_000,
            limits: gridplay_server::config::Limits::lenient(),
            db_writers: options.db_writers,
            ..Config::default()
        };
        let server = gridplay_server::start(config).await.map_err(|e| e.to_string())?;
        let db = server.state.db.clone();
        let addr = server.addr;
        (Some(server), db, vec![addr])
    } else {
        if !database.starts_with("postgres") {
            return Err("--target needs --database postgres://... (the database the servers share)".into());
        }
        let db = Db::connect(&database, 4, 1).await.map_err(|e| e.to_string())?;
        let mut addrs = Vec::new();
        for t in &options.targets {
            addrs.push(target_addr(t).await?);
        }
        (None, db, addrs)
    };
    let pairs = (options.players / 2).max(1);
    // Accounts and sessions straight into the database: the benchmark measures moves, not password hashing.
    let mut cookies = Vec::new();
    let mut users = Vec::new();
    for i in 0..pairs * 2 {
        let user = User {
            id: ids::short(12),
            name: format!("bench{i}_{}", ids::short(4)),
            bot: false,
        };
        db.create_user(&user, "-").await.map_err(|e| e.to_string())?;
        let token = ids::token();
        db.create_session(&token, &user.id, now_ms() + 3_600_000)
            .await
            .map_err(|e| e.to_string())?;
        cookies.push(format!("{}={token}", gridplay_server::SESSION_COOKIE));
        users.push(user);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let moves = Arc::new(AtomicU64::new(0));
    let finished = Arc::new(AtomicU64::new(0));
    let events = Arc::new(AtomicU64::new(0));
    let event_bytes = Arc::new(AtomicU64::new(0));
    let whole_bytes = Arc::new(AtomicU64::new(0));
    let rss_start = resident_bytes();
    let writes_before = db.writer_counts();
    let mut tasks = Vec::new();
    let cpu_start = cpu_time();
    let started = Instant::now();
    for p in 0..pairs {
        let pair = [users[2 * p].clone(), users[2 * p + 1].clone()];
        let cookies = [cookies[2 * p].clone(), cookies[2 * p + 1].clone()];
        let ctx = PairCtx {
            db: db.clone(),
            // The two players of a pair on two different servers, when there are several.
            addrs: [addrs[p % addrs.len()], addrs[(p + 1) % addrs.len()]],
            spec: options.spec.clone(),
            clock_s: options.clock_s,
            stop: stop.clone(),
            moves: moves.clone(),
            finished: finished.clone(),
            events: events.clone(),
            event_bytes: event_bytes.clone(),
            whole_bytes: whole_bytes.clone(),
            weigh: options.weigh,
            seed: p as u64,
        };
        tasks.push(tokio::spawn(play_pair(ctx, pair, cookies)));
    }
    tokio::time::sleep(options.duration).await;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    let mut seen = Vec::new();
    let mut games = Vec::new();
    for t in tasks {
        match t.await {
            Ok(Ok(played)) => {
                latencies.extend(played.acked);
                seen.extend(played.seen);
                games.extend(played.games);
            }
            Ok(Err(e)) => return Err(e),
            Err(e) => return Err(format!("a player task failed: {e}")),
        }
    }
    let elapsed = started.elapsed();
    let cpu = cpu_time().saturating_sub(cpu_start);
    let writer = server.is_some().then(|| db.writer_counts().since(writes_before));
    latencies.sort_unstable();
    seen.sort_unstable();
    let pct = |l: &[Duration], q: f64| {
        l.get(((l.len() as f64 * q) as usize).min(l.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    let mut stored = 0;
    let mut exact = true;
    for (game, acked) in &games {
        let n = db.count_game_moves(game).await.map_err(|e| e.to_string())?;
        stored += n;
        exact &= n == *acked;
    }
    let report = LoadReport {
        players: pairs * 2,
        moves: latencies.len() as u64,
        games_finished: finished.load(Ordering::Relaxed),
        events: events.load(Ordering::Relaxed),
        event_bytes: event_bytes.load(Ordering::Relaxed),
        whole_state_bytes: options.weigh.then(|| whole_bytes.load(Ordering::Relaxed)),
        rss_start,
        rss_end: resident_bytes(),
        elapsed,
        cpu,
        p50: pct(&latencies, 0.50),
        p90: pct(&latencies, 0.90),
        p99: pct(&latencies, 0.99),
        max: latencies.last().copied().unwrap_or_default(),
        seen_p50: pct(&seen, 0.50),
        seen_p99: pct(&seen, 0.99),
        stored,
        exact,
        database,
        servers: addrs.len(),
        writer,
        writers: server.as_ref().map_or(0, |s| s.state.db.writers()),
    };
    if let Some(server) = server {
        server.stop().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(report)
}

/// What one pair played: each move's send-to-ack and send-to-seen latency, and each game with the moves
/// acknowledged in it.
struct Played {
    acked: Vec<Duration>,
    seen: Vec<Duration>,
    games: Vec<(String, u64)>,
}

struct PairCtx {
    db: Db,
    addrs: [std::net::SocketAddr; 2],
    spec: String,
    clock_s: Option<u32>,
    stop: Arc<AtomicBool>,
    moves: Arc<AtomicU64>,
    finished: Arc<AtomicU64>,
    events: Arc<AtomicU64>,
    event_bytes: Arc<AtomicU64>,
    whole_bytes: Arc<AtomicU64>,
    weigh: bool,
    seed: u64,
}

/// This process's resident memory in bytes (Linux; 0 elsewhere).
#[must_use]
pub fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// This process's CPU time so far, user and system (Linux's `/proc/self/stat`, in its fixed 1/100 s ticks;
/// zero elsewhere).
#[must_use]
pub fn cpu_time() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat").ok().and_then(|s| {
        // The fields after the command's name, which is in parentheses and may hold spaces.
        let rest = s.rsplit_once(')')?.1;
        let f: Vec<&str> = rest.split_whitespace().collect();
        // utime and stime: fields 14 and 15 of the line, 12 and 13 after the name.
        Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
    });
    Duration::from_millis(ticks.unwrap_or(0) * 10)
}

pub(crate) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A player's WebSocket to the server at `addr`, signed in by `cookie`.
pub(crate) async fn connect(addr: std::net::SocketAddr, cookie: &str) -> Result<Ws, String> {
    let mut req = format!("ws://{addr}/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    req.headers_mut().insert(
        "cookie",
        HeaderValue::from_str(cookie).map_err(|e| e.to_string())?,
    );
    let config =
        tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(READ_BUFFER);
    // Thousands of players connect at once: a connection the kernel turned away (its queue of new
    // connections was full) is tried again a few times before the run fails.
    let mut tries = 0;
    loop {
        match connect_async_with_config(req.clone(), Some(config), true).await {
            Ok((ws, _)) => return Ok(ws),
            Err(tokio_tungstenite::tungstenite::Error::Io(e)) if tries < 5 => {
                tries += 1;
                tracing::debug!("websocket to {addr}: {e}; trying again");
                tokio::time::sleep(Duration::from_millis(100 * tries)).await;
            }
            Err(e) => return Err(format!("websocket: {e}")),
        }
    }
}

/// The fields of a server message that a simulated player reads; the rest is skipped without being built.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Msg {
    t: String,
    ack: Option<String>,
    game: Option<String>,
    v: u64,
    state: Option<StateMsg>,
    delta: Option<DeltaMsg>,
}

/// What a player keeps of a game: its version, whether it is over, whose turn, the legal moves.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct StateMsg {
    version: u64,
    over: Option<serde::de::IgnoredAny>,
    view: ViewMsg,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ViewMsg {
    turn: Option<String>,
    moves: Vec<MoveMsg>,
}

/// The same fields of an event's delta, each present only when it changed.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct DeltaMsg {
    over: Option<serde::de::IgnoredAny>,
    view: Option<ViewDeltaMsg>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ViewDeltaMsg {
    turn: Option<String>,
    moves: Option<Vec<MoveMsg>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct MoveMsg {
    text: String,
}

impl StateMsg {
    /// The state after the event of version `v`.
    fn apply(&mut self, v: u64, delta: DeltaMsg) {
        self.version = v;
        if delta.over.is_some() {
            self.over = delta.over;
        }
        if let Some(view) = delta.view {
            if view.turn.is_some() {
                self.view.turn = view.turn;
            }
            if let Some(moves) = view.moves {
                self.view.moves = moves;
            }
        }
    }
}

async fn next_text(ws: &mut Ws) -> Result<tokio_tungstenite::tungstenite::Utf8Bytes, String> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| "no message for 30 s".to_owned())?
            .ok_or("the server closed the socket")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = msg {
            return Ok(t);
        }
    }
}

async fn next_msg(ws: &mut Ws) -> Result<(Msg, usize, tokio_tungstenite::tungstenite::Utf8Bytes), String> {
    let t = next_text(ws).await?;
    let m = serde_json::from_str(&t).map_err(|e| format!("{e}: {t}"))?;
    Ok((m, t.len(), t))
}

/// Two players on two sockets play games one after another until told to stop; returns each move's latency.
async fn play_pair(ctx: PairCtx, users: [User; 2], cookies: [String; 2]) -> Result<Played, String> {
    let mut rng = SmallRng::seed_from_u64(ctx.seed);
    let mut sockets = [
        connect(ctx.addrs[0], &cookies[0]).await?,
        connect(ctx.addrs[1], &cookies[1]).await?,
    ];
    let mut played = Played {
        acked: Vec::new(),
        seen: Vec::new(),
        games: Vec::new(),
    };
    let mut n = 0u64;
    while !ctx.stop.load(Ordering::Relaxed) {
        let mut game = gridplay_server::db::GameRow::new(
            ctx.spec.clone(),
            ctx.spec.split(':').next().unwrap_or_default().to_owned(),
            [Some(users[0].clone()), Some(users[1].clone())],
            [None, None],
        );
        if let Some(s) = ctx.clock_s {
            game.time = gridplay_server::clock::TimeControl::Live {
                initial_ms: i64::from(s) * 1000,
                increment_ms: 0,
            };
        }
        ctx.db.create_game(&game).await.map_err(|e| e.to_string())?;
        played.games.push((game.id.clone(), 0));
        let mut state = StateMsg::default();
        // With `weigh`, the whole state too, kept by applying each delta.
        let mut whole = Value::Null;
        for ws in &mut sockets {
            send(ws, json!({"t": "watch", "game": game.id})).await?;
            loop {
                let (m, _, text) = next_msg(ws).await?;
                if m.t == "sync" {
                    state = m.state.unwrap_or_default();
                    if ctx.weigh {
                        whole =
                            serde_json::from_str::<Value>(&text).map_err(|e| e.to_string())?["state"].take();
                    }
                    break;
                }
            }
        }
        while state.over.is_none() && !ctx.stop.load(Ordering::Relaxed) {
            let side = usize::from(state.view.turn.as_deref() != Some("first"));
            let moves = &state.view.moves;
            if moves.is_empty() {
                return Err(format!("game {} is not over but has no move", game.id));
            }
            let mv = moves[rng.random_range(0..moves.len())].text.clone();
            n += 1;
            let ack = format!("{n}");
            let sent = Instant::now();
            send(
                &mut sockets[side],
                json!({"t": "move", "game": game.id, "move": mv, "ack": ack, "v": state.version}),
            )
            .await?;
            // The mover waits for its ack; the event carries what changed.
            let mut acked = false;
            let mut next = None;
            while !acked || next.is_none() {
                let (m, bytes, text) = next_msg(&mut sockets[side]).await?;
                match m.t.as_str() {
                    "ack" if m.ack.as_deref() == Some(ack.as_str()) => {
                        played.acked.push(sent.elapsed());
                        if let Some(g) = played.games.last_mut() {
                            g.1 += 1;
                        }
                        ctx.moves.fetch_add(1, Ordering::Relaxed);
                        acked = true;
                    }
                    "event" if m.game.as_deref() == Some(game.id.as_str()) => {
                        if m.v != state.version + 1 {
                            return Err(format!(
                                "game {}: event {} after version {}",
                                game.id, m.v, state.version
                            ));
                        }
                        ctx.events.fetch_add(1, Ordering::Relaxed);
                        ctx.event_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
                        if ctx.weigh {
                            let event: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                            gridplay_server::apply_delta(&mut whole, &event["delta"]);
                            let size = bytes + whole.to_string().len() - event["delta"].to_string().len()
                                + r#""state""#.len()
                                - r#""delta""#.len();
                            ctx.whole_bytes.fetch_add(size as u64, Ordering::Relaxed);
                        }
                        next = Some((m.v, m.delta.unwrap_or_default()));
                    }
                    "error" => return Err(format!("move {mv} refused: {m:?}")),
                    _ => {}
                }
            }
            // The opponent's page sees the move: as an event from the same server, or as the game's new state
            // from another (read without parsing, so that its buffer does not grow).
            loop {
                let t = next_text(&mut sockets[1 - side]).await?;
                if t.starts_with(r#"{"t":"event""#) || t.starts_with(r#"{"t":"sync""#) {
                    break;
                }
            }
            played.seen.push(sent.elapsed());
            if let Some((v, delta)) = next {
                state.apply(v, delta);
            }
        }
        if state.over.is_some() {
            ctx.finished.fetch_add(1, Ordering::Relaxed);
        }
    }
    Ok(played)
}

async fn send(ws: &mut Ws, v: Value) -> Result<(), String> {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .map_err(|e| e.to_string())
}
