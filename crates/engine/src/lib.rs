//! gridplay's engines: one evaluation per game (a module each) on top of the game-independent
//! [`gridplay_search`], levels 1-8, and [`think`], which works on any registered game's position.
//!
//! The evaluations are in hundredths of a game unit (a disc, a man, a health point). Reversi's is a trained
//! pattern evaluation with an exact endgame solver ([`reversi::endgame`]); checkers' full strength is a
//! search of its own with a learned evaluation and endgame databases ([`checkers`]); the others are
//! hand-written, with weights chosen by matches. `docs/engines.md` records what exists and what was measured.

pub mod books;
pub mod checkers;
pub mod cornered;
pub mod data;
pub mod datagen;
mod huge;
mod levels;
pub mod lines;
mod parallel;
mod proof;
pub mod puzzles;
mod registry;
pub mod reversi;
pub mod review;
mod score;
pub mod tactics;
pub mod tictactoe;
pub mod ywf;

use std::{
    hash::{Hash, Hasher},
    time::Duration,
};

use gridplay_core::{DynPosition, GameRecord, Position};
use gridplay_search::{
    Evaluator, Limits, Report, Search, StopFlag, TranspositionTable, mcts, score_root_moves,
};
use rand::{RngExt, SeedableRng, rngs::SmallRng};

pub use data::DataError;
pub use levels::{
    CHECKERS_LEVELS, CORNERED_LEVELS, LEVELS, Level, REVERSI_LEVELS, TACTICS_LEVELS, TICTACTOE_LEVELS,
};
pub use registry::{ENGINES, GameEngine, engine};
pub use score::MatchScore;

/// What to think about and for how long.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Search limits for full-strength play; ignored when `level` is set.
    pub limits: Limits,
    /// A playing level 1-8.
    pub level: Option<u8>,
    /// Seed for the weaker levels' choices and for MCTS; the same seed gives the same move.
    pub seed: u64,
    /// Search by Monte Carlo tree search (UCT with random playouts) instead of alpha-beta, within `limits`
    /// (its `nodes` count playouts).
    pub mcts: bool,
    /// Without a level, plays like a weak level: every move is scored to `limits.depth` (within
    /// `limits.time`) and one is drawn by softmax with this temperature, in hundredths of a game unit.
    pub temperature: Option<u32>,
    /// The game clock of the side to move: the engine spends a share of it (within `limits.time`, if set).
    pub clock: Option<Clock>,
    /// Plays from the game's opening book where it has one (Reversi, checkers), drawing among the book's
    /// near-best moves by `seed`. Never at levels below 6.
    pub book: bool,
    /// Threads of a full-strength Reversi search or solve (0 and 1: this thread alone); the other games'
    /// searches run on one thread.
    pub threads: usize,
}

/// A side's game clock: the time it has left and what each move adds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub left: Duration,
    pub increment: Duration,
}

impl Clock {
    /// Kept back from every allotment, for the time the answer takes to travel.
    pub const MARGIN: Duration = Duration::from_millis(50);

    /// The time left less the margin.
    #[must_use]
    pub fn usable(self) -> Duration {
        self.left.saturating_sub(Clock::MARGIN)
    }

    /// A plain share for a game whose engine knows nothing better: the time left over `moves` more moves, plus
    /// three quarters of the increment, and never more than a quarter of what is left.
    #[must_use]
    pub fn share(self, moves: u32) -> Duration {
        let usable = self.usable();
        (usable / moves.max(1) + self.increment * 3 / 4).min(usable / 4)
    }
}

/// Level `level` of a game's table `levels` (1 is the first); a level beyond the table plays as its top level,
/// and 0 as its first, so that no level number can index past the table.
pub(crate) fn level_entry(levels: &[Level], level: u8) -> Level {
    let top = u8::try_from(levels.len()).unwrap_or(u8::MAX);
    levels[usize::from(level.clamp(1, top)) - 1]
}

/// The levels of the engine of the game named `game`: 1 to the returned number (`None` where no engine plays
/// it). The server, the command line and the protocols take their level ranges from here.
#[must_use]
pub fn top_level(game: &str) -> Option<u8> {
    registry::engine(game).map(|e| u8::try_from(e.levels.len()).unwrap_or(u8::MAX))
}

/// Makes ready, for the game named `game`, what its engine's first full-strength move would otherwise make
/// on that move's time: Reversi reads its weights and makes a search table and a solver (80-450 ms measured
/// on the 2-core machine), checkers reads its network and book and starts
/// loading its endgame database. A match, `gridplay engine` and a bot call it before their first clock
/// starts; later calls cost nothing. Unknown games are ignored.
pub fn prepare(game: &str) {
    if let Some(engine) = registry::engine(game) {
        (engine.prepare)();
    }
}

/// Whether the engine of `pos`'s game plays `level` with a search that can use several threads
/// ([`Request::threads`]): the game's top level, where its full-strength search is parallel.
#[must_use]
pub fn parallel_at(pos: &dyn DynPosition, level: u8) -> bool {
    registry::engine_of(pos).is_some_and(|e| e.parallel && usize::from(level) >= e.levels.len())
}

impl Request {
    /// The level this request plays at from the game's table `levels`, or the softmax player its temperature
    /// asks for. A level beyond the table plays as its top level.
    fn level(&self, levels: &[Level]) -> Option<Level> {
        match (self.level, self.temperature) {
            (Some(level), _) => Some(level_entry(levels, level)),
            (None, Some(temperature)) => Some(Level {
                depth: self.limits.depth.unwrap_or(64),
                temperature,
                time: self.limits.time,
                playouts: None,
                random: 0,
            }),
            (None, None) => None,
        }
    }
}

/// The engine's answer, with moves as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub best: String,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<String>,
}

impl Reply {
    /// A move played from an opening book: no search, so depth and nodes 0.
    #[must_use]
    pub fn from_book(best: String, score: i32) -> Reply {
        Reply {
            pv: vec![best.clone()],
            best,
            score,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        }
    }
}

/// Why the engine could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    GameOver,
    /// Stopped before a first answer.
    Stopped,
    UnknownGame,
    /// The level asked for, and the game's top level.
    BadLevel {
        level: u8,
        top: usize,
    },
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::GameOver => f.write_str("the game is over: there is no move to find"),
            EngineError::Stopped => f.write_str("the search was stopped before its first answer"),
            EngineError::UnknownGame => f.write_str("no engine plays this game"),
            EngineError::BadLevel { level, top } => {
                write!(
                    f,
                    "level {level} does not exist: this game's levels are 1 to {top}"
                )
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// Thinks about a position of any registered game.
///
/// # Errors
///
/// When the game is over, the level is not 1-8, or the position is of a game without an engine.
pub fn think(pos: &dyn DynPosition, request: &Request, stop: &StopFlag) -> Result<Reply, EngineError> {
    think_after(pos, &[], request, stop)
}

/// Thinks about the current position of a game in progress, as [`think`] does; the checkers search also sees
/// the game's earlier positions, so that it knows which positions would repeat.
///
/// # Errors
///
/// As [`think`], and when the record's game has ended by its history rules.
pub fn think_game(record: &GameRecord, request: &Request, stop: &StopFlag) -> Result<Reply, EngineError> {
    if record.outcome().is_some() {
        return Err(EngineError::GameOver);
    }
    // Only a search that reads the history gets the replay.
    if !registry::engine_of(record.position()).is_some_and(|e| e.uses_history) {
        return think(record.position(), request, stop);
    }
    let mut earlier = Vec::with_capacity(record.moves().len());
    let mut pos = record.start().box_clone();
    for m in record.moves() {
        let next = {
            let mut p = pos.clone();
            if p.play(m).is_err() {
                break;
            }
            p
        };
        earlier.push(std::mem::replace(&mut pos, next));
    }
    think_after(record.position(), &earlier, request, stop)
}

/// [`think`] about `pos`, reached after the positions of `earlier` (oldest first).
fn think_after(
    pos: &dyn DynPosition,
    earlier: &[Box<dyn DynPosition>],
    request: &Request,
    stop: &StopFlag,
) -> Result<Reply, EngineError> {
    let engine = registry::engine_of(pos).ok_or(EngineError::UnknownGame)?;
    if let Some(level) = request.level
        && !(1..=engine.levels.len()).contains(&usize::from(level))
    {
        return Err(EngineError::BadLevel {
            level,
            top: engine.levels.len(),
        });
    }
    if pos.outcome().is_some() {
        return Err(EngineError::GameOver);
    }
    // A game whose engine does not spend a clock itself gets a plain share of it as a time limit.
    let mut request = *request;
    if let Some(clock) = request.clock
        && !engine.spends_clock
    {
        let share = clock.share(30).max(Duration::from_millis(1));
        request.limits.time = Some(request.limits.time.map_or(share, |t| t.min(share)));
    }
    engine
        .think(pos, earlier, &request, stop)
        .ok_or(EngineError::GameOver)
}

/// The opening book's moves in `pos` with their scores for the side to move (hundredths of a game unit), best
/// first: `None` where the game has no book, empty where the book does not have the position.
#[must_use]
pub fn book_moves(pos: &dyn DynPosition) -> Option<Vec<(String, i32)>> {
    registry::engine_of(pos)?.book(pos)
}

/// Scores every legal move for the side to move, in hundredths of a game unit, best first. Every move is
/// searched to the same depth, one ply deeper at a time within `time`, and the deepest complete scoring is
/// kept (one ply always completes), so that the scores of a move played and of the best move compare fairly:
/// this is how an analysis finds mistakes.
///
/// # Errors
///
/// When the game is over, or the position is of a game without an engine.
pub fn score_moves(
    pos: &dyn DynPosition,
    time: Duration,
    stop: &StopFlag,
) -> Result<Vec<(String, i32)>, EngineError> {
    if pos.outcome().is_some() {
        return Err(EngineError::GameOver);
    }
    let engine = registry::engine_of(pos).ok_or(EngineError::UnknownGame)?;
    engine.score(pos, time, stop).ok_or(EngineError::UnknownGame)
}

pub(crate) fn score_typed<P: Position + Hash, E: Evaluator<P>>(
    pos: &P,
    eval: &E,
    time: Duration,
    stop: &StopFlag,
) -> Vec<(String, i32)> {
    let mut tt = TranspositionTable::new(16);
    let mut scores = score_root_moves(pos, eval, 1, &mut tt, Limits::default(), stop).unwrap_or_default();
    let limits = Limits {
        time: Some(time),
        ..Limits::default()
    };
    for depth in 2..=32 {
        match score_root_moves(pos, eval, depth, &mut tt, limits, stop) {
            Some(deeper) => scores = deeper,
            None => break,
        }
    }
    scores.iter().map(|s| (pos.move_text(s.mv), s.score)).collect()
}

pub(crate) fn texts<P: Position>(pos: &P, moves: &[P::Move]) -> Vec<String> {
    let mut p = pos.clone();
    moves
        .iter()
        .map(|&m| {
            let t = p.move_text(m);
            p.play_unchecked(m);
            t
        })
        .collect()
}

impl Reply {
    /// The reply of a finished search of `pos`, which is not over.
    fn from_report<P: Position>(pos: &P, report: &Report<P::Move>) -> Reply {
        let best = report
            .best
            .expect("the game is not over, so there is a legal move");
        Reply {
            best: pos.move_text(best),
            score: report.score,
            depth: report.depth,
            nodes: report.nodes,
            elapsed: report.elapsed,
            pv: texts(pos, &report.pv),
        }
    }
}

/// Monte Carlo tree search within `limits`.
fn think_mcts<P: Position>(pos: &P, limits: Limits, seed: u64, stop: &StopFlag) -> Reply {
    Reply::from_report(pos, &mcts(pos, limits, stop, seed))
}

/// The seed of a weak level's draws: the request's seed mixed with the position, so that a client that sends
/// the same seed for every move (the protocol's default is 0, `gridplay play` keeps one for the game) still
/// gets a fresh draw at each move, and the same seed and position give the same move.
fn draw_seed<P: Hash>(pos: &P, seed: u64) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    pos.hash(&mut hasher);
    seed.hash(&mut hasher);
    hasher.finish()
}

/// The typed engine: a full search, Monte Carlo tree search, or a level's choice among the scored root moves.
/// A level comes from the game's own table, `levels`.
pub fn think_typed<P: Position + Hash, E: Evaluator<P>>(
    pos: &P,
    eval: &E,
    levels: &[Level],
    request: &Request,
    stop: &StopFlag,
) -> Reply {
    let level = request.level(levels);
    if let Some(playouts) = level.and_then(|l| l.playouts) {
        let limits = Limits {
            nodes: Some(playouts),
            time: level.and_then(|l| l.time),
            depth: None,
        };
        return think_mcts(pos, limits, request.seed, stop);
    }
    if request.mcts {
        return think_mcts(pos, request.limits, request.seed, stop);
    }
    let mut tt = TranspositionTable::new(16);
    let mut rng = SmallRng::seed_from_u64(draw_seed(pos, request.seed));
    if let Some(level) = level
        && level.random > 0
        && rng.random_range(0..100) < level.random
    {
        // A blunder: any legal move, reported with the evaluation of the position it reaches.
        let started = std::time::Instant::now();
        let moves = pos.legal_moves();
        let m = moves[rng.random_range(0..moves.len())];
        let mut next = pos.clone();
        next.play_unchecked(m);
        let value = next
            .outcome()
            .map_or_else(|| eval.evaluate(&next), |o| eval.terminal(&next, o, 1));
        return Reply {
            best: pos.move_text(m),
            score: if next.turn() == pos.turn() { value } else { -value },
            depth: 0,
            nodes: 1,
            elapsed: started.elapsed(),
            pv: vec![pos.move_text(m)],
        };
    }
    match level {
        Some(level) if level.temperature > 0 => {
            let started = std::time::Instant::now();
            // Deepen one ply at a time within the level's time and keep the deepest complete scoring; one ply
            // is always completed.
            let mut scores = score_root_moves(pos, eval, 1, &mut tt, Limits::default(), stop)
                .expect("a one-ply scoring without limits completes");
            let mut depth = 1;
            let limits = Limits {
                time: level.time,
                ..Limits::default()
            };
            for d in 2..=level.depth {
                match score_root_moves(pos, eval, d, &mut tt, limits, stop) {
                    Some(deeper) => (scores, depth) = (deeper, d),
                    None => break,
                }
            }
            let choice = level.choose(&scores, &mut |n| rng.random_range(0.0..n));
            Reply {
                best: pos.move_text(choice.mv),
                score: choice.score,
                depth,
                nodes: scores.len() as u64,
                elapsed: started.elapsed(),
                pv: vec![pos.move_text(choice.mv)],
            }
        }
        other => {
            let limits = other.map_or(request.limits, |l| Limits {
                depth: Some(l.depth),
                time: l.time,
                nodes: None,
            });
            Reply::from_report(pos, &Search::new(eval, &mut tt, limits, stop.clone()).run(pos))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_moves_scores_symmetric_moves_alike_and_every_move_once() {
        let game = gridplay_games::registry().game("reversi").unwrap();
        let scores = score_moves(game.start().as_ref(), Duration::from_millis(50), &StopFlag::new()).unwrap();
        assert_eq!(scores.len(), 4);
        // The four first moves of Reversi are one move up to symmetry.
        assert!(scores.iter().all(|s| s.1 == scores[0].1), "{scores:?}");
        let game = gridplay_games::registry().game("checkers").unwrap();
        let scores = score_moves(game.start().as_ref(), Duration::from_millis(50), &StopFlag::new()).unwrap();
        assert_eq!(scores.len(), 7);
        assert!(
            scores.windows(2).all(|w| w[0].1 >= w[1].1),
            "best first: {scores:?}"
        );
    }

    #[test]
    fn every_game_gets_a_legal_move_at_every_level() {
        let registry = gridplay_games::registry_with_test_games();
        for entry in registry.entries() {
            let game = registry.game(entry.name).unwrap();
            let pos = game.start();
            let top = engine(entry.name).unwrap().levels.len() as u8;
            for level in 1..=top {
                let reply = think(
                    pos.as_ref(),
                    &Request {
                        level: Some(level),
                        seed: 7,
                        ..Request::default()
                    },
                    &StopFlag::new(),
                )
                .unwrap();
                assert!(
                    pos.legal_moves().contains(&reply.best),
                    "{} level {level}: {}",
                    entry.name,
                    reply.best
                );
            }
            let reply = think(
                pos.as_ref(),
                &Request {
                    limits: Limits::depth(2),
                    ..Request::default()
                },
                &StopFlag::new(),
            )
            .unwrap();
            assert!(pos.legal_moves().contains(&reply.best));
        }
    }

    #[test]
    fn levels_follow_their_games_tables() {
        let at = |spec: &str, level: u8| {
            let pos = gridplay_games::registry().game(spec).unwrap().start();
            let request = Request {
                level: Some(level),
                seed: 3,
                ..Request::default()
            };
            think(pos.as_ref(), &request, &StopFlag::new()).unwrap()
        };
        // Cornered Reversi's level 6 is a Monte Carlo tree search of 10,000 playouts.
        let reply = at("cornered:size=5", 6);
        assert_eq!((reply.depth, reply.nodes), (0, 10_000));
        // Grid Tactics' level 6 searches two plies for the best move, level 7 three.
        assert_eq!(at("tactics", 6).depth, 2);
        assert_eq!(at("tactics", 7).depth, 3);
        // Reversi's level 6 searches by alpha-beta (a Monte Carlo search reports depth 0).
        assert!(at("reversi", 6).depth >= 1);
        // Only Reversi's top level searches on several threads.
        let start = |spec: &str| gridplay_games::registry().game(spec).unwrap().start();
        assert!(parallel_at(start("reversi").as_ref(), 8));
        assert!(!parallel_at(start("reversi").as_ref(), 7));
        assert!(!parallel_at(start("checkers").as_ref(), 8));
        let two = Request {
            level: Some(8),
            threads: 2,
            ..Request::default()
        };
        let reply = think(start("reversi").as_ref(), &two, &StopFlag::new()).unwrap();
        assert!(reply.depth >= 1 && !reply.best.is_empty());
    }

    #[test]
    fn grid_tactics_weak_levels_play_a_random_move_a_share_of_the_time() {
        let pos = gridplay_games::registry().game("tactics").unwrap().start();
        let legal = pos.legal_moves();
        let at = |level: u8, seed: u64| {
            let request = Request {
                level: Some(level),
                seed,
                ..Request::default()
            };
            think(pos.as_ref(), &request, &StopFlag::new()).unwrap()
        };
        // Level 1 plays a random legal move 60% of the time (reported at depth 0) and otherwise its best
        // move at depth 2. Of 60 seeds, 36 are expected random; 24-48 is over three standard deviations.
        let mut random = 0;
        let mut distinct = std::collections::HashSet::new();
        for seed in 0..60 {
            let reply = at(1, seed);
            assert!(legal.contains(&reply.best), "{}", reply.best);
            assert!(reply.depth == 0 || reply.depth == 2, "depth {}", reply.depth);
            if reply.depth == 0 {
                random += 1;
                distinct.insert(reply.best);
            }
        }
        assert!((24..=48).contains(&random), "{random} random moves of 60");
        assert!(distinct.len() > 10, "random moves are spread: {distinct:?}");
        // The same seed gives the same move.
        assert_eq!(at(1, 11).best, at(1, 11).best);
        // A client that sends one seed for every move (the protocol's default) still gets a fresh draw at
        // each: over 30 moves of a game with seed 0, 18 are expected random; 8-28 is over three standard
        // deviations.
        let mut pos = pos;
        let mut random = 0;
        for _ in 0..30 {
            let request = Request {
                level: Some(1),
                ..Request::default()
            };
            let reply = think(pos.as_ref(), &request, &StopFlag::new()).unwrap();
            random += usize::from(reply.depth == 0);
            pos.play(&reply.best).unwrap();
        }
        assert!((8..=28).contains(&random), "{random} random moves of 30");
    }

    #[test]
    fn on_a_game_clock_the_end_of_a_reversi_game_is_played_by_a_win_loss_draw_solve() {
        // FFO #40 mirrored in the a1-h8 diagonal (the timed test below solves FFO #40 itself, and the kept
        // solvers are shared): 20 empty squares, Black to move and win (B1 by 38). On a clock of one minute
        // the exact solver takes over only at 18 empties, so this move is a win/loss/draw solve's, answered as
        // a win by 2 discs at the depth of the empties.
        let game = gridplay_games::registry().game("reversi").unwrap();
        let ffo40 = game
            .parse_position("O-OOO----OOOO----OXXO---OOXOOO--OOOOOOO-OOOOOO--OOOXXO--XXXXXXX- X")
            .unwrap();
        let clock = Request {
            clock: Some(Clock {
                left: Duration::from_secs(60),
                increment: Duration::ZERO,
            }),
            ..Request::default()
        };
        let reply = think(ffo40.as_ref(), &clock, &StopFlag::new()).unwrap();
        assert_eq!((reply.score, reply.depth), (200, 20), "{reply:?}");
    }

    #[test]
    fn refuses_a_finished_game_and_bad_levels() {
        let game = gridplay_games::registry().game("checkers").unwrap();
        let over = game.parse_position("W:W:B1").unwrap();
        assert_eq!(
            think(over.as_ref(), &Request::default(), &StopFlag::new()),
            Err(EngineError::GameOver)
        );
        let start = game.start();
        let bad = Request {
            level: Some(9),
            ..Request::default()
        };
        assert_eq!(
            think(start.as_ref(), &bad, &StopFlag::new()),
            Err(EngineError::BadLevel { level: 9, top: 8 })
        );
        // Each game has the levels its table has.
        let small = gridplay_games::registry_with_test_games()
            .game("tictactoe")
            .unwrap()
            .start();
        let four = Request {
            level: Some(4),
            ..Request::default()
        };
        assert_eq!(
            think(small.as_ref(), &four, &StopFlag::new()),
            Err(EngineError::BadLevel { level: 4, top: 3 })
        );
    }

    /// The engine table and the registry list the same games.
    #[test]
    fn every_registered_game_has_one_engine() {
        let registry = gridplay_games::registry_with_test_games();
        for entry in registry.entries() {
            assert_eq!(
                ENGINES.iter().filter(|e| e.game == entry.name).count(),
                1,
                "{}",
                entry.name
            );
            let start = registry.game(entry.name).unwrap().start();
            assert_eq!(
                registry::engine_of(start.as_ref()).map(|e| e.game),
                Some(entry.name)
            );
        }
        assert_eq!(ENGINES.len(), registry.entries().len());
    }

    #[test]
    fn the_top_tictactoe_level_never_loses() {
        // From every position after one or two moves, the top level draws or wins against any reply: it
        // finds the best move by searching to the end.
        let game = gridplay_games::registry_with_test_games()
            .game("tictactoe")
            .unwrap();
        let top = Request {
            level: Some(3),
            ..Request::default()
        };
        for first in game.start().legal_moves() {
            let mut pos = game.start();
            pos.play(&first).unwrap();
            let reply = think(pos.as_ref(), &top, &StopFlag::new()).unwrap();
            // X's first move never wins by force: the engine, as O, holds it to at least a draw.
            assert!(reply.score >= 0, "{first}: {reply:?}");
        }
    }

    #[test]
    fn search_agrees_with_the_exact_solver_on_small_endgames() {
        use gridplay_core::Game;
        use gridplay_search::WIN_THRESHOLD;
        let mut rng = gridplay_core::playout::seeded(17);
        let mut solver = reversi::endgame::Solver::new(4);
        let mut checked = 0;
        while checked < 25 {
            let (pos, _) = gridplay_core::playout::random_playout(
                &gridplay_games::reversi::Reversi::default().start(),
                &mut rng,
                52,
                |_| {},
            );
            let empties = pos.board().empty().count_ones();
            if Position::is_over(&pos) || empties > 10 {
                continue;
            }
            let exact = solver.solve(pos.board()).score;
            let mut tt = TranspositionTable::new(4);
            let report = Search::new(
                &reversi::Eval,
                &mut tt,
                Limits::depth(empties + 2),
                StopFlag::new(),
            )
            .run(&pos);
            // The search proves the same result: win, draw or loss.
            let proven = if report.score >= WIN_THRESHOLD {
                1
            } else if report.score <= -WIN_THRESHOLD {
                -1
            } else {
                0
            };
            assert_eq!(proven, exact.signum(), "{}", Position::to_text(&pos));
            // And its move keeps that result.
            let mut after = pos;
            after.play_unchecked(report.best.unwrap());
            let after_exact = if Position::turn(&after) == Position::turn(&pos) {
                solver.solve(after.board()).score
            } else {
                -solver.solve(after.board()).score
            };
            assert_eq!(
                after_exact.signum(),
                exact.signum(),
                "{}",
                Position::to_text(&pos)
            );
            checked += 1;
        }
    }

    #[test]
    fn reversi_endgames_are_solved_exactly() {
        let game = gridplay_games::registry().game("reversi").unwrap();
        let pos = game
            .parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
            .unwrap();
        // The second solve reuses a kept solver whose table holds the first one's bounds.
        for _ in 0..2 {
            let reply = think(pos.as_ref(), &Request::default(), &StopFlag::new()).unwrap();
            assert_eq!((reply.best.as_str(), reply.score), ("g8", 18 * 100));
        }
    }

    /// With time to spend, 20 empties from the end, a won position is played by a win/loss/draw solve (FFO #40:
    /// the side to move wins); stopped before it starts, the solve gives up and the midgame search answers
    /// (with a time of a millisecond the solve may end in time or not: it takes about that long).
    #[test]
    fn a_timed_search_plays_a_won_endgame_by_a_win_loss_draw_solve() {
        let game = gridplay_games::registry().game("reversi").unwrap();
        let text = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
        let pos = game.parse_position(text).unwrap();
        let timed = |ms| Request {
            limits: Limits::time(Duration::from_millis(ms)),
            ..Request::default()
        };
        // The stopped one first: once solved, the kept solver's table could answer at once.
        let stopped = StopFlag::new();
        stopped.stop();
        let quick = think(pos.as_ref(), &timed(120_000), &stopped).unwrap();
        assert!(quick.depth < 20, "{quick:?}");
        let reply = think(pos.as_ref(), &timed(120_000), &StopFlag::new()).unwrap();
        assert_eq!((reply.score, reply.depth), (200, 20), "{reply:?}");
        let mut after = pos.box_clone();
        after.play(&reply.best).unwrap();
        let board = after
            .as_any()
            .downcast_ref::<gridplay_games::reversi::ReversiPosition>()
            .unwrap()
            .board();
        let theirs = reversi::endgame::Solver::new(16).solve(board).score;
        assert!(
            theirs < 0,
            "{} keeps the win: the opponent then scores {theirs}",
            reply.best
        );
    }

    #[test]
    fn finds_a_forced_win() {
        // Red to move wins at once by taking White's last piece.
        let game = gridplay_games::registry().game("checkers").unwrap();
        let pos = game.parse_position("B:W18:B14,1").unwrap();
        let reply = think(
            pos.as_ref(),
            &Request {
                limits: Limits::depth(3),
                ..Request::default()
            },
            &StopFlag::new(),
        )
        .unwrap();
        assert_eq!(reply.best, "14x23");
        assert!(reply.score >= gridplay_search::WIN_THRESHOLD);
    }
}
