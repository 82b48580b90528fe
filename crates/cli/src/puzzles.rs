//! `gridplay puzzles`: `mine` finds puzzles (positions where one move is clearly best, proved as far as the
//! game allows: `gridplay_engine::puzzles`) in the games of a file or of self-play, with a progress bar, and
//! writes one line per puzzle (`spec`, position text, solution, proof, tab-separated); `pack` joins such
//! files into the deflated set the server ships (`crates/server/puzzles/shipped.tsv.deflate`).

use std::{
    io::{BufRead, Write},
    path::PathBuf,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc,
    },
};

use clap::{Args, Subcommand};
use gridplay_core::DynPosition;
use gridplay_engine::{
    Request,
    puzzles::{Effort, Found, candidates, effort, find, parse_steps, steps_text},
};
use gridplay_search::StopFlag;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Args, Debug)]
pub(crate) struct PuzzlesArgs {
    #[command(subcommand)]
    what: PuzzlesWhat,
}

#[derive(Subcommand, Debug)]
enum PuzzlesWhat {
    /// Find puzzles in games and append them to a file, one a line.
    Mine(MineArgs),
    /// Join files of puzzles (each line checked, repeats left out) into the deflated set the server ships.
    Pack(PackArgs),
    /// Prove files of puzzles again, each position judged afresh by the game's effort: a position still a
    /// puzzle is written with its new solution, grades and proof, the others are dropped; the counts are
    /// reported game by game.
    Prove(ProveArgs),
}

#[derive(Args, Debug)]
struct MineArgs {
    /// The game and its settings.
    #[arg(long, default_value = "reversi")]
    game: String,
    /// Games of self-play to mine: each move by the engine at a level drawn from `--levels`, seeded by the
    /// game's number.
    #[arg(long, conflicts_with = "games_file")]
    self_play: Option<usize>,
    /// A file of games to mine, one a line: the moves separated by spaces (a Reversi line may also be a
    /// transcript such as `f5d6c3`).
    #[arg(long, conflicts_with = "database")]
    games_file: Option<PathBuf>,
    /// The site's database (`sqlite://FILE` or `postgres://...`): its finished games between two accounts
    /// that the server has not mined yet, the latest first (up to `--site-games`), read only.
    #[arg(long, conflicts_with = "self_play")]
    database: Option<String>,
    /// With `--database`, how many of the site's games.
    #[arg(long, default_value_t = 1000)]
    site_games: i64,
    /// The levels self-play draws from, `LOW-HIGH`.
    #[arg(long, default_value = "1-4", value_parser = levels)]
    levels: (u8, u8),
    /// Stop once this many puzzles are found.
    #[arg(long, default_value_t = usize::MAX)]
    puzzles: usize,
    /// At most this many puzzles from one game.
    #[arg(long, default_value_t = 2)]
    per_game: usize,
    /// Judge only every `every`-th position worth judging of a game (Grid Tactics' positions within one turn
    /// are much alike, and each costs a search of every action).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The file the puzzles are appended to.
    #[arg(long)]
    out: PathBuf,
    /// The first self-play game's number (its seed).
    #[arg(long, default_value_t = 0)]
    first: usize,
}

#[derive(Args, Debug)]
struct ProveArgs {
    /// Files of puzzles (written by `mine`, `prove`, or the shipped set inflated).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Only the puzzles of this game (a registry name).
    #[arg(long)]
    game: Option<String>,
    /// Only the first N puzzles read (of `--game`).
    #[arg(long)]
    limit: Option<usize>,
    /// The first search's depth instead of the game's effort (for measuring what a depth costs).
    #[arg(long)]
    depth: Option<u32>,
    /// The file the puzzles still proved are written to.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct PackArgs {
    /// Files written by `mine`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[arg(long)]
    out: PathBuf,
}

pub(crate) fn run(args: &PuzzlesArgs) -> anyhow::Result<()> {
    match &args.what {
        PuzzlesWhat::Mine(m) => mine(m),
        PuzzlesWhat::Pack(p) => pack(p),
        PuzzlesWhat::Prove(p) => prove(p),
    }
}

/// A game's moves from a line of a games file.
fn moves_of(line: &str, game: &str) -> Vec<String> {
    let line = line.trim();
    if game == "reversi" && !line.contains(' ') {
        return line
            .as_bytes()
            .chunks(2)
            .map(|c| String::from_utf8_lossy(c).to_lowercase())
            .collect();
    }
    line.split_whitespace().map(str::to_owned).collect()
}

/// `LOW-HIGH`, levels from 1.
fn levels(text: &str) -> anyhow::Result<(u8, u8)> {
    let bad = || anyhow::anyhow!("`{text}` is not LOW-HIGH, two levels from 1 with LOW <= HIGH");
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    let (a, b): (u8, u8) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// A self-play game: each move by the engine at a level drawn from `levels`.
fn self_play(start: &dyn DynPosition, seed: u64, levels: (u8, u8)) -> Vec<String> {
    let mut pos = start.box_clone();
    let mut moves = Vec::new();
    let mut k = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    while pos.outcome().is_none() && moves.len() < 400 {
        k = k.rotate_left(13).wrapping_mul(0x2545_F491_4F6C_DD1D) ^ moves.len() as u64;
        let request = Request {
            level: Some(levels.0 + (k % u64::from(levels.1 - levels.0 + 1)) as u8),
            seed: k,
            ..Request::default()
        };
        let Ok(reply) = gridplay_engine::think(pos.as_ref(), &request, &StopFlag::new()) else {
            break;
        };
        if pos.play(&reply.best).is_err() {
            break;
        }
        moves.push(reply.best);
    }
    moves
}

/// One puzzle as a line of a puzzles file: spec, position, solution, proof and grades, separated by tabs.
fn line(spec: &str, pos: &dyn DynPosition, found: &Found) -> String {
    format!(
        "{spec}\t{}\t{}\t{}\t{}",
        pos.to_text(),
        found.solution.join(" "),
        found.proof,
        steps_text(&found.steps)
    )
}

fn mine(a: &MineArgs) -> anyhow::Result<()> {
    let registry = crate::registry();
    let game = registry.game(&a.game)?;
    let name = game.info().name;
    let spec = game.spec().to_string();
    let games: Vec<Vec<String>> = match (&a.games_file, a.self_play) {
        _ if a.database.is_some() => site_games(a, registry, &spec)?,
        (Some(path), _) => {
            let file = std::fs::File::open(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            std::io::BufReader::new(file)
                .lines()
                .map(|l| l.map(|l| moves_of(&l, &name)))
                .filter(|l| l.as_ref().map_or(true, |m| !m.is_empty()))
                .collect::<Result<_, _>>()
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        }
        (None, Some(_)) => Vec::new(),
        (None, None) => {
            return Err(anyhow::anyhow!(
                "give --self-play N, --games-file FILE or --database URL"
            ));
        }
    };
    let total = a.self_play.unwrap_or(games.len());
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.out.display()))?;
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        ProgressBar::new(total as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games · {msg} · {elapsed} (eta {eta})",
    )?);
    let next = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let games = Arc::new(games);
    let (tx, rx) = mpsc::channel::<Option<String>>();
    let effort = effort(&name);
    std::thread::scope(|scope| {
        for _ in 0..a.threads.max(1) {
            let (tx, next, done, games) = (tx.clone(), next.clone(), done.clone(), games.clone());
            let (game, spec) = (&game, &spec);
            let (first, per_game, self_play, every, levels) = (
                a.first,
                a.per_game,
                a.self_play.is_some(),
                a.every as usize,
                a.levels,
            );
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total || done.load(Ordering::Relaxed) {
                        return;
                    }
                    let start = game.start();
                    let moves = if self_play {
                        self_play_moves(start.as_ref(), (first + i) as u64, levels)
                    } else {
                        games[i].clone()
                    };
                    let mut found = 0;
                    for pos in candidates(start.as_ref(), &moves).into_iter().step_by(every) {
                        if found >= per_game || done.load(Ordering::Relaxed) {
                            break;
                        }
                        if let Some(f) = find(pos.as_ref(), effort, &StopFlag::new()) {
                            found += 1;
                            let _ = tx.send(Some(line(spec, pos.as_ref(), &f)));
                        }
                    }
                    let _ = tx.send(None);
                }
            });
        }
        drop(tx);
        let mut count = 0;
        for message in rx {
            match message {
                Some(l) => {
                    if count < a.puzzles {
                        let _ = writeln!(out, "{l}");
                        count += 1;
                        bar.set_message(format!("{count} puzzles"));
                    }
                    if count >= a.puzzles {
                        done.store(true, Ordering::Relaxed);
                    }
                }
                None => bar.inc(1),
            }
        }
        bar.finish();
        eprintln!("{count} puzzles of {spec} written to {}", a.out.display());
    });
    Ok(out.flush()?)
}

/// The moves of the site's finished games of `spec` not mined yet.
fn site_games(
    a: &MineArgs,
    registry: &'static gridplay_core::Registry,
    spec: &str,
) -> anyhow::Result<Vec<Vec<String>>> {
    let url = a.database.as_deref().unwrap_or_default();
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))?;
    runtime.block_on(async {
        let db = gridplay_server::db::Db::connect(url, 2, 1).await?;
        let games = gridplay_server::game::puzzles::site_games(&db, registry, a.site_games).await?;
        Ok(games
            .into_iter()
            .filter(|g| g.spec == spec)
            .map(|g| g.record.moves().to_vec())
            .collect())
    })
}

fn self_play_moves(start: &dyn DynPosition, seed: u64, levels: (u8, u8)) -> Vec<String> {
    self_play(start, seed, levels)
}

fn pack(a: &PackArgs) -> anyhow::Result<()> {
    let registry = crate::registry();
    let mut seen = std::collections::BTreeSet::new();
    let mut lines = Vec::new();
    for path in &a.files {
        let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        for (n, l) in text.lines().enumerate() {
            let at = || format!("{} line {}", path.display(), n + 1);
            let fields: Vec<&str> = l.split('\t').collect();
            let [spec, position, solution, _proof, grades] = fields[..] else {
                return Err(anyhow::anyhow!(
                    "{}: a puzzle is five fields separated by tabs (prove an older file first)",
                    at()
                ));
            };
            let steps = parse_steps(grades).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            if steps.len() != solution.split(' ').count().div_ceil(2) {
                return Err(anyhow::anyhow!(
                    "{}: one step of grades for each of the solver's moves",
                    at()
                ));
            }
            let game = registry
                .game(spec)
                .map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            let mut pos = game
                .parse_position(position)
                .map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            for m in solution.split(' ') {
                pos.play(m).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            }
            if seen.insert((spec.to_owned(), position.to_owned())) {
                lines.push(l.to_owned());
            }
        }
    }
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all((lines.join("\n") + "\n").as_bytes())?;
    let bytes = encoder.finish()?;
    std::fs::write(&a.out, &bytes).map_err(|e| anyhow::anyhow!("{}: {e}", a.out.display()))?;
    eprintln!(
        "{} puzzles in {} ({} bytes)",
        lines.len(),
        a.out.display(),
        bytes.len()
    );
    Ok(())
}

/// What `prove` did with one game's puzzles.
#[derive(Default)]
struct Proved {
    read: usize,
    kept: usize,
    /// Kept with another kind of proof, or another first move.
    reclassified: usize,
    /// Kept with more than one accepted first move.
    alternatives: usize,
    /// Kept with a shorter solution.
    shortened: usize,
}

fn prove(a: &ProveArgs) -> anyhow::Result<()> {
    let registry = crate::registry();
    let mut puzzles = Vec::new();
    for path in &a.files {
        let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        for (n, l) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = || format!("{} line {}", path.display(), n + 1);
            let fields: Vec<&str> = l.split('\t').collect();
            if !(4..=5).contains(&fields.len()) {
                return Err(anyhow::anyhow!(
                    "{}: a puzzle is four or five fields separated by tabs",
                    at()
                ));
            }
            let spec = crate::game_spec(fields[0]).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            if a.game.as_ref().is_some_and(|g| g != spec.name()) {
                continue;
            }
            let game = registry
                .game(fields[0])
                .map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            let name = game.info().name;
            let pos = game
                .parse_position(fields[1])
                .map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            let old_proof = fields[3].split(';').next().unwrap_or_default().to_owned();
            let old_first = fields[2].split(' ').next().unwrap_or_default().to_owned();
            let old_len = fields[2].split(' ').count();
            puzzles.push((name, fields[0].to_owned(), pos, old_proof, old_first, old_len));
        }
    }
    if let Some(limit) = a.limit {
        puzzles.truncate(limit);
    }
    let next = AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Option<Found>>>> =
        puzzles.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..a.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((name, _, pos, ..)) = puzzles.get(i) else {
                        return;
                    };
                    let mut effort: Effort = effort(name);
                    if let Some(d) = a.depth {
                        effort.depth = d;
                    }
                    let found = find(pos.as_ref(), effort, &StopFlag::new());
                    if let Ok(mut slot) = results[i].lock() {
                        *slot = Some(found);
                    }
                }
            });
        }
    });
    let mut out = Vec::new();
    let mut by_game: std::collections::BTreeMap<String, Proved> = std::collections::BTreeMap::new();
    for ((name, spec, pos, old_proof, old_first, old_len), result) in puzzles.iter().zip(results) {
        let counts = by_game.entry(name.clone()).or_default();
        counts.read += 1;
        let Some(found) = result.into_inner().ok().flatten().flatten() else {
            continue;
        };
        counts.kept += 1;
        let kind = |p: &str| p.split(' ').take(2).collect::<Vec<_>>().join(" ");
        if kind(&found.proof) != kind(old_proof) || found.solution[0] != *old_first {
            counts.reclassified += 1;
        }
        if found.steps[0].accepted().count() > 1 {
            counts.alternatives += 1;
        }
        if found.solution.len() < *old_len {
            counts.shortened += 1;
        }
        out.push(line(spec, pos.as_ref(), &found));
    }
    std::fs::write(&a.out, out.join("\n") + "\n").map_err(|e| anyhow::anyhow!("{}: {e}", a.out.display()))?;
    eprintln!("game       read   kept dropped reclassified alternatives shortened");
    for (game, c) in &by_game {
        eprintln!(
            "{game:<10} {:>4} {:>6} {:>7} {:>12} {:>12} {:>9}",
            c.read,
            c.kept,
            c.read - c.kept,
            c.reclassified,
            c.alternatives,
            c.shortened
        );
    }
    eprintln!(
        "{} puzzles written to {} in {:.1} s",
        out.len(),
        a.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
