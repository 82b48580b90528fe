//! The registry of engines: each game's engine, keyed by the game's registry name: its levels, how it
//! thinks and how it scores every move for an analysis. This is the one list of the games the engine plays;
//! [`crate::think`] and [`crate::score_moves`] find a position's entry here.

use std::{any::Any, time::Duration};

use gridplay_core::{DynPosition, Game, Position};
use gridplay_games::{
    checkers::{Checkers, CheckersPosition},
    cornered::{Cornered, CorneredPosition},
    reversi::{Reversi, ReversiPosition},
    tactics::{Tactics, TacticsPosition},
    tictactoe::{TicTacToe, TicTacToePosition},
    ywf::{Ywf, YwfPosition},
};
use gridplay_search::{Limits, StopFlag, WIN, WIN_THRESHOLD};

use crate::{
    CHECKERS_LEVELS, CORNERED_LEVELS, LEVELS, Level, REVERSI_LEVELS, Reply, Request, TACTICS_LEVELS,
    TICTACTOE_LEVELS, checkers, cornered, level_entry, proof::Proof, reversi, score_typed, tactics,
    think_typed, tictactoe, ywf,
};

/// Thinks about a position of the entry's game reached after the given earlier positions; `None` when the
/// position is of another game.
type Think = fn(&dyn Any, &[Box<dyn DynPosition>], &Request, &StopFlag) -> Option<Reply>;
/// Scores every legal move within a time; `None` when the position is of another game.
type ScoreMoves = fn(&dyn Any, Duration, &StopFlag) -> Option<Vec<(String, i32)>>;

/// The opening book's moves of a position with their scores; `None` when the game has no book.
type BookMoves = fn(&dyn Any) -> Option<Vec<(String, i32)>>;

/// One game's engine.
pub struct GameEngine {
    /// The game's registry name.
    pub game: &'static str,
    /// Levels 1 to `levels.len()`.
    pub levels: &'static [Level],
    /// Whether the search reads the game's earlier positions (repetitions, the quiet-move rule), so that
    /// [`crate::think_game`] replays them.
    pub uses_history: bool,
    /// Whether the engine spends a game clock ([`crate::Request::clock`]) by its own rules; the others get a
    /// plain share of it as a time limit.
    pub spends_clock: bool,
    /// Whether the game is scored by a margin that the engine's scores count in hundredths (Reversi's discs).
    pub scores_margin: bool,
    /// Whether its full-strength search and solve run on several threads ([`crate::Request::threads`]).
    pub parallel: bool,
    /// How many hundredths of the game's unit count as a chess pawn in the win-percentage model of a game's
    /// review ([`crate::review`]): about what a player must give away for a move to be an inaccuracy is a
    /// quarter of this more (docs/engines.md, "Review").
    pub pawn: i32,
    /// Makes ready what its first full-strength move would otherwise make on that move's time ([`crate::prepare`]).
    pub(crate) prepare: fn(),
    is: fn(&dyn Any) -> bool,
    think: Think,
    /// How much a score that the engine's full search gave for a position is proved.
    proof: fn(&dyn Any, i32) -> Proof,
    /// The opening book's moves with their scores, where the game has a book.
    book: BookMoves,
    score: ScoreMoves,
}

impl std::fmt::Debug for GameEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEngine")
            .field("game", &self.game)
            .field("levels", &self.levels.len())
            .finish_non_exhaustive()
    }
}

impl GameEngine {
    pub(crate) fn think(
        &self,
        pos: &dyn DynPosition,
        earlier: &[Box<dyn DynPosition>],
        request: &Request,
        stop: &StopFlag,
    ) -> Option<Reply> {
        (self.think)(pos.as_any(), earlier, request, stop)
    }

    pub(crate) fn book(&self, pos: &dyn DynPosition) -> Option<Vec<(String, i32)>> {
        (self.book)(pos.as_any())
    }

    pub(crate) fn proof(&self, pos: &dyn DynPosition, score: i32) -> Proof {
        (self.proof)(pos.as_any(), score)
    }

    pub(crate) fn score(
        &self,
        pos: &dyn DynPosition,
        time: Duration,
        stop: &StopFlag,
    ) -> Option<Vec<(String, i32)>> {
        (self.score)(pos.as_any(), time, stop)
    }
}

/// An entry for a game whose engine is the generic search with the evaluation `$eval(position)`.
macro_rules! generic {
    ($game:ty, $pos:ty, $levels:expr, $pawn:expr, $eval:expr) => {
        GameEngine {
            game: <$game as Game>::NAME,
            levels: &$levels,
            uses_history: false,
            spends_clock: false,
            scores_margin: false,
            parallel: false,
            pawn: $pawn,
            prepare: || {},
            is: |any| any.is::<$pos>(),
            proof: |_, score| proof_by_win(score, 1000),
            book: |_| None,
            think: |any, _, request, stop| {
                let p = any.downcast_ref::<$pos>()?;
                Some(think_typed(p, &$eval(p), &$levels, request, stop))
            },
            score: |any, time, stop| {
                let p = any.downcast_ref::<$pos>()?;
                Some(score_typed(p, &$eval(p), time, stop))
            },
        }
    };
}

/// Every game's engine.
pub static ENGINES: &[GameEngine] = &[
    GameEngine {
        game: <Reversi as Game>::NAME,
        levels: &REVERSI_LEVELS,
        uses_history: false,
        spends_clock: true,
        scores_margin: true,
        parallel: true,
        // Four discs.
        pawn: 400,
        prepare: reversi::prepare,
        is: |any| any.is::<ReversiPosition>(),
        // Near the end the full search is an exact solve.
        proof: |any, _| match any.downcast_ref::<ReversiPosition>() {
            Some(p) if p.board().empty().count_ones() <= reversi::SOLVE_EMPTIES => Proof::Exact,
            _ => Proof::Estimate,
        },
        book: |any| {
            let p = any.downcast_ref::<ReversiPosition>()?;
            let moves = reversi::book::Book::shipped().moves(p.board());
            Some(
                moves
                    .into_iter()
                    .map(|(sq, s)| (gridplay_games::reversi::notation::square_name(sq), s))
                    .collect(),
            )
        },
        think: think_reversi,
        score: |any, time, stop| {
            let p = any.downcast_ref::<ReversiPosition>()?;
            Some(score_typed(p, &reversi::Eval, time, stop))
        },
    },
    // Four discs; one point.
    generic!(Cornered, CorneredPosition, CORNERED_LEVELS, 400, |_| {
        cornered::Eval
    }),
    generic!(Ywf, YwfPosition, LEVELS, 100, |_| ywf::Eval),
    GameEngine {
        game: <Checkers as Game>::NAME,
        levels: &CHECKERS_LEVELS,
        uses_history: true,
        spends_clock: false,
        scores_margin: false,
        parallel: false,
        // Half a man: a man given away is a blunder.
        pawn: 50,
        prepare: checkers::prepare,
        is: |any| any.is::<CheckersPosition>(),
        // A database's win or loss counts `DB_WIN` plus the evaluation, within half of it.
        proof: |_, score| match proof_by_win(score, 1) {
            Proof::Estimate if score >= checkers::search::DB_WIN / 2 => Proof::Win { plies: None },
            Proof::Estimate if score <= -checkers::search::DB_WIN / 2 => Proof::Loss { plies: None },
            p => p,
        },
        book: |any| {
            let p = any.downcast_ref::<CheckersPosition>()?;
            let moves = checkers::book::Book::shipped().moves(p);
            Some(moves.into_iter().map(|(m, s)| (p.move_text(m), s)).collect())
        },
        think: think_checkers,
        score: |any, time, stop| {
            let p = any.downcast_ref::<CheckersPosition>()?;
            let scores = checkers::search::score_moves(p, time, stop);
            Some(scores.into_iter().map(|(m, s)| (p.move_text(m), s)).collect())
        },
    },
    // Three points of health.
    generic!(
        Tactics,
        TacticsPosition,
        TACTICS_LEVELS,
        300,
        |p: &TacticsPosition| { tactics::Eval::attacking(Position::turn(p)) }
    ),
    generic!(TicTacToe, TicTacToePosition, TICTACTOE_LEVELS, 100, |_| {
        tictactoe::Eval
    }),
];

/// A search's score beyond [`WIN_THRESHOLD`]: a forced win or loss, `WIN` less `per_ply` for each ply to it
/// (the generic search counts 1000 a ply, with the game's margin within it; checkers' search 1).
fn proof_by_win(score: i32, per_ply: i32) -> Proof {
    let plies = |s: i32| u32::try_from((WIN - s + per_ply / 2) / per_ply).ok();
    if score >= WIN_THRESHOLD {
        Proof::Win { plies: plies(score) }
    } else if score <= -WIN_THRESHOLD {
        Proof::Loss { plies: plies(-score) }
    } else {
        Proof::Estimate
    }
}

/// The engine of the game named `game`.
#[must_use]
pub fn engine(game: &str) -> Option<&'static GameEngine> {
    ENGINES.iter().find(|e| e.game == game)
}

/// The engine of `pos`'s game.
pub(crate) fn engine_of(pos: &dyn DynPosition) -> Option<&'static GameEngine> {
    let any = pos.as_any();
    ENGINES.iter().find(|e| (e.is)(any))
}

/// Full-strength Reversi (levels 6-8, and limits without a level) runs its own search ([`reversi::search`]) and
/// near the end plays perfectly: the exact solver replaces the search.
fn think_reversi(
    any: &dyn Any,
    _: &[Box<dyn DynPosition>],
    request: &Request,
    stop: &StopFlag,
) -> Option<Reply> {
    let p = any.downcast_ref::<ReversiPosition>()?;
    if request.temperature.is_some() || request.mcts || request.level.is_some_and(|l| l < 6) {
        return Some(think_typed(p, &reversi::Eval, &REVERSI_LEVELS, request, stop));
    }
    if request.book
        && let Some((sq, score)) = reversi::book::Book::shipped().choose(p.board(), request.seed)
    {
        return Some(Reply::from_book(
            gridplay_games::reversi::notation::square_name(sq),
            score,
        ));
    }
    let empties = p.board().empty().count_ones();
    let clock = request.clock;
    let threads = request.threads.max(1);
    if empties <= clock.map_or(reversi::SOLVE_EMPTIES, reversi::clock::solve_empties) {
        return Some(reversi::solve_reply(p, threads));
    }
    let mut limits = request.level.map_or(request.limits, |l| {
        let level = level_entry(&REVERSI_LEVELS, l);
        Limits {
            depth: Some(level.depth),
            time: level.time,
            nodes: None,
        }
    });
    let mut options = reversi::search::Options {
        threads,
        ..reversi::search::Options::default()
    };
    // A clock caps a level's time; without a level it sets the time.
    if let Some(clock) = clock {
        let (soft, hard) = reversi::clock::allot(clock, empties);
        limits.time = Some(limits.time.map_or(hard, |t| t.min(hard)));
        if request.level.is_none() {
            options.soft = Some(soft);
        }
    }
    // Near the end, with time to spend and no depth limit short of it: a won or drawn position is played
    // by a win/loss/draw solve when one ends within three quarters of the time; on a game clock that sets
    // the time, from the end of the game ([`reversi::clock::END_EMPTIES`]) with a share of the clock.
    let clock_budget = clock
        .filter(|_| options.soft.is_some())
        .map(reversi::clock::wld_budget);
    if let Some(time) = limits.time
        && empties <= clock_budget.map_or(reversi::wld_empties(time), |_| reversi::clock::END_EMPTIES)
        && limits.depth.is_none_or(|d| d >= empties)
    {
        let started = std::time::Instant::now();
        let budget = clock_budget.unwrap_or(time * 3 / 4);
        let bounds = reversi::endgame::Bounds::within(started, budget, stop);
        if let Some(reply) = reversi::wld_reply(p, bounds, threads) {
            return Some(reply);
        }
        // The search keeps at least a quarter of the time, even after a solve that gave up late (its root's
        // move ordering is not bounded, nor is the first loading of the evaluation's weights).
        limits.time = Some(time.saturating_sub(started.elapsed()).max(time / 4));
    }
    let found = reversi::search::search(p.board(), limits, stop, options);
    let name = |sq: Option<u8>| {
        sq.map_or_else(
            || "pass".to_owned(),
            gridplay_games::reversi::notation::square_name,
        )
    };
    Some(Reply {
        best: name(found.best),
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
        elapsed: found.elapsed,
        pv: found.pv.into_iter().map(name).collect(),
    })
}

/// Full-strength checkers has a search of its own, which sees the game's earlier positions.
fn think_checkers(
    any: &dyn Any,
    earlier: &[Box<dyn DynPosition>],
    request: &Request,
    stop: &StopFlag,
) -> Option<Reply> {
    let p = any.downcast_ref::<CheckersPosition>()?;
    if request.temperature.is_some() || request.mcts || request.level.is_some_and(|l| l < 6) {
        return Some(think_typed(
            p,
            &checkers::Eval::default(),
            &CHECKERS_LEVELS,
            request,
            stop,
        ));
    }
    if request.book
        && let Some((m, score)) = checkers::book::Book::shipped().choose(p, request.seed)
    {
        return Some(Reply::from_book(p.move_text(m), score));
    }
    let limits = request.level.map_or(request.limits, |l| {
        let level = level_entry(&CHECKERS_LEVELS, l);
        Limits {
            depth: Some(level.depth),
            time: level.time,
            nodes: None,
        }
    });
    let history: Vec<CheckersPosition> = earlier
        .iter()
        .filter_map(|e| e.as_any().downcast_ref::<CheckersPosition>().copied())
        .collect();
    let found = checkers::search::search(p, &history, limits, stop)?;
    Some(Reply {
        best: p.move_text(found.best),
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
        elapsed: found.elapsed,
        pv: crate::texts(p, &found.pv),
    })
}
