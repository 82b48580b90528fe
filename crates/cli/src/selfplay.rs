//! `gridplay selfplay`: many games between two copies of the same player, to measure first-move advantage and
//! balance. The players are the uniform random mover (every game) and the greedy reference player of Grid
//! Tactics.

use std::{io::Write, time::Instant};

use clap::{Args, ValueEnum};
use gridplay_core::{DynPosition, Outcome, Player, Position, playout};
use gridplay_games::tactics::{Tactics, TacticsPosition, policy};

#[derive(Debug, Args)]
pub(crate) struct SelfplayArgs {
    /// The game spec, such as `reversi` or `tactics:army=wwwhaa,army2=whhaaa`.
    spec: String,
    /// Games to play.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Who plays both sides.
    #[arg(long, value_enum, default_value_t = Policy::Random)]
    policy: Policy,
    /// Search depth of the `engine` player.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Random moves that open each `engine` game, for variety: each side's first N moves. With the default
    /// 2, a game whose sides alternate opens with four random plies; a Grid Tactics game with two random
    /// activations of each side's first turn.
    #[arg(long, default_value_t = 2)]
    opening: u32,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print every game's moves, final position and result.
    #[arg(long)]
    show: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Policy {
    /// Uniformly random legal moves.
    Random,
    /// The greedy reference player (Grid Tactics only).
    Greedy,
    /// The alpha-beta engine at `--depth`, after a few random opening moves for variety (`--opening`).
    Engine,
}

/// Wins of the first player, of the second, and draws.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub first: u32,
    pub second: u32,
    pub draws: u32,
    pub plies: u64,
}

impl Tally {
    fn add(&mut self, outcome: Option<Outcome>, plies: usize) {
        match outcome {
            Some(Outcome::Win {
                winner: Player::First,
            }) => self.first += 1,
            Some(Outcome::Win {
                winner: Player::Second,
            }) => self.second += 1,
            _ => self.draws += 1,
        }
        self.plies += plies as u64;
    }

    fn games(&self) -> u32 {
        self.first + self.second + self.draws
    }

    /// The first player's score (win 1, draw 1/2) and its 95% margin of error.
    pub(crate) fn first_score(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let scores = f64::from(self.first) + 0.5 * f64::from(self.draws);
        let mean = scores / n;
        let var = (f64::from(self.first) * (1.0 - mean).powi(2)
            + f64::from(self.draws) * (0.5 - mean).powi(2)
            + f64::from(self.second) * mean.powi(2))
            / n;
        (mean, 1.96 * (var / n).sqrt())
    }
}

const MAX_PLIES: usize = 100_000;

/// The `engine` player's search depth and the random moves that open its games, for each side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Engine {
    pub depth: u32,
    pub opening: u32,
}

/// Plays the games and returns the tally.
pub(crate) fn play_games(
    spec: &str,
    games: u32,
    policy: Policy,
    seed: u64,
    engine: Engine,
    show: &mut dyn FnMut(&str),
) -> anyhow::Result<Tally> {
    let game = crate::registry().game(spec)?;
    let tactics = game.as_any().downcast_ref::<Tactics>();
    if policy == Policy::Greedy && tactics.is_none() {
        return Err(anyhow::anyhow!(
            "the greedy player plays Grid Tactics only; use --policy random for other games"
        ));
    }
    let mut tally = Tally::default();
    for i in 0..games {
        let mut rng = playout::seeded(seed + u64::from(i));
        match (policy, tactics) {
            (Policy::Greedy, Some(t)) => {
                let mut pos: TacticsPosition = gridplay_core::Game::start(t);
                let mut plies = 0;
                let mut moves = Vec::new();
                while let Some(m) = policy::greedy_move(&pos, &mut rng) {
                    moves.push(Position::move_text(&pos, m));
                    pos.play_unchecked(m);
                    plies += 1;
                }
                let outcome = Position::outcome(&pos);
                show(&game_report(i, &moves, &Position::to_text(&pos), outcome));
                tally.add(outcome, plies);
            }
            _ => {
                let mut pos = game.start();
                let mut plies = 0;
                let mut moves = Vec::new();
                let request = gridplay_engine::Request {
                    limits: gridplay_search::Limits::depth(engine.depth.max(1)),
                    ..Default::default()
                };
                // Each side's moves so far, for the random opening.
                let mut made = [0u32; 2];
                while plies < MAX_PLIES {
                    let side = pos.turn().index();
                    let chosen = if policy == Policy::Engine && made[side] >= engine.opening {
                        gridplay_engine::think(pos.as_ref(), &request, &gridplay_search::StopFlag::new())
                            .ok()
                            .map(|r| r.best)
                    } else {
                        pos.random_move(&mut rng)
                    };
                    let Some(m) = chosen else { break };
                    pos.play(&m)?;
                    moves.push(m);
                    made[side] += 1;
                    plies += 1;
                }
                let outcome = DynPosition::outcome(pos.as_ref());
                show(&game_report(i, &moves, &pos.to_text(), outcome));
                tally.add(outcome, plies);
            }
        }
    }
    Ok(tally)
}

/// One game for `--show`: its number, moves, final position and result.
fn game_report(index: u32, moves: &[String], end: &str, outcome: Option<Outcome>) -> String {
    let result = match outcome {
        Some(Outcome::Win {
            winner: Player::First,
        }) => "first player wins",
        Some(Outcome::Win {
            winner: Player::Second,
        }) => "second player wins",
        Some(Outcome::Draw) => "draw",
        None => "unfinished",
    };
    format!(
        "game {}: {}\n  moves: {}\n  final: {end}\n",
        index + 1,
        result,
        moves.join(" ")
    )
}

pub(crate) fn run(args: &SelfplayArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut show = |text: &str| {
        if args.show {
            print!("{text}");
        }
    };
    let tally = play_games(
        &args.spec,
        args.games,
        args.policy,
        args.seed,
        Engine {
            depth: args.depth,
            opening: args.opening,
        },
        &mut show,
    )?;
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    let (score, margin) = tally.first_score();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} games of {} ({:?} vs {:?}): first wins {}, second wins {}, draws {}",
        tally.games(),
        args.spec,
        args.policy,
        args.policy,
        tally.first,
        tally.second,
        tally.draws
    )
    .and_then(|()| {
        writeln!(
            out,
            "first player scores {:.1}% +- {:.1}% (95%), {:.0} plies a game, {:.0} games/min",
            100.0 * score,
            100.0 * margin,
            tally.plies as f64 / f64::from(tally.games().max(1)),
            f64::from(tally.games()) / minutes.max(1e-9)
        )
    })
    .map_err(crate::output_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENGINE: Engine = Engine { depth: 2, opening: 2 };

    #[test]
    fn selfplay_counts_every_game() {
        let t = play_games("cornered:size=3", 20, Policy::Random, 1, ENGINE, &mut |_| {}).unwrap();
        assert_eq!(t.games(), 20);
        let t = play_games("tactics", 2, Policy::Greedy, 1, ENGINE, &mut |_| {}).unwrap();
        assert_eq!(t.games(), 2);
        assert!(
            play_games("reversi", 1, Policy::Greedy, 1, ENGINE, &mut |_| {})
                .unwrap_err()
                .to_string()
                .contains("Grid Tactics only")
        );
    }

    /// One engine game's moves, as `--show` prints them.
    fn game_moves(spec: &str, seed: u64, engine: Engine) -> Vec<String> {
        let mut shown = String::new();
        play_games(spec, 1, Policy::Engine, seed, engine, &mut |t| shown.push_str(t)).unwrap();
        let line = shown
            .lines()
            .find_map(|l| l.trim().strip_prefix("moves: "))
            .unwrap();
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn the_opening_gives_each_side_its_random_moves() {
        // Replaying a game, the seed's random draws must be exactly the first `opening` moves of each side:
        // in Grid Tactics, where a turn is many activations, the first two of each side's first turn.
        for spec in ["tactics", "reversi"] {
            let engine = Engine { depth: 1, opening: 2 };
            let moves = game_moves(spec, 5, engine);
            let mut pos = crate::registry().game(spec).unwrap().start();
            let mut rng = playout::seeded(5);
            let (mut made, mut random) = ([0u32; 2], 0);
            for m in &moves {
                let side = pos.turn().index();
                if made[side] < engine.opening {
                    assert_eq!(pos.random_move(&mut rng).as_ref(), Some(m), "{spec}: move {m}");
                    random += 1;
                }
                pos.play(m).unwrap();
                made[side] += 1;
            }
            assert_eq!(random, 4, "{spec}: two random moves of each side");
            // Another seed opens differently; without an opening every game is the engine's one game.
            assert_ne!(game_moves(spec, 6, engine)[..2], moves[..2], "{spec}");
            let none = Engine { depth: 1, opening: 0 };
            assert_eq!(game_moves(spec, 5, none), game_moves(spec, 6, none), "{spec}");
        }
    }

    #[test]
    fn score_and_margin() {
        let t = Tally {
            first: 6,
            second: 2,
            draws: 2,
            plies: 0,
        };
        let (s, m) = t.first_score();
        assert!((s - 0.7).abs() < 1e-9);
        assert!(m > 0.0 && m < 0.5);
    }
}
