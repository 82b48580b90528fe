//! The cost of one Reversi evaluation, in nanoseconds: both sides' legal moves counted (`mobility`, a part of
//! both evaluations), the hand-written evaluation (`HandEval`), the trained one read afresh (`Weights::evaluate`), the trained one from indices kept move by move
//! (`Weights::evaluate_indices` alone, and with the index update a leaf pays, `Indices::view_after`).
//!
//! Two sets of positions: `random`, positions of 20-40 random plies in no order (each evaluation reads
//! weights far from the last one's), and `siblings`, the leaves of two-ply trees below such positions in
//! the order a search meets them (neighbouring evaluations share most of their patterns and their stage).
//! Each figure is the fastest of `RUNS` timed passes over the set.
//!
//! ```text
//! cargo run --release -p gridplay-engine --example reversi_eval_cost -- [RUNS=15] [SEED=1]
//! ```
use std::hint::black_box;
use std::time::Instant;

use gridplay_engine::reversi::HandEval;
use gridplay_engine::reversi::pattern::{Indices, Weights};
use gridplay_games::reversi::bitboard::{Board, flips, get_moves};
use rand::{RngExt, SeedableRng, rngs::SmallRng, seq::IndexedRandom};

/// A leaf as the search meets it: its parent's indices, the move that reaches it and the discs it turns.
struct Leaf {
    parent: Indices,
    sq: u8,
    flipped: u64,
    board: Board,
}

fn squares(b: Board) -> Vec<u8> {
    (0..64).filter(|&sq| b.moves() & (1 << sq) != 0).collect()
}

fn random_position(rng: &mut SmallRng) -> Board {
    loop {
        let plies = rng.random_range(20..=40);
        let mut b = Board::START;
        for _ in 0..plies {
            if b.is_over() {
                break;
            }
            b = match squares(b).choose(rng) {
                Some(&sq) => b.play(sq),
                None => b.pass(),
            };
        }
        if b.moves() != 0 {
            return b;
        }
    }
}

fn leaves(rng: &mut SmallRng, count: usize) -> Vec<Leaf> {
    let mut out = Vec::new();
    while out.len() < count {
        let root = random_position(rng);
        for sq in squares(root) {
            let child = root.play(sq);
            let ix = Indices::new(child.player, child.opponent);
            for reply in squares(child) {
                out.push(Leaf {
                    parent: ix,
                    sq: reply,
                    flipped: flips(reply, child.player, child.opponent),
                    board: child.play(reply),
                });
            }
        }
    }
    out.truncate(count);
    out
}

/// The fastest of `runs` passes: the time of one call, in nanoseconds (on a shared machine the other passes
/// measure the neighbours too).
fn per_call(runs: usize, n: usize, mut pass: impl FnMut() -> i64) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(pass());
            t.elapsed().as_secs_f64() * 1e9 / n as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[0]
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let runs = args.first().copied().unwrap_or(15).max(1) as usize;
    let mut rng = SmallRng::seed_from_u64(args.get(1).copied().unwrap_or(1));
    let w = Weights::shipped();
    let n = 1 << 16;
    let random: Vec<Leaf> = (0..n)
        .map(|_| {
            let parent = random_position(&mut rng);
            let sq = *squares(parent).choose(&mut rng).expect("a move");
            Leaf {
                parent: Indices::new(parent.player, parent.opponent),
                sq,
                flipped: flips(sq, parent.player, parent.opponent),
                board: parent.play(sq),
            }
        })
        .collect();
    let siblings = leaves(&mut rng, n);
    println!("ns per evaluation, fastest of {runs} passes over {n} positions");
    println!(
        "{:<10} {:>8} {:>8} {:>8} {:>8} {:>10}",
        "set", "mobility", "hand", "afresh", "kept", "kept+move"
    );
    for (name, set) in [("random", &random), ("siblings", &siblings)] {
        let views: Vec<_> = set.iter().map(|l| l.parent.view_after(l.sq, l.flipped)).collect();
        for (l, v) in set.iter().zip(&views) {
            assert_eq!(w.evaluate_indices(l.board, v), w.evaluate(l.board));
        }
        let mobility = per_call(runs, n, || {
            set.iter()
                .map(|l| {
                    let b = black_box(l.board);
                    i64::from(
                        get_moves(b.player, b.opponent).count_ones()
                            + get_moves(b.opponent, b.player).count_ones(),
                    )
                })
                .sum()
        });
        let hand = per_call(runs, n, || {
            set.iter()
                .map(|l| i64::from(HandEval::score(black_box(l.board))))
                .sum()
        });
        let afresh = per_call(runs, n, || {
            set.iter()
                .map(|l| i64::from(w.evaluate(black_box(l.board))))
                .sum()
        });
        let kept = per_call(runs, n, || {
            set.iter()
                .zip(&views)
                .map(|(l, v)| i64::from(w.evaluate_indices(black_box(l.board), black_box(v))))
                .sum()
        });
        let moved = per_call(runs, n, || {
            set.iter()
                .map(|l| {
                    let v = black_box(&l.parent).view_after(l.sq, l.flipped);
                    i64::from(w.evaluate_indices(l.board, &v))
                })
                .sum()
        });
        println!("{name:<10} {mobility:>8.1} {hand:>8.1} {afresh:>8.1} {kept:>8.1} {moved:>10.1}");
    }
}
