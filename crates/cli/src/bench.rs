//! `gridplay bench`: benchmarks that need the whole program (the micro-benchmarks are `cargo bench`).

use std::time::Duration;

use clap::{Args, Subcommand};
use gridplay_bench::load::{LoadOptions, run as run_load};

#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    #[command(subcommand)]
    what: BenchWhat,
}

#[derive(Subcommand, Debug)]
enum BenchWhat {
    /// Load test of the web platform: simulated players play over loopback WebSockets, every move committed
    /// to the database; reports moves per second and move-to-ack latency percentiles.
    Server(ServerArgs),
    /// Soak test: games against the engine over WebSockets with hints and analyses mixed in, on a server with
    /// the default limits; reports errors, the engine's reply times and resident memory before and after.
    Soak(SoakArgs),
    /// The opening explorer's answer time: plays seeded games, stores their first plies' counts, and times
    /// the explorer's query for positions of those games.
    Explorer(ExplorerArgs),
    /// Reversi's parallel search against its search on one thread: the time of exact solves of a problem
    /// file's positions, or with `--depth` of searches to that depth, each run on a new table, alternately on
    /// one thread and on `--threads`.
    Threads(ThreadsArgs),
}

#[derive(Args, Debug)]
struct ThreadsArgs {
    /// Threads of the parallel runs.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(2..=256))]
    threads: u16,
    /// A problem file (`.obf`, as the FFO set); without one, `--positions` positions of `--plies` random
    /// plies from the start (seeded by `--seed`), which need `--depth`.
    #[arg(long)]
    file: Option<std::path::PathBuf>,
    /// Only these problems of the file, by their place in it from 1: `1-10`.
    #[arg(long)]
    problems: Option<String>,
    /// Search to this depth with the midgame search (Multi-ProbCut on, as the engine plays) rather than
    /// solve exactly.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    #[arg(long, default_value_t = 20, value_parser = at_least_one)]
    positions: usize,
    #[arg(long, default_value_t = 20)]
    plies: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Runs of each position on each side; the median time counts.
    #[arg(long, default_value_t = 3, value_parser = at_least_one)]
    repeat: usize,
    /// Size of each run's new table in megabytes.
    #[arg(long, default_value_t = 64, value_parser = at_least_one)]
    table_mb: usize,
}

#[derive(Args, Debug)]
struct ExplorerArgs {
    /// Games to store.
    #[arg(long, default_value_t = 100_000, value_parser = at_least_one)]
    games: usize,
    /// The game spec.
    #[arg(long, default_value = "reversi")]
    game: String,
    /// Positions whose answer is timed.
    #[arg(long, default_value_t = 1000, value_parser = at_least_one)]
    samples: usize,
    /// Database (default: a new SQLite file in a temporary directory, removed after).
    #[arg(long)]
    database: Option<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args, Debug)]
struct SoakArgs {
    /// Games against the engine, in all.
    #[arg(long, default_value_t = 1000, value_parser = at_least_one)]
    games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 32, value_parser = at_least_one)]
    parallel: usize,
    /// The game spec.
    #[arg(long, default_value = "reversi")]
    game: String,
    /// The engine's level, from 1 to the game's top level.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..))]
    level: u8,
    /// One game in this many asks for a hint, and one in this many for an analysis once over.
    #[arg(long, default_value_t = 10, value_parser = at_least_one)]
    every: usize,
    /// Database (default: a new SQLite file in a temporary directory).
    #[arg(long)]
    database: Option<String>,
}

#[derive(Args, Debug)]
struct ServerArgs {
    /// Simulated players; they play in pairs, one game per pair at a time.
    #[arg(long, default_value_t = 200)]
    players: usize,
    /// Seconds to play.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    seconds: u64,
    /// Database (default: a new SQLite file in a temporary directory); with `--target`, the PostgreSQL
    /// database the servers share.
    #[arg(long)]
    database: Option<String>,
    /// A running server to drive instead of one started here (`http://HOST:PORT`); repeat it for several
    /// servers on one PostgreSQL database: the two players of each pair go to two different ones. Start each
    /// with limits fit for one client address opening thousands of sockets (`docs/web.md`).
    #[arg(long = "target")]
    targets: Vec<String>,
    /// The game spec every pair plays.
    #[arg(long, default_value = "reversi")]
    game: String,
    /// Also weigh each event against the whole state it describes (slows the players: not for throughput).
    #[arg(long)]
    weigh_events: bool,
    /// The in-process server's writers of game actions, as `gridplay serve --db-writers` [default: 1 for
    /// SQLite; for PostgreSQL one per four cores, from 1 to 4].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    db_writers: Option<u32>,
    /// A live clock of this many seconds a side on every game (no increment), as games between people have;
    /// by default the games are untimed.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=86_400))]
    clock: Option<u32>,
}

/// A count of 1 or more.
fn at_least_one(text: &str) -> anyhow::Result<usize> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err(anyhow::anyhow!("it must be at least 1")),
        Err(e) => Err(anyhow::anyhow!("`{text}` is not a count: {e}")),
    }
}

pub(crate) fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let a = match &args.what {
        BenchWhat::Server(a) => a,
        BenchWhat::Soak(s) => return soak(s),
        BenchWhat::Explorer(e) => return explorer(e),
        BenchWhat::Threads(t) => return threads(t),
    };
    if a.players < 2 {
        return Err(anyhow::anyhow!("--players must be at least 2"));
    }
    if !a.targets.is_empty() && a.db_writers.is_some() {
        return Err(anyhow::anyhow!(
            "--db-writers sets the server started here; with --target, give it to each `gridplay serve`"
        ));
    }
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))?;
    let report = runtime
        .block_on(run_load(LoadOptions {
            players: a.players,
            duration: Duration::from_secs(a.seconds),
            database: a.database.clone(),
            spec: a.game.clone(),
            weigh: a.weigh_events,
            targets: a.targets.clone(),
            db_writers: a.db_writers,
            clock_s: a.clock,
        }))
        .map_err(anyhow::Error::msg)?;
    println!("{report}");
    if !report.exact {
        return Err(anyhow::anyhow!(
            "{} moves were acknowledged and {} are stored: some game does not hold exactly its acknowledged moves",
            report.moves,
            report.stored
        ));
    }
    Ok(())
}

fn explorer(a: &ExplorerArgs) -> anyhow::Result<()> {
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))?;
    let report = runtime
        .block_on(gridplay_bench::explorer::run(
            gridplay_bench::explorer::ExplorerOptions {
                games: a.games,
                spec: a.game.clone(),
                samples: a.samples,
                database: a.database.clone(),
                seed: a.seed,
            },
        ))
        .map_err(anyhow::Error::msg)?;
    println!("{report}");
    Ok(())
}

fn soak(a: &SoakArgs) -> anyhow::Result<()> {
    crate::check_level(&a.game, a.level)?;
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))?;
    let report = runtime
        .block_on(gridplay_bench::soak::run(gridplay_bench::soak::SoakOptions {
            games: a.games,
            parallel: a.parallel,
            spec: a.game.clone(),
            level: a.level,
            every: a.every,
            database: a.database.clone(),
        }))
        .map_err(anyhow::Error::msg)?;
    println!("{report}");
    if report.errors.is_empty() {
        Ok(())
    } else {
        Err(anyhow::anyhow!("{} games met an error", report.errors.len()))
    }
}

/// The positions of `gridplay bench threads`.
fn threads_positions(a: &ThreadsArgs) -> anyhow::Result<Vec<gridplay_games::reversi::bitboard::Board>> {
    use gridplay_core::DynGame;
    let Some(file) = &a.file else {
        if a.depth.is_none() {
            return Err(anyhow::anyhow!(
                "random positions are searched to a depth: give --depth, or --file to solve"
            ));
        }
        let game: Box<dyn DynGame> = Box::new(gridplay_games::reversi::Reversi::default());
        return Ok((0..a.positions)
            .filter_map(|i| {
                let pos = crate::matches::random_opening(game.as_ref(), a.plies, a.seed + i as u64 * 1000);
                let pos = pos
                    .as_any()
                    .downcast_ref::<gridplay_games::reversi::ReversiPosition>()?;
                (!gridplay_core::Position::is_over(pos)).then(|| pos.board())
            })
            .collect());
    };
    let text =
        std::fs::read_to_string(file).map_err(|e| anyhow::anyhow!("reading {}: {e}", file.display()))?;
    let problems = gridplay_engine::reversi::obf::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let (lo, hi) = match &a.problems {
        Some(r) => crate::solve::range(r)?,
        None => (1, usize::MAX),
    };
    Ok(problems
        .iter()
        .enumerate()
        .filter(|(i, _)| (lo..=hi).contains(&(i + 1)))
        .map(|(_, p)| p.position.board())
        .collect())
}

fn threads(a: &ThreadsArgs) -> anyhow::Result<()> {
    use gridplay_engine::reversi::{endgame::Solver, search};
    use std::time::Instant;
    let boards = threads_positions(a)?;
    if boards.is_empty() {
        return Err(anyhow::anyhow!("no positions to time"));
    }
    let n = usize::from(a.threads);
    // One run: (seconds, nodes, score) on `t` threads with a new table.
    let run = |b: gridplay_games::reversi::bitboard::Board, t: usize| -> (f64, u64, i32) {
        match a.depth {
            Some(depth) => {
                let mut table = search::Table::new(a.table_mb);
                let options = search::Options {
                    threads: t,
                    ..search::Options::default()
                };
                let started = Instant::now();
                let f = search::search_in(
                    b,
                    gridplay_search::Limits::depth(depth),
                    &gridplay_search::StopFlag::new(),
                    options,
                    &mut table,
                );
                (started.elapsed().as_secs_f64(), f.nodes, f.score)
            }
            None => {
                let mut solver = Solver::new(a.table_mb);
                solver.set_threads(t);
                let started = Instant::now();
                let s = solver.solve(b);
                (started.elapsed().as_secs_f64(), s.nodes, s.score)
            }
        }
    };
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "{} positions, {}, 1 thread against {n}, median of {} runs each, alternating",
        boards.len(),
        a.depth
            .map_or_else(|| "exact solves".to_owned(), |d| format!("depth {d}")),
        a.repeat
    );
    let (mut total1, mut total_n, mut ratios) = (0.0, 0.0, Vec::new());
    for (i, &b) in boards.iter().enumerate() {
        let (mut t1, mut tn) = (Vec::new(), Vec::new());
        let (mut nodes1, mut nodes_n, mut scores) = (0, 0, (0, 0));
        for _ in 0..a.repeat {
            let one = run(b, 1);
            let many = run(b, n);
            t1.push(one.0);
            tn.push(many.0);
            (nodes1, nodes_n, scores) = (one.1, many.1, (one.2, many.2));
        }
        if a.depth.is_none() && scores.0 != scores.1 {
            return Err(anyhow::anyhow!(
                "position {}: the parallel solve scored {} and the solve on one thread {}",
                i + 1,
                scores.1,
                scores.0
            ));
        }
        let (m1, mn) = (median(&mut t1), median(&mut tn));
        total1 += m1;
        total_n += mn;
        ratios.push(m1 / mn);
        println!(
            "{:>3} {:>2} empties  1 thread {m1:>8.3} s {nodes1:>12} nodes  {n} threads {mn:>8.3} s {nodes_n:>12} nodes  {:.2}x",
            i + 1,
            b.empty().count_ones(),
            m1 / mn
        );
    }
    let mut sorted = ratios.clone();
    println!(
        "in all: 1 thread {total1:.3} s, {n} threads {total_n:.3} s: {:.2}x; median position {:.2}x",
        total1 / total_n,
        median(&mut sorted)
    );
    Ok(())
}
