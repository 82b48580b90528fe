//! The cost of one checkers evaluation, in nanoseconds: the hand-written one, pattern tables (`checkers::learned`,
//! material alone: any weights cost the same) and the shipped network (`checkers::net`), or the network of
//! the file given.
//! The positions are those of random games of 10 to 60 plies. Each figure is the fastest of `RUNS` timed
//! passes over them.
//!
//! ```text
//! cargo run --release -p gridplay-engine --example checkers_eval_cost -- [RUNS=15] [NET_FILE]
//! ```
use std::hint::black_box;
use std::time::Instant;

use gridplay_core::Player;
use gridplay_engine::checkers::{
    evaluation::{self, Learned},
    learned::Patterns,
    net::Net,
    search::{Evaluate, Hand},
};
use gridplay_games::checkers::{
    bitboard::Board,
    movegen::{self, Moves},
};
use rand::{RngExt, SeedableRng, rngs::SmallRng};

fn positions(count: usize) -> Vec<(Board, Player)> {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let start = Board::START;
        let (mut b, mut turn) = (start, Player::First);
        let plies = rng.random_range(10..=60);
        for _ in 0..plies {
            let mut moves = Moves::new();
            movegen::generate(&b, turn, &mut moves);
            if moves.is_empty() {
                break;
            }
            b = movegen::apply(&b, turn, moves[rng.random_range(0..moves.len())]);
            turn = !turn;
        }
        out.push((b, turn));
    }
    out
}

fn cost(what: &str, set: &[(Board, Player)], runs: usize, eval: &impl Evaluate) {
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let t = Instant::now();
        let mut sum = 0i64;
        for (b, turn) in set {
            sum += i64::from(eval.evaluate(black_box(b), *turn));
        }
        black_box(sum);
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / set.len() as f64);
    }
    println!("{what:<16} {best:7.1} ns");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(15);
    let net = match args.next() {
        Some(path) => match Learned::read_file(std::path::Path::new(&path)) {
            Ok(Learned::Net(n)) => *n,
            Ok(Learned::Patterns(_)) => {
                eprintln!("{path}: pattern tables, not a network");
                std::process::exit(2);
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
        None => match evaluation::shipped() {
            Learned::Net(n) => (**n).clone(),
            Learned::Patterns(_) => Net::random(1),
        },
    };
    let set = positions(100_000);
    cost("hand-written", &set, runs, &Hand);
    cost("pattern tables", &set, runs, &Patterns::material());
    cost("network", &set, runs, &net);
}
