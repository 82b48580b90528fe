//! `gridplay datagen`: makes training data that accumulates, a shard at a time, for each game in turn
//! (`gridplay_engine::datagen`; docs/engines.md, "Training data"). It resumes where the last job stopped, and
//! can be killed at any moment.

use std::{
    path::PathBuf,
    sync::atomic::AtomicBool,
    time::{Duration, Instant},
};

use clap::Args;
use gridplay_engine::datagen::{self, Job, Source};

#[derive(Debug, Args)]
pub(crate) struct DatagenArgs {
    /// The folder of the shards, a folder per game.
    #[arg(long, default_value = "data/train")]
    dir: PathBuf,
    /// The games to label, a shard of each in turn.
    #[arg(long, value_delimiter = ',', default_value = "reversi,checkers")]
    games: Vec<String>,
    /// The shard seeds this job may open, as `FROM..TO`: each machine making data at the same time takes its
    /// own range (this machine's sessions 0..1000000, the many-core script from 1000000 on).
    #[arg(long, default_value = "0..1000000", value_parser = parse_range)]
    seeds: std::ops::Range<u64>,
    /// Stop after this many labels (default: until killed or `--minutes`).
    #[arg(long)]
    labels: Option<u64>,
    /// Stop after this many minutes (at the end of the label in progress).
    #[arg(long)]
    minutes: Option<f64>,
    /// The build recorded in each run (default: `git describe --always --dirty` of the current folder).
    #[arg(long)]
    build: Option<String>,
    /// Print a line every this many labels.
    #[arg(long, default_value_t = 20)]
    every: u32,
}

fn parse_range(text: &str) -> anyhow::Result<std::ops::Range<u64>> {
    let (from, to) = text
        .split_once("..")
        .ok_or_else(|| anyhow::anyhow!("`{text}`: a range is FROM..TO"))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|e| anyhow::anyhow!("`{s}` in `{text}`: {e}"))
    };
    let (from, to) = (parse(from)?, parse(to)?);
    if from >= to {
        return Err(anyhow::anyhow!("`{text}`: the range is empty"));
    }
    Ok(from..to)
}

/// `git describe --always --dirty` of the current folder, or the package's version outside a checkout.
fn build_name() -> String {
    std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("gridplay {}", env!("CARGO_PKG_VERSION")))
}

pub(crate) fn run(args: &DatagenArgs) -> anyhow::Result<()> {
    let mut sources: Vec<Box<dyn Source>> = args
        .games
        .iter()
        .map(|g| datagen::source(g))
        .collect::<Result<_, _>>()?;
    let build = args.build.clone().unwrap_or_else(build_name);
    let job = Job {
        dir: &args.dir,
        build: &build,
        seeds: args.seeds.clone(),
        labels: args.labels,
    };
    let stop = AtomicBool::new(false);
    let deadline = args
        .minutes
        .map(|m| Instant::now() + Duration::from_secs_f64(m.max(0.0) * 60.0));
    let started = Instant::now();
    let mut made = 0u64;
    let every = args.every.max(1);
    let total = datagen::run(&job, &mut sources, &stop, |p| {
        made += 1;
        if p.count % every == 0 || p.count == p.target {
            println!(
                "{} shard {:06} ({}): {}/{}; {made} labels in {:.0} s",
                p.game,
                p.seed,
                p.recipe,
                p.count,
                p.target,
                started.elapsed().as_secs_f64()
            );
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })?;
    println!(
        "{total} labels in {:.0} s (build {build})",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
