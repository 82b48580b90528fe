//! `gridplay solve`: exact (or win/loss/draw) Reversi endgame solving of a problem file, checked against the
//! scores it lists.

use std::{io::Write, path::PathBuf, time::Instant};

use clap::Args;
use gridplay_engine::reversi::{
    endgame::{Solver, Wld},
    obf,
};
use gridplay_games::reversi::notation::square_name;

#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    /// A problem file: one position a line, then `;` and the best moves with scores (`.obf`, as the FFO set).
    file: PathBuf,
    /// Only these problems, by number: `40-44` or `41`. Problems are numbered from the first number in the
    /// file's name (fforum-40-59.obf starts at 40), else from 1.
    #[arg(long)]
    problems: Option<String>,
    /// Size of the transposition table in megabytes.
    #[arg(long, default_value_t = 64)]
    table_mb: usize,
    /// Solve only whether the side to move wins, draws or loses (faster than the exact score), and check
    /// that against the sign of the file's best score.
    #[arg(long)]
    wld: bool,
    /// Threads of the solve (young-brothers-wait; 1 solves on this thread alone).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

fn first_number(path: &std::path::Path) -> usize {
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    name.split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

pub(crate) fn range(text: &str) -> anyhow::Result<(usize, usize)> {
    let bad = || anyhow::anyhow!("`{text}` is not a problem number or range such as 40-44");
    match text.split_once('-') {
        Some((a, b)) => Ok((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?)),
        None => text.parse().map(|n| (n, n)).map_err(|_| bad()),
    }
}

/// Whether the file agrees with a solve: its best score, and the score it lists for the move found (if it lists
/// one), must each pass `agrees`. `Ok` with "ok" or "no score listed", `Err` with what is wrong.
fn check(
    problem: &obf::Problem,
    found: Option<u8>,
    mv: &str,
    agrees: impl Fn(i32) -> bool,
) -> Result<String, String> {
    let Some(best) = problem.best_score() else {
        return Ok("no score listed".to_owned());
    };
    if !agrees(best) {
        return Err(format!("WRONG: the file's best is {best:+}"));
    }
    match found.and_then(|sq| problem.moves.iter().find(|(m, _)| *m == sq)) {
        Some(&(_, s)) if !agrees(s) => Err(format!("WRONG: the file scores {mv} {s:+}")),
        _ => Ok("ok".to_owned()),
    }
}

pub(crate) fn run(args: &SolveArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| anyhow::anyhow!("reading {}: {e}", args.file.display()))?;
    let problems = obf::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let first = first_number(&args.file);
    let (lo, hi) = match &args.problems {
        Some(r) => range(r)?,
        None => (0, usize::MAX),
    };
    if problems.is_empty() {
        return Err(anyhow::anyhow!(
            "{}: the file holds no problem",
            args.file.display()
        ));
    }
    let last = first + problems.len() - 1;
    if lo > hi || hi < first || lo > last {
        return Err(anyhow::anyhow!(
            "--problems {} selects none of the file's problems, which are numbered {first}-{last} (from the \
             first number in the file's name, else from 1)",
            args.problems.as_deref().unwrap_or_default()
        ));
    }
    let mut solver = Solver::new(args.table_mb);
    solver.set_threads(usize::from(args.threads));
    let mut out = std::io::stdout().lock();
    let (mut solved, mut wrong) = (0, 0);
    let started = Instant::now();
    for (i, problem) in problems.iter().enumerate() {
        let number = first + i;
        if !(lo..=hi).contains(&number) {
            continue;
        }
        let board = problem.position.board();
        let t = Instant::now();
        if args.wld {
            let found = solver.solve_wld(board);
            let secs = t.elapsed().as_secs_f64();
            let mv = found.best.map_or_else(|| "-".to_owned(), square_name);
            let (word, sign) = match found.outcome {
                Wld::Win => ("win", 1),
                Wld::Draw => ("draw", 0),
                Wld::Loss => ("loss", -1),
            };
            let verdict = check(problem, found.best, &mv, |s| s.signum() == sign).unwrap_or_else(|e| {
                wrong += 1;
                e
            });
            solved += 1;
            writeln!(
                out,
                "#{number:<3} {:>2} empties  {mv:<4} {word:<4}  {verdict}  {secs:.3} s  {} nodes",
                board.empty().count_ones(),
                found.nodes
            )
            .map_err(crate::output_error)?;
            continue;
        }
        let solution = solver.solve(board);
        let secs = t.elapsed().as_secs_f64();
        let mv = solution.best.map_or_else(|| "pass".to_owned(), square_name);
        let verdict = check(problem, solution.best, &mv, |s| s == solution.score).unwrap_or_else(|e| {
            wrong += 1;
            e
        });
        solved += 1;
        writeln!(
            out,
            "#{number:<3} {:>2} empties  {mv:<4} {:+3}  {verdict}  {secs:.3} s  {} nodes",
            board.empty().count_ones(),
            solution.score,
            solution.nodes
        )
        .map_err(crate::output_error)?;
    }
    writeln!(
        out,
        "{solved} solved, {wrong} wrong, {:.3} s in all",
        started.elapsed().as_secs_f64()
    )
    .map_err(crate::output_error)?;
    if wrong > 0 {
        return Err(anyhow::anyhow!(
            "{wrong} problem(s) solved to a different {} than the file lists",
            if args.wld { "outcome" } else { "score" }
        ));
    }
    Ok(())
}
