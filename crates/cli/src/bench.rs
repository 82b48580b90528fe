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
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err("it must be at least 1".into()),
        Err(e) => Err(format!("`{text}` is not a count: {e}")),
    }
}

pub(crate) fn run(args: &BenchArgs) -> Result<(), String> {
    let a = match &args.what {
        BenchWhat::Server(a) => a,
        BenchWhat::Soak(s) => return soak(s),
        BenchWhat::Explorer(e) => return explorer(e),
    };
    if a.players < 2 {
        return Err("--players must be at least 2".into());
    }
    if !a.targets.is_empty() && a.db_writers.is_some() {
        return Err(
            "--db-writers sets the server started here; with --target, give it to each `gridplay serve`"
                .into(),
        );
    }
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
    let report = runtime.block_on(run_load(LoadOptions {
        players: a.players,
        duration: Duration::from_secs(a.seconds),
        database: a.database.clone(),
        spec: a.game.clone(),
        weigh: a.weigh_events,
        targets: a.targets.clone(),
        db_writers: a.db_writers,
        clock_s: a.clock,
    }))?;
    println!("{report}");
    if !report.exact {
        return Err(format!(
            "{} moves were acknowledged and {} are stored: some game does not hold exactly its acknowledged moves",
            report.moves, report.stored
        ));
    }
    Ok(())
}

fn explorer(a: &ExplorerArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
    let report = runtime.block_on(gridplay_bench::explorer::run(
        gridplay_bench::explorer::ExplorerOptions {
            games: a.games,
            spec: a.game.clone(),
            samples: a.samples,
            database: a.database.clone(),
            seed: a.seed,
        },
    ))?;
    println!("{report}");
    Ok(())
}

fn soak(a: &SoakArgs) -> Result<(), String> {
    crate::check_level(&a.game, a.level)?;
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
    let report = runtime.block_on(gridplay_bench::soak::run(gridplay_bench::soak::SoakOptions {
        games: a.games,
        parallel: a.parallel,
        spec: a.game.clone(),
        level: a.level,
        every: a.every,
        database: a.database.clone(),
    }))?;
    println!("{report}");
    if report.errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{} games met an error", report.errors.len()))
    }
}
