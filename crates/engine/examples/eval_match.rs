//! One evaluation against another at equal time per move, with the engine's own search (iterative deepening,
//! transposition table) on both sides, so that only the evaluation differs (`docs/engines.md`):
//!
//! ```text
//! cargo run --release -p gridplay-engine --example eval_match -- reversi PAIRS MS [SOLVE_EMPTIES]
//! cargo run --release -p gridplay-engine --example eval_match -- checkers PAIRS MS A B [SEED]
//! ```
//!
//! - `reversi`: A is the trained evaluation, B the hand-written one; both solve exactly from `SOLVE_EMPTIES`
//!   empties (default 14). Openings are 8 random plies.
//! - `checkers`: A and B are weight sets `man,king,back,advance,centre,mobility` (`default` for the shipped
//!   one). Openings are 4 random plies.
//!
//! Each opening is played twice, A taking each side once. Prints A's wins, draws and losses, its score, the
//! Elo difference with a 95% interval (normal approximation), the mean depth each side completed and the
//! speed. The openings come from the seed (1 unless given), so a rerun plays the same ones.

use std::{hash::Hash, time::Duration};

use gridplay_core::{Game, GameRecord, Outcome, Player, Position, playout};
use gridplay_engine::{MatchScore, checkers, reversi};
use gridplay_games::{
    checkers::Checkers,
    reversi::{Move as ReversiMove, Reversi},
};
use gridplay_search::{Evaluator, Limits, Search, StopFlag, TranspositionTable};
use rand::seq::IndexedRandom;

/// A's results and both sides' mean depths.
#[derive(Default)]
struct Tally {
    score: MatchScore,
    depth: [u64; 2],
    searches: [u64; 2],
}

/// Side `i`'s move (0 for A, 1 for B), counting the depth it completed.
fn search<P: Position + Hash, E: Evaluator<P>>(
    pos: &P,
    eval: &E,
    tt: &mut TranspositionTable<P::Move>,
    ms: u64,
    tally: &mut Tally,
    i: usize,
) -> P::Move {
    let report = Search::new(eval, tt, Limits::time(Duration::from_millis(ms)), StopFlag::new()).run(pos);
    tally.depth[i] += u64::from(report.depth);
    tally.searches[i] += 1;
    report.best.expect("the game is not over")
}

/// Plays the match. `exact` gives the move of a position both sides play exactly (or `None` to search).
#[allow(clippy::too_many_arguments)]
fn play_match<P: Position + Hash, A: Evaluator<P>, B: Evaluator<P>>(
    start: &P,
    a: &A,
    b: &B,
    pairs: u64,
    ms: u64,
    opening_plies: usize,
    seed: u64,
    exact: &mut dyn FnMut(&P) -> Option<P::Move>,
) -> Tally {
    let mut tally = Tally::default();
    let mut tts = [TranspositionTable::new(16), TranspositionTable::new(16)];
    for pair in 0..pairs {
        let mut rng = playout::seeded(seed.wrapping_mul(1_000_003).wrapping_add(pair));
        let mut opening = start.clone();
        for _ in 0..opening_plies {
            if let Some(&m) = opening.legal_moves().choose(&mut rng) {
                opening.play_unchecked(m);
            }
        }
        for a_side in [Player::First, Player::Second] {
            // The record holds the game and applies the draw rules that need its history (repetition,
            // quiet moves); the engines read its typed position.
            let mut record = GameRecord::new(Box::new(opening.clone()));
            while record.outcome().is_none() {
                let pos: &P = record
                    .position()
                    .as_any()
                    .downcast_ref()
                    .expect("the record holds a P");
                let moves = pos.legal_moves();
                let m = if moves.len() == 1 {
                    moves[0]
                } else if let Some(m) = exact(pos) {
                    m
                } else if pos.turn() == a_side {
                    search(pos, a, &mut tts[0], ms, &mut tally, 0)
                } else {
                    search(pos, b, &mut tts[1], ms, &mut tally, 1)
                };
                let text = pos.move_text(m);
                record.play(&text).expect("the engine's move is legal");
            }
            match record.outcome() {
                Some((Outcome::Win { winner }, _)) if winner == a_side => tally.score.wins += 1,
                Some((Outcome::Win { .. }, _)) => tally.score.losses += 1,
                _ => tally.score.draws += 1,
            }
        }
        eprint!(
            "\rpair {}/{pairs}: +{} ={} -{}",
            pair + 1,
            tally.score.wins,
            tally.score.draws,
            tally.score.losses
        );
    }
    eprintln!();
    tally
}

fn report(what: &str, ms: u64, t: &Tally, minutes: f64) {
    let s = t.score;
    let (elo, lo, hi) = s.elo();
    let mean = |i: usize| t.depth[i] as f64 / t.searches[i].max(1) as f64;
    println!(
        "{what}, {ms} ms a move: +{} ={} -{}, {:.1}% ({elo:+.0} Elo, {lo:+.0}..{hi:+.0}); mean depth {:.2} \
         against {:.2}; {:.1} games/min",
        s.wins,
        s.draws,
        s.losses,
        100.0 * s.fraction(),
        mean(0),
        mean(1),
        f64::from(s.games()) / minutes,
    );
}

fn usage() -> ! {
    eprintln!("usage: eval_match reversi PAIRS MS [SOLVE_EMPTIES] | eval_match checkers PAIRS MS A B [SEED]");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> u64 {
        args.get(i)
            .map_or_else(|| usage(), |a| a.parse().unwrap_or_else(|_| usage()))
    };
    let (pairs, ms) = (number(1), number(2));
    let started = std::time::Instant::now();
    match args.first().map(String::as_str) {
        Some("reversi") => {
            let solve_empties = if args.len() > 3 { number(3) as u32 } else { 14 };
            let mut solver = reversi::endgame::Solver::new(64);
            let mut exact = |pos: &gridplay_games::reversi::ReversiPosition| {
                (pos.board().empty().count_ones() <= solve_empties)
                    .then(|| ReversiMove::Place(solver.solve(pos.board()).best.expect("a move to play")))
            };
            let start = Game::start(&Reversi::default());
            let t = play_match(
                &start,
                &reversi::Eval,
                &reversi::HandEval,
                pairs,
                ms,
                8,
                1,
                &mut exact,
            );
            let what = format!("trained against hand-written, solving from {solve_empties} empties");
            report(&what, ms, &t, started.elapsed().as_secs_f64() / 60.0);
        }
        Some("checkers") => {
            let weights = |i: usize| -> checkers::Eval {
                match args.get(i).map(String::as_str) {
                    None => usage(),
                    Some("default") => checkers::Eval::default(),
                    Some(text) => text.parse().unwrap_or_else(|e| {
                        eprintln!("{e}");
                        usage()
                    }),
                }
            };
            let (a, b) = (weights(3), weights(4));
            let start = Game::start(&Checkers);
            let seed = if args.len() > 5 { number(5) } else { 1 };
            let t = play_match(&start, &a, &b, pairs, ms, 4, seed, &mut |_| None);
            report(
                &format!("{a:?} against {b:?}"),
                ms,
                &t,
                started.elapsed().as_secs_f64() / 60.0,
            );
        }
        _ => usage(),
    }
}
