//! `gridplay train reversi`: trains the Reversi pattern weights from self-play games labelled by the exact
//! solver, and measures the new weights against the evaluation that played the games.

use std::{io::Write, path::PathBuf, time::Instant};

use clap::Args;
use gridplay_engine::reversi::{
    HandEval,
    pattern::Weights,
    train::{self, GameConfig},
};
use gridplay_games::reversi::bitboard::Board;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Args)]
pub(crate) struct TrainArgs {
    /// The game: `reversi` or `checkers` (the two with trained weights).
    game: String,
    /// Self-play games per round.
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// Rounds: round 1's games are played with the hand-written evaluation, each later round's with the
    /// weights of the round before; every round fits on all the games so far.
    #[arg(long, default_value_t = 2)]
    rounds: u32,
    /// Search depth of the self-play players.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Empty squares at which the exact solver labels the games.
    #[arg(long, default_value_t = 14)]
    solve_at: u32,
    /// Gradient epochs per stage.
    #[arg(long, default_value_t = 60)]
    epochs: usize,
    /// Game pairs of the closing match between the new weights and the hand-written evaluation.
    #[arg(long, default_value_t = 200)]
    check_pairs: u64,
    /// Search depth in the closing match.
    #[arg(long, default_value_t = 3)]
    check_depth: u32,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the weights (the shipped file is crates/engine/src/reversi/weights.bin).
    #[arg(long, required_unless_present = "check")]
    out: Option<PathBuf>,
    /// Train nothing: play the closing match of this weights file against the hand-written evaluation.
    #[arg(long, conflicts_with = "out")]
    check: Option<PathBuf>,
}

/// Reads a weights file with `parse`; errors name the file.
fn read_weights<T, E: std::fmt::Display>(
    path: &std::path::Path,
    parse: impl Fn(&[u8]) -> Result<T, E>,
) -> Result<T, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a weights file and says so.
fn write_weights(path: &std::path::Path, bytes: &[u8], out: &mut impl Write) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))?;
    writeln!(out, "wrote {}", path.display()).map_err(crate::output_error)
}

fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(&format!("{what} {{bar:40}} {{pos}}/{{len}} {{eta}}")) {
        bar.set_style(style);
    }
    bar
}

pub(crate) fn run(args: &TrainArgs) -> Result<(), String> {
    if args.game == "checkers" {
        return run_checkers(args);
    }
    if args.game != "reversi" {
        return Err(format!(
            "`{}` has no trained evaluation: only `reversi` and `checkers` can be trained",
            args.game
        ));
    }
    if args.games == 0 || args.rounds == 0 || args.depth == 0 {
        return Err("--games, --rounds and --depth must be at least 1".into());
    }
    if args.solve_at > 24 {
        return Err("--solve-at above 24 empty squares would take hours a game".into());
    }
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let weights = match (&args.check, &args.out) {
        (Some(path), _) => read_weights(path, Weights::from_bytes)?,
        (None, Some(path)) => {
            let weights = train(args, &mut out)?;
            write_weights(path, &weights.to_bytes(), &mut out)?;
            weights
        }
        (None, None) => return Err("give --out to train, or --check to measure a weights file".into()),
    };
    if args.check_pairs > 0 {
        let d = train::duel(
            &|b: Board| weights.evaluate(b),
            &HandEval::score,
            args.check_pairs,
            args.check_depth,
            8,
            12,
            args.seed + 77,
            args.threads,
        );
        writeln!(
            out,
            "trained vs hand-written at depth {} (both exact from 12 empties): +{} ={} -{} ({:.1}%)",
            args.check_depth,
            d.wins,
            d.draws,
            d.losses,
            100.0 * d.score()
        )
        .map_err(crate::output_error)?;
    }
    writeln!(out, "{:.1} minutes", started.elapsed().as_secs_f64() / 60.0).map_err(crate::output_error)
}

/// The training rounds; returns the fitted weights.
fn train(args: &TrainArgs, out: &mut impl Write) -> Result<Weights, String> {
    let mut samples = Vec::new();
    let mut weights: Option<Weights> = None;
    for round in 1..=args.rounds {
        let config = GameConfig {
            seed: args.seed + u64::from(round) * 1_000_003,
            depth: args.depth,
            solve_at: args.solve_at,
            ..GameConfig::default()
        };
        let progress = bar(args.games, &format!("round {round} games"));
        let made = match &weights {
            None => train::generate(args.games, args.threads, &config, &HandEval::score, &|| {
                progress.inc(1);
            }),
            Some(w) => train::generate(
                args.games,
                args.threads,
                &config,
                &|b: Board| w.evaluate(b),
                &|| {
                    progress.inc(1);
                },
            ),
        };
        progress.finish_and_clear();
        samples.extend(made);
        writeln!(out, "round {round}: {} positions so far", samples.len()).map_err(crate::output_error)?;
        let fitted = train::fit(&samples, args.epochs, &|f| {
            let _ = writeln!(
                std::io::stdout(),
                "  stage {:2}: {:7} positions, rms error {:.2} discs",
                f.stage,
                f.samples,
                f.rmse
            );
        });
        weights = Some(fitted);
    }
    Ok(weights.expect("at least one round ran"))
}

/// `gridplay train checkers`: rounds of self-play by the checkers search at `--depth` (round 1 with the
/// hand-written evaluation, later rounds with the weights of the round before), each fitted on all the games
/// so far; then a match of the weights against the hand-written evaluation at `--check-depth`.
fn run_checkers(args: &TrainArgs) -> Result<(), String> {
    use gridplay_engine::checkers::{
        learned::Patterns,
        search::Hand,
        train::{self as ct, FitConfig, GameConfig as CheckersGames},
    };
    if args.games == 0 || args.rounds == 0 || args.depth == 0 {
        return Err("--games, --rounds and --depth must be at least 1".into());
    }
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let weights = match (&args.check, &args.out) {
        (Some(path), _) => read_weights(path, Patterns::from_bytes)?,
        (None, Some(path)) => {
            let mut samples = Vec::new();
            let mut weights: Option<Patterns> = None;
            for round in 1..=args.rounds {
                let config = CheckersGames {
                    depth: args.depth,
                    random_plies: 12,
                };
                let seed = args.seed + u64::from(round) * 1_000_003;
                let done = std::sync::atomic::AtomicU64::new(0);
                let progress = bar(args.games, &format!("round {round} games"));
                let made = std::thread::scope(|scope| {
                    let worker = scope.spawn(|| match &weights {
                        None => ct::self_play(&Hand, config, args.games, args.threads, seed, &done),
                        Some(w) => ct::self_play(w, config, args.games, args.threads, seed, &done),
                    });
                    while !worker.is_finished() {
                        progress.set_position(done.load(std::sync::atomic::Ordering::Relaxed));
                        std::thread::sleep(std::time::Duration::from_millis(200));
                    }
                    worker.join()
                })
                .map_err(|_| "a self-play thread failed".to_owned())?;
                progress.finish_and_clear();
                samples.extend(made);
                writeln!(out, "round {round}: {} positions so far", samples.len())
                    .map_err(crate::output_error)?;
                let fit_config = FitConfig {
                    epochs: args.epochs,
                    seed: args.seed,
                    ..FitConfig::default()
                };
                let fitted = ct::fit(&samples, fit_config, |_| {});
                writeln!(
                    out,
                    "  cross-entropy {:.4} (material alone {:.4})",
                    ct::loss(&fitted, &samples),
                    ct::loss(&Patterns::material(), &samples)
                )
                .map_err(crate::output_error)?;
                weights = Some(fitted);
            }
            let weights = weights.expect("at least one round ran");
            write_weights(path, &weights.to_bytes(), &mut out)?;
            weights
        }
        (None, None) => return Err("give --out to train, or --check to measure a weights file".into()),
    };
    if args.check_pairs > 0 {
        let [w, d, l] = ct::duel(
            &weights,
            &Hand,
            args.check_pairs,
            args.check_depth,
            args.seed + 77,
            args.threads,
        );
        writeln!(
            out,
            "trained vs hand-written at depth {} from the ballots: +{w} ={d} -{l} ({:.1}%)",
            args.check_depth,
            100.0 * (f64::from(w) + 0.5 * f64::from(d)) / f64::from((w + d + l).max(1))
        )
        .map_err(crate::output_error)?;
    }
    writeln!(out, "{:.1} minutes", started.elapsed().as_secs_f64() / 60.0).map_err(crate::output_error)
}
