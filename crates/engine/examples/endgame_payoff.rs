//! What a win/loss/draw solve buys near the end of a Reversi game, and what it costs (`docs/engines.md`):
//!
//! ```text
//! cargo run --release -p gridplay-engine --example endgame_payoff -- EMPTIES POSITIONS MS [SEED]
//! ```
//!
//! Plays `POSITIONS` games from 8 random plies with the midgame search at depth 6 until `EMPTIES` empty
//! squares are left (a game that ends or leaves the side to move no move is played again from other plies),
//! then for each position: solves it exactly (the truth, and the time), solves it win/loss/draw (the time),
//! and searches it for `MS` milliseconds with the full-strength midgame search, checking by exact solves
//! whether that search's move keeps the position's outcome (a win still a win, a draw still a draw). Prints
//! the median and the 90th percentile of each time and how many searched moves threw an outcome away.

use std::time::{Duration, Instant};

use gridplay_engine::reversi::{
    endgame::{Solver, Wld},
    search::{Options, search},
};
use gridplay_games::reversi::bitboard::{Board, flips};
use gridplay_search::{Limits, StopFlag};

#[path = "common/positions.rs"]
mod positions;
use positions::position;

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, what: &str| -> u64 {
        args.get(i).and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            eprintln!("usage: endgame_payoff EMPTIES POSITIONS MS [SEED]: {what} is missing or not a number");
            std::process::exit(2)
        })
    };
    let (empties, count, ms) = (
        number(0, "EMPTIES") as u32,
        number(1, "POSITIONS"),
        number(2, "MS"),
    );
    if !(1..=59).contains(&empties) || count == 0 {
        eprintln!("endgame_payoff: EMPTIES must be 1-59 and POSITIONS at least 1");
        std::process::exit(2);
    }
    let mut rng = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1u64) | 1;
    let mut solver = Solver::new(64);
    let (mut exact_s, mut wld_s, mut search_s) = (Vec::new(), Vec::new(), Vec::new());
    let (mut thrown, mut decided, mut wrong) = (0, 0, 0);
    for _ in 0..count {
        let b = position(empties, &mut rng);
        let t = Instant::now();
        let truth = Solver::new(64).solve(b).score;
        exact_s.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let wld = Solver::new(64).solve_wld(b);
        wld_s.push(t.elapsed().as_secs_f64());
        let expected = match truth.signum() {
            1 => Wld::Win,
            0 => Wld::Draw,
            _ => Wld::Loss,
        };
        if wld.outcome != expected {
            wrong += 1;
        }
        let limits = Limits {
            depth: None,
            time: Some(Duration::from_millis(ms)),
            nodes: None,
        };
        let t = Instant::now();
        let found = search(b, limits, &StopFlag::new(), Options::default());
        search_s.push(t.elapsed().as_secs_f64());
        let sq = found.best.expect("the position has a move");
        let f = flips(sq, b.player, b.opponent);
        let after = -solver
            .solve(Board {
                player: b.opponent ^ f,
                opponent: b.player ^ f ^ (1 << sq),
            })
            .score;
        if truth >= 0 {
            decided += 1;
            if after.signum() < truth.signum() {
                thrown += 1;
            }
        }
    }
    println!(
        "{count} positions of {empties} empties, seed {}: exact solve median {:.3} s (90%: {:.3} s); \
         win/loss/draw median {:.3} s (90%: {:.3} s); {wrong} outcomes unlike the exact solve's",
        args.get(3).map_or("1", String::as_str),
        percentile(&mut exact_s, 0.5),
        percentile(&mut exact_s, 0.9),
        percentile(&mut wld_s, 0.5),
        percentile(&mut wld_s, 0.9),
    );
    println!(
        "midgame search of {ms} ms (median {:.3} s): threw away {thrown} of the {decided} wins and draws",
        percentile(&mut search_s, 0.5)
    );
}
