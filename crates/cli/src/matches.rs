//! `gridplay match`: two players, many games, varied openings, colours alternated; the score, the Elo
//! difference with its 95% interval, and games per minute.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
    time::{Duration, Instant},
};

use clap::Args;
use gridplay_core::{DynPosition, GameRecord, Outcome, Player, playout};
use gridplay_engine::{MatchScore, Request};
use gridplay_search::StopFlag;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Args)]
pub(crate) struct MatchArgs {
    /// The game spec.
    spec: String,
    /// Player A: `level=1..8`, `depth=N`, `time=MS` (alpha-beta), `mcts=MS` or `playouts=N` (Monte Carlo tree
    /// search by time or playouts), `random`, `greedy` (the Grid Tactics reference player); `depth`, `time` and
    /// `temp=T` combine into a softmax player like the weak levels (`depth=3,temp=100`),
    /// `cmd=PROGRAM` for an external engine that speaks the gridplay protocol (docs/protocol.md), or, for
    /// Reversi, `nboard=PROGRAM` for an engine that speaks the NBoard protocol (Edax, NTest, `gridplay engine
    /// --nboard`).
    a: String,
    /// Player B, as A.
    b: String,
    /// Games to play (rounded up to an even number: each opening is played with both colours).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Random plies played before each pair of games, for varied openings.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Time per move for `cmd=` players, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    move_time: u64,
    /// Search depth for `nboard=` players (the NBoard protocol sets a depth, not a time).
    #[arg(long, default_value_t = 8)]
    nboard_depth: u32,
    /// Seed for openings and for the levels' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// An external engine on the gridplay protocol.
struct External {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl External {
    fn start(command: &str) -> Result<External, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting `{command}`: {e}"))?;
        let input = child.stdin.take().ok_or("no standard input for the engine")?;
        let output = BufReader::new(child.stdout.take().ok_or("no standard output from the engine")?);
        Ok(External { child, input, output })
    }

    fn tell(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("engine input: {e}"))
    }

    fn ask(&mut self, line: &str) -> Result<String, String> {
        self.tell(line)?;
        self.read()
    }

    fn read(&mut self) -> Result<String, String> {
        let mut reply = String::new();
        match self.output.read_line(&mut reply) {
            Ok(0) => Err("the engine closed its output".into()),
            Ok(_) => Ok(reply.trim().to_owned()),
            Err(e) => Err(format!("engine output: {e}")),
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// One side of the match.
enum Side {
    Engine(Request),
    Random,
    /// The greedy reference player of Grid Tactics (`gridplay_games::tactics::policy`).
    Greedy,
    External {
        engine: Box<External>,
        move_time: u64,
    },
    Nboard {
        engine: Box<External>,
    },
}

impl Side {
    fn parse(text: &str, spec: &str, move_time: u64, nboard_depth: u32) -> Result<Side, String> {
        if text == "random" {
            return Ok(Side::Random);
        }
        if text == "greedy" {
            if spec.split(':').next() != Some("tactics") {
                return Err(format!("the greedy player plays Grid Tactics only, not `{spec}`"));
            }
            return Ok(Side::Greedy);
        }
        if let Some(cmd) = text.strip_prefix("nboard=") {
            if spec.split(':').next() != Some("reversi") {
                return Err(format!("an NBoard engine plays Reversi only, not `{spec}`"));
            }
            let mut engine = Box::new(External::start(cmd)?);
            engine.tell("nboard 2")?;
            engine.tell(&format!("set depth {nboard_depth}"))?;
            return Ok(Side::Nboard { engine });
        }
        if let Some(cmd) = text.strip_prefix("cmd=") {
            let mut engine = Box::new(External::start(cmd)?);
            let reply = engine.ask(&format!("game {spec}"))?;
            if reply != "ok" {
                return Err(format!("`{cmd}` answered `game {spec}` with `{reply}`"));
            }
            return Ok(Side::External { engine, move_time });
        }
        let bad = || {
            format!(
                "`{text}` is not a player: use level=1..8, depth=N, time=MS, mcts=MS, playouts=N, random, greedy (Grid \
                 Tactics), cmd=PROGRAM or nboard=PROGRAM; depth, time and temp=T combine (depth=3,temp=100), and so \
                 do mcts and playouts"
            )
        };
        let mut request = Request::default();
        for part in text.split(',') {
            let (key, value) = part.split_once('=').ok_or_else(bad)?;
            let n: u64 = value.parse().map_err(|_| bad())?;
            match key {
                "level" if (1..=8).contains(&n) && !text.contains(',') => request.level = Some(n as u8),
                "depth" if (1..=64).contains(&n) => request.limits.depth = Some(n as u32),
                "time" if n > 0 => request.limits.time = Some(Duration::from_millis(n)),
                "temp" => request.temperature = Some(u32::try_from(n).map_err(|_| bad())?),
                "mcts" if n > 0 => {
                    request.limits.time = Some(Duration::from_millis(n));
                    request.mcts = true;
                }
                "playouts" if n > 0 => {
                    request.limits.nodes = Some(n);
                    request.mcts = true;
                }
                _ => return Err(bad()),
            }
        }
        let limited = request.limits.depth.is_some() || request.limits.time.is_some();
        if request.mcts && (request.temperature.is_some() || request.limits.depth.is_some())
            || request.temperature.is_some() && !limited
        {
            return Err(format!(
                "`{text}`: temp needs depth or time and cannot go with mcts; mcts and playouts take no depth"
            ));
        }
        Ok(Side::Engine(request))
    }

    fn choose(
        &mut self,
        pos: &dyn DynPosition,
        rng: &mut rand::rngs::SmallRng,
        seed: u64,
    ) -> Result<String, String> {
        match self {
            Side::Random => pos.random_move(rng).ok_or_else(|| "no move".into()),
            Side::Greedy => {
                let p = pos
                    .as_any()
                    .downcast_ref::<gridplay_games::tactics::TacticsPosition>()
                    .ok_or("the greedy player plays Grid Tactics only")?;
                let m = gridplay_games::tactics::policy::greedy_move(p, rng).ok_or("no move")?;
                Ok(gridplay_core::Position::move_text(p, m))
            }
            Side::Engine(request) => {
                let request = Request { seed, ..*request };
                gridplay_engine::think(pos, &request, &StopFlag::new())
                    .map(|r| r.best)
                    .map_err(|e| e.to_string())
            }
            Side::External { engine, move_time } => {
                let reply = engine.ask(&format!("position {}", pos.to_text()))?;
                if reply != "ok" {
                    return Err(format!("the engine refused the position: {reply}"));
                }
                let reply = engine.ask(&format!("go time={move_time}"))?;
                reply
                    .strip_prefix("bestmove ")
                    .and_then(|r| r.split_whitespace().next())
                    .map(str::to_owned)
                    .ok_or_else(|| format!("the engine answered `{reply}` instead of bestmove"))
            }
            Side::Nboard { engine } => {
                engine.tell(&format!("set game {}", ggf(&pos.to_text())?))?;
                engine.tell("go")?;
                // Engines send other lines (status, set myname...) before their move: skip them.
                loop {
                    let line = engine.read()?;
                    if let Some(rest) = line.strip_prefix("===") {
                        let mv = rest.trim().split('/').next().unwrap_or("").trim().to_lowercase();
                        return Ok(if mv == "pa" { "pass".into() } else { mv });
                    }
                }
            }
        }
    }
}

/// A Reversi position text (64 squares of `X`, `O`, `-` and the side to move) as a GGF game with no moves.
fn ggf(position: &str) -> Result<String, String> {
    let (cells, side) = position
        .split_once(' ')
        .filter(|(c, s)| c.len() == 64 && s.len() == 1)
        .ok_or_else(|| format!("`{position}` is not an 8x8 Reversi position"))?;
    let nb = |c: char| match c {
        'X' => '*',
        'O' => 'O',
        _ => '-',
    };
    let board: String = cells.chars().map(nb).collect();
    let side: String = side.chars().map(nb).collect();
    Ok(format!("(;GM[Othello]PC[gridplay]BO[8 {board} {side}];)"))
}

/// Plays one game from `opening`; `a_first` says whether A moves first. Returns the outcome for A.
fn play_game(
    opening: &dyn DynPosition,
    a: &mut Side,
    b: &mut Side,
    a_first: bool,
    seed: u64,
) -> Result<Option<bool>, String> {
    let mut record = GameRecord::new(opening.box_clone());
    let mut rng = playout::seeded(seed);
    let mut ply = 0u64;
    while record.outcome().is_none() {
        let a_to_move = (record.position().turn() == Player::First) == a_first;
        let side = if a_to_move { &mut *a } else { &mut *b };
        // A player that cannot answer loses the game.
        let Ok(mv) = side.choose(record.position(), &mut rng, seed + ply) else {
            return Ok(Some(!a_to_move));
        };
        if record.play(&mv).is_err() {
            return Ok(Some(!a_to_move));
        }
        ply += 1;
        if ply > 100_000 {
            return Ok(None);
        }
    }
    let (outcome, _) = record.outcome().expect("the loop ends on an outcome");
    Ok(match outcome {
        Outcome::Draw => None,
        Outcome::Win { winner } => Some((winner == Player::First) == a_first),
    })
}

/// Plays the match and returns A's score.
pub(crate) fn play_match(args: &MatchArgs, progress: &ProgressBar) -> Result<MatchScore, String> {
    let game = gridplay_games::registry()
        .game(&args.spec)
        .map_err(|e| e.to_string())?;
    let mut a = Side::parse(&args.a, &args.spec, args.move_time, args.nboard_depth)?;
    let mut b = Side::parse(&args.b, &args.spec, args.move_time, args.nboard_depth)?;
    let pairs = args.games.div_ceil(2);
    let mut score = MatchScore::default();
    for pair in 0..pairs {
        let seed = args.seed + u64::from(pair) * 1000;
        let mut rng = playout::seeded(seed);
        // A random opening that leaves the game going.
        let mut opening = game.start();
        for _ in 0..args.opening_plies {
            let Some(m) = opening.random_move(&mut rng) else {
                break;
            };
            let mut next = opening.clone();
            next.play(&m).map_err(|e| e.to_string())?;
            if next.outcome().is_some() {
                break;
            }
            opening = next;
        }
        for a_first in [true, false] {
            match play_game(opening.as_ref(), &mut a, &mut b, a_first, seed)? {
                Some(true) => score.wins += 1,
                Some(false) => score.losses += 1,
                None => score.draws += 1,
            }
            progress.inc(1);
            progress.set_message(format!("A {:.1}%", 100.0 * score.fraction()));
        }
    }
    Ok(score)
}

pub(crate) fn run(args: &MatchArgs) -> Result<(), String> {
    let total = u64::from(args.games.div_ceil(2) * 2);
    let progress = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} ({elapsed}, eta {eta})")
            .map_err(|e| e.to_string())?,
    );
    let started = Instant::now();
    let score = play_match(args, &progress)?;
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
    .map_err(crate::output_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(spec: &str, a: &str, b: &str, games: u32) -> MatchArgs {
        MatchArgs {
            spec: spec.into(),
            a: a.into(),
            b: b.into(),
            games,
            opening_plies: 2,
            move_time: 50,
            nboard_depth: 3,
            seed: 1,
            quiet: true,
        }
    }

    #[test]
    fn a_match_counts_every_game() {
        let s = play_match(
            &args("cornered:size=4", "depth=2", "random", 6),
            &ProgressBar::hidden(),
        )
        .unwrap();
        assert_eq!(s.games(), 6);
    }

    #[test]
    fn search_beats_random_at_checkers() {
        let s = play_match(&args("checkers", "depth=3", "random", 4), &ProgressBar::hidden()).unwrap();
        assert!(s.fraction() > 0.5, "{s:?}");
    }

    #[test]
    fn players_combine_limits() {
        let Ok(Side::Engine(r)) = Side::parse("depth=3,temp=100", "tactics", 10, 4) else {
            panic!("depth=3,temp=100 is a player");
        };
        assert_eq!(
            (r.limits.depth, r.temperature, r.mcts),
            (Some(3), Some(100), false)
        );
        let Ok(Side::Engine(r)) = Side::parse("playouts=500,mcts=20", "cornered", 10, 4) else {
            panic!("playouts=500,mcts=20 is a player");
        };
        assert_eq!(
            (r.limits.nodes, r.limits.time, r.mcts),
            (Some(500), Some(Duration::from_millis(20)), true)
        );
        let s = play_match(
            &args("cornered:size=5", "playouts=300", "depth=1,temp=400", 4),
            &ProgressBar::hidden(),
        )
        .unwrap();
        assert_eq!(s.games(), 4);
    }

    #[test]
    fn bad_players_are_refused() {
        for bad in [
            "level=9",
            "level=0",
            "depth=x",
            "depth=65",
            "time=0",
            "mcts=0",
            "speed=3",
            "human",
            "temp=50",
            "depth=2,temp=x",
            "mcts=10,temp=5",
            "playouts=0",
            "playouts=10,depth=2",
            "level=2,depth=3",
            "depth=2,",
        ] {
            assert!(Side::parse(bad, "reversi", 10, 4).is_err(), "{bad}");
        }
    }
}
