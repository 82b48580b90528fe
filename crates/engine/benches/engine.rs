//! Endgame solving time on FFO problems and alpha-beta search speed. Each bench asserts its result.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gridplay_core::{Game, Position};
use gridplay_engine::{
    reversi::{self, endgame::Solver, obf},
    tactics,
};
use gridplay_games::tactics::TacticsPosition;
use gridplay_search::{Limits, Search, StopFlag, TranspositionTable};

fn ffo(c: &mut Criterion) {
    let text = include_str!("../tests/data/ffo/fforum-1-19.obf");
    let problems = obf::parse(text).unwrap();
    let mut g = c.benchmark_group("endgame");
    g.sample_size(10);
    g.bench_function("ffo 1-19 (14-16 empties)", |b| {
        b.iter(|| {
            let mut solver = Solver::new(64);
            for p in &problems {
                assert_eq!(
                    Some(solver.solve(black_box(p.position.board())).score),
                    p.best_score()
                );
            }
        });
    });
    let hard = obf::parse(include_str!("../tests/data/ffo/fforum-40-59.obf")).unwrap();
    g.bench_function("ffo 40 (20 empties)", |b| {
        b.iter(|| {
            assert_eq!(
                Solver::new(64).solve(black_box(hard[0].position.board())).score,
                38
            );
        });
    });
    g.finish();
}

fn search(c: &mut Criterion) {
    let start = gridplay_games::reversi::Reversi::default().start();
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("reversi start depth 8", |b| {
        b.iter(|| {
            let mut tt = TranspositionTable::new(16);
            let r = Search::new(&reversi::Eval, &mut tt, Limits::depth(8), StopFlag::new())
                .run(black_box(&start));
            assert_eq!(r.depth, 8);
            r.nodes
        });
    });
    // Grid Tactics at the engine's level-6 depth, with the default armies on the smallest and the largest board:
    // at the start, where every unit is out of reach, and at the first blow of a game between depth-1 searches.
    for size in [16, 32] {
        let start = gridplay_games::tactics::Tactics::with_size(size).start();
        let mut fight = start.clone();
        let health = |p: &TacticsPosition| p.units().iter().map(|u| u.health).sum::<i32>();
        while health(&fight) == health(&start) {
            let mut tt = TranspositionTable::new(16);
            let eval = tactics::Eval::attacking(fight.turn());
            let r = Search::new(&eval, &mut tt, Limits::depth(1), StopFlag::new()).run(&fight);
            fight.play_unchecked(r.best.unwrap());
        }
        for (name, pos) in [("start", &start), ("first blow", &fight)] {
            g.bench_function(format!("tactics {size}x{size} {name} depth 2"), |b| {
                b.iter(|| {
                    let mut tt = TranspositionTable::new(16);
                    let eval = tactics::Eval::attacking(pos.turn());
                    let r =
                        Search::new(&eval, &mut tt, Limits::depth(2), StopFlag::new()).run(black_box(pos));
                    assert_eq!(r.depth, 2);
                    r.nodes
                });
            });
        }
    }
    g.finish();
}

criterion_group!(benches, ffo, search);
criterion_main!(benches);
