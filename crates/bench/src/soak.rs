//! The soak test (`gridplay bench soak`): many games against the engine over WebSockets, with hints asked
//! during some games and analyses asked after some, on a server started in this process with the default
//! limits. It reports the errors (any refusal or failure a player meets), the engine's reply times and the
//! process's resident memory before and after.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    sync::{Mutex, Semaphore},
};
use tokio_tungstenite::tungstenite::Message;

use gridplay_server::{
    Config,
    db::{User, now_ms},
    ids,
};

use crate::load::resident_bytes;

/// What to run.
#[derive(Clone, Debug)]
pub struct SoakOptions {
    /// Games against the engine, in all.
    pub games: usize,
    /// Games played at once.
    pub parallel: usize,
    /// The game's spec and the engine's level.
    pub spec: String,
    pub level: u8,
    /// One game in `every` asks for a hint, and one in `every` for an analysis once over.
    pub every: usize,
    /// The database; `None` uses a new SQLite file in a temporary directory.
    pub database: Option<String>,
}

/// What was measured.
#[derive(Clone, Debug)]
pub struct SoakReport {
    pub games: u64,
    pub engine_moves: u64,
    pub hints: u64,
    pub analyses: u64,
    pub errors: Vec<String>,
    pub elapsed: Duration,
    /// From sending a move to the engine's reply, percentiles 50, 90, 99 and the maximum.
    pub reply: [Duration; 4],
    pub rss_start: u64,
    pub rss_end: u64,
    /// After the finished games' actors have gone idle and stopped.
    pub rss_idle: u64,
    /// The resident memory each time another tenth of the games had ended: (games ended, bytes).
    pub rss_series: Vec<(usize, u64)>,
}

impl std::fmt::Display for SoakReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(
            f,
            "games        {} against the engine in {:.1} s ({} engine moves)",
            self.games,
            self.elapsed.as_secs_f64(),
            self.engine_moves
        )?;
        writeln!(f, "mixed in     {} hints, {} analyses", self.hints, self.analyses)?;
        writeln!(
            f,
            "reply        p50 {:.0} ms, p90 {:.0} ms, p99 {:.0} ms, max {:.0} ms (from the move sent to the engine's reply)",
            ms(self.reply[0]),
            ms(self.reply[1]),
            ms(self.reply[2]),
            ms(self.reply[3])
        )?;
        writeln!(
            f,
            "memory       {:.0} MB resident at the start, {:.0} MB at the end, {:.0} MB once idle",
            self.rss_start as f64 / 1e6,
            self.rss_end as f64 / 1e6,
            self.rss_idle as f64 / 1e6
        )?;
        let series: Vec<String> = self
            .rss_series
            .iter()
            .map(|(n, b)| format!("{n}: {:.0}", *b as f64 / 1e6))
            .collect();
        writeln!(f, "memory (MB) after so many games: {}", series.join(", "))?;
        write!(f, "errors       {}", self.errors.len())?;
        for e in self.errors.iter().take(10) {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

struct Ctx {
    addr: std::net::SocketAddr,
    options: SoakOptions,
    engine_moves: AtomicU64,
    hints: AtomicU64,
    analyses: AtomicU64,
    replies: Mutex<Vec<Duration>>,
    errors: Mutex<Vec<String>>,
}

/// Runs the soak test against a server started in this process.
pub async fn run(options: SoakOptions) -> Result<SoakReport, String> {
    let dir = std::env::temp_dir().join(format!("gridplay-soak-{}", std::process::id()));
    let database = options
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}/soak.db", dir.display()));
    let config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        database,
        ..Config::default()
    };
    let server = gridplay_server::start(config).await.map_err(|e| e.to_string())?;
    let rss_start = resident_bytes();
    let ctx = Arc::new(Ctx {
        addr: server.addr,
        options: options.clone(),
        engine_moves: AtomicU64::new(0),
        hints: AtomicU64::new(0),
        analyses: AtomicU64::new(0),
        replies: Mutex::new(Vec::new()),
        errors: Mutex::new(Vec::new()),
    });
    // One account per game at once: the default limits apply to each as to a person.
    let mut cookies = Vec::new();
    for i in 0..options.parallel.max(1) {
        let user = User {
            id: ids::short(12),
            name: format!("soak{i}_{}", ids::short(4)),
            bot: false,
        };
        let token = ids::token();
        let db = &server.state.db;
        db.create_user(&user, "-").await.map_err(|e| e.to_string())?;
        db.create_session(&token, &user.id, now_ms() + 86_400_000)
            .await
            .map_err(|e| e.to_string())?;
        cookies.push(format!("{}={token}", gridplay_server::SESSION_COOKIE));
    }
    let seats = Arc::new(Semaphore::new(options.parallel.max(1)));
    let free = Arc::new(Mutex::new(cookies));
    let started = Instant::now();
    let mut tasks = Vec::new();
    let ended = Arc::new(AtomicU64::new(0));
    let series = Arc::new(Mutex::new(Vec::new()));
    let tenth = (options.games / 10).max(1);
    for n in 0..options.games {
        let permit = seats.clone().acquire_owned().await.map_err(|e| e.to_string())?;
        let cookie = free.lock().await.pop().ok_or("no free player")?;
        let (ctx, free, ended, series) = (ctx.clone(), free.clone(), ended.clone(), series.clone());
        tasks.push(tokio::spawn(async move {
            if let Err(e) = play(&ctx, &cookie, n).await {
                ctx.errors.lock().await.push(format!("game {n}: {e}"));
            }
            let done = ended.fetch_add(1, Ordering::Relaxed) as usize + 1;
            if done.is_multiple_of(tenth) {
                series.lock().await.push((done, resident_bytes()));
            }
            free.lock().await.push(cookie);
            drop(permit);
        }));
    }
    for t in tasks {
        t.await.map_err(|e| e.to_string())?;
    }
    let elapsed = started.elapsed();
    let rss_end = resident_bytes();
    // Finished games' actors stop after 30 s without a watcher.
    tokio::time::sleep(Duration::from_secs(35)).await;
    let rss_idle = resident_bytes();
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
    let mut replies = std::mem::take(&mut *ctx.replies.lock().await);
    replies.sort_unstable();
    let pct = |q: f64| {
        replies
            .get(((replies.len() as f64 * q) as usize).min(replies.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    let errors = std::mem::take(&mut *ctx.errors.lock().await);
    Ok(SoakReport {
        games: options.games as u64,
        engine_moves: ctx.engine_moves.load(Ordering::Relaxed),
        hints: ctx.hints.load(Ordering::Relaxed),
        analyses: ctx.analyses.load(Ordering::Relaxed),
        errors,
        elapsed,
        reply: [
            pct(0.5),
            pct(0.9),
            pct(0.99),
            replies.last().copied().unwrap_or_default(),
        ],
        rss_start,
        rss_end,
        rss_idle,
        rss_series: std::mem::take(&mut *series.lock().await),
    })
}

use crate::load::Ws;

async fn next_json(ws: &mut Ws) -> Result<Value, String> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .map_err(|_| "no message for 60 s".to_owned())?
            .ok_or("the server closed the socket")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).map_err(|e| format!("{e}: {t}"));
        }
    }
}

/// A request over a fresh connection: the status and the body.
async fn http(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    cookie: &str,
    body: &str,
) -> Result<(u16, String), String> {
    let mut s = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").ok_or("no response")?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or("no status")?;
    Ok((status, body.to_owned()))
}

/// One game against the engine, playing the first legal move each turn.
async fn play(ctx: &Ctx, cookie: &str, n: usize) -> Result<(), String> {
    let o = &ctx.options;
    let body = json!({"spec": o.spec, "level": o.level, "color": if n.is_multiple_of(2) { "first" } else { "second" }});
    let (status, text) = http(ctx.addr, "POST", "/api/computer", cookie, &body.to_string()).await?;
    if status != 200 {
        return Err(format!("new game: {status} {text}"));
    }
    let game: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let id = game["game"].as_str().ok_or("no game id")?.to_owned();
    let mut ws = crate::load::connect(ctx.addr, cookie).await?;
    ws.send(Message::Text(
        json!({"t": "watch", "game": id}).to_string().into(),
    ))
    .await
    .map_err(|e| e.to_string())?;
    let mut state = loop {
        let m = next_json(&mut ws).await?;
        if m["t"] == "sync" {
            break m["state"].clone();
        }
    };
    let mine = if n.is_multiple_of(2) { "first" } else { "second" };
    let want_hint = o.every > 0 && n.is_multiple_of(o.every);
    let mut sent: Option<Instant> = None;
    while state["over"].is_null() {
        if state["view"]["turn"] == mine {
            if let Some(t) = sent.take() {
                ctx.replies.lock().await.push(t.elapsed());
                ctx.engine_moves.fetch_add(1, Ordering::Relaxed);
            }
            if want_hint && state["moves"].as_array().map_or(0, Vec::len) == 4 {
                let (status, text) =
                    http(ctx.addr, "GET", &format!("/api/games/{id}/hint"), cookie, "").await?;
                if status != 200 {
                    return Err(format!("hint: {status} {text}"));
                }
                ctx.hints.fetch_add(1, Ordering::Relaxed);
            }
            let mv = state["view"]["moves"][0]["text"]
                .as_str()
                .ok_or("no legal move")?
                .to_owned();
            let v = state["version"].as_u64().unwrap_or(0);
            ws.send(Message::Text(
                json!({"t": "move", "game": id, "move": mv, "v": v, "ack": format!("m{v}")})
                    .to_string()
                    .into(),
            ))
            .await
            .map_err(|e| e.to_string())?;
            sent = Some(Instant::now());
        }
        // Wait for the next event of this game; errors are faults.
        loop {
            let m = next_json(&mut ws).await?;
            match m["t"].as_str() {
                Some("error") => return Err(format!("refused: {m}")),
                Some("event") if m["game"] == id.as_str() => {
                    if m["v"].as_u64() != Some(state["version"].as_u64().unwrap_or(0) + 1) {
                        return Err(format!("event {} after version {}", m["v"], state["version"]));
                    }
                    gridplay_server::apply_delta(&mut state, &m["delta"]);
                    break;
                }
                Some("sync") if m["game"] == id.as_str() => {
                    state = m["state"].clone();
                    break;
                }
                _ => {}
            }
        }
    }
    let _ = ws.close(None).await;
    if o.every > 0 && n % o.every == o.every / 2 {
        let (status, text) = http(ctx.addr, "GET", &format!("/api/games/{id}/analysis"), cookie, "").await?;
        if status != 200 {
            return Err(format!("analysis: {status} {text}"));
        }
        ctx.analyses.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}
