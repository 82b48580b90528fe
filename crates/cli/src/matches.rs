//! `gridplay match`: two players, many games, varied openings, colours alternated; the score, the Elo
//! difference with its 95% interval, and games per minute.

use std::{
    io::Write,
    time::{Duration, Instant},
};

use clap::Args;
use gridplay_core::{DynGame, DynPosition, GameRecord, Outcome, Player, playout};
use gridplay_engine::MatchScore;
use indicatif::{ProgressBar, ProgressStyle};

use crate::players::{PlayerOptions, Side};

#[derive(Debug, Args)]
pub(crate) struct MatchArgs {
    /// The game spec.
    spec: String,
    /// Player A: `level=L` (1 to the game's top level), `depth=N`, `time=MS` (alpha-beta), `clock=MS` (alpha-beta with a game clock of MS
    /// for each game, `inc=MS` added after each move; the engine spends it by stage and loses if it runs
    /// out), `mcts=MS` or `playouts=N` (Monte Carlo tree
    /// search by time or playouts), `random`, `greedy` (the Grid Tactics reference player); `depth`, `time` and
    /// `temp=T` combine into a softmax player like the weak levels (`depth=3,temp=100`),
    /// `cmd=PROGRAM` for an external engine that speaks the gridplay protocol (docs/protocol.md), for
    /// Reversi `nboard=PROGRAM` for an engine that speaks the NBoard protocol (Edax, NTest, `gridplay engine
    /// --nboard`), and for checkers `cake=PROGRAM` for Cake's line driver (`go <FEN> <seconds>`, see
    /// docs/performance.md).
    a: String,
    /// Player B, as A.
    b: String,
    /// Games to play (rounded up to an even number: each opening is played with both colours).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Random plies played before each pair of games, for varied openings.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Openings: `random` (`--opening-plies` random plies) or, for checkers, `ballots`: the 3-move ballots of
    /// tournament play (157), in an order shuffled by the seed, one per pair of games.
    #[arg(long, default_value = "random")]
    openings: String,
    /// Time per move for `cmd=` and `cake=` players, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    move_time: u64,
    /// Search depth for `nboard=` players (the NBoard protocol sets a depth, not a time).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    nboard_depth: u32,
    /// Seed for openings and for the levels' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Seconds an external engine (`cmd=`, `nboard=`, `cake=`) may take to answer a line before it forfeits the
    /// game (as a crashed one does) and is started afresh, so that a hung engine cannot hold a match up. A
    /// player that forfeits two games in a row without making a move ends the match with an error that says
    /// why (how the engine ended and the last lines of its standard error).
    #[arg(long, default_value_t = 60.0, value_parser = positive_seconds)]
    answer_limit: f64,
    /// Write every game to this file as it ends, a line each, tab-separated: the game's number from 1, A's
    /// side (`first` or `second`), A's result (`win`, `loss` or `draw`), the opening position's text, then
    /// the moves played from it, separated by spaces.
    #[arg(long)]
    games_out: Option<std::path::PathBuf>,
}

impl MatchArgs {
    /// What the match gives its external engines.
    fn players(&self) -> PlayerOptions {
        PlayerOptions {
            move_time: self.move_time,
            nboard_depth: self.nboard_depth,
            answer_limit: self.answer_limit,
        }
    }
}

pub(crate) fn positive_seconds(text: &str) -> anyhow::Result<f64> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s <= 86_400.0 => Ok(s),
        _ => Err(anyhow::anyhow!(
            "`{text}` is not a number of seconds from 0 (not included) to 86400"
        )),
    }
}

/// Each player's thinking time and moves over a match.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Clocks {
    pub spent: [Duration; 2],
    pub moves: [u32; 2],
    /// The same by the game's stage: plies after the opening 1-20, 21-40 and from 41 on ([`PHASE_PLIES`]).
    pub phase_spent: [[Duration; 3]; 2],
    pub phase_moves: [[u32; 3]; 2],
    /// Games A (0) and B (1) lost because they could not go on ([`Forfeit`]).
    pub forfeits: [u32; 2],
}

/// Plies per stage of [`Clocks`]' breakdown (the last stage takes the rest).
const PHASE_PLIES: u64 = 20;

impl Clocks {
    /// Mean seconds per move of A (0) or B (1).
    fn mean(&self, side: usize) -> f64 {
        self.spent[side].as_secs_f64() / f64::from(self.moves[side].max(1))
    }

    /// Counts a move of `side` at ply `ply` (from 0) that took `spent`.
    fn add(&mut self, side: usize, ply: u64, spent: Duration) {
        let phase = (ply / PHASE_PLIES).min(2) as usize;
        self.spent[side] += spent;
        self.moves[side] += 1;
        self.phase_spent[side][phase] += spent;
        self.phase_moves[side][phase] += 1;
    }

    /// Mean seconds per move of `side` at each stage, as "0.012 / 0.034 / 0.020".
    fn by_phase(&self, side: usize) -> String {
        let means: Vec<String> = (0..3)
            .map(|i| {
                let n = self.phase_moves[side][i];
                format!(
                    "{:.3}",
                    self.phase_spent[side][i].as_secs_f64() / f64::from(n.max(1))
                )
            })
            .collect();
        means.join(" / ")
    }
}

/// A game lost because a player could not go on: it failed to answer (an engine that crashed or closed its
/// output, a clock that ran out) or answered an illegal move.
struct Forfeit {
    /// Whether A forfeited.
    a: bool,
    reason: String,
    /// Whether the forfeiting player had made a move in the game.
    moved: bool,
}

/// Plays one game from `opening`; `a_first` says whether A moves first. Returns the outcome for A, the moves
/// played and, when a player could not go on, its forfeit (the game is lost for it).
fn play_game(
    opening: &dyn DynPosition,
    a: &mut Side,
    b: &mut Side,
    a_first: bool,
    seed: u64,
    clocks: &mut Clocks,
) -> (Option<bool>, Vec<String>, Option<Forfeit>) {
    let mut record = GameRecord::new(opening.box_clone());
    a.new_game();
    b.new_game();
    let mut rng = playout::seeded(seed);
    let mut ply = 0u64;
    // Legal moves made in this game by A (0) and B (1).
    let mut made = [0_u32; 2];
    while record.outcome().is_none() {
        let a_to_move = (record.position().turn() == Player::First) == a_first;
        let side = if a_to_move { &mut *a } else { &mut *b };
        let forfeit = |reason: String| {
            Some(Forfeit {
                a: a_to_move,
                reason,
                moved: made[usize::from(!a_to_move)] > 0,
            })
        };
        let started = Instant::now();
        let chosen = side.choose(&record, &mut rng, seed + ply, None);
        // The time of a failed answer counts too (a clock run out spent all of it).
        clocks.add(
            usize::from(!a_to_move),
            record.moves().len() as u64,
            started.elapsed(),
        );
        let mv = match chosen {
            Ok(mv) => mv,
            Err(reason) => {
                return (
                    Some(!a_to_move),
                    record.moves().to_vec(),
                    forfeit(format!("{reason:#}")),
                );
            }
        };
        if let Err(e) = record.play(&mv) {
            let reason = format!("the illegal move `{mv}` ({e})");
            return (Some(!a_to_move), record.moves().to_vec(), forfeit(reason));
        }
        made[usize::from(!a_to_move)] += 1;
        ply += 1;
        if ply > 100_000 {
            return (None, record.moves().to_vec(), None);
        }
    }
    let (outcome, _) = record.outcome().expect("the loop ends on an outcome");
    let result = match outcome {
        Outcome::Draw => None,
        Outcome::Win { winner } => Some((winner == Player::First) == a_first),
    };
    (result, record.moves().to_vec(), None)
}

/// The openings of a match: `count` positions, one per pair of games.
fn openings(args: &MatchArgs, game: &dyn DynGame, count: u32) -> anyhow::Result<Vec<Box<dyn DynPosition>>> {
    match args.openings.as_str() {
        "random" => Ok((0..count)
            .map(|pair| random_opening(game, args.opening_plies, args.seed + u64::from(pair) * 1000))
            .collect()),
        "ballots" => {
            if game.spec().name() != "checkers" {
                return Err(anyhow::anyhow!(
                    "the ballots are checkers openings, not `{}` ones",
                    args.spec
                ));
            }
            let mut lines: Vec<&str> = gridplay_games::checkers::BALLOTS
                .lines()
                .filter(|l| !l.trim().is_empty())
                .collect();
            rand::seq::SliceRandom::shuffle(&mut lines[..], &mut playout::seeded(args.seed));
            (0..count as usize)
                .map(|i| {
                    let line = lines[i % lines.len()];
                    let mut pos = game.start();
                    for m in line.split_whitespace() {
                        pos.play(m).map_err(|e| anyhow::anyhow!("ballot `{line}`: {e}"))?;
                    }
                    Ok(pos)
                })
                .collect()
        }
        other => Err(anyhow::anyhow!("`--openings {other}`: use random or ballots")),
    }
}

/// `plies` random plies from the start, stopping early rather than ending the game.
pub(crate) fn random_opening(game: &dyn DynGame, plies: usize, seed: u64) -> Box<dyn DynPosition> {
    let mut rng = playout::seeded(seed);
    let mut opening = game.start();
    for _ in 0..plies {
        let Some(m) = opening.random_move(&mut rng) else {
            break;
        };
        let mut next = opening.clone();
        if next.play(&m).is_err() || next.outcome().is_some() {
            break;
        }
        opening = next;
    }
    opening
}

/// Forfeits in a row, each without a move of the player's own, that stop a match.
const IDLE_FORFEITS: u32 = 2;

/// Plays the match and returns A's score and both players' times.
pub(crate) fn play_match(args: &MatchArgs, progress: &ProgressBar) -> anyhow::Result<(MatchScore, Clocks)> {
    let game = crate::registry().game(&args.spec)?;
    let mut a =
        Side::parse(&args.a, &args.spec, &args.players()).map_err(|e| anyhow::anyhow!("player A: {e}"))?;
    let mut b =
        Side::parse(&args.b, &args.spec, &args.players()).map_err(|e| anyhow::anyhow!("player B: {e}"))?;
    let pairs = args.games.div_ceil(2);
    let mut score = MatchScore::default();
    let mut clocks = Clocks::default();
    let mut games_out = match &args.games_out {
        Some(path) => Some((
            path,
            std::fs::File::create(path).map_err(|e| anyhow::anyhow!("creating {}: {e}", path.display()))?,
        )),
        None => None,
    };
    // Games each player has forfeited in a row without a move of its own.
    let mut idle_forfeits = [0_u32; 2];
    for (pair, opening) in openings(args, game.as_ref(), pairs)?.into_iter().enumerate() {
        let seed = args.seed + pair as u64 * 1000;
        for a_first in [true, false] {
            let (result, moves, forfeit) =
                play_game(opening.as_ref(), &mut a, &mut b, a_first, seed, &mut clocks);
            // A player that did not forfeit this game is going.
            let forfeiter = forfeit.as_ref().map(|f| usize::from(!f.a));
            for (index, idle) in idle_forfeits.iter_mut().enumerate() {
                if forfeiter != Some(index) {
                    *idle = 0;
                }
            }
            if let Some(Forfeit {
                a: by_a,
                reason,
                moved,
            }) = forfeit
            {
                let (text, side) = if by_a {
                    (&args.a, &mut a)
                } else {
                    (&args.b, &mut b)
                };
                let index = usize::from(!by_a);
                clocks.forfeits[index] += 1;
                idle_forfeits[index] = if moved { 0 } else { idle_forfeits[index] + 1 };
                // An engine that cannot make a single move (a wrong command, a missing file) would forfeit
                // the whole match: stop it and say why.
                if idle_forfeits[index] == IDLE_FORFEITS {
                    return Err(anyhow::anyhow!(
                        "{} ({text}) forfeited {IDLE_FORFEITS} games in a row without making a move, so the match stops: {reason}",
                        if by_a { "A" } else { "B" },
                    ));
                }
                progress.suspend(|| {
                    eprintln!(
                        "game {}: {} ({text}) forfeits: {reason}; scored as its loss, and the player starts afresh",
                        score.games() + 1,
                        if by_a { "A" } else { "B" },
                    );
                });
                // A crashed engine would forfeit every game after: the next game gets a new process.
                side.kill();
                *side = Side::parse(text, &args.spec, &args.players()).map_err(|e| {
                    anyhow::anyhow!(
                        "restarting {} ({text}) after its forfeit: {e}",
                        if by_a { "A" } else { "B" }
                    )
                })?;
            }
            let result = match result {
                Some(true) => {
                    score.wins += 1;
                    "win"
                }
                Some(false) => {
                    score.losses += 1;
                    "loss"
                }
                None => {
                    score.draws += 1;
                    "draw"
                }
            };
            if let Some((path, file)) = &mut games_out {
                writeln!(
                    file,
                    "{}\t{}\t{result}\t{}\t{}",
                    score.games(),
                    if a_first { "first" } else { "second" },
                    opening.to_text(),
                    moves.join(" ")
                )
                .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
            }
            progress.inc(1);
            progress.set_message(format!("A {:.1}%", 100.0 * score.fraction()));
        }
    }
    Ok((score, clocks))
}

pub(crate) fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let total = u64::from(args.games.div_ceil(2) * 2);
    let progress = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    progress.set_style(ProgressStyle::with_template(
        "{bar:30} {pos}/{len} games {msg} ({elapsed}, eta {eta})",
    )?);
    let started = Instant::now();
    let (score, clocks) = play_match(args, &progress)?;
    progress.finish_and_clear();
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    let (elo, lo, hi) = score.elo();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} vs {} at {}: A +{} ={} -{} ({} games), A scores {:.1}%",
        args.a,
        args.b,
        args.spec,
        score.wins,
        score.draws,
        score.losses,
        score.games(),
        100.0 * score.fraction()
    )
    .and_then(|()| {
        writeln!(
            out,
            "Elo difference {elo:+.0} (95%: {lo:+.0} to {hi:+.0}), {:.1} games/min",
            f64::from(score.games()) / minutes.max(1e-9)
        )
    })
    .and_then(|()| {
        writeln!(
            out,
            "time per move: A {:.3} s over {} moves, B {:.3} s over {} moves",
            clocks.mean(0),
            clocks.moves[0],
            clocks.mean(1),
            clocks.moves[1]
        )
    })
    .and_then(|()| {
        writeln!(
            out,
            "time per move by stage (plies after the opening 1-{p}, {}-{}, {}-): A {} s, B {} s",
            PHASE_PLIES + 1,
            2 * PHASE_PLIES,
            2 * PHASE_PLIES + 1,
            clocks.by_phase(0),
            clocks.by_phase(1),
            p = PHASE_PLIES,
        )
    })
    .and_then(|()| {
        if clocks.forfeits == [0, 0] {
            return Ok(());
        }
        writeln!(
            out,
            "forfeits (a player that crashed, answered nothing, ran out of its clock or moved illegally; counted as its losses): A {}, B {}",
            clocks.forfeits[0], clocks.forfeits[1]
        )
    })
    .map_err(crate::output_error)
}

#[cfg(test)]
mod tests;
