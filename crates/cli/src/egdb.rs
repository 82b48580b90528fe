//! `gridplay egdb`: builds the checkers endgame databases (win, loss or draw of every position with up to N
//! pieces), saves them where the engine looks for them, and reports how many positions of each kind they hold,
//! with the time taken. Without a saved database the engine builds the 4-piece one itself the first time a
//! game comes near it.

use std::{io::Write, path::PathBuf, time::Instant};

use clap::Args;
use gridplay_engine::checkers::egdb::{self, Database, MAX_PIECES};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Args)]
pub(crate) struct EgdbArgs {
    /// Largest number of pieces (2-6; 5 takes about a minute, 6 about an hour of two cores and 2 GB of memory).
    #[arg(long, default_value_t = 4)]
    pieces: u32,
    /// Where to save them; the engine reads them from there. Default: $GRIDPLAY_EGDB, else
    /// gridplay/checkers-egdb under $XDG_DATA_HOME or ~/.local/share.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Build and count only; save nothing.
    #[arg(long)]
    no_save: bool,
    /// Threads to solve with (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Build nothing: check this many positions of the saved database (the most pieces, drawn by --seed):
    /// each value against the values of its moves, and against a 12-ply search that uses no database.
    #[arg(long)]
    verify: Option<u64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

pub(crate) fn run(args: &EgdbArgs) -> anyhow::Result<()> {
    if !(2..=MAX_PIECES).contains(&args.pieces) {
        return Err(anyhow::anyhow!(
            "--pieces {}: the databases are built for 2 to {MAX_PIECES} pieces",
            args.pieces
        ));
    }
    let dir = match (&args.dir, args.no_save) {
        (_, true) => None,
        (Some(dir), false) => Some(dir.clone()),
        (None, false) => Some(egdb::default_dir().ok_or_else(|| {
            anyhow::anyhow!(
                "no folder to save the databases in: HOME is not set; name one with --dir, or pass --no-save"
            )
        })?),
    };
    if let Some(samples) = args.verify {
        return verify(args, samples);
    }
    let threads = match args.threads {
        Some(0) => return Err(anyhow::anyhow!("--threads 0: at least one thread is needed")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let started = Instant::now();
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    if let Ok(style) = ProgressStyle::with_template("positions {bar:40} {percent}% {elapsed} (eta {eta})") {
        bar.set_style(style);
    }
    let db = Database::build_with(args.pieces, threads, |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    for pieces in 2..=args.pieces {
        let c = db.counts(pieces);
        writeln!(
            out,
            "{pieces} pieces: {} positions, {} won, {} lost, {} drawn for the side to move",
            c.total(),
            c.won,
            c.lost,
            c.drawn
        )
        .map_err(crate::output_error)?;
    }
    writeln!(out, "built in {seconds:.1} s on {threads} threads").map_err(crate::output_error)?;
    if let Some(dir) = dir {
        let saving = Instant::now();
        db.save(&dir)?;
        writeln!(
            out,
            "saved in {} ({:.1} s); the engine reads it from there",
            dir.display(),
            saving.elapsed().as_secs_f64()
        )
        .map_err(crate::output_error)?;
    }
    Ok(())
}

/// `gridplay egdb --verify N`: reads the saved database and checks a sample of it.
fn verify(args: &EgdbArgs, samples: u64) -> anyhow::Result<()> {
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => egdb::default_dir().ok_or_else(|| {
            anyhow::anyhow!("no saved database: HOME is not set; name its folder with --dir")
        })?,
    };
    let started = Instant::now();
    let db =
        Database::load(&dir).map_err(|e| anyhow::anyhow!("{e} (build it with gridplay egdb --pieces N)"))?;
    let loaded = started.elapsed().as_secs_f64();
    let done = gridplay_engine::checkers::search::verify_database(&db, samples, args.seed, 12)?;
    writeln!(
        std::io::stdout().lock(),
        "{} pieces in {} (read in {loaded:.1} s): {} positions of {} pieces agree with their moves; a 12-ply search without the database proved {} of them, each as the database says ({:.1} s)",
        db.pieces(),
        dir.display(),
        done.positions,
        db.pieces(),
        done.proven,
        started.elapsed().as_secs_f64() - loaded
    )
    .map_err(crate::output_error)
}
