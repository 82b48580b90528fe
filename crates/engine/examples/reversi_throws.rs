//! How ways of choosing a move near the end keep a won or drawn position: reads `.obf` positions (such as
//! the throws `reversi_turns` writes), finds each move's exact outcome by the win/loss/draw solver, and for
//! each way prints how many positions it kept (a move whose outcome is the position's) and its median time:
//! `wld+search`, the shipped way of a move with `MS` milliseconds (a win/loss/draw solve with three
//! quarters, else the search with the rest); `search`, the midgame search alone for `MS`, its depth capped at
//! the empties (where it becomes a selective solve); `wld`, the solve alone with `SOLVE_MS`; `probable`, a
//! probable solve alone (`search::probable_wld`, its cut at `T` hundredths of a standard deviation, 100 unless
//! given) with three quarters of `MS`; `probable+wld+search`, the probable solve with up to half of those three
//! quarters, then the win/loss/draw solve with the rest of them (its move when it ends, the probable solve's
//! when it gives up), else the search with what is left.
//!
//! ```text
//! cargo run --release -p gridplay-engine --example reversi_throws -- FILE.obf MS SOLVE_MS [T]
//! ```

use std::time::{Duration, Instant};

use gridplay_engine::reversi::{
    endgame::{Bounds, Solver, Wld},
    obf,
    search::{Options, probable_wld, search},
};
use gridplay_search::{Limits, StopFlag};

fn flip(w: Wld) -> Wld {
    match w {
        Wld::Win => Wld::Loss,
        Wld::Loss => Wld::Win,
        Wld::Draw => Wld::Draw,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), Some(ms), Some(solve_ms)) = (
        args.first(),
        args.get(1).and_then(|s| s.parse::<u64>().ok()),
        args.get(2).and_then(|s| s.parse::<u64>().ok()),
    ) else {
        eprintln!("usage: reversi_throws FILE.obf MS SOLVE_MS [T]");
        std::process::exit(2)
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(1)
    });
    let problems = obf::parse(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let time = Duration::from_millis(ms);
    let names = ["wld+search", "search", "wld", "probable", "probable+wld+search"];
    let mut kept = [0usize; 5];
    let mut times: [Vec<f64>; 5] = Default::default();
    let t: u32 = match args.get(3).map(|s| s.parse()) {
        None => 100,
        Some(Ok(t)) => t,
        Some(Err(_)) => {
            eprintln!("usage: reversi_throws FILE.obf MS SOLVE_MS [T]: T is a number of hundredths");
            std::process::exit(2)
        }
    };
    let mut truth_solver = Solver::new(64);
    for p in &problems {
        let b = p.position.board();
        // Each move's outcome for the side to move.
        let mut outcome = [None; 64];
        let mut moves = b.moves();
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            outcome[usize::from(sq)] = Some(flip(truth_solver.solve_wld(b.play(sq)).outcome));
        }
        let best = outcome
            .iter()
            .flatten()
            .copied()
            .max_by_key(|w| match w {
                Wld::Win => 2,
                Wld::Draw => 1,
                Wld::Loss => 0,
            })
            .expect("a move");
        let stop = StopFlag::new();
        let search_for = |t: Duration| {
            let limits = Limits {
                depth: Some(b.empty().count_ones()),
                time: Some(t),
                nodes: None,
            };
            search(b, limits, &stop, Options::default()).best
        };
        let probable_for = |time: Duration| {
            let limits = Limits {
                depth: None,
                time: Some(time),
                nodes: None,
            };
            probable_wld(b, t, limits, &stop).map(|f| f.0)
        };
        for (i, name) in names.iter().enumerate() {
            let started = Instant::now();
            let chosen = match *name {
                "wld+search" => Solver::new(64)
                    .solve_wld_within(b, Bounds::within(started, time * 3 / 4, &stop))
                    .filter(|s| s.outcome != Wld::Loss)
                    .and_then(|s| s.best)
                    .or_else(|| search_for(time.saturating_sub(started.elapsed()).max(time / 4))),
                "search" => search_for(time),
                "probable" => probable_for(time * 3 / 4),
                "probable+wld+search" => {
                    let probable = probable_for(time * 3 / 8);
                    let left = (time * 3 / 4).saturating_sub(started.elapsed());
                    match Solver::new(64).solve_wld_within(b, Bounds::within(Instant::now(), left, &stop)) {
                        Some(s) if s.outcome != Wld::Loss => s.best,
                        Some(_) => None,
                        None => probable,
                    }
                    .or_else(|| search_for(time.saturating_sub(started.elapsed()).max(time / 4)))
                }
                _ => Solver::new(64)
                    .solve_wld_within(b, Bounds::within(started, Duration::from_millis(solve_ms), &stop))
                    .and_then(|s| s.best),
            };
            times[i].push(started.elapsed().as_secs_f64());
            if chosen.is_some_and(|sq| outcome[usize::from(sq)] == Some(best)) {
                kept[i] += 1;
            }
        }
    }
    for (i, name) in names.iter().enumerate() {
        println!(
            "{name}: kept {} of {}, median {:.3} s",
            kept[i],
            problems.len(),
            median(times[i].clone())
        );
    }
}
