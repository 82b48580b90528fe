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
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Who plays both sides.
    #[arg(long, value_enum, default_value_t = Policy::Random)]
    policy: Policy,
    /// Search depth of the `engine` player.
    #[arg(long, default_value_t = 2)]
    depth: u32,
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
    /// The alpha-beta engine at `--depth`, after a few random opening plies for variety.
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

/// Plays the games and returns the tally.
pub(crate) fn play_games(
    spec: &str,
    games: u32,
    policy: Policy,
    seed: u64,
    depth: u32,
    show: &mut dyn FnMut(&str),
) -> Result<Tally, String> {
    let game = gridplay_games::registry().game(spec).map_err(|e| e.to_string())?;
    let tactics = game.as_any().downcast_ref::<Tactics>();
    if policy == Policy::Greedy && tactics.is_none() {
        return Err("the greedy player plays Grid Tactics only; use --policy random for other games".into());
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
                    limits: gridplay_search::Limits::depth(depth.max(1)),
                    ..Default::default()
                };
                while plies < MAX_PLIES {
                    let chosen = if policy == Policy::Engine && plies >= 4 {
                        gridplay_engine::think(pos.as_ref(), &request, &gridplay_search::StopFlag::new())
                            .ok()
                            .map(|r| r.best)
                    } else {
                        pos.random_move(&mut rng)
                    };
                    let Some(m) = chosen else { break };
                    pos.play(&m).map_err(|e| e.to_string())?;
                    moves.push(m);
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

pub(crate) fn run(args: &SelfplayArgs) -> Result<(), String> {
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
        args.depth,
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

    #[test]
    fn selfplay_counts_every_game() {
        let t = play_games("cornered:size=3", 20, Policy::Random, 1, 2, &mut |_| {}).unwrap();
        assert_eq!(t.games(), 20);
        let t = play_games("tactics", 2, Policy::Greedy, 1, 2, &mut |_| {}).unwrap();
        assert_eq!(t.games(), 2);
        assert!(
            play_games("reversi", 1, Policy::Greedy, 1, 2, &mut |_| {})
                .unwrap_err()
                .contains("Grid Tactics only")
        );
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
