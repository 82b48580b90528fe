//! Training the pattern weights ([`super::pattern`]) from the project's own games, and from people's games read
//! from WTHOR files ([`super::wthor`], labelled the same way by [`game_samples`]): `gridplay train reversi`.
//!
//! 1. **Games.** Each game opens with up to `random_plies` random moves, then both sides play a shallow
//!    negamax with the current evaluation (the previous weights, or the hand-written evaluation for the first
//!    round), with a few random moves mixed in for variety.
//! 2. **Labels.** At `solve_at` empty squares the exact solver takes over: every position from there on is
//!    labelled with its exact score, and every earlier position of the game with the exact score of the
//!    first solved one (from its own side's view). Each earlier position also keeps the score of the search
//!    that chose its move ([`Sample::searched`]); the fit's target may blend it in ([`Sample::target`]).
//! 3. **Fit.** Each stage's weights are fitted by least squares on the positions of that stage and its two
//!    neighbours, with a ridge penalty (`--l2`) that keeps rarely seen configurations near zero (or near the
//!    later stage's value, [`Prior::LaterStage`]): by gradient
//!    steps in which each weight moves by the average error of the positions it appears in (Buro's method,
//!    [`Method::Steps`]), or by conjugate gradients to the optimum ([`Method::ConjugateGradient`]), in
//!    `fit.rs`. A configuration and its mirror images under the pattern's symmetries are one weight during
//!    the fit ([`super::pattern::Layout::canonical`]).

use gridplay_games::reversi::bitboard::{Board, get_moves};
use rand::{RngExt, SeedableRng, rngs::SmallRng};

use std::time::Instant;

use gridplay_search::{Limits, StopFlag};

use super::{
    endgame::{self, Solver},
    pattern::Weights,
    search::{self, Table},
};

mod fit;

pub use fit::{FitConfig, Method, Prior, StageFit, errors, fit};

/// Who plays the self-play games.
#[derive(Clone, Copy)]
pub enum Players<'a> {
    /// Plain negamax at the configured depth with this evaluation.
    Negamax(&'a (dyn Fn(Board) -> i32 + Sync)),
    /// The project's search (`search.rs`, Multi-ProbCut on) at the configured depth with these weights.
    Search(&'a Weights),
}

impl std::fmt::Debug for Players<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Players::Negamax(_) => "Players::Negamax",
            Players::Search(_) => "Players::Search",
        })
    }
}

/// The self-play move of `players` at `depth`, and the score of its search for the side to move in hundredths
/// of a disc.
fn pick(players: Players<'_>, b: Board, depth: u32, table: &mut Table, rng: &mut SmallRng) -> (u8, i32) {
    match players {
        Players::Negamax(eval) => choose(b, depth, eval, rng),
        Players::Search(weights) => {
            table.age = table.age.wrapping_add(1);
            let options = search::Options::default();
            let found = search::search_weighted(
                b,
                Limits::depth(depth),
                &StopFlag::new(),
                options,
                table,
                Instant::now(),
                weights,
            );
            (found.best.unwrap_or_else(|| random_move(b, rng)), found.score)
        }
    }
}

/// One labelled position: the side to move holds `player`, and `score` is the final disc difference
/// for it (the exact solver's, or the game's); `searched` is the score of the self-play player's own search
/// of the position, in discs (the exact score where the solver labelled it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub player: u64,
    pub opponent: u64,
    pub score: i8,
    pub searched: i8,
}

impl Sample {
    /// The fit's target: `blend` percent of the search's score and the rest of the game's.
    #[must_use]
    pub fn target(&self, blend: u32) -> f32 {
        let b = blend.min(100) as f32 / 100.0;
        f32::from(self.score) * (1.0 - b) + f32::from(self.searched) * b
    }
}

/// How to make the games.
#[derive(Clone, Copy, Debug)]
pub struct GameConfig {
    pub seed: u64,
    /// Random plies at the start of a game: 0 to this many.
    pub random_plies: u32,
    /// Search depth of the self-play players.
    pub depth: u32,
    /// Share of random moves after the opening, in percent.
    pub noise: u32,
    /// Empty squares at which the exact solver takes over.
    pub solve_at: u32,
}

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig {
            seed: 1,
            random_plies: 12,
            depth: 2,
            noise: 5,
            solve_at: 14,
        }
    }
}

fn final_discs(b: Board) -> i32 {
    endgame::final_score(b.player, b.opponent)
}

/// Plain negamax with alpha-beta, in hundredths of a disc.
fn negamax(b: Board, depth: u32, mut alpha: i32, beta: i32, eval: &dyn Fn(Board) -> i32) -> i32 {
    if depth == 0 {
        return eval(b);
    }
    let mut moves = b.moves();
    if moves == 0 {
        if get_moves(b.opponent, b.player) == 0 {
            return final_discs(b) * 100;
        }
        return -negamax(b.pass(), depth, -beta, -alpha, eval);
    }
    let mut best = i32::MIN + 1;
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let v = -negamax(b.play(sq), depth - 1, -beta, -alpha, eval);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The self-play move: the best by negamax at `depth` (ties broken at random), and its score.
fn choose(b: Board, depth: u32, eval: &dyn Fn(Board) -> i32, rng: &mut SmallRng) -> (u8, i32) {
    let mut moves = b.moves();
    let mut best = (i32::MIN, 0u8, 0u32);
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let v = -negamax(b.play(sq), depth - 1, -30_000, 30_000, eval);
        let tie: u32 = rng.random();
        if v > best.0 || (v == best.0 && tie > best.2) {
            best = (v, sq, tie);
        }
    }
    (best.1, best.0)
}

fn random_move(b: Board, rng: &mut SmallRng) -> u8 {
    let moves = b.moves();
    let mut k = rng.random_range(0..moves.count_ones());
    let mut m = moves;
    while k > 0 {
        m &= m - 1;
        k -= 1;
    }
    m.trailing_zeros() as u8
}

/// Plays one game (number `index`) and labels its positions.
pub fn play_game(
    index: u64,
    config: &GameConfig,
    players: Players<'_>,
    solver: &mut Solver,
    table: &mut Table,
) -> Vec<Sample> {
    let mut rng = SmallRng::seed_from_u64(config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index);
    let opening = rng.random_range(0..=config.random_plies);
    let mut b = Board::START;
    // Positions before the solver takes over, with the side to move in each (flipped at every ply) and
    // the score of the player's search there (none for a random move).
    let mut early: Vec<(Board, bool, Option<i32>)> = Vec::new();
    let mut side = false;
    let mut ply = 0;
    let mut out = Vec::new();
    loop {
        if b.is_over() {
            let s = final_discs(b);
            for (pos, who, searched) in early {
                out.push(sample(pos, if who == side { s } else { -s }, searched));
            }
            return out;
        }
        if b.moves() == 0 {
            b = b.pass();
            side = !side;
            continue;
        }
        if b.empty().count_ones() <= config.solve_at {
            break;
        }
        let (sq, searched) = if ply < opening || rng.random_range(0..100) < config.noise {
            (random_move(b, &mut rng), None)
        } else {
            let (sq, v) = pick(players, b, config.depth.max(1), table, &mut rng);
            (sq, Some(v))
        };
        early.push((b, side, searched));
        b = b.play(sq);
        side = !side;
        ply += 1;
    }
    label(early, b, side, solver, out)
}

/// Labels a game whose play reached `b` (with `side` to move there, as in `early`) at the solver's reach:
/// the positions in `early` with `b`'s exact score (from their own side's view), then `b` and the positions of
/// the solver's line from it with their exact scores, appended to `out`.
fn label(
    early: Vec<(Board, bool, Option<i32>)>,
    mut b: Board,
    side: bool,
    solver: &mut Solver,
    mut out: Vec<Sample>,
) -> Vec<Sample> {
    let first = solver.solve(b);
    for (pos, who, searched) in early {
        out.push(sample(
            pos,
            if who == side { first.score } else { -first.score },
            searched,
        ));
    }
    let mut solution = first;
    loop {
        out.push(sample(b, solution.score, None));
        let Some(sq) = solution.best else { break };
        b = b.play(sq);
        if b.is_over() {
            break;
        }
        if b.moves() == 0 {
            b = b.pass();
        }
        solution = solver.solve(b);
    }
    out
}

/// The labelled positions of a game people played (a WTHOR record), as a self-play game's are labelled:
/// up to the first position with `solve_at` empty squares or fewer, each with that position's exact score
/// (from its own side's view); from there, the exact solver's line. Where the record has a perfect-play
/// score from a position before that ([`super::wthor::Perfect`]), the positions up to that one take it
/// instead, free of the mistakes played after it. A game that stops earlier (a resignation) gives only the
/// positions that a perfect-play score labels.
pub fn game_samples(game: &super::wthor::Game, solve_at: u32, solver: &mut Solver) -> Vec<Sample> {
    let mut b = Board::START;
    // false: Black to move, as at the start.
    let mut side = false;
    let mut early = Vec::new();
    let mut out = Vec::new();
    let mut perfect = game.perfect.filter(|p| p.empties > solve_at);
    let mut moves = game.moves.iter();
    loop {
        if b.is_over() {
            let s = final_discs(b);
            out.extend(
                early
                    .into_iter()
                    .map(|(pos, who, _)| sample(pos, if who == side { s } else { -s }, None)),
            );
            return out;
        }
        if b.moves() == 0 {
            b = b.pass();
            side = !side;
            continue;
        }
        let empties = b.empty().count_ones();
        if empties <= solve_at {
            return label(early, b, side, solver, out);
        }
        early.push((b, side, None));
        if let Some(p) = perfect.filter(|p| p.empties == empties) {
            out.extend(
                early
                    .drain(..)
                    .map(|(pos, white, _)| sample(pos, if white { -p.black } else { p.black }, None)),
            );
            perfect = None;
        }
        let Some(&sq) = moves.next() else {
            return out;
        };
        b = b.play(sq);
        side = !side;
    }
}

/// A samples file's first bytes: `sm2` records are [`RECORD_BYTES`] (the two bitboards, little-endian, the
/// game's score and the search's); `sm1` records, read still, are one byte shorter (no search score).
const SAMPLES_MAGIC: &[u8; 16] = b"gridplay-rev-sm2";
const RECORD_BYTES: usize = 18;
const SAMPLES_MAGIC_V1: &[u8; 16] = b"gridplay-rev-sm1";

/// The samples as a file (`gridplay train reversi --samples-out`).
#[must_use]
pub fn samples_to_bytes(samples: &[Sample]) -> Vec<u8> {
    let mut out = Vec::with_capacity(SAMPLES_MAGIC.len() + samples.len() * RECORD_BYTES);
    out.extend_from_slice(SAMPLES_MAGIC);
    for s in samples {
        out.extend_from_slice(&s.player.to_le_bytes());
        out.extend_from_slice(&s.opponent.to_le_bytes());
        out.push(s.score as u8);
        out.push(s.searched as u8);
    }
    out
}

/// Reads a samples file, refusing a wrong header, a cut record, overlapping discs or a score beyond 64.
///
/// # Errors
///
/// What is wrong, and at which record.
pub fn samples_from_bytes(bytes: &[u8]) -> Result<Vec<Sample>, String> {
    let (body, record) = if let Some(body) = bytes.strip_prefix(SAMPLES_MAGIC.as_slice()) {
        (body, RECORD_BYTES)
    } else if let Some(body) = bytes.strip_prefix(SAMPLES_MAGIC_V1.as_slice()) {
        (body, RECORD_BYTES - 1)
    } else {
        return Err("not a samples file (its header is not gridplay-rev-sm2 or gridplay-rev-sm1)".into());
    };
    if body.len() % record != 0 {
        return Err(format!(
            "the file is cut: {} bytes after the header is not a whole number of {record}-byte records",
            body.len()
        ));
    }
    body.chunks_exact(record)
        .enumerate()
        .map(|(i, r)| {
            let word = |k: usize| u64::from_le_bytes(r[k..k + 8].try_into().expect("8 bytes"));
            let score = r[16] as i8;
            let s = Sample {
                player: word(0),
                opponent: word(8),
                score,
                searched: r.get(17).map_or(score, |&v| v as i8),
            };
            if s.player & s.opponent != 0
                || !(-64..=64).contains(&s.score)
                || !(-64..=64).contains(&s.searched)
            {
                return Err(format!("record {i} is not a position with a score: {s:?}"));
            }
            Ok(s)
        })
        .collect()
}

/// A sample; `searched` in hundredths of a disc, the game's score where no search ran.
fn sample(b: Board, score: i32, searched: Option<i32>) -> Sample {
    let score = score.clamp(-64, 64) as i8;
    Sample {
        player: b.player,
        opponent: b.opponent,
        score,
        searched: searched.map_or(score, |v| (v as f32 / 100.0).round().clamp(-64.0, 64.0) as i8),
    }
}

/// Plays `games` games on `threads` threads; `progress` is told after each game.
pub fn generate(
    games: u64,
    threads: usize,
    config: &GameConfig,
    players: Players<'_>,
    progress: &(dyn Fn() + Sync),
) -> Vec<Sample> {
    let threads = threads.max(1) as u64;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut solver = Solver::new(16);
                    let mut table = Table::new(if matches!(players, Players::Search(_)) {
                        16
                    } else {
                        0
                    });
                    let mut out = Vec::new();
                    let mut i = t;
                    while i < games {
                        out.extend(play_game(i, config, players, &mut solver, &mut table));
                        progress();
                        i += threads;
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a training thread panicked"))
            .collect()
    })
}

/// [`game_samples`] of every game, on `threads` threads; `progress` is told after each game.
pub fn label_games(
    games: &[super::wthor::Game],
    solve_at: u32,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Vec<Sample> {
    let threads = threads.max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut solver = Solver::new(16);
                    let mut out = Vec::new();
                    for game in games.iter().skip(t).step_by(threads) {
                        out.extend(game_samples(game, solve_at, &mut solver));
                        progress();
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a labelling thread panicked"))
            .collect()
    })
}

/// A's result in a match between two evaluations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Duel {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Duel {
    /// A's score, from 0 to 1.
    #[must_use]
    pub fn score(&self) -> f64 {
        let n = f64::from(self.wins + self.draws + self.losses).max(1.0);
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }
}

/// Plays `pairs` pairs of games between evaluations `a` and `b`, both searching `depth` plies, from the same
/// random openings of `opening` plies with the colours swapped; both play perfectly from `solve_at` empty
/// squares. Runs on `threads` threads.
#[allow(clippy::too_many_arguments)]
pub fn duel(
    a: &(dyn Fn(Board) -> i32 + Sync),
    b: &(dyn Fn(Board) -> i32 + Sync),
    pairs: u64,
    depth: u32,
    opening: u32,
    solve_at: u32,
    seed: u64,
    threads: usize,
) -> Duel {
    let threads = threads.max(1) as u64;
    let results: Vec<Duel> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut solver = Solver::new(16);
                    let mut d = Duel::default();
                    let mut i = t;
                    while i < pairs {
                        let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ i);
                        let mut start = Board::START;
                        for _ in 0..opening {
                            if start.moves() == 0 {
                                break;
                            }
                            start = start.play(random_move(start, &mut rng));
                        }
                        for a_first in [true, false] {
                            let mut b_now = start;
                            // Whether the side to move is A.
                            let mut a_to_move = a_first;
                            while !b_now.is_over() {
                                if b_now.moves() == 0 {
                                    b_now = b_now.pass();
                                    a_to_move = !a_to_move;
                                    continue;
                                }
                                let sq = if b_now.empty().count_ones() <= solve_at {
                                    solver
                                        .solve(b_now)
                                        .best
                                        .expect("a position with moves has a best move")
                                } else if a_to_move {
                                    choose(b_now, depth, a, &mut rng).0
                                } else {
                                    choose(b_now, depth, b, &mut rng).0
                                };
                                b_now = b_now.play(sq);
                                a_to_move = !a_to_move;
                            }
                            // The side to move at the end: A if a_to_move.
                            let s = final_discs(b_now) * if a_to_move { 1 } else { -1 };
                            match s.signum() {
                                1 => d.wins += 1,
                                0 => d.draws += 1,
                                _ => d.losses += 1,
                            }
                        }
                        i += threads;
                    }
                    d
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a match thread panicked"))
            .collect()
    });
    results.iter().fold(Duel::default(), |acc, d| Duel {
        wins: acc.wins + d.wins,
        draws: acc.draws + d.draws,
        losses: acc.losses + d.losses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`game_samples`] of a recorded game of these moves.
    fn labelled(
        moves: &[u8],
        perfect: Option<crate::reversi::wthor::Perfect>,
        solve_at: u32,
        solver: &mut Solver,
    ) -> Vec<Sample> {
        let game = crate::reversi::wthor::Game {
            moves: moves.to_vec(),
            perfect,
        };
        game_samples(&game, solve_at, solver)
    }

    #[test]
    fn recorded_games_are_labelled_as_self_play_games_are() {
        // A whole game of random moves, recorded as a WTHOR file records it (no passes).
        let mut rng = SmallRng::seed_from_u64(3);
        let mut b = Board::START;
        let mut moves = Vec::new();
        while !b.is_over() {
            if b.moves() == 0 {
                b = b.pass();
                continue;
            }
            let sq = random_move(b, &mut rng);
            moves.push(sq);
            b = b.play(sq);
        }
        let mut solver = Solver::new(1);
        let solve_at = 10;
        let samples = labelled(&moves, None, solve_at, &mut solver);
        // One sample for each position before the solver's reach, then the solver's line.
        let before = (0..moves.len()).filter(|&i| 60 - i as u32 > solve_at).count();
        assert!(samples.len() > before, "{} samples", samples.len());
        // The positions the solver reached are labelled with their exact scores.
        for s in samples
            .iter()
            .filter(|s| (!(s.player | s.opponent)).count_ones() <= solve_at)
        {
            let b = Board {
                player: s.player,
                opponent: s.opponent,
            };
            assert_eq!(i32::from(s.score), solver.solve(b).score);
        }
        // Each earlier position carries the first solved position's score, from its own side's view: the
        // start's label is the same score as the position after the first move, negated, unless a pass
        // came between (none does in the first plies).
        assert_eq!(samples[0].score, -samples[1].score);
        assert_eq!(samples[0].player, Board::START.player);
        // A game that stops before the solver's reach (a resignation) has no exact result: no samples.
        assert!(labelled(&moves[..20], None, solve_at, &mut solver).is_empty());
    }

    #[test]
    fn a_recorded_perfect_play_score_labels_the_positions_before_it() {
        use crate::reversi::wthor::Perfect;
        // A game whose first moves are random and whose moves from 14 empties on are the worst the solver
        // finds for the side to move: the positions before 14 empties take the perfect-play score there,
        // not the result of the worse play that followed.
        let mut rng = SmallRng::seed_from_u64(5);
        let mut solver = Solver::new(1);
        let mut b = Board::START;
        let mut white = false;
        let mut moves = Vec::new();
        let mut seen = Vec::new();
        let mut perfect = None;
        while !b.is_over() {
            if b.moves() == 0 {
                b = b.pass();
                white = !white;
                continue;
            }
            let empties = b.empty().count_ones();
            if empties == 14 {
                let score = solver.solve(b).score;
                perfect = Some(Perfect {
                    empties,
                    black: if white { -score } else { score },
                });
            }
            let sq = if empties > 14 {
                random_move(b, &mut rng)
            } else {
                let mut worst = (i32::MIN, 0);
                let mut left = b.moves();
                while left != 0 {
                    let sq = left.trailing_zeros() as u8;
                    left &= left - 1;
                    let after = b.play(sq);
                    // The score for the side that replies.
                    let score = if after.is_over() {
                        final_discs(after)
                    } else if after.moves() == 0 {
                        -solver.solve(after.pass()).score
                    } else {
                        solver.solve(after).score
                    };
                    worst = worst.max((score, sq));
                }
                worst.1
            };
            seen.push((b, white));
            moves.push(sq);
            b = b.play(sq);
            white = !white;
        }
        let perfect = perfect.expect("the game reached 14 empties");
        let solve_at = 8;
        let played = labelled(&moves, None, solve_at, &mut solver);
        let recorded = labelled(&moves, Some(perfect), solve_at, &mut solver);
        assert_eq!(played.len(), recorded.len());
        let empties = |s: &Sample| (!(s.player | s.opponent)).count_ones();
        let mut changed = 0;
        for (i, (p, r)) in played.iter().zip(&recorded).enumerate() {
            assert_eq!((p.player, p.opponent), (r.player, r.opponent));
            if empties(r) >= 14 {
                let (pos, white) = seen[i];
                assert_eq!((pos.player, pos.opponent), (r.player, r.opponent));
                let black = if white { -r.score } else { r.score };
                assert_eq!(i32::from(black), perfect.black, "position {i}");
                changed += usize::from(p.score != r.score);
            } else {
                assert_eq!(p.score, r.score, "position {i}");
            }
        }
        assert!(changed > 0, "the worse play after 14 empties changed no label");
        // Resigned after 14 empties: the positions the perfect-play score labels are kept, the rest dropped.
        let resigned = labelled(&moves[..50], Some(perfect), solve_at, &mut solver);
        assert_eq!(resigned.len(), played.iter().filter(|s| empties(s) >= 14).count());
        assert_eq!(resigned[..], recorded[..resigned.len()]);
    }

    #[test]
    fn games_are_labelled_exactly_from_the_solver_on() {
        let config = GameConfig {
            solve_at: 10,
            ..GameConfig::default()
        };
        let mut solver = Solver::new(4);
        let eval = |b: Board| (b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32) * 100;
        let samples = play_game(
            3,
            &config,
            Players::Negamax(&eval),
            &mut solver,
            &mut Table::new(0),
        );
        assert!(samples.len() > 40, "{}", samples.len());
        for s in samples
            .iter()
            .filter(|s| (!(s.player | s.opponent)).count_ones() <= 10)
        {
            let board = Board {
                player: s.player,
                opponent: s.opponent,
            };
            assert_eq!(i32::from(s.score), Solver::new(4).solve(board).score);
        }
    }

    #[test]
    fn the_search_plays_games_whose_solved_part_is_exact() {
        let config = GameConfig {
            solve_at: 10,
            depth: 3,
            ..GameConfig::default()
        };
        let mut solver = Solver::new(4);
        let samples = play_game(
            5,
            &config,
            Players::Search(Weights::shipped()),
            &mut solver,
            &mut Table::new(1),
        );
        assert!(samples.len() > 40, "{}", samples.len());
        let solved: Vec<&Sample> = samples
            .iter()
            .filter(|s| (!(s.player | s.opponent)).count_ones() <= 10)
            .collect();
        assert!(!solved.is_empty());
        // Before the solver, the positions the search chose from carry its score; it is not the game's
        // result everywhere.
        assert!(
            samples
                .iter()
                .any(|s| (!(s.player | s.opponent)).count_ones() > 10 && s.searched != s.score)
        );
        let s = samples[0];
        assert_eq!(s.target(0), f32::from(s.score));
        assert_eq!(s.target(100), f32::from(s.searched));
        for s in solved {
            assert_eq!(s.searched, s.score);
            let board = Board {
                player: s.player,
                opponent: s.opponent,
            };
            assert_eq!(i32::from(s.score), Solver::new(4).solve(board).score);
        }
    }

    #[test]
    fn samples_files_round_trip_and_bad_ones_are_refused() {
        let samples = vec![
            Sample {
                player: 0x0000_0008_1000_0000,
                opponent: 0x0000_0010_0800_0000,
                score: -12,
                searched: -7,
            },
            Sample {
                player: 1,
                opponent: 2,
                score: 64,
                searched: 64,
            },
        ];
        let bytes = samples_to_bytes(&samples);
        assert_eq!(samples_from_bytes(&bytes).unwrap(), samples);
        // A file of the first format: 17-byte records without the search's score, which reads as the game's.
        let mut v1 = b"gridplay-rev-sm1".to_vec();
        v1.extend_from_slice(&1u64.to_le_bytes());
        v1.extend_from_slice(&2u64.to_le_bytes());
        v1.push(-5i8 as u8);
        let read = samples_from_bytes(&v1).unwrap();
        assert_eq!((read[0].score, read[0].searched), (-5, -5));
        let cut = samples_from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(cut.contains("cut"), "{cut}");
        let header = samples_from_bytes(b"not a samples file at all").unwrap_err();
        assert!(header.contains("header"), "{header}");
        let mut overlapping = bytes;
        overlapping[16..24].copy_from_slice(&1u64.to_le_bytes());
        overlapping[24..32].copy_from_slice(&1u64.to_le_bytes());
        let e = samples_from_bytes(&overlapping).unwrap_err();
        assert!(e.contains("record 0"), "{e}");
    }

    #[test]
    fn a_duel_plays_both_colours_and_counts_every_game() {
        let mobility =
            |b: Board| (b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32) * 100;
        let nothing = |_: Board| 0;
        let d = duel(&mobility, &nothing, 6, 2, 4, 8, 1, 2);
        assert_eq!(d.wins + d.draws + d.losses, 12);
        assert!(d.score() > 0.5, "mobility beats nothing: {d:?}");
    }

    /// Positions of 60 games labelled by the corner count difference (8 discs a corner): a rule the corner
    /// patterns can express exactly.
    fn corner_rule_samples() -> Vec<Sample> {
        let config = GameConfig {
            solve_at: 0,
            ..GameConfig::default()
        };
        let mut solver = Solver::new(4);
        let eval = |_: Board| 0;
        let corners = 0x8100_0000_0000_0081u64;
        let mut samples: Vec<Sample> = (0..60)
            .flat_map(|i| {
                play_game(
                    i,
                    &config,
                    Players::Negamax(&eval),
                    &mut solver,
                    &mut Table::new(0),
                )
            })
            .collect();
        for s in &mut samples {
            s.score =
                ((s.player & corners).count_ones() as i8 - (s.opponent & corners).count_ones() as i8) * 8;
        }
        samples
    }

    /// The worst stage's rms error on its own positions, and the weights.
    fn fit_worst(samples: &[Sample], epochs: usize, method: Method) -> (f64, Weights) {
        fit_worst_with(samples, epochs, method, Prior::Zero)
    }

    fn fit_worst_with(samples: &[Sample], epochs: usize, method: Method, prior: Prior) -> (f64, Weights) {
        let config = FitConfig {
            epochs,
            blend: 0,
            l2: 0.0,
            prior,
            method,
        };
        let worst = std::sync::Mutex::new(0f64);
        let weights = fit(samples, config, &|f| {
            let mut w = worst.lock().unwrap();
            *w = w.max(f.rmse);
        });
        let worst = *worst.lock().unwrap();
        (worst, weights)
    }

    #[test]
    fn fitting_learns_a_simple_rule() {
        let samples = corner_rule_samples();
        let (worst, weights) = fit_worst(&samples, 60, Method::Steps);
        assert!(worst < 2.0, "rmse {worst}");
        let s = samples.iter().find(|s| s.score != 0).unwrap();
        let board = Board {
            player: s.player,
            opponent: s.opponent,
        };
        let got = weights.evaluate(board);
        assert!(
            (got - i32::from(s.score) * 100).abs() < 300,
            "{got} vs {}",
            s.score
        );
    }

    #[test]
    fn conjugate_gradients_reach_the_exact_rule_where_the_steps_stop_short() {
        let samples = corner_rule_samples();
        let (steps, _) = fit_worst(&samples, 60, Method::Steps);
        let (cg, weights) = fit_worst(&samples, 60, Method::ConjugateGradient);
        assert!(cg < 0.05, "conjugate gradients: rmse {cg}");
        assert!(cg < steps / 4.0, "conjugate gradients {cg} against steps {steps}");
        // The stored weights (hundredths of a disc) give every position's label.
        let (errors, all) = errors(&weights, &samples, 0);
        assert!(all < 0.1, "{all}");
        let worst = errors.iter().map(|e| e.rmse).fold(0f64, f64::max);
        assert!(worst < 0.1, "{errors:?}");
    }

    #[test]
    fn stages_without_positions_keep_the_later_stages_weights_under_that_prior() {
        // Positions of 30 empty squares or fewer: stages 6-12, and stage 5 fitted on stage 6's positions.
        let samples: Vec<Sample> = corner_rule_samples()
            .into_iter()
            .filter(|s| (!(s.player | s.opponent)).count_ones() <= 30)
            .collect();
        let per = crate::reversi::pattern::Layout::get().per_stage;
        let stage_values = |w: &Weights, st: usize| w.values[st * per..(st + 1) * per].to_vec();
        for method in [Method::Steps, Method::ConjugateGradient] {
            let (worst, later) = fit_worst_with(&samples, 60, method, Prior::LaterStage);
            assert!(worst < 2.0, "{method:?}: rmse {worst}");
            let fitted = stage_values(&later, 5);
            assert!(fitted.iter().any(|&v| v != 0), "{method:?}");
            for st in 0..5 {
                assert_eq!(stage_values(&later, st), fitted, "{method:?}, stage {st}");
            }
            let (_, zero) = fit_worst_with(&samples, 60, method, Prior::Zero);
            assert!(stage_values(&zero, 0).iter().all(|&v| v == 0), "{method:?}");
            assert!(stage_values(&zero, 5).iter().any(|&v| v != 0), "{method:?}");
        }
    }

    #[test]
    fn a_stage_pulled_towards_the_later_one_still_fits_its_own_positions() {
        let samples = corner_rule_samples();
        let (cg, weights) = fit_worst_with(&samples, 60, Method::ConjugateGradient, Prior::LaterStage);
        assert!(cg < 0.05, "rmse {cg}");
        let (_, all) = errors(&weights, &samples, 0);
        assert!(all < 0.1, "{all}");
    }
}
