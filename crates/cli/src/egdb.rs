//! `gridplay egdb`: builds the checkers endgame databases (win, loss or draw of every position with up to N
//! pieces) and reports how many positions of each kind they hold, with the time taken. The engine builds the
//! 4-piece database itself the first time a game comes near it; this command shows what it holds and how
//! long larger ones take.

use std::{io::Write, time::Instant};

use clap::Args;
use gridplay_engine::checkers::egdb::{Database, Slice, Wld};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Args)]
pub(crate) struct EgdbArgs {
    /// Largest number of pieces (2-5; 5 takes minutes).
    #[arg(long, default_value_t = 4)]
    pieces: u32,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

pub(crate) fn run(args: &EgdbArgs) -> Result<(), String> {
    if !(2..=5).contains(&args.pieces) {
        return Err(format!(
            "--pieces {}: the databases are built for 2 to 5 pieces",
            args.pieces
        ));
    }
    let started = Instant::now();
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(Slice::all(args.pieces).len() as u64)
    };
    if let Ok(style) = ProgressStyle::with_template("slices {bar:40} {pos}/{len} {eta}") {
        bar.set_style(style);
    }
    let db = Database::build_with(args.pieces, |done, _| bar.set_position(done as u64));
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    for pieces in 2..=args.pieces {
        let mut counts = [0u64; 3];
        for s in Slice::all(pieces).iter().filter(|s| s.pieces() == pieces) {
            for (b, turn) in db.positions(s) {
                let k = match db.probe(&b, turn) {
                    Some(Wld::Win) => 0,
                    Some(Wld::Loss) => 1,
                    _ => 2,
                };
                counts[k] += 1;
            }
        }
        let total: u64 = counts.iter().sum();
        writeln!(
            out,
            "{pieces} pieces: {total} positions, {} won, {} lost, {} drawn for the side to move",
            counts[0], counts[1], counts[2]
        )
        .map_err(crate::output_error)?;
    }
    writeln!(out, "built in {seconds:.1} s").map_err(crate::output_error)
}
