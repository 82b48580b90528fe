//! How well a shallow checkers search predicts a deeper one: the data behind ProbCut's margin
//! ([`gridplay_engine::checkers::search::PROBCUT_MARGIN`]).
//!
//! Reads games written by `gridplay match checkers ... --games-out FILE`, takes every `EVERY`-th quiet position
//! (no capture pending) with more than 6 pieces, searches each to every depth from 1 to `MAX_DEPTH` (the shipped
//! evaluation, 4-piece databases off, a fresh table per position), and prints, for each pair of depths `d - r`
//! and `d` (`r` from 2 to 5), the mean and standard deviation of the deep score less the shallow one and of
//! the deep score less the line `a + b x shallow` fitted to it, in hundredths of a man, over the positions
//! whose scores at both depths are not proven.
//!
//! With `TTD=D` in the environment it prints instead the nodes and time of searching every taken position to
//! depth `D` (a fresh table each): the time to depth over positions from real games.
//!
//! ```text
//! cargo run --release -p gridplay-engine --example checkers_probcut_fit -- GAMES [MAX_DEPTH=14] [EVERY=7]
//! ```
use gridplay_core::{Game, Position};
use gridplay_engine::checkers::{evaluation, search};
use gridplay_games::checkers::{Checkers, CheckersPosition, movegen};
use gridplay_search::{Limits, StopFlag};

/// A search of `pos` to `depth` with the shipped evaluation and no databases.
fn search_to(
    table: &mut search::Table,
    pos: &CheckersPosition,
    history: &[CheckersPosition],
    depth: u32,
    stop: &StopFlag,
) -> search::Found {
    search::search_with(
        table,
        evaluation::shipped(),
        None,
        pos,
        history,
        Limits::depth(depth),
        stop,
    )
    .expect("a quiet position has moves")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: checkers_probcut_fit GAMES [MAX_DEPTH=14] [EVERY=7]");
        std::process::exit(2);
    };
    let max_depth: u32 = args
        .get(2)
        .map_or(14, |s| s.parse().expect("MAX_DEPTH: a number"));
    let every: usize = args.get(3).map_or(7, |s| s.parse().expect("EVERY: a number"));
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut positions: Vec<(CheckersPosition, Vec<CheckersPosition>)> = Vec::new();
    let mut seen = 0usize;
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [_, _, _, start, moves] = fields[..] else {
            panic!("line {}: five tab-separated fields expected", n + 1);
        };
        let mut pos = Checkers
            .parse_position(start)
            .unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let mut history = Vec::new();
        for m in moves.split_whitespace() {
            let mut list = movegen::Moves::new();
            movegen::generate(pos.board(), pos.turn(), &mut list);
            let quiet = !list.is_empty() && !list[0].is_capture();
            if quiet && pos.board().occupied().count_ones() > 6 {
                seen += 1;
                if seen.is_multiple_of(every) {
                    positions.push((pos, history.clone()));
                }
            }
            history.push(pos);
            pos.play_text(m)
                .unwrap_or_else(|e| panic!("line {}: {m}: {e}", n + 1));
        }
    }
    eprintln!("{} positions", positions.len());
    let stop = StopFlag::new();
    if let Ok(d) = std::env::var("TTD") {
        let d: u32 = d.parse().expect("TTD: a depth");
        let t = std::time::Instant::now();
        let mut nodes = 0;
        for (pos, history) in &positions {
            let mut table = search::Table::new(8);
            nodes += search_to(&mut table, pos, history, d, &stop).nodes;
        }
        println!("depth {d}: {nodes} nodes, {:.2} s", t.elapsed().as_secs_f64());
        return;
    }
    // scores[i][d]: position i's score at depth d.
    let mut scores: Vec<Vec<Option<i32>>> = Vec::new();
    for (i, (pos, history)) in positions.iter().enumerate() {
        let mut table = search::Table::new(8);
        let mut row = vec![None; max_depth as usize + 1];
        for d in 1..=max_depth {
            let found = search_to(&mut table, pos, history, d, &stop);
            if found.depth == d && found.score.abs() < 10_000 {
                row[d as usize] = Some(found.score);
            }
        }
        scores.push(row);
        if (i + 1) % 50 == 0 {
            eprintln!("{} searched", i + 1);
        }
    }
    println!("shallow deep   n   mean(deep-shallow)  sd   slope  sd(about the line)");
    for r in 2..=5u32 {
        for d in (r + 2)..=max_depth {
            let pairs: Vec<(f64, f64)> = scores
                .iter()
                .filter_map(|row| Some((f64::from(row[(d - r) as usize]?), f64::from(row[d as usize]?))))
                .collect();
            let n = pairs.len() as f64;
            if n < 10.0 {
                continue;
            }
            let diff: Vec<f64> = pairs.iter().map(|(s, t)| t - s).collect();
            let mean = diff.iter().sum::<f64>() / n;
            let sd = (diff.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            let (mx, my) = (
                pairs.iter().map(|p| p.0).sum::<f64>() / n,
                pairs.iter().map(|p| p.1).sum::<f64>() / n,
            );
            let sxy: f64 = pairs.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
            let sxx: f64 = pairs.iter().map(|(x, _)| (x - mx).powi(2)).sum();
            let b = sxy / sxx;
            let a = my - b * mx;
            let res = (pairs.iter().map(|(x, y)| (y - a - b * x).powi(2)).sum::<f64>() / (n - 2.0)).sqrt();
            println!(
                "{:>7} {:>4} {:>4} {:>10.1} {:>14.1} {:>6.3} {:>8.1}",
                d - r,
                d,
                pairs.len(),
                mean,
                sd,
                b,
                res
            );
        }
    }
}
