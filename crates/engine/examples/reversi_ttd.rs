//! Time to depth of the Reversi midgame search: positions reached by random moves (seeded) searched one after
//! another with the shipped options, the table kept from search to search as in a game; prints the depths
//! reached, the times and the nodes. `DEPTH` is a fixed depth, or `tMS` a time limit in milliseconds.
//!
//! ```text
//! cargo run --release -p gridplay-engine --example reversi_ttd -- DEPTH|tMS POSITIONS [EMPTIES] [SEED]
//! ```
use std::time::Instant;

use gridplay_engine::reversi::search::{Options, search};
use gridplay_games::reversi::bitboard::Board;
use gridplay_search::{Limits, StopFlag};
use rand::{SeedableRng, rngs::SmallRng, seq::IndexedRandom};

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let time_ms = raw.first().is_some_and(|a| a.starts_with('t'));
    let args: Vec<u64> = raw
        .iter()
        .filter_map(|a| a.trim_start_matches('t').parse().ok())
        .collect();
    if args.len() < 2 || args.len() != raw.len() {
        eprintln!("usage: reversi_ttd DEPTH|tMS POSITIONS [EMPTIES] [SEED] (whole numbers)");
        std::process::exit(2);
    }
    let depth = args[0] as u32;
    let n = args[1] as usize;
    let empties = args.get(2).copied().unwrap_or(40) as u32;
    let mut rng = SmallRng::seed_from_u64(args.get(3).copied().unwrap_or(5));
    let mut positions = Vec::new();
    while positions.len() < n {
        let mut b = Board::START;
        while !b.is_over() && b.empty().count_ones() > empties {
            let squares: Vec<u8> = (0..64).filter(|&sq| b.moves() & (1 << sq) != 0).collect();
            b = match squares.choose(&mut rng) {
                Some(&sq) => b.play(sq),
                None => b.pass(),
            };
        }
        if b.moves() != 0 {
            positions.push(b);
        }
    }
    let mut times = Vec::new();
    let mut depths = Vec::new();
    let mut nodes = 0;
    let started = Instant::now();
    for b in positions {
        let limits = if time_ms {
            Limits::time(std::time::Duration::from_millis(args[0]))
        } else {
            Limits::depth(depth)
        };
        let f = search(b, limits, &StopFlag::new(), Options::default());
        depths.push(f.depth);
        nodes += f.nodes;
        times.push(f.elapsed.as_secs_f64() * 1000.0);
    }
    let total = started.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    depths.sort_unstable();
    println!(
        "depths: median {} mean {:.2}",
        depths[n / 2],
        depths.iter().sum::<u32>() as f64 / n as f64
    );
    let limit = if time_ms {
        format!("{} ms", args[0])
    } else {
        format!("depth {depth}")
    };
    println!(
        "{limit}: {n} positions, median {:.1} ms, mean {:.1} ms, {:.2} s, {} nodes, {:.2} M nodes/s",
        times[n / 2],
        times.iter().sum::<f64>() / n as f64,
        total,
        nodes,
        nodes as f64 / total / 1e6
    );
}
