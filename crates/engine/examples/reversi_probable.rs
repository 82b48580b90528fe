//! Probable win/loss/draw solves (`search::probable_wld`) against exact ones on positions of one stage:
//!
//! ```text
//! cargo run --release -p gridplay-engine --example reversi_probable -- EMPTIES POSITIONS T MS [SEED] [SEARCH_MS]
//! ```
//!
//! Plays `POSITIONS` games from 8 random plies with the midgame search at depth 6 until `EMPTIES` empty squares
//! are left, then for each position: the exact win/loss/draw solve (the truth and its time), the probable
//! solve with its cut at `T` hundredths of a standard deviation and at most `MS` milliseconds (its time, and
//! whether its move keeps a win or a draw and its claim is right), and the midgame search of `SEARCH_MS`
//! milliseconds (40 unless given; whether its move keeps a win or a draw). Prints the medians and 90th
//! percentiles of the times and the counts.

use std::time::{Duration, Instant};

use gridplay_engine::reversi::{
    endgame::{Solver, Wld},
    search::{Options, probable_wld, search},
};
use gridplay_search::{Limits, StopFlag};

#[path = "common/positions.rs"]
mod positions;
use positions::position;

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let a: Vec<u64> = std::env::args()
        .skip(1)
        .map(|s| s.parse().ok())
        .collect::<Option<_>>()
        .filter(|a: &Vec<u64>| (4..=6).contains(&a.len()) && (1..=59).contains(&a[0]) && a[1] > 0)
        .unwrap_or_else(|| {
            eprintln!("usage: reversi_probable EMPTIES POSITIONS T MS [SEED] [SEARCH_MS]: EMPTIES 1-59, each a number");
            std::process::exit(2)
        });
    let (empties, count, t, ms) = (a[0] as u32, a[1], a[2] as u32, a[3]);
    let mut rng = a.get(4).copied().unwrap_or(1) | 1;
    let search_ms = a.get(5).copied().unwrap_or(40);
    let mut search_kept = 0;
    let mut truth_solver = Solver::new(64);
    let (mut wld_s, mut pr_s) = (Vec::new(), Vec::new());
    let (mut decided, mut kept, mut wrong_claim, mut gave_up) = (0, 0, 0, 0);
    for _ in 0..count {
        let b = position(empties, &mut rng);
        let t0 = Instant::now();
        let truth = Solver::new(64).solve_wld(b).outcome;
        wld_s.push(t0.elapsed().as_secs_f64());
        let limits = Limits {
            depth: None,
            time: Some(Duration::from_millis(ms)),
            nodes: None,
        };
        let t0 = Instant::now();
        let found = probable_wld(b, t, limits, &StopFlag::new());
        let el = t0.elapsed();
        pr_s.push(el.as_secs_f64());
        if el >= Duration::from_millis(ms) {
            gave_up += 1;
        }
        // Whether the move to `sq` keeps the position's outcome.
        let keeps_of = |sq: u8, solver: &mut Solver| {
            let after = solver.solve_wld(b.play(sq)).outcome;
            match truth {
                Wld::Win => after == Wld::Loss,
                _ => after != Wld::Win,
            }
        };
        if truth != Wld::Loss {
            let limits = Limits {
                depth: None,
                time: Some(Duration::from_millis(search_ms)),
                nodes: None,
            };
            let m = search(b, limits, &StopFlag::new(), Options::default())
                .best
                .expect("a move");
            if keeps_of(m, &mut truth_solver) {
                search_kept += 1;
            }
            decided += 1;
            if let Some((sq, score, _)) = found {
                if keeps_of(sq, &mut truth_solver) {
                    kept += 1;
                }
                if (score > 0) != (truth == Wld::Win) {
                    wrong_claim += 1;
                }
            }
        } else if found.is_some() {
            wrong_claim += 1;
        }
    }
    println!(
        "{count} positions of {empties} empties, t {t}, {ms} ms: exact wld median {:.4} s (90% {:.4}); probable median {:.4} s (90% {:.4}); kept {kept} of {decided} wins/draws; wrong claims {wrong_claim}; ran out {gave_up}; search of {search_ms} ms kept {search_kept}",
        pct(&mut wld_s, 0.5),
        pct(&mut wld_s, 0.9),
        pct(&mut pr_s, 0.5),
        pct(&mut pr_s, 0.9)
    );
}
