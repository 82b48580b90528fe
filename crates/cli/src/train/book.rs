//! `gridplay train reversi-book` and `gridplay train checkers-book`: the opening books, made by the engines'
//! own searches. From the roots (Reversi: the start; checkers: the start and the end of each 3-move ballot),
//! every position reached by kept moves is scored move by move to `--depth`, and the moves within `--margin`
//! of the best (at most `--width`) are kept and followed, to `--plies`.

use std::{io::Write, time::Instant};

use indicatif::ProgressBar;

use super::{TrainArgs, write_weights};

fn check(args: &TrainArgs, game: &str) -> anyhow::Result<std::path::PathBuf> {
    if args.depth < 2 || args.depth > 24 || args.plies == 0 || args.plies > 30 || args.width == 0 {
        return Err(anyhow::anyhow!(
            "--depth must be 2 to 24, --plies 1 to 30 and --width 1 or more"
        ));
    }
    if args.threads == 0 {
        return Err(anyhow::anyhow!("--threads must be at least 1"));
    }
    args.out.clone().ok_or_else(|| {
        anyhow::anyhow!(
            "give --out, the book file to write (the shipped one is crates/engine/src/{game}/book.bin)"
        )
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

/// What the CLI needs of a game's book.
trait BookText {
    fn len(&self) -> usize;
    fn to_text(&self, header: &str) -> String;
}

impl BookText for gridplay_engine::reversi::book::Book {
    fn len(&self) -> usize {
        self.len()
    }

    fn to_text(&self, header: &str) -> String {
        self.to_text(header)
    }
}

impl BookText for gridplay_engine::checkers::book::Book {
    fn len(&self) -> usize {
        self.len()
    }

    fn to_text(&self, header: &str) -> String {
        self.to_text(header)
    }
}

/// Runs `build` under a spinner that counts the positions made, then writes the book, deflated, with a header
/// that names the command.
fn make<B: BookText>(
    args: &TrainArgs,
    path: &std::path::Path,
    title: &str,
    command: &str,
    build: impl FnOnce(&(dyn Fn(usize) + Sync)) -> B,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let progress = ProgressBar::new_spinner();
    let made = build(&|n| progress.set_message(format!("{n} positions")));
    progress.finish_and_clear();
    let header = header(args, title, command, made.len(), started);
    let bytes = gridplay_engine::books::compress(&made.to_text(&header));
    let mut out = std::io::stdout().lock();
    write_weights(path, &bytes, &mut out)?;
    writeln!(out, "{} positions, {} bytes", made.len(), bytes.len()).map_err(crate::output_error)
}

/// `gridplay train reversi-book`.
pub(crate) fn run_reversi(args: &TrainArgs) -> anyhow::Result<()> {
    use gridplay_engine::reversi::book::{self, BookConfig};
    let path = check(args, "reversi")?;
    let config = BookConfig {
        plies: args.plies,
        depth: args.depth,
        width: args.width,
        margin: args.margin,
    };
    make(args, &path, "Reversi opening book", "reversi-book", |progress| {
        book::build(config, progress)
    })
}

/// `gridplay train checkers-book`: the roots are searched on `--threads` threads; the book is the same
/// whatever their number.
pub(crate) fn run_checkers(args: &TrainArgs) -> anyhow::Result<()> {
    use gridplay_engine::checkers::book::{self, BookConfig};
    let path = check(args, "checkers")?;
    let config = BookConfig {
        plies: args.plies,
        depth: args.depth,
        width: args.width,
        margin: args.margin,
        threads: args.threads,
    };
    make(
        args,
        &path,
        "Checkers opening book",
        "checkers-book",
        |progress| book::build(config, progress),
    )
}
