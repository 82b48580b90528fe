//! `gridplay train reversi`: trains the Reversi pattern weights from self-play games labelled by the exact
//! solver, and measures the new weights against the evaluation that played the games.

mod book;

use std::{io::Write, path::PathBuf, time::Instant};

use clap::Args;
use gridplay_engine::reversi::{
    HandEval,
    pattern::Weights,
    probcut::Checks,
    probcut_fit,
    train::{self, FitConfig, GameConfig, Method, Players, Prior, Sample},
};
use gridplay_games::reversi::bitboard::Board;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Args)]
pub(crate) struct TrainArgs {
    /// What to train: `reversi` or `checkers` (the evaluations), `reversi-probcut` (the Reversi search's
    /// Multi-ProbCut regression: `--games` positions searched at every depth up to `--depth`), `reversi-book` or
    /// `checkers-book` (the opening books: `--plies`, `--depth`, `--width`, `--margin`, `--threads`).
    pub(crate) game: String,
    /// Self-play games per round.
    #[arg(long, default_value_t = 20_000)]
    pub(crate) games: u64,
    /// Rounds: round 1's games are played with the hand-written evaluation (checkers: or `--init`'s weights),
    /// each later round's with the weights of the round before; every round fits on all the games so far.
    #[arg(long, default_value_t = 2)]
    pub(crate) rounds: u32,
    /// Search depth of the self-play players.
    #[arg(long, default_value_t = 2)]
    pub(crate) depth: u32,
    /// Empty squares at which the exact solver labels the games.
    #[arg(long, default_value_t = 14)]
    pub(crate) solve_at: u32,
    /// Gradient epochs per stage.
    #[arg(long, default_value_t = 60)]
    pub(crate) epochs: usize,
    /// Game pairs of the closing match between the new weights and the hand-written evaluation.
    #[arg(long, default_value_t = 200)]
    pub(crate) check_pairs: u64,
    /// Search depth in the closing match.
    #[arg(long, default_value_t = 3)]
    pub(crate) check_depth: u32,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    pub(crate) threads: usize,
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// `reversi-book`: plies from the start that the book covers; `checkers-book`: plies from the start and
    /// from the end of each 3-move ballot.
    #[arg(long, default_value_t = 10)]
    pub(crate) plies: u32,
    /// The books: moves kept and followed at each position.
    #[arg(long, default_value_t = 2)]
    pub(crate) width: usize,
    /// The books: moves within this many hundredths of a disc (of a man in checkers) of the best are kept.
    #[arg(long, default_value_t = 200)]
    pub(crate) margin: i32,
    /// `reversi`: who plays the games: `negamax` (plain alpha-beta at `--depth` with the round's evaluation) or
    /// `search` (the engine's own search, Multi-ProbCut on, at `--depth` with the round's weights; round 1
    /// with the shipped weights).
    #[arg(long, default_value = "negamax", value_parser = ["negamax", "search"])]
    pub(crate) play: String,
    /// `checkers`: endgame databases of up to this many pieces (2-5, built in memory first; 6, read from
    /// where `gridplay egdb --pieces 6` saved them; 0 for none): the self-play search probes them, and each
    /// game ends at its first position they cover, with their result, so that a won ending is labelled won
    /// even where the self-play search would not win it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=6))]
    pub(crate) egdb: u32,
    /// `reversi`: random plies at the start of each game, 0 to this many.
    #[arg(long, default_value_t = 12)]
    pub(crate) random_plies: u32,
    /// `reversi`: share of random moves after the opening, in percent.
    #[arg(long, default_value_t = 5)]
    pub(crate) noise: u32,
    /// `reversi` and `checkers`: the fit's target, in percent of each position's own search score (the
    /// self-play player's, at `--depth`, as a predicted result) against the game's result (0: the result
    /// alone; Reversi's solved positions are exact either way, checkers' random moves take the result).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub(crate) search_label: u32,
    /// `reversi`: ridge penalty of the fit: each weight is pulled towards zero as if this many positions said
    /// it was zero (rarely seen pattern configurations stay small; 0 for none).
    #[arg(long, default_value_t = 10.0, value_parser = parse_l2)]
    pub(crate) l2: f32,
    /// `reversi`: how each stage is fitted: `steps` (`--epochs` damped gradient steps, as the shipped weights
    /// were) or `cg` (conjugate gradients, at most `--epochs` iterations, to the ridge penalty's optimum).
    #[arg(long, default_value = "steps", value_parser = Method::parse)]
    pub(crate) fit: Method,
    /// `reversi`: what the ridge penalty pulls each weight towards: `zero`, or `later-stage` (the same weight
    /// of the stage with fewer empty squares, the stages fitted from the end of the game back).
    #[arg(long, default_value = "zero", value_parser = Prior::parse)]
    pub(crate) prior: Prior,
    /// `reversi`: after fitting, report the weights' rms error on these samples files' positions (kept out
    /// of the fit), per stage.
    #[arg(long)]
    pub(crate) holdout: Vec<PathBuf>,
    /// `reversi-probcut`: also write each position and its scores at every depth to this file (lines of the
    /// two bitboards in hex, then the scores), so that the regression can be refitted without searching.
    #[arg(long)]
    pub(crate) scores_out: Option<PathBuf>,
    /// `reversi-probcut`: fit on the positions and scores of this file (from `--scores-out`) instead of
    /// searching; `--games`, `--depth`, `--seed` and `--threads` are then not used (the file's own depths
    /// are fitted).
    #[arg(long, conflicts_with = "scores_out")]
    pub(crate) scores_in: Option<PathBuf>,
    /// `reversi-probcut`: search deeper than 8 plies with the shipped cuts (full windows still), as the
    /// search meets those depths; deep searches without cuts cost too much to fit many positions.
    #[arg(long)]
    pub(crate) pruned: bool,
    /// `reversi-probcut`: which shallow search predicts each depth: `half` (about half the depth) or `third`
    /// (NTest's table: about a third).
    #[arg(long, default_value = "half", value_parser = Checks::parse)]
    pub(crate) checks: Checks,
    /// `reversi` and `checkers`: also write the labelled positions of the games played to this file.
    #[arg(long)]
    pub(crate) samples_out: Option<PathBuf>,
    /// `reversi` and `checkers`: fit on these samples files too (from `--samples-out`), before the games of
    /// round 1 (checkers: with `--rounds 0`, on these alone);
    /// `reversi-probcut`: draw the `--games` positions from these files' midgames (20-56 empty squares) rather
    /// than from games with random moves.
    #[arg(long)]
    pub(crate) samples_in: Vec<PathBuf>,
    /// `reversi` and `checkers`: fit on the labelled positions of these shard folders too
    /// (`data/train/reversi`, `data/train/checkers`, made by `gridplay datagen`): Reversi's each label in
    /// whole discs, checkers' each the result its label predicts (a man and a half about 73%); checkers
    /// with `--rounds 0` fits on them (and `--samples-in`) alone.
    #[arg(long)]
    pub(crate) shards: Vec<PathBuf>,
    /// `reversi`: fit on the positions of these WTHOR files' games too (the French Othello Federation's
    /// database of tournament games, `WTH_YYYY.wtb`), labelled as the self-play games are: exactly from
    /// `--solve-at` empty squares on, each earlier position with the game's exact score there; with
    /// `--wthor-labels perfect`, the positions up to the file's depth of its theoretical scores (24 empty
    /// squares) take the game's perfect-play score from there. Games that stop before (resignations) give
    /// only the positions a perfect-play score labels. With `--samples-out`, written there too.
    #[arg(long)]
    pub(crate) wthor: Vec<PathBuf>,
    /// `reversi`: how `--wthor` games' positions before the solver's reach are labelled: `perfect` (with
    /// the file's theoretical score where a game has one) or `played` (with the exact score where the
    /// people's moves reached `--solve-at`, as the shipped weights' positions were).
    #[arg(long, value_enum, default_value_t = WthorLabels::Perfect)]
    pub(crate) wthor_labels: WthorLabels,
    /// `reversi`: fit on the positions of these games too, written one game a line as a list of squares
    /// (`f5d6c3...`, the line's last comma-separated field, so that CSV exports are read as they are; a
    /// header line is skipped), labelled as `--wthor` games are.
    #[arg(long)]
    pub(crate) move_lists: Vec<PathBuf>,
    /// Where to write the weights (the shipped file is crates/engine/src/reversi/weights.bin).
    #[arg(long, required_unless_present = "check")]
    pub(crate) out: Option<PathBuf>,
    /// Train nothing: play the closing match of this weights file against the hand-written evaluation.
    #[arg(long, conflicts_with = "out")]
    pub(crate) check: Option<PathBuf>,
    /// `checkers`: round 1's games are played with these weights (a file of `--out`, pattern tables or a
    /// network, such as the shipped crates/engine/src/checkers/net.bin) rather than with the hand-written
    /// evaluation.
    #[arg(long, conflicts_with = "check")]
    pub(crate) init: Option<PathBuf>,
    /// `checkers`: what each round fits, and the next round plays with: `patterns` (the pattern tables, as
    /// shipped) or `net` (a small neural network, fitted on all the positions but the last games' 3%, which
    /// are kept out to report its cross-entropy on them, beside that of pattern tables fitted to the same
    /// positions after the last round).
    #[arg(long, default_value = "patterns", value_parser = ["patterns", "net"])]
    pub(crate) model: String,
}

/// How `--wthor` games' early positions are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum WthorLabels {
    /// With the record's perfect-play score where it has one.
    Perfect,
    /// With the exact score where the game as played reached the solver.
    Played,
}

/// Reads a weights file with `parse`; errors name the file.
fn read_weights<T, E: std::fmt::Display>(
    path: &std::path::Path,
    parse: impl Fn(&[u8]) -> Result<T, E>,
) -> anyhow::Result<T> {
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// Writes a weights file and says so.
pub(crate) fn write_weights(
    path: &std::path::Path,
    bytes: &[u8],
    out: &mut impl Write,
) -> anyhow::Result<()> {
    std::fs::write(path, bytes).map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
    writeln!(out, "wrote {}", path.display()).map_err(crate::output_error)
}

pub(crate) fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(&format!("{what} {{bar:40}} {{pos}}/{{len}} {{eta}}")) {
        bar.set_style(style);
    }
    bar
}

pub(crate) fn run(args: &TrainArgs) -> anyhow::Result<()> {
    if args.egdb != 0 && args.game != "checkers" {
        return Err(anyhow::anyhow!("--egdb is for `checkers`, not `{}`", args.game));
    }
    if args.init.is_some() && args.game != "checkers" {
        return Err(anyhow::anyhow!("--init is for `checkers`, not `{}`", args.game));
    }
    if args.model != "patterns" && args.game != "checkers" {
        return Err(anyhow::anyhow!("--model is for `checkers`, not `{}`", args.game));
    }
    if !args.shards.is_empty() && args.game != "reversi" && args.game != "checkers" {
        return Err(anyhow::anyhow!(
            "--shards is for `reversi` and `checkers`, not `{}`",
            args.game
        ));
    }
    if args.game == "checkers" {
        return run_checkers(args);
    }
    if args.game == "reversi-probcut" {
        return run_probcut(args);
    }
    if args.game == "reversi-book" {
        return book::run_reversi(args);
    }
    if args.game == "checkers-book" {
        return book::run_checkers(args);
    }
    if args.game != "reversi" {
        return Err(anyhow::anyhow!(
            "`{}` cannot be trained: `reversi`, `reversi-probcut`, `reversi-book`, `checkers` and `checkers-book` can",
            args.game
        ));
    }
    if (args.games == 0
        && args.samples_in.is_empty()
        && args.shards.is_empty()
        && args.wthor.is_empty()
        && args.move_lists.is_empty())
        || args.rounds == 0
        || args.depth == 0
    {
        return Err(anyhow::anyhow!(
            "--rounds and --depth must be at least 1, and --games too unless --samples-in, --shards, --wthor or --move-lists gives positions"
        ));
    }
    if args.noise > 100 {
        return Err(anyhow::anyhow!("--noise is a percentage: 0 to 100"));
    }
    if args.solve_at > 24 {
        return Err(anyhow::anyhow!(
            "--solve-at above 24 empty squares would take hours a game"
        ));
    }
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let weights = match (&args.check, &args.out) {
        (Some(path), _) => Weights::read_file(path)?,
        (None, Some(path)) => {
            let weights = train(args, &mut out)?;
            write_weights(path, &weights.to_bytes(), &mut out)?;
            weights
        }
        (None, None) => {
            return Err(anyhow::anyhow!(
                "give --out to train, or --check to measure a weights file"
            ));
        }
    };
    for path in &args.holdout {
        let held = read_weights(path, train::samples_from_bytes)?;
        let (stages, all) = train::errors(&weights, &held, args.search_label);
        writeln!(out, "held out, {}:", path.display()).map_err(crate::output_error)?;
        for e in stages.iter().filter(|e| e.samples > 0) {
            writeln!(
                out,
                "  stage {:2}: {:7} positions, rms error {:.3} discs",
                e.stage, e.samples, e.rmse
            )
            .map_err(crate::output_error)?;
        }
        writeln!(out, "  all: {} positions, rms error {all:.3} discs", held.len())
            .map_err(crate::output_error)?;
    }
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

/// `gridplay train reversi-probcut --games N --depth D`: fits the Reversi search's Multi-ProbCut regression
/// from N positions (of varied games, or of `--samples-in` files), each searched at every depth up to D:
/// without cuts, or past depth 8 with the current cuts (`--pruned`); or from `--scores-in` without searching.
fn run_probcut(args: &TrainArgs) -> anyhow::Result<()> {
    use gridplay_engine::reversi::search::Table;
    let deepest = if args.pruned { 22 } else { 16 };
    if args.scores_in.is_none() && (args.depth < 5 || args.depth > deepest) {
        return Err(anyhow::anyhow!(
            "--depth (the deepest search fitted) must be 5 to {deepest}{}",
            if args.pruned { "" } else { " (22 with --pruned)" }
        ));
    }
    let Some(path) = &args.out else {
        return Err(anyhow::anyhow!(
            "give --out, the regression file to write (the shipped one is crates/engine/src/reversi/probcut.txt)"
        ));
    };
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let scored: Vec<(Board, Vec<i32>)> = if let Some(path) = &args.scores_in {
        let text =
            std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
        probcut_fit::parse_scores(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
    } else {
        let count = usize::try_from(args.games).unwrap_or(usize::MAX);
        let positions = if args.samples_in.is_empty() {
            probcut_fit::fitting_positions(count, args.seed)
        } else {
            let mut boards = Vec::new();
            for path in &args.samples_in {
                let read = read_weights(path, train::samples_from_bytes)?;
                boards.extend(read.iter().map(|s| Board {
                    player: s.player,
                    opponent: s.opponent,
                }));
            }
            probcut_fit::positions_from(&boards, count, args.seed)
        };
        let progress = bar(positions.len() as u64, "positions searched");
        let next = std::sync::atomic::AtomicUsize::new(0);
        let scored = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..args.threads.max(1))
                .map(|_| {
                    scope.spawn(|| {
                        let mut table = Table::new(64);
                        let mut mine = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(&b) = positions.get(i) else { break };
                            mine.push((
                                b,
                                if args.pruned {
                                    probcut_fit::pruned_scores(b, args.depth, &mut table)
                                } else {
                                    probcut_fit::exact_scores(b, args.depth, &mut table)
                                },
                            ));
                            progress.inc(1);
                        }
                        mine
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("a fitting worker panicked"))
                .collect()
        });
        progress.finish_and_clear();
        scored
    };
    if let Some(path) = &args.scores_out {
        std::fs::write(path, probcut_fit::scores_text(&scored))
            .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
    }
    let made_by = match &args.scores_in {
        Some(scores) => format!("--scores-in {} --checks {}", scores.display(), args.checks.name()),
        None => format!(
            "--games {} --depth {} --seed {} --threads {} --checks {}{}{}",
            args.games,
            args.depth,
            args.seed,
            args.threads,
            args.checks.name(),
            if args.pruned { " --pruned" } else { "" },
            args.samples_in
                .iter()
                .map(|p| format!(" --samples-in {}", p.display()))
                .collect::<String>()
        ),
    };
    let header = format!(
        "Multi-ProbCut regression of the Reversi search, made by\n  gridplay train reversi-probcut {made_by} --out {}\nfrom {} positions in {:.1} minutes",
        path.display(),
        scored.len(),
        started.elapsed().as_secs_f64() / 60.0
    );
    let text = probcut_fit::fit(&scored, args.checks, &header);
    std::fs::write(path, &text).map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
    write!(out, "{text}").map_err(crate::output_error)?;
    writeln!(out, "wrote {}", path.display()).map_err(crate::output_error)
}

/// The training rounds; returns the fitted weights.
fn train(args: &TrainArgs, out: &mut impl Write) -> anyhow::Result<Weights> {
    let mut samples: Vec<Sample> = Vec::new();
    for path in &args.samples_in {
        let read = read_weights(path, train::samples_from_bytes)?;
        writeln!(out, "{}: {} positions", path.display(), read.len()).map_err(crate::output_error)?;
        samples.extend(read);
    }
    for path in &args.shards {
        let read = gridplay_engine::datagen::reversi::samples(path)?;
        writeln!(out, "{}: {} positions", path.display(), read.len()).map_err(crate::output_error)?;
        samples.extend(read);
    }
    let mut played: Vec<Sample> = Vec::new();
    let mut games = Vec::new();
    for path in &args.wthor {
        let mut read = read_weights(path, gridplay_engine::reversi::wthor::parse)?;
        writeln!(out, "{}: {} games", path.display(), read.len()).map_err(crate::output_error)?;
        if args.wthor_labels == WthorLabels::Played {
            read.iter_mut().for_each(|g| g.perfect = None);
        }
        games.extend(read);
    }
    for path in &args.move_lists {
        let read = read_weights(path, gridplay_engine::reversi::move_lists::parse)?;
        writeln!(out, "{}: {} games", path.display(), read.len()).map_err(crate::output_error)?;
        games.extend(read);
    }
    if !games.is_empty() {
        let progress = bar(games.len() as u64, "labelling recorded games");
        let labelled = train::label_games(&games, args.solve_at, args.threads, &|| progress.inc(1));
        progress.finish_and_clear();
        writeln!(out, "recorded games: {} positions", labelled.len()).map_err(crate::output_error)?;
        played.extend_from_slice(&labelled);
        samples.extend(labelled);
    }
    let mut weights: Option<Weights> = None;
    for round in 1..=args.rounds {
        let config = GameConfig {
            seed: args.seed + u64::from(round) * 1_000_003,
            depth: args.depth,
            solve_at: args.solve_at,
            random_plies: args.random_plies,
            noise: args.noise,
        };
        let progress = bar(args.games, &format!("round {round} games"));
        let tick = || progress.inc(1);
        let by_weights = |w: &Weights| {
            if args.play == "search" {
                train::generate(args.games, args.threads, &config, Players::Search(w), &tick)
            } else {
                train::generate(
                    args.games,
                    args.threads,
                    &config,
                    Players::Negamax(&|b: Board| w.evaluate(b)),
                    &tick,
                )
            }
        };
        let made = match &weights {
            None if args.play == "search" => by_weights(Weights::shipped()),
            None => train::generate(
                args.games,
                args.threads,
                &config,
                Players::Negamax(&HandEval::score),
                &tick,
            ),
            Some(w) => by_weights(w),
        };
        progress.finish_and_clear();
        played.extend_from_slice(&made);
        samples.extend(made);
        writeln!(out, "round {round}: {} positions so far", samples.len()).map_err(crate::output_error)?;
        let config = FitConfig {
            epochs: args.epochs,
            blend: args.search_label,
            l2: args.l2,
            prior: args.prior,
            method: args.fit,
        };
        let fitted = train::fit(&samples, config, &|f| {
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
    if let Some(path) = &args.samples_out {
        std::fs::write(path, train::samples_to_bytes(&played))
            .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
        writeln!(out, "wrote {} positions to {}", played.len(), path.display())
            .map_err(crate::output_error)?;
    }
    Ok(weights.expect("at least one round ran"))
}

/// `gridplay train checkers`: rounds of self-play by the checkers search at `--depth` (round 1 with the
/// hand-written evaluation or `--init`'s weights, later rounds with the weights of the round before), each
/// fitted on all the positions so far (`--samples-in`'s first); then a match of the weights against the
/// hand-written evaluation at `--check-depth`.
fn run_checkers(args: &TrainArgs) -> anyhow::Result<()> {
    use gridplay_engine::checkers::{evaluation::Learned, search::Hand, train as ct};
    if args.rounds > 0 && (args.games == 0 || args.depth == 0) {
        return Err(anyhow::anyhow!("--games and --depth must be at least 1"));
    }
    if args.rounds == 0 && args.samples_in.is_empty() && args.shards.is_empty() && args.check.is_none() {
        return Err(anyhow::anyhow!(
            "--rounds 0 fits on --samples-in and --shards alone: give the samples files or shards"
        ));
    }
    if args.play != "negamax"
        || !args.wthor.is_empty()
        || !args.move_lists.is_empty()
        || args.fit != Method::Steps
        || args.prior != Prior::Zero
        || !args.holdout.is_empty()
    {
        return Err(anyhow::anyhow!(
            "--play, --wthor, --move-lists, --fit, --prior and --holdout are for `reversi`, not `checkers`"
        ));
    }
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let weights = match (&args.check, &args.out) {
        (Some(path), _) => Learned::read_file(path)?,
        (None, Some(path)) => {
            let mut samples = Vec::new();
            for file in &args.samples_in {
                let bytes =
                    std::fs::read(file).map_err(|e| anyhow::anyhow!("reading {}: {e}", file.display()))?;
                samples.extend(
                    ct::samples_from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?,
                );
                writeln!(out, "{} positions read from {}", samples.len(), file.display())
                    .map_err(crate::output_error)?;
            }
            for folder in &args.shards {
                let read = gridplay_engine::datagen::checkers::samples(folder)?;
                writeln!(out, "{}: {} positions", folder.display(), read.len())
                    .map_err(crate::output_error)?;
                samples.extend(read);
            }
            let weights = checkers_rounds(args, &mut samples, &mut out)?;
            if let Some(file) = &args.samples_out {
                std::fs::write(file, ct::samples_to_bytes(&samples))
                    .map_err(|e| anyhow::anyhow!("writing {}: {e}", file.display()))?;
                writeln!(out, "wrote {} positions to {}", samples.len(), file.display())
                    .map_err(crate::output_error)?;
            }
            let bytes = match &weights {
                Learned::Patterns(p) => p.to_bytes(),
                Learned::Net(n) => n.to_bytes(),
            };
            write_weights(path, &bytes, &mut out)?;
            weights
        }
        (None, None) => {
            return Err(anyhow::anyhow!(
                "give --out to train, or --check to measure a weights file"
            ));
        }
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

/// The rounds of `train checkers`: each plays its games with the weights so far (or `--init`'s, or the
/// hand-written evaluation), adds their positions to `samples` and fits `--model` on all of them; with no
/// rounds, one fit on `samples`. Returns the last fit.
fn checkers_rounds(
    args: &TrainArgs,
    samples: &mut Vec<gridplay_engine::checkers::train::Sample>,
    out: &mut impl Write,
) -> anyhow::Result<gridplay_engine::checkers::evaluation::Learned> {
    use gridplay_engine::checkers::{
        evaluation::Learned,
        search::Hand,
        train::{self as ct, GameConfig as CheckersGames},
    };
    let db = if args.rounds == 0 {
        None
    } else {
        checkers_databases(args, out)?
    };
    let mut weights: Option<Learned> = args.init.as_deref().map(Learned::read_file).transpose()?;
    for round in 1..=args.rounds {
        let config = CheckersGames {
            depth: args.depth,
            random_plies: 12,
            db: db.as_ref(),
            search_label: args.search_label as f32 / 100.0,
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
        .map_err(|_| anyhow::anyhow!("a self-play thread failed"))?;
        progress.finish_and_clear();
        samples.extend(made);
        writeln!(out, "round {round}: {} positions so far", samples.len()).map_err(crate::output_error)?;
        weights = Some(checkers_fit(args, samples, round == args.rounds, out)?);
    }
    match weights {
        Some(w) if args.rounds > 0 => Ok(w),
        _ => checkers_fit(args, samples, true, out),
    }
}

/// One fit of `train checkers`' `--model` on `samples`; a network's last fit (`last`) is compared with
/// pattern tables fitted to the same positions.
fn checkers_fit(
    args: &TrainArgs,
    samples: &[gridplay_engine::checkers::train::Sample],
    last: bool,
    out: &mut impl Write,
) -> anyhow::Result<gridplay_engine::checkers::evaluation::Learned> {
    use gridplay_engine::checkers::{
        evaluation::Learned,
        learned::Patterns,
        net,
        train::{self as ct, FitConfig},
    };
    if samples.is_empty() {
        return Err(anyhow::anyhow!("no positions to fit"));
    }
    let fit_config = FitConfig {
        epochs: args.epochs,
        seed: args.seed,
        ..FitConfig::default()
    };
    if args.model != "net" {
        let fitted = ct::fit(samples, fit_config, |_| {});
        writeln!(
            out,
            "  cross-entropy {:.4} (material alone {:.4})",
            ct::loss(&fitted, samples),
            ct::loss(&Patterns::material(), samples)
        )
        .map_err(crate::output_error)?;
        return Ok(Learned::Patterns(fitted));
    }
    // The last games' positions are kept out of the fit.
    let (fitted_on, held) = samples.split_at(samples.len() - samples.len() * 3 / 100);
    let config = net::NetFit {
        epochs: args.epochs,
        seed: args.seed,
        threads: args.threads,
        ..net::NetFit::default()
    };
    let mut failed = Ok(());
    let fitted = net::fit(fitted_on, config, |epoch, n| {
        if failed.is_ok() {
            failed = writeln!(
                out,
                "  network epoch {epoch}: cross-entropy {:.4} on the {} positions kept out",
                net::loss(n, held),
                held.len()
            );
        }
    });
    failed.map_err(crate::output_error)?;
    if last {
        let tables = ct::fit(fitted_on, fit_config, |_| {});
        writeln!(
            out,
            "  network: cross-entropy {:.4} on the {} positions fitted, {:.4} on those kept out; pattern \
             tables fitted to the same positions: {:.4} kept out",
            net::loss(&fitted, fitted_on),
            fitted_on.len(),
            net::loss(&fitted, held),
            ct::loss(&tables, held)
        )
        .map_err(crate::output_error)?;
    }
    Ok(Learned::Net(Box::new(fitted)))
}

/// The endgame databases that `train checkers --egdb N` plays its games with: built in memory (2-5 pieces)
/// or read from where `gridplay egdb --pieces 6` saved them.
fn checkers_databases(
    args: &TrainArgs,
    out: &mut impl Write,
) -> anyhow::Result<Option<gridplay_engine::checkers::egdb::Database>> {
    use gridplay_engine::checkers::egdb;
    Ok(match args.egdb {
        0 => None,
        1 => {
            return Err(anyhow::anyhow!(
                "--egdb 1: the databases start at 2 pieces (or 0 for none)"
            ));
        }
        6 => {
            let t = Instant::now();
            let dir = egdb::default_dir().ok_or_else(|| {
                anyhow::anyhow!("--egdb 6: no place to read the databases from: set GRIDPLAY_EGDB or HOME")
            })?;
            let refused = |why: String| {
                anyhow::anyhow!(
                    "--egdb 6 reads the 6-piece databases from {}: {why}; `gridplay egdb --pieces 6` \
                     builds and saves them",
                    dir.display()
                )
            };
            let db = egdb::Database::load(&dir).map_err(|e| refused(e.to_string()))?;
            if db.pieces() != 6 {
                return Err(refused(format!("those saved there have {} pieces", db.pieces())));
            }
            writeln!(
                out,
                "databases of up to 6 pieces read from {} in {:.1} s",
                dir.display(),
                t.elapsed().as_secs_f64()
            )
            .map_err(crate::output_error)?;
            Some(db)
        }
        n => {
            let t = Instant::now();
            let db = egdb::Database::build_with(n, args.threads, |_, _| {});
            writeln!(
                out,
                "databases of up to {n} pieces built in {:.1} s",
                t.elapsed().as_secs_f64()
            )
            .map_err(crate::output_error)?;
            Some(db)
        }
    })
}

/// A ridge penalty: a finite number, zero or more.
fn parse_l2(text: &str) -> anyhow::Result<f32> {
    let v: f32 = text
        .parse()
        .map_err(|e| anyhow::anyhow!("`{text}` is not a number: {e}"))?;
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(anyhow::anyhow!(
            "`{text}`: the penalty must be a finite number, zero or more"
        ))
    }
}
