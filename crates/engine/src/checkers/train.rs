//! Training the learned checkers evaluations: self-play games by the checkers search from the 3-move ballots,
//! then a fit of each quiet position's label: here, a logistic regression on the pattern tables' features
//! ([`super::learned`]); the network's fit is [`super::net::fit`], on the same samples.
//!
//! The games: each starts from a ballot drawn at random; every move is the search's at a fixed depth, except
//! that each of the first `random_plies` plies is drawn at random with probability one in four, for variety.
//! A game ends when a side cannot move (it loses), on the third repetition, after 40 moves each without a
//! man's move or a capture, or after 300 plies (draws); with endgame databases, at its first position that
//! they cover, with their result (so that an ending the search would not know how to win is labelled by what
//! it is worth, not by the draw that self-play made of it). Every position before the end in which the side
//! to move has no capture becomes a sample, labelled 1, 1/2 or 0 by the game's result for the side to move,
//! or, with [`GameConfig::search_label`], partly by the score of the search that chose its move.
//!
//! The fit: the predicted result is `1 / (1 + exp(-score / 150))` with the score in hundredths of a man;
//! the cross-entropy to the label is minimized by stochastic gradient steps with AdaGrad step sizes and a
//! small L2 penalty, starting from material alone.

use std::{collections::HashMap, sync::atomic::AtomicU64};

use gridplay_core::{Game, Player, Position};
use gridplay_games::checkers::{
    BALLOTS, Checkers, CheckersPosition,
    bitboard::Board,
    movegen::{self, Moves},
};
use gridplay_search::{Limits, StopFlag};
use rand::{RngExt, SeedableRng, rngs::SmallRng, seq::SliceRandom};

pub use super::samples::{Sample, samples_from_bytes, samples_to_bytes};
use super::{
    egdb::{Database, Wld},
    eval::Evaluate,
    learned::{Features, Patterns, SCALARS, STAGES, STATES, TABLES},
    search::{Table, search_with},
};

/// How the self-play games are played.
#[derive(Clone, Copy, Debug)]
pub struct GameConfig<'a> {
    /// The search depth of every move.
    pub depth: u32,
    /// Plies at the start, after the ballot, each played at random with probability 1/4.
    pub random_plies: u32,
    /// Endgame databases: the search probes them, and a game ends at its first position of
    /// [`Database::pieces`] pieces or fewer, with the database's result.
    pub db: Option<&'a Database>,
    /// The share (0 to 1) of each label taken from the position's own search score (the self-play move's,
    /// as a predicted result); the rest is the game's result. Positions whose move was played at random
    /// are labelled by the result alone.
    pub search_label: f32,
}

/// The position after ballot `i` (modulo their number).
fn ballot(i: usize) -> CheckersPosition {
    let ballots: Vec<&str> = BALLOTS.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut pos: CheckersPosition = Checkers.start();
    for m in ballots[i % ballots.len()].split_whitespace() {
        pos.play_text(m)
            .expect("the ballots are legal (a test plays them all)");
    }
    pos
}

/// Plays one self-play game from a random ballot and returns its quiet positions, labelled.
pub fn play_game<E: Evaluate>(
    eval: &E,
    config: GameConfig<'_>,
    table: &mut Table,
    rng: &mut SmallRng,
) -> Vec<Sample> {
    let start = ballot(rng.random_range(0..1000));
    let (positions, result_first, _) = play_from(start, (eval, eval), config, table, rng);
    positions
        .into_iter()
        .map(|(board, turn, score)| {
            let result = if turn == Player::First {
                result_first
            } else {
                1.0 - result_first
            };
            let result = match score {
                Some(score) if config.search_label > 0.0 => {
                    let predicted = sigmoid(score as f32 / SCALE);
                    (1.0 - config.search_label) * result + config.search_label * predicted
                }
                _ => result,
            };
            Sample { board, turn, result }
        })
        .collect()
}

/// A quiet position of a game: the board, the side to move, and the search's score of it for that side
/// (none when its move was played at random).
type Played = (Board, Player, Option<i32>);

/// Plays a game from `start` with `players[0]` moving first; returns its quiet positions, the result for the
/// first player and the position it ended in.
fn play_from<A: Evaluate, B: Evaluate>(
    start: CheckersPosition,
    (first, second): (&A, &B),
    config: GameConfig<'_>,
    table: &mut Table,
    rng: &mut SmallRng,
) -> (Vec<Played>, f32, CheckersPosition) {
    let mut pos = start;
    let mut history: Vec<CheckersPosition> = Vec::new();
    let mut seen: HashMap<CheckersPosition, u32> = HashMap::new();
    let mut quiet = 0u32;
    let mut positions: Vec<Played> = Vec::new();
    let stop = StopFlag::new();
    // The result for the first player, once known.
    let for_first = |turn: Player, result: f32| {
        if turn == Player::First {
            result
        } else {
            1.0 - result
        }
    };
    let result_first: f32 = loop {
        if let Some(db) = config.db {
            let b = pos.board();
            if (b.pieces[0] | b.pieces[1]).count_ones() <= db.pieces()
                && let Some(wld) = db.probe(b, pos.turn())
            {
                let result = match wld {
                    Wld::Win => 1.0,
                    Wld::Draw => 0.5,
                    Wld::Loss => 0.0,
                };
                break for_first(pos.turn(), result);
            }
        }
        let mut moves = Moves::new();
        movegen::generate(pos.board(), pos.turn(), &mut moves);
        if moves.is_empty() {
            break for_first(pos.turn(), 0.0);
        }
        let count = seen.entry(pos).or_insert(0);
        *count += 1;
        if *count >= 3 || quiet >= 80 || history.len() >= 300 {
            break 0.5;
        }
        let (m, score) = if (history.len() as u32) < config.random_plies && rng.random_range(0..4) == 0 {
            (moves[rng.random_range(0..moves.len())], None)
        } else {
            let limits = Limits::depth(config.depth);
            let found = if pos.turn() == Player::First {
                search_with(table, first, config.db, &pos, &history, limits, &stop)
            } else {
                search_with(table, second, config.db, &pos, &history, limits, &stop)
            };
            let found = found.expect("the game is not over");
            (found.best, Some(found.score))
        };
        if !moves[0].is_capture() {
            positions.push((*pos.board(), pos.turn(), score));
        }
        let progress = m.is_capture() || pos.board().kings & (1 << m.from()) == 0;
        if progress {
            quiet = 0;
            seen.clear();
        } else {
            quiet += 1;
        }
        history.push(pos);
        pos.play_unchecked(m);
    };
    (positions, result_first, pos)
}

/// A match of two evaluations with the same search at `depth`: `pairs` ballots (in a seeded order), each
/// played with both colours, on `threads` threads. Returns A's wins, draws and losses.
#[must_use]
pub fn duel<A: Evaluate + Sync, B: Evaluate + Sync>(
    a: &A,
    b: &B,
    pairs: u64,
    depth: u32,
    seed: u64,
    threads: usize,
) -> [u32; 3] {
    let config = GameConfig {
        depth,
        random_plies: 0,
        db: None,
        search_label: 0.0,
    };
    let mut order: Vec<usize> = (0..BALLOTS.lines().count()).collect();
    order.shuffle(&mut SmallRng::seed_from_u64(seed));
    let threads = threads.max(1) as u64;
    std::thread::scope(|scope| {
        let order = &order;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut table = Table::new(8);
                    let mut rng = SmallRng::seed_from_u64(seed);
                    let mut tally = [0u32; 3];
                    let mut i = t;
                    while i < pairs {
                        let start = ballot(order[i as usize % order.len()]);
                        let (_, r, _) = play_from(start, (a, b), config, &mut table, &mut rng);
                        let (_, s, _) = play_from(start, (b, a), config, &mut table, &mut rng);
                        for for_a in [r, 1.0 - s] {
                            tally[if for_a == 1.0 {
                                0
                            } else if for_a == 0.5 {
                                1
                            } else {
                                2
                            }] += 1;
                        }
                        i += threads;
                    }
                    tally
                })
            })
            .collect();
        handles.into_iter().fold([0; 3], |acc, h| {
            let t = h.join().expect("a duel thread panicked");
            [acc[0] + t[0], acc[1] + t[1], acc[2] + t[2]]
        })
    })
}

/// Plays `games` self-play games on `threads` threads; game `i` is seeded by `seed` and `i`, so the samples
/// are the same for the same arguments whatever the number of threads. `done` counts the finished games.
#[must_use]
pub fn self_play<E: Evaluate + Sync>(
    eval: &E,
    config: GameConfig<'_>,
    games: u64,
    threads: usize,
    seed: u64,
    done: &AtomicU64,
) -> Vec<Sample> {
    let threads = threads.max(1) as u64;
    let mut parts: Vec<(u64, Vec<Sample>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut table = Table::new(8);
                    let mut out = Vec::new();
                    let mut i = t;
                    while i < games {
                        let mut rng = SmallRng::seed_from_u64(seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
                        out.push((i, play_game(eval, config, &mut table, &mut rng)));
                        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        i += threads;
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a self-play thread panicked"))
            .collect()
    });
    parts.sort_by_key(|(i, _)| *i);
    parts.into_iter().flat_map(|(_, s)| s).collect()
}

/// The scale of the predicted result: a score of 150 (a man and a half) predicts about 73%.
const SCALE: f32 = 150.0;

/// The predicted result of a score in logits (a score in hundredths of a man over [`SCALE`]).
fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// The result that a score (hundredths of a man, for the side to move) predicts, from 0 to 1: the label of a
/// position whose only label is a search's score (`datagen`'s shards).
#[must_use]
pub fn predicted_result(score: i32) -> f32 {
    sigmoid(score as f32 / SCALE)
}

/// How the weights are fitted.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    pub epochs: usize,
    /// AdaGrad's base step, in logits.
    pub step: f32,
    /// The L2 penalty of each weight, per step that touches it.
    pub l2: f32,
    pub seed: u64,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            epochs: 12,
            step: 0.05,
            l2: 1e-5,
            seed: 1,
        }
    }
}

/// The mean cross-entropy of the predictions of `weights` on `samples`.
#[must_use]
pub fn loss(weights: &Patterns, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p =
                f64::from(sigmoid(weights.evaluate(&s.board, s.turn) as f32 / SCALE)).clamp(1e-6, 1.0 - 1e-6);
            let y = f64::from(s.result);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits weights to `samples`; `progress(epoch)` is called after each epoch.
#[must_use]
pub fn fit(samples: &[Sample], config: FitConfig, mut progress: impl FnMut(usize)) -> Patterns {
    let features: Vec<Features> = samples.iter().map(|s| Features::of(&s.board, s.turn)).collect();
    // Weights in logits (hundredths of a man / SCALE), and AdaGrad's sums of squared gradients.
    let mut regions = vec![0f32; STAGES * TABLES * STATES];
    let mut region_g = vec![1e-8f32; STAGES * TABLES * STATES];
    let start = Patterns::material();
    let mut scalars = [[0f32; SCALARS]; STAGES];
    for (s, row) in scalars.iter_mut().enumerate() {
        for (t, w) in row.iter_mut().enumerate() {
            *w = f32::from(start.scalars[s][t]) / SCALE;
        }
    }
    let mut scalar_g = [[1e-8f32; SCALARS]; STAGES];
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let at = |stage: usize, table: usize, state: u16| (stage * TABLES + table) * STATES + usize::from(state);
    for epoch in 0..config.epochs {
        order.shuffle(&mut rng);
        for &i in &order {
            let f = &features[i];
            let mix = f.mix().map(|(s, share)| (s, share as f32 / 20.0));
            let mut z = 0f32;
            for &(s, m) in &mix {
                let mut sum = 0f32;
                for (r, &state) in f.regions.iter().enumerate() {
                    sum += regions[at(s, r, state)];
                }
                for (x, w) in f.scalars.iter().zip(scalars[s].iter()) {
                    sum += *x as f32 * w;
                }
                z += m * sum;
            }
            if f.equal_kings {
                z /= 8.0;
            }
            let mut g = sigmoid(z) - samples[i].result;
            if f.equal_kings {
                g /= 8.0;
            }
            for &(s, m) in &mix {
                if m == 0.0 {
                    continue;
                }
                for (r, &state) in f.regions.iter().enumerate() {
                    let k = at(s, r, state);
                    let grad = g * m + config.l2 * regions[k];
                    region_g[k] += grad * grad;
                    regions[k] -= config.step * grad / region_g[k].sqrt();
                }
                for (x, (w, acc)) in f
                    .scalars
                    .iter()
                    .zip(scalars[s].iter_mut().zip(scalar_g[s].iter_mut()))
                {
                    let grad = g * m * *x as f32;
                    *acc += grad * grad;
                    *w -= config.step * grad / acc.sqrt();
                }
            }
        }
        progress(epoch + 1);
    }
    let centi = |w: f32| (w * SCALE).round().clamp(-30_000.0, 30_000.0) as i16;
    let mut out = Patterns::material();
    for (s, stage) in out.regions.iter_mut().enumerate() {
        for (r, region) in stage.iter_mut().enumerate() {
            for (state, w) in region.iter_mut().enumerate() {
                *w = centi(regions[(s * TABLES + r) * STATES + state]);
            }
        }
    }
    for (s, row) in out.scalars.iter_mut().enumerate() {
        for (t, w) in row.iter_mut().enumerate() {
            *w = centi(scalars[s][t]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::search::Hand;

    #[test]
    fn the_samples_file_round_trips_and_names_a_bad_sample() {
        let config = GameConfig {
            depth: 2,
            random_plies: 6,
            db: None,
            search_label: 0.5,
        };
        let samples = self_play(&Hand, config, 2, 1, 3, &AtomicU64::new(0));
        let bytes = samples_to_bytes(&samples);
        assert_eq!(samples_from_bytes(&bytes).unwrap(), samples);
        assert!(
            samples_from_bytes(b"GPCHK02\n")
                .unwrap_err()
                .to_string()
                .contains("header")
        );
        assert!(
            samples_from_bytes(&bytes[..bytes.len() - 1])
                .unwrap_err()
                .to_string()
                .contains("whole samples")
        );
        let mut bad = bytes.clone();
        bad[8 + 17 + 12] = 2;
        assert!(
            samples_from_bytes(&bad)
                .unwrap_err()
                .to_string()
                .contains("sample 2: side to move 2")
        );
        let mut bad = bytes;
        bad[8 + 13..8 + 17].copy_from_slice(&1.5f32.to_le_bytes());
        assert!(
            samples_from_bytes(&bad)
                .unwrap_err()
                .to_string()
                .contains("sample 1: label 1.5")
        );
    }

    #[test]
    fn self_play_is_reproducible_and_labels_every_quiet_position() {
        let config = GameConfig {
            depth: 2,
            random_plies: 6,
            db: None,
            search_label: 0.0,
        };
        let done = AtomicU64::new(0);
        let a = self_play(&Hand, config, 4, 2, 9, &done);
        let b = self_play(&Hand, config, 4, 1, 9, &done);
        assert_eq!(a, b);
        assert_eq!(done.load(std::sync::atomic::Ordering::Relaxed), 8);
        assert!(a.len() > 40, "{} samples", a.len());
        for s in &a {
            assert!([0.0, 0.5, 1.0].contains(&s.result));
            assert!(!s.board.can_capture(s.turn), "a sample has a capture pending");
        }
    }

    #[test]
    fn a_search_label_moves_each_searched_position_towards_its_score() {
        let config = |search_label| GameConfig {
            depth: 3,
            random_plies: 6,
            db: None,
            search_label,
        };
        let done = AtomicU64::new(0);
        let results = self_play(&Hand, config(0.0), 6, 1, 4, &done);
        let mixed = self_play(&Hand, config(0.5), 6, 1, 4, &done);
        // The same games; each label is halfway between the result and a predicted result between 0 and 1
        // (or the result itself, for a position whose move was drawn at random).
        assert_eq!(results.len(), mixed.len());
        let mut moved = 0;
        for (r, m) in results.iter().zip(&mixed) {
            assert_eq!((r.board, r.turn), (m.board, m.turn));
            assert!(
                (m.result - r.result).abs() <= 0.5,
                "{} from {}",
                m.result,
                r.result
            );
            if m.result != r.result {
                moved += 1;
                let predicted = 2.0 * m.result - r.result;
                assert!((0.0..=1.0).contains(&predicted), "{predicted}");
            }
        }
        assert!(moved * 2 > mixed.len(), "{moved} of {} labels moved", mixed.len());
    }

    #[test]
    fn with_databases_a_game_ends_where_they_begin_with_their_result() {
        let db = Database::build(4);
        let config = GameConfig {
            depth: 2,
            random_plies: 10,
            db: Some(&db),
            search_label: 0.0,
        };
        let mut table = Table::new(8);
        let mut ended_by_db = 0;
        for seed in 0..24 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let start = ballot(rng.random_range(0..1000));
            let (positions, result_first, end) =
                play_from(start, (&Hand, &Hand), config, &mut table, &mut rng);
            let pieces = |b: &Board| (b.pieces[0] | b.pieces[1]).count_ones();
            assert!(
                positions.iter().all(|(b, _, _)| pieces(b) > 4),
                "a sample the databases cover"
            );
            if pieces(end.board()) <= 4 {
                ended_by_db += 1;
                let value = match db.probe(end.board(), end.turn()).expect("covered") {
                    Wld::Win => 1.0,
                    Wld::Draw => 0.5,
                    Wld::Loss => 0.0,
                };
                let expected = if end.turn() == Player::First {
                    value
                } else {
                    1.0 - value
                };
                assert_eq!(result_first, expected, "seed {seed}");
            }
        }
        // Most games of weak play come down to a few pieces; the databases must have ended some of them.
        assert!(
            ended_by_db >= 6,
            "{ended_by_db} of 24 games ended by the databases"
        );
    }

    #[test]
    fn the_fit_lowers_the_loss_and_learns_that_material_wins() {
        let config = GameConfig {
            depth: 2,
            random_plies: 10,
            db: None,
            search_label: 0.0,
        };
        let samples = self_play(&Hand, config, 60, 2, 3, &AtomicU64::new(0));
        let before = loss(&Patterns::material(), &samples);
        let weights = fit(&samples, FitConfig::default(), |_| {});
        let after = loss(&weights, &samples);
        assert!(after < before, "{before} -> {after}");
        // A man is still worth something in both stages.
        assert!(weights.scalars.iter().all(|s| s[0] > 0), "{:?}", weights.scalars);
    }
}
