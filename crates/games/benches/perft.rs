//! Perft speed of every game, single thread. Each bench asserts its count, so a fast wrong answer fails.
//!
//! The headline figures are Reversi perft 12 (1,939,879,668 leaves) and checkers perft 12 (388,623,673),
//! measured by `gridplay perft reversi 12` and `gridplay perft checkers 12`; the benches run depths 9 and 10
//! so that criterion can repeat them.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gridplay_core::{Game, Position};
use gridplay_games::{
    checkers::Checkers,
    cornered::{Cornered, Tie},
    reversi::{
        Reversi,
        bitboard::{self, Board},
    },
    ywf::Ywf,
};

fn reversi(c: &mut Criterion) {
    let mut g = c.benchmark_group("reversi");
    g.sample_size(10);
    for (depth, leaves) in [(9u32, 3_005_288u64), (10, 24_571_056)] {
        g.throughput(Throughput::Elements(leaves));
        g.bench_function(format!("perft {depth}"), |b| {
            b.iter(|| assert_eq!(bitboard::perft(black_box(Board::START), depth), leaves));
        });
    }
    g.finish();

    let mut g = c.benchmark_group("reversi-movegen");
    let mut rng = gridplay_core::playout::seeded(11);
    let boards: Vec<Board> = (0..256)
        .map(|_| {
            let (p, _) =
                gridplay_core::playout::random_playout(&Reversi::default().start(), &mut rng, 30, |_| {});
            p.board()
        })
        .collect();
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("get_moves", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|b| bitboard::get_moves(black_box(b.player), b.opponent))
                .fold(0, |a, m| a ^ m)
        });
    });
    g.bench_function("get_moves_scalar", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|b| bitboard::get_moves_scalar(black_box(b.player), b.opponent))
                .fold(0, |a, m| a ^ m)
        });
    });
    g.finish();
}

fn others(c: &mut Criterion) {
    let mut g = c.benchmark_group("placement-games");
    g.sample_size(10);
    let cornered = Cornered {
        size: 3,
        tie: Tie::Draw,
    }
    .start();
    g.throughput(Throughput::Elements(3968));
    g.bench_function("cornered 3x3 perft 9", |b| {
        b.iter(|| assert_eq!(black_box(&cornered).perft(9), 3968));
    });
    let ywf = Ywf::default().start();
    g.throughput(Throughput::Elements(9992));
    g.bench_function("ywf perft 4", |b| {
        b.iter(|| assert_eq!(black_box(&ywf).perft(4), 9992));
    });
    g.finish();
}

fn checkers(c: &mut Criterion) {
    let mut g = c.benchmark_group("checkers");
    g.sample_size(10);
    let start = Checkers.start();
    for (depth, leaves) in [(9u32, 3_963_680u64), (10, 18_391_564)] {
        g.throughput(Throughput::Elements(leaves));
        g.bench_function(format!("perft {depth}"), |b| {
            b.iter(|| assert_eq!(black_box(&start).perft(depth), leaves));
        });
    }
    g.finish();
}

criterion_group!(benches, reversi, checkers, others);
criterion_main!(benches);
