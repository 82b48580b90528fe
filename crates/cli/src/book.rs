//! `gridplay train reversi-book` and `gridplay train checkers-book`: the opening books, made by the engines'
//! own searches. From the roots (Reversi: the start; checkers: the start and the end of each 3-move ballot),
//! every position reached by kept moves is scored move by move to `--depth`, and the moves within `--margin`
//! of the best (at most `--width`) are kept and followed, to `--plies`.

use std::{io::Write, time::Instant};

use indicatif::ProgressBar;

use crate::train::{TrainArgs, write_weights};

fn check(args: &TrainArgs, game: &str) -> Result<std::path::PathBuf, String> {
    if args.depth < 2 || args.depth > 24 || args.plies == 0 || args.plies > 30 || args.width == 0 {
        return Err("--depth must be 2 to 24, --plies 1 to 30 and --width 1 or more".into());
    }
    if args.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    args.out.clone().ok_or_else(|| {
        format!("give --out, the book file to write (the shipped one is crates/engine/src/{game}/book.bin)")
    })
}

fn header(args: &TrainArgs, title: &str, command: &str, positions: usize, started: Instant) -> String {
    format!(
        "{title}, made by\n  gridplay train {command} --plies {} --depth {} --width {} --margin {} --out {}\n{positions} positions in {:.1} minutes",
        args.plies,
        args.depth,
        args.width,
        args.margin,
        args.out
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        started.elapsed().as_secs_f64() / 60.0
    )
}

fn finish(path: &std::path::Path, bytes: &[u8], positions: usize) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    write_weights(path, bytes, &mut out)?;
    writeln!(out, "{positions} positions, {} bytes", bytes.len()).map_err(crate::output_error)
}

/// `gridplay train reversi-book`.
pub(crate) fn run_reversi(args: &TrainArgs) -> Result<(), String> {
    use gridplay_engine::reversi::book::{self, BookConfig};
    let path = check(args, "reversi")?;
    let started = Instant::now();
    let config = BookConfig {
        plies: args.plies,
        depth: args.depth,
        width: args.width,
        margin: args.margin,
    };
    let progress = ProgressBar::new_spinner();
    let made = book::build(config, &|n| progress.set_message(format!("{n} positions")));
    progress.finish_and_clear();
    let header = header(args, "Reversi opening book", "reversi-book", made.len(), started);
    finish(&path, &book::compress(&made.to_text(&header)), made.len())
}

/// `gridplay train checkers-book`: the roots are searched on `--threads` threads; the book is the same
/// whatever their number.
pub(crate) fn run_checkers(args: &TrainArgs) -> Result<(), String> {
    use gridplay_engine::checkers::book::{self, BookConfig};
    let path = check(args, "checkers")?;
    let started = Instant::now();
    let config = BookConfig {
        plies: args.plies,
        depth: args.depth,
        width: args.width,
        margin: args.margin,
        threads: args.threads,
    };
    let progress = ProgressBar::new_spinner();
    let count = std::sync::atomic::AtomicUsize::new(0);
    let made = book::build(config, &|| {
        let n = count.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress.set_message(format!("{n} positions"));
    });
    progress.finish_and_clear();
    let header = header(
        args,
        "Checkers opening book",
        "checkers-book",
        made.len(),
        started,
    );
    finish(&path, &book::compress(&made.to_text(&header)), made.len())
}
