use std::{io::Write, time::Instant};

use clap::Args;

#[derive(Debug, Args)]
pub(crate) struct PerftArgs {
    /// The game spec, such as `reversi` or `cornered:size=5`.
    spec: String,
    /// Plies to count.
    depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// Start from this position text instead of the start position.
    #[arg(long)]
    position: Option<String>,
}

pub(crate) fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let (_, pos) = crate::load(&args.spec, args.position.as_deref())?;
    let mut out = std::io::stdout().lock();
    let started = Instant::now();
    let leaves = if args.divide {
        let split = pos.perft_divide(args.depth);
        for (m, n) in &split {
            writeln!(out, "{m} {n}").map_err(crate::output_error)?;
        }
        if args.depth == 0 {
            1
        } else {
            split.iter().map(|(_, n)| n).sum()
        }
    } else {
        pos.perft(args.depth)
    };
    let secs = started.elapsed().as_secs_f64();
    writeln!(out, "perft {} = {leaves}", args.depth).map_err(crate::output_error)?;
    writeln!(
        out,
        "time {secs:.3} s, {:.3e} leaves/s (single thread)",
        leaves as f64 / secs.max(1e-9)
    )
    .map_err(crate::output_error)
}
