//! The `gridplay` command. Each subcommand lives in its own module; this file only parses arguments.

mod admin;
mod backup;
mod bench;
mod bot;
mod datagen;
mod egdb;
mod matches;
mod nboard;
mod perft;
mod play;
mod players;
mod protocol;
mod puzzles;
mod render;
mod review;
mod selfplay;
mod serve;
mod solve;
mod train;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gridplay_core::{DynGame, DynPosition};

/// mimalloc rather than the C library's allocator: the server allocates on many threads and frees on others,
/// which the C library's arenas serve slowly (measured in docs/lab/2026-11-27-scale-up.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// gridplay: two-player grid board games with exact rules.
#[derive(Debug, Parser)]
#[command(name = "gridplay", version, about, long_about = None)]
struct Cli {
    /// Offer the test games (tic-tac-toe) beside the real ones, for development and tests.
    #[arg(long, global = true)]
    with_test_games: bool,
    #[command(subcommand)]
    command: Command,
}

/// Whether `--with-test-games` was given.
static TEST_GAMES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether this run offers the test games.
fn with_test_games() -> bool {
    TEST_GAMES.load(std::sync::atomic::Ordering::Relaxed)
}

/// The games this run offers: every game, and the test games with `--with-test-games`.
fn registry() -> &'static gridplay_core::Registry {
    if with_test_games() {
        gridplay_games::registry_with_test_games()
    } else {
        gridplay_games::registry()
    }
}

// Parsed once at start: the size of its largest variant (training's many options) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
enum Command {
    /// Count move paths to a depth (perft), the standard check of a move generator.
    Perft(perft::PerftArgs),
    /// Play a game in the terminal, against another person at the same keyboard or a random mover.
    Play(play::PlayArgs),
    /// Speak the gridplay engine protocol on standard input and output (see docs/protocol.md).
    Engine(protocol::EngineArgs),
    /// Play many games between two copies of one player (random, or greedy for Grid Tactics) and report
    /// who wins: first-move advantage and balance.
    Selfplay(selfplay::SelfplayArgs),
    /// Play a match between two players (levels, depths, times, random, or an external engine) and report the
    /// score and the Elo difference.
    Match(matches::MatchArgs),
    /// Solve Reversi endgame problems exactly and check them against the scores in the file (`.obf`).
    Solve(solve::SolveArgs),
    /// Train an evaluation from self-play games: Reversi's patterns (labelled by the exact solver) or
    /// checkers' (labelled by the games' results).
    Train(train::TrainArgs),
    /// Make training data that accumulates: positions of frozen generators labelled by deep searches and
    /// exact solves, in shards under data/train, resumed where the last job stopped.
    Datagen(datagen::DatagenArgs),
    /// Build the checkers endgame databases and report what they hold.
    Egdb(egdb::EgdbArgs),
    /// List the games and their settings.
    Games,
    /// Benchmarks of the whole program: `gridplay bench server` load-tests the web platform.
    Bench(bench::BenchArgs),
    /// Run the web platform: accounts, lobby and live games in the browser (SQLite by default).
    Serve(serve::ServeArgs),
    /// Print the web platform's OpenAPI document, which a server also answers at `/api/openapi.json`.
    Openapi,
    /// Copy a SQLite database while servers run on it, consistent as of the moment the copy begins.
    Backup(backup::BackupArgs),
    /// Put a copy made by `gridplay backup` in place of a SQLite database that no server has open.
    Restore(backup::RestoreArgs),
    /// The site's admins: `grant NAME`, `revoke NAME`, `list`, on the server's database.
    Admin(admin::AdminArgs),
    /// Bring an engine online as a bot account: it accepts challenges by its filters and plays them through
    /// the site's bot API (docs/web.md, "Bots and the API").
    Bot(bot::BotArgs),
    /// Puzzles: `mine` finds them in the games of a file or of self-play, `pack` makes the set the server
    /// ships.
    Puzzles(puzzles::PuzzlesArgs),
    /// The engine-use review measured: `figures` reviews the games of PGN files, `engine` plays and reviews
    /// the engine at a level, `measure` counts the windows of games its rule flags.
    Review(review::ReviewArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A candidate weights or regression file named for the Reversi or checkers engine must be readable.
    let weights_var = gridplay_engine::reversi::pattern::WEIGHTS_VAR;
    if let Some(path) = std::env::var_os(weights_var)
        && let Err(e) = gridplay_engine::reversi::pattern::Weights::read_file(std::path::Path::new(&path))
    {
        eprintln!("error: {weights_var}: {e}");
        return ExitCode::from(2);
    }
    let checkers_var = gridplay_engine::checkers::evaluation::WEIGHTS_VAR;
    if let Some(path) = std::env::var_os(checkers_var)
        && let Err(e) = gridplay_engine::checkers::evaluation::Learned::read_file(std::path::Path::new(&path))
    {
        eprintln!("error: {checkers_var}: {e}");
        return ExitCode::from(2);
    }
    let probcut_var = gridplay_engine::reversi::probcut::PROBCUT_VAR;
    if let Some(path) = std::env::var_os(probcut_var)
        && let Err(e) = gridplay_engine::reversi::probcut::ProbCut::read_file(std::path::Path::new(&path))
    {
        eprintln!("error: {probcut_var}: {e}");
        return ExitCode::from(2);
    }
    TEST_GAMES.store(cli.with_test_games, std::sync::atomic::Ordering::Relaxed);
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Engine(args) => protocol::run(&args),
        Command::Selfplay(args) => selfplay::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Match(args) => matches::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Datagen(args) => datagen::run(&args),
        Command::Egdb(args) => egdb::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Backup(args) => backup::backup(&args),
        Command::Restore(args) => backup::restore(&args),
        Command::Admin(args) => admin::admin(&args),
        Command::Bot(args) => bot::run(&args),
        Command::Puzzles(args) => puzzles::run(&args),
        Command::Review(args) => review::run(&args),
        Command::Games => {
            use std::io::Write;
            std::io::stdout()
                .lock()
                .write_all(games_text().as_bytes())
                .map_err(output_error)
        }
        Command::Openapi => {
            use std::io::Write;
            writeln!(
                std::io::stdout().lock(),
                "{}",
                gridplay_server::openapi_document()
            )
            .map_err(output_error)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`gridplay perft ... | head`): stop quietly, as other tools do.
        Err(e) if e.is::<BrokenPipe>() => ExitCode::SUCCESS,
        Err(e) => {
            // The error and each of its causes, `: `-separated.
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The reader of the output went away: the command stops, and nothing is reported.
#[derive(Debug, thiserror::Error)]
#[error("broken pipe")]
struct BrokenPipe;

/// Turns an output error into the command's error; a closed pipe is [`BrokenPipe`], which is not reported.
fn output_error(e: std::io::Error) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        BrokenPipe.into()
    } else {
        anyhow::Error::new(e).context("writing output")
    }
}

/// A spec read: the game's name and its settings.
pub(crate) fn game_spec(spec: &str) -> anyhow::Result<gridplay_core::GameSpec> {
    Ok(spec.parse::<gridplay_core::GameSpec>()?)
}

/// The list of games with their settings, as `gridplay games` prints it.
fn games_text() -> String {
    let mut out = String::new();
    for e in registry().entries() {
        out.push_str(&format!(
            "{:<10} {}: {}\n",
            e.name, e.module.title, e.module.about
        ));
        for s in e.module.settings {
            out.push_str(&format!(
                "{:<10}   {}={} (default {}): {}. {}\n",
                "",
                s.key,
                s.values(),
                s.default_text(),
                s.label,
                s.about
            ));
        }
    }
    out.push_str(
        "\nA game spec is a name, then optional settings: reversi, reversi:first=white, cornered:size=11\n",
    );
    out
}

/// A game variant with a position of it.
type Loaded = (Box<dyn DynGame>, Box<dyn DynPosition>);

/// Builds a game and its position from a spec and an optional position text.
/// `level` if the engine of the game named in `spec` has it: levels run from 1 to the engine table's top.
fn check_level(spec: &str, level: u8) -> anyhow::Result<u8> {
    let spec = game_spec(spec)?;
    let name = spec.name();
    let top = gridplay_engine::top_level(name).ok_or_else(|| anyhow::anyhow!("no engine plays `{name}`"))?;
    let title = registry().entry(name).map_or(name, |e| e.module.title);
    if (1..=top).contains(&level) {
        Ok(level)
    } else {
        Err(anyhow::anyhow!(
            "{title}'s engine has levels 1 to {top}, not {level}"
        ))
    }
}

fn load(spec: &str, position: Option<&str>) -> anyhow::Result<Loaded> {
    let game = registry().game(spec)?;
    let pos = match position {
        Some(text) => game.parse_position(text)?,
        None => game.start(),
    };
    Ok((game, pos))
}
