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

pub use fit::{FitConfig, Method, Prior, StageFit, UnknownChoice, errors, fit};

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
pub fn samples_from_bytes(bytes: &[u8]) -> Result<Vec<Sample>, crate::DataError> {
    let bad = |reason: String| crate::DataError::format("reversi samples", reason);
    let (body, record) = if let Some(body) = bytes.strip_prefix(SAMPLES_MAGIC.as_slice()) {
        (body, RECORD_BYTES)
    } else if let Some(body) = bytes.strip_prefix(SAMPLES_MAGIC_V1.as_slice()) {
        (body, RECORD_BYTES - 1)
    } else {
        return Err(bad(
            "not a samples file (its header is not gridplay-rev-sm2 or gridplay-rev-sm1)".into(),
        ));
    };
    if body.len() % record != 0 {
        return Err(bad(format!(
            "the file is cut: {} bytes after the header is not a whole number of {record}-byte records",
            body.len()
        )));
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
                return Err(bad(format!("record {i} is not a position with a score: {s:?}")));
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
mod tests;
