//! The players `gridplay match` and `gridplay bot` drive: the built-in engine (a level, a depth, a time, a game
//! clock, Monte Carlo), the reference players, and external engines over the gridplay protocol (`cmd=`), NBoard
//! (`nboard=`, Reversi) and Cake's line driver (`cake=`, checkers), each in a process of its own.

mod external;

use std::time::{Duration, Instant};

use gridplay_core::{DynGame, DynPosition, GameRecord};
use gridplay_engine::Request;
use gridplay_search::StopFlag;

use external::External;

/// What an external engine is given: its time per move, its depth over NBoard, and how long it may take to
/// answer a line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlayerOptions {
    /// Time per move for `cmd=` and `cake=` players, in milliseconds, where no game clock says otherwise.
    pub move_time: u64,
    /// Search depth for `nboard=` players.
    pub nboard_depth: u32,
    /// Seconds an external engine may take to answer a line.
    pub answer_limit: f64,
}

/// A player: the built-in engine in one of its forms, a reference player, or an external engine's process.
pub(crate) enum Side {
    /// The engine; with a game clock (`request.clock`, the clock each game starts with), `left` is what it has
    /// left in the game under way.
    Engine {
        request: Request,
        left: Option<Duration>,
    },
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
    /// Cake's line driver: `go <FEN> <seconds>` answers `bestmove <move> time <s> fen <FEN after>`.
    Cake {
        engine: Box<External>,
        seconds: f64,
        game: Box<dyn DynGame>,
    },
}

impl Side {
    /// The player `text` names (see `MatchArgs::a`) for game `spec`.
    pub(crate) fn parse(text: &str, spec: &str, args: &PlayerOptions) -> anyhow::Result<Side> {
        let limit = Duration::from_secs_f64(args.answer_limit);
        let game = crate::game_spec(spec)?;
        let game = game.name();
        if text == "random" {
            return Ok(Side::Random);
        }
        if text == "greedy" {
            if game != "tactics" {
                return Err(anyhow::anyhow!(
                    "the greedy player plays Grid Tactics only, not `{spec}`"
                ));
            }
            return Ok(Side::Greedy);
        }
        if let Some(cmd) = text.strip_prefix("nboard=") {
            if game != "reversi" {
                return Err(anyhow::anyhow!(
                    "an NBoard engine plays Reversi only, not `{spec}`"
                ));
            }
            let mut engine = Box::new(External::start(cmd, limit)?);
            engine.tell("nboard 2")?;
            engine.tell(&format!("set depth {}", args.nboard_depth))?;
            return Ok(Side::Nboard { engine });
        }
        if let Some(cmd) = text.strip_prefix("cake=") {
            if game != "checkers" {
                return Err(anyhow::anyhow!("Cake plays checkers only, not `{spec}`"));
            }
            let engine = Box::new(External::start(cmd, limit)?);
            return Ok(Side::Cake {
                engine,
                seconds: args.move_time as f64 / 1000.0,
                game: crate::registry().game(spec)?,
            });
        }
        if let Some(cmd) = text.strip_prefix("cmd=") {
            let mut engine = Box::new(External::start(cmd, limit)?);
            let reply = engine.ask(&format!("game {spec}"))?;
            if reply != "ok" {
                return Err(anyhow::anyhow!("`{cmd}` answered `game {spec}` with `{reply}`"));
            }
            return Ok(Side::External {
                engine,
                move_time: args.move_time,
            });
        }
        let bad = || {
            anyhow::anyhow!(
                "`{text}` is not a player: use level=L (1 to the game's top), depth=N, time=MS, clock=MS[,inc=MS], mcts=MS, playouts=N, random, greedy (Grid \
                 Tactics), cmd=PROGRAM, nboard=PROGRAM or cake=PROGRAM; depth, time and temp=T combine (depth=3,temp=100), and so \
                 do mcts and playouts; book=1 adds the opening book (Reversi, checkers) to any of them, threads=N threads to Reversi's"
            )
        };
        let mut request = Request::default();
        let mut increment = None;
        let parts = text
            .split(',')
            .filter(|p| !p.starts_with("book=") && !p.starts_with("threads="))
            .count();
        for part in text.split(',') {
            let (key, value) = part.split_once('=').ok_or_else(bad)?;
            let n: u64 = value.parse().map_err(|_| bad())?;
            match key {
                "level" if (1..=255).contains(&n) && parts == 1 => {
                    request.level = Some(crate::check_level(spec, n as u8)?);
                }
                "book" if n <= 1 => request.book = n == 1,
                "threads" if (1..=256).contains(&n) => request.threads = n as usize,
                "depth" if (1..=64).contains(&n) => request.limits.depth = Some(n as u32),
                "time" if n > 0 => request.limits.time = Some(Duration::from_millis(n)),
                "clock" if n > 0 => {
                    request.clock = Some(gridplay_engine::Clock {
                        left: Duration::from_millis(n),
                        increment: Duration::ZERO,
                    });
                }
                "inc" => increment = Some(Duration::from_millis(n)),
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
        match (&mut request.clock, increment) {
            (Some(clock), Some(inc)) => clock.increment = inc,
            (None, Some(_)) => return Err(anyhow::anyhow!("`{text}`: inc=MS goes with clock=MS")),
            _ => {}
        }
        if request.clock.is_some() && (request.mcts || request.temperature.is_some()) {
            return Err(anyhow::anyhow!(
                "`{text}`: a game clock goes with the alpha-beta engine, not mcts or temp"
            ));
        }
        let limited = request.limits.depth.is_some() || request.limits.time.is_some();
        if request.mcts && (request.temperature.is_some() || request.limits.depth.is_some())
            || request.temperature.is_some() && !limited
        {
            return Err(anyhow::anyhow!(
                "`{text}`: temp needs depth or time and cannot go with mcts; mcts and playouts take no depth"
            ));
        }
        // What the first move would make on its clock (tables, weights) is made before any clock starts.
        gridplay_engine::prepare(game);
        Ok(Side::Engine { request, left: None })
    }

    /// Stops an external engine's process at once (it may be hung or half dead).
    pub(crate) fn kill(&mut self) {
        if let Side::External { engine, .. } | Side::Nboard { engine } | Side::Cake { engine, .. } = self {
            engine.kill();
        }
    }

    /// A new game starts: a game clock is set back to its start.
    pub(crate) fn new_game(&mut self) {
        if let Side::Engine { request, left } = self {
            *left = request.clock.map(|c| c.left);
        }
    }

    /// This side's move in the game's current position; the engine also sees the game's history.
    ///
    /// `game_clock` is the side's time on a clock kept elsewhere (a game on a server): the engine and `cmd=`
    /// engines get it as it is, and a `cake=` engine a share of it as its time for the move. Without it, the
    /// engine's own game clock (`clock=`) and the fixed move time apply.
    pub(crate) fn choose(
        &mut self,
        record: &GameRecord,
        rng: &mut rand::rngs::SmallRng,
        seed: u64,
        game_clock: Option<gridplay_engine::Clock>,
    ) -> anyhow::Result<String> {
        let pos = record.position();
        match self {
            Side::Random => pos.random_move(rng).ok_or_else(|| anyhow::anyhow!("no move")),
            Side::Greedy => {
                let p = pos
                    .as_any()
                    .downcast_ref::<gridplay_games::tactics::TacticsPosition>()
                    .ok_or_else(|| anyhow::anyhow!("the greedy player plays Grid Tactics only"))?;
                let m = gridplay_games::tactics::policy::greedy_move(p, rng)
                    .ok_or_else(|| anyhow::anyhow!("no move"))?;
                Ok(gridplay_core::Position::move_text(p, m))
            }
            Side::Engine { request, left } => {
                if game_clock.is_some() {
                    return gridplay_engine::think_game(
                        record,
                        &Request {
                            seed,
                            clock: game_clock,
                            ..*request
                        },
                        &StopFlag::new(),
                    )
                    .map(|r| r.best)
                    .map_err(anyhow::Error::from);
                }
                let clock = request.clock.zip(*left).map(|(c, left)| gridplay_engine::Clock {
                    left,
                    increment: c.increment,
                });
                let started = Instant::now();
                let best = gridplay_engine::think_game(
                    record,
                    &Request {
                        seed,
                        clock,
                        ..*request
                    },
                    &StopFlag::new(),
                )
                .map(|r| r.best)
                .map_err(anyhow::Error::from);
                if let Some(clock) = clock {
                    let spent = started.elapsed();
                    if spent > clock.left {
                        return Err(anyhow::anyhow!(
                            "the engine's clock ran out ({spent:?} for {:?})",
                            clock.left
                        ));
                    }
                    *left = Some(clock.left - spent + clock.increment);
                }
                best
            }
            Side::External { engine, move_time } => {
                let reply = engine.ask(&format!("position {}", pos.to_text()))?;
                if reply != "ok" {
                    return Err(anyhow::anyhow!("the engine refused the position: {reply}"));
                }
                let go = match game_clock {
                    Some(c) => format!(
                        "go left={} inc={}",
                        c.usable().as_millis().max(1),
                        c.increment.as_millis()
                    ),
                    None => format!("go time={move_time}"),
                };
                let reply = engine.ask(&go)?;
                reply
                    .strip_prefix("bestmove ")
                    .and_then(|r| r.split_whitespace().next())
                    .map(str::to_owned)
                    .ok_or_else(|| anyhow::anyhow!("the engine answered `{reply}` instead of bestmove"))
            }
            Side::Cake {
                engine,
                seconds,
                game,
            } => {
                let seconds = game_clock.map_or(*seconds, |c| c.share(30).as_secs_f64().max(0.01));
                engine.tell(&format!("go {} {seconds}", pos.to_text()))?;
                let line = loop {
                    let line = engine.read()?;
                    if line.starts_with("bestmove") {
                        break line;
                    }
                };
                let fen = line.split_once(" fen ").map(|(_, f)| f.trim()).ok_or_else(|| {
                    anyhow::anyhow!("Cake answered `{line}` with no position after its move")
                })?;
                move_to(game.as_ref(), pos, fen)
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

/// The legal move of `pos` that leads to the position `after` (in the game's own text), so that an engine
/// may write its moves in any notation.
pub(crate) fn move_to(game: &dyn DynGame, pos: &dyn DynPosition, after: &str) -> anyhow::Result<String> {
    let target = game
        .parse_position(after)
        .map_err(|e| anyhow::anyhow!("the engine's position `{after}`: {e}"))?
        .to_text();
    pos.legal_moves()
        .into_iter()
        .find(|m| {
            let mut next = pos.box_clone();
            next.play(m).is_ok() && next.to_text() == target
        })
        .ok_or_else(|| anyhow::anyhow!("no legal move leads to `{after}`"))
}

/// A Reversi position text (64 squares of `X`, `O`, `-` and the side to move) as a GGF game with no moves.
fn ggf(position: &str) -> anyhow::Result<String> {
    let (cells, side) = position
        .split_once(' ')
        .filter(|(c, s)| c.len() == 64 && s.len() == 1)
        .ok_or_else(|| anyhow::anyhow!("`{position}` is not an 8x8 Reversi position"))?;
    let nb = |c: char| match c {
        'X' => '*',
        'O' => 'O',
        _ => '-',
    };
    let board: String = cells.chars().map(nb).collect();
    let side: String = side.chars().map(nb).collect();
    Ok(format!("(;GM[Othello]PC[gridplay]BO[8 {board} {side}];)"))
}
