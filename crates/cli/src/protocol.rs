//! The gridplay engine protocol: one command a line on standard input, one reply line each on standard output.
//! `docs/protocol.md` is its reference; the tests below hold it to that page.

use std::{
    io::{self, BufRead, Write},
    thread::JoinHandle,
    time::Duration,
};

use clap::Args;
use gridplay_core::{DynGame, DynPosition, GameRecord, Outcome, RecordError};
use gridplay_engine::Request;
use gridplay_search::{Limits, StopFlag};

#[derive(Debug, Args)]
pub(crate) struct EngineArgs {
    /// Speak the NBoard protocol (Reversi) instead of the gridplay protocol, for NBoard-compatible GUIs and
    /// engines.
    #[arg(long)]
    nboard: bool,
    /// Threads of each full-strength Reversi search and solve (a `go threads=N` overrides it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

/// What a command asks the session loop to do after replying.
#[derive(Debug)]
pub(crate) enum Flow {
    Continue,
    Quit,
    /// Start a search; its `bestmove` line is the command's reply.
    Go(Box<Job>),
}

/// A search to run: a copy of the position and what to look for.
#[derive(Debug)]
pub(crate) struct Job {
    record: GameRecord,
    request: Request,
}

impl Job {
    /// Runs the search and returns the reply line.
    pub(crate) fn run(&self, stop: &StopFlag) -> String {
        match gridplay_engine::think_game(&self.record, &self.request, stop) {
            Ok(r) => format!(
                "bestmove {} score {} depth {} nodes {}",
                r.best, r.score, r.depth, r.nodes
            ),
            Err(e) => format!("error {e}"),
        }
    }
}

/// One protocol session: the current game, and the record of the moves played since the last `position`
/// (so that `result` applies the game's history rules, and the search knows which positions would repeat).
#[derive(Debug)]
pub(crate) struct Session {
    registry: &'static gridplay_core::Registry,
    game: Box<dyn DynGame>,
    record: GameRecord,
    /// Threads of a `go` that does not name them.
    threads: usize,
}

const COMMANDS: &str = "game position moves play show result perft go stop games help quit";

impl Session {
    /// A session on standard Reversi until a `game` command chooses another.
    pub(crate) fn new() -> Session {
        Session::on(crate::registry())
    }

    /// A session that offers the games of `registry`.
    pub(crate) fn on(registry: &'static gridplay_core::Registry) -> Session {
        let game = registry.game("reversi").expect("reversi is registered");
        let record = GameRecord::new(game.start());
        Session {
            registry,
            game,
            record,
            threads: 1,
        }
    }

    /// Handles one line. Blank lines and `#` comments get no reply (`None`).
    pub(crate) fn handle(&mut self, line: &str) -> (Option<String>, Flow) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return (None, Flow::Continue);
        }
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let reply = match command {
            "quit" => return (Some("ok".into()), Flow::Quit),
            "go" => {
                return match self.go(rest) {
                    Ok(job) => (None, Flow::Go(Box::new(job))),
                    Err(why) => (Some(format!("error {why}")), Flow::Continue),
                };
            }
            // With no search running there is nothing to stop.
            "stop" => Ok("ok".into()),
            "game" => self.game(rest),
            "position" => self.position(rest),
            "moves" => no_args(command, rest).map(|()| {
                let moves = if self.record.outcome().is_some() {
                    Vec::new()
                } else {
                    self.record.position().legal_moves()
                };
                if moves.is_empty() {
                    "moves".to_owned()
                } else {
                    format!("moves {}", moves.join(" "))
                }
            }),
            "play" => self.play(rest),
            "show" => no_args(command, rest).map(|()| self.record.position().to_text()),
            "result" => no_args(command, rest).map(|()| self.result()),
            "perft" => perft(self.record.position(), rest),
            "games" => no_args(command, rest).map(|()| {
                let names: Vec<&str> = self.registry.entries().iter().map(|e| e.name).collect();
                format!("games {}", names.join(" "))
            }),
            "help" => Ok(format!("commands {COMMANDS}")),
            other => Err(anyhow::anyhow!(
                "unknown command `{other}`; the commands are: {COMMANDS}"
            )),
        };
        let text = match reply {
            Ok(text) => text,
            Err(why) => format!("error {why}"),
        };
        (Some(text), Flow::Continue)
    }

    fn game(&mut self, spec: &str) -> anyhow::Result<String> {
        if spec.is_empty() {
            return Err(anyhow::anyhow!(
                "game needs a spec, such as `game reversi` or `game cornered:size=11`"
            ));
        }
        let game = self.registry.game(spec)?;
        gridplay_engine::prepare(game.spec().name());
        self.record = GameRecord::new(game.start());
        self.game = game;
        Ok("ok".into())
    }

    fn position(&mut self, text: &str) -> anyhow::Result<String> {
        let pos = match text {
            "" => return Err(anyhow::anyhow!("position needs a position text, or `start`")),
            "start" => self.game.start(),
            _ => self.game.parse_position(text)?,
        };
        self.record = GameRecord::new(pos);
        Ok("ok".into())
    }

    fn play(&mut self, moves: &str) -> anyhow::Result<String> {
        if moves.is_empty() {
            return Err(anyhow::anyhow!("play needs a move, such as `play d3`"));
        }
        // Several moves may follow `play`; they are all played or, on the first error, none is.
        let mut next = self.record.clone();
        for m in moves.split_whitespace() {
            next.play(m).map_err(|e| match e {
                RecordError::GameOver => anyhow::anyhow!("`{m}`: the game is over"),
                other => other.into(),
            })?;
        }
        self.record = next;
        Ok("ok".into())
    }

    /// Reads `go [depth=N] [time=MS] [nodes=N] [level=L] [seed=S] [mcts=1] [left=MS [inc=MS]] [book=1]
    /// [threads=N]`; with no limit, one second.
    fn go(&self, args: &str) -> anyhow::Result<Job> {
        let mut request = Request {
            threads: self.threads,
            ..Request::default()
        };
        let mut increment = None;
        for arg in args.split_whitespace() {
            let (key, value) = arg.split_once('=').ok_or_else(|| {
                anyhow::anyhow!("`{arg}` is not a limit: write depth=N, time=MS, nodes=N, level=L or seed=S")
            })?;
            let number: u64 = value
                .parse()
                .map_err(|_| anyhow::anyhow!("`{value}` in `{arg}` is not a whole number"))?;
            match key {
                "depth" if (1..=64).contains(&number) => request.limits.depth = Some(number as u32),
                "time" if number >= 1 => request.limits.time = Some(Duration::from_millis(number)),
                "nodes" if number >= 1 => request.limits.nodes = Some(number),
                // The game's engine refuses a level past its top, naming it.
                "level" if (1..=255).contains(&number) => request.level = Some(number as u8),
                "seed" => request.seed = number,
                "mcts" => request.mcts = number != 0,
                "book" => request.book = number != 0,
                "threads" if (1..=256).contains(&number) => request.threads = number as usize,
                "left" if number >= 1 => {
                    request.clock = Some(gridplay_engine::Clock {
                        left: Duration::from_millis(number),
                        increment: Duration::ZERO,
                    });
                }
                "inc" => increment = Some(Duration::from_millis(number)),
                "depth" | "time" | "nodes" | "level" | "left" | "threads" => {
                    return Err(anyhow::anyhow!(
                        "`{arg}` is out of range: depth 1-64, time, nodes and left 1 or more, level 1 to the game's top \
                         level, threads 1-256"
                    ));
                }
                other => {
                    return Err(anyhow::anyhow!(
                        "unknown limit `{other}`: use depth, time, nodes, level, seed, mcts=1, left, inc, book=1 or \
                         threads"
                    ));
                }
            }
        }
        match (&mut request.clock, increment) {
            (Some(clock), Some(inc)) => clock.increment = inc,
            (None, Some(_)) => {
                return Err(anyhow::anyhow!("`inc=MS` needs the clock's time left: `left=MS`"));
            }
            _ => {}
        }
        if request.limits == Limits::default() && request.level.is_none() && request.clock.is_none() {
            request.limits.time = Some(Duration::from_secs(1));
        }
        if self.record.outcome().is_some() {
            return Err(anyhow::anyhow!("the game is over: there is no move to find"));
        }
        Ok(Job {
            record: self.record.clone(),
            request,
        })
    }

    /// The outcome by the rules and the game's history (repetition, moves without progress).
    fn result(&self) -> String {
        let score = self.record.position().score();
        match self.record.outcome().map(|(o, _)| o) {
            None => "none".into(),
            Some(Outcome::Win { winner }) => format!("win {winner} {score}"),
            Some(Outcome::Draw) => format!("draw {score}"),
        }
    }
}

fn no_args(command: &str, rest: &str) -> anyhow::Result<()> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(anyhow::anyhow!("`{command}` takes no arguments"))
    }
}

fn perft(pos: &dyn DynPosition, rest: &str) -> anyhow::Result<String> {
    let depth: u32 = rest
        .parse()
        .map_err(|_| anyhow::anyhow!("perft needs a depth from 0 to 30, not `{rest}`"))?;
    if depth > 30 {
        return Err(anyhow::anyhow!("perft needs a depth from 0 to 30, not `{rest}`"));
    }
    Ok(pos.perft(depth).to_string())
}

/// Writes one reply line and flushes it.
fn say(line: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(crate::output_error)
}

/// A search running on its own thread, which prints its `bestmove` line when it ends.
struct Running {
    stop: StopFlag,
    handle: JoinHandle<anyhow::Result<()>>,
}

impl Running {
    fn finish(self) -> anyhow::Result<()> {
        self.handle
            .join()
            .map_err(|_| anyhow::anyhow!("the search thread failed"))?
    }
}

/// Runs a session over standard input and output until `quit` or the end of input. A search runs on its own
/// thread so that `stop` can end it; any other command waits for it to end first, so replies keep the order of
/// the commands.
pub(crate) fn run(args: &EngineArgs) -> anyhow::Result<()> {
    if args.nboard {
        return crate::nboard::run(usize::from(args.threads));
    }
    gridplay_engine::prepare("reversi");
    let stdin = io::stdin();
    let mut session = Session::new();
    session.threads = usize::from(args.threads);
    let mut running: Option<Running> = None;
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| anyhow::anyhow!("reading standard input: {e}"))?;
        if let Some(search) = running.take() {
            if line.trim() == "stop" {
                search.stop.stop();
                search.finish()?;
                continue;
            }
            search.finish()?;
        }
        let (reply, flow) = session.handle(&line);
        if let Some(reply) = reply {
            say(&reply)?;
        }
        match flow {
            Flow::Continue => {}
            Flow::Quit => break,
            Flow::Go(job) => {
                let stop = StopFlag::new();
                let flag = stop.clone();
                let handle = std::thread::spawn(move || say(&job.run(&flag)));
                running = Some(Running { stop, handle });
            }
        }
    }
    if let Some(search) = running {
        search.finish()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(session: &mut Session, line: &str) -> String {
        match session.handle(line) {
            (_, Flow::Go(job)) => job.run(&StopFlag::new()),
            (reply, _) => reply.unwrap_or_default(),
        }
    }

    #[test]
    fn protocol_walkthrough_reversi() {
        let mut s = Session::new();
        assert_eq!(talk(&mut s, "game reversi"), "ok");
        assert_eq!(talk(&mut s, "moves"), "moves d3 c4 f5 e6");
        assert_eq!(talk(&mut s, "play f5"), "ok");
        assert_eq!(
            talk(&mut s, "play a1"),
            "error illegal move `a1`: a placement must flip at least one disc"
        );
        assert_eq!(
            talk(&mut s, "show"),
            "---------------------------OX------XXX-------------------------- O"
        );
        assert_eq!(talk(&mut s, "result"), "none");
        assert_eq!(talk(&mut s, "position start"), "ok");
        assert_eq!(talk(&mut s, "perft 5"), "1396");
        assert_eq!(talk(&mut s, "quit"), "ok");
        assert!(matches!(s.handle("quit").1, Flow::Quit));
    }

    #[test]
    fn checkers_results_apply_the_history_rules() {
        let mut s = Session::new();
        assert_eq!(talk(&mut s, "game checkers"), "ok");
        // White has no pieces: Red has won, although Red is to move. A PDN FEN tag is read too.
        assert_eq!(talk(&mut s, "position [FEN \"B:W:B1\"]"), "ok");
        assert_eq!(talk(&mut s, "result"), "win first 1-0");
        // Two kings going back and forth: the third time the position stands, the game is drawn, and the
        // session refuses further moves and searches.
        assert_eq!(talk(&mut s, "position W:WK32:BK1"), "ok");
        assert_eq!(talk(&mut s, "play 32-28 1-5 28-32 5-1 32-28 1-5 28-32"), "ok");
        assert_eq!(talk(&mut s, "result"), "none");
        assert_eq!(talk(&mut s, "play 5-1"), "ok");
        assert_eq!(talk(&mut s, "result"), "draw 1-1");
        assert_eq!(talk(&mut s, "moves"), "moves");
        assert!(talk(&mut s, "play 32-28").contains("the game is over"));
        assert!(talk(&mut s, "go depth=2").starts_with("error"));
    }

    #[test]
    fn protocol_results() {
        let mut s = Session::new();
        let full = format!("{}{} X", "X".repeat(33), "O".repeat(31));
        assert_eq!(talk(&mut s, &format!("position {full}")), "ok");
        assert_eq!(talk(&mut s, "result"), "win first 33-31");
        assert_eq!(talk(&mut s, "moves"), "moves");
        assert_eq!(
            talk(
                &mut s,
                &format!("position {}{} X", "X".repeat(32), "O".repeat(32))
            ),
            "ok"
        );
        assert_eq!(talk(&mut s, "result"), "draw 32-32");
        assert_eq!(talk(&mut s, "game cornered:size=2"), "ok");
        assert_eq!(talk(&mut s, "position WB/wW B"), "ok");
        assert_eq!(talk(&mut s, "result"), "win first 3-1");
        assert_eq!(talk(&mut s, "position WB/bb W"), "ok");
        assert_eq!(talk(&mut s, "result"), "win second 1-3");
    }

    #[test]
    fn protocol_every_game() {
        let mut s = Session::new();
        assert_eq!(talk(&mut s, "game cornered:size=3"), "ok");
        assert_eq!(talk(&mut s, "perft 4"), "2736");
        assert_eq!(talk(&mut s, "play b2 a1"), "ok");
        assert_eq!(talk(&mut s, "show"), "3/1W1/B2 W");
        assert_eq!(talk(&mut s, "game ywf"), "ok");
        assert_eq!(talk(&mut s, "perft 2"), "116");
        assert_eq!(talk(&mut s, "play *d6"), "ok");
        assert_eq!(talk(&mut s, "show"), "9/9/9/3YWF3/3WFY3/3WFW3/9/9/9 Y Y c");
        assert_eq!(
            talk(&mut s, "games"),
            "games reversi cornered ywf checkers tactics"
        );
        assert_eq!(talk(&mut s, "game tactics"), "ok");
        assert_eq!(talk(&mut s, "perft 1"), "112");
        assert_eq!(talk(&mut s, "play c2-c5 end"), "ok");
        assert!(talk(&mut s, "show").starts_with("16 2 1 1 - "));
        assert!(
            talk(&mut s, "play c15-c11").starts_with("error illegal move `c15-c11`: c15 cannot reach c11")
        );
        assert_eq!(talk(&mut s, "game checkers"), "ok");
        assert_eq!(
            talk(&mut s, "moves"),
            "moves 9-13 9-14 10-14 10-15 11-15 11-16 12-16"
        );
        assert_eq!(talk(&mut s, "perft 6"), "36768");
        assert_eq!(talk(&mut s, "position W:WK2:B6,7,14,15"), "ok");
        assert_eq!(talk(&mut s, "moves"), "moves 2x9x18x11x2 2x11x18x9x2");
        assert_eq!(talk(&mut s, "play 2x11x18x9x2"), "ok");
        assert_eq!(talk(&mut s, "result"), "win second 0-1");
        assert_eq!(talk(&mut s, "position B:W18:B14,1"), "ok");
        assert!(talk(&mut s, "play 1-5").starts_with("error illegal move `1-5`: a capture is available"));
    }

    #[test]
    fn malformed_lines_get_an_error_and_the_session_goes_on() {
        let mut s = Session::new();
        for (line, starts) in [
            ("frobnicate", "error unknown command `frobnicate`"),
            ("game", "error game needs a spec"),
            ("game chess", "error unknown game `chess`"),
            (
                "game reversi:first=blue",
                "error reversi: setting `first=blue` is invalid",
            ),
            ("position", "error position needs a position text"),
            ("position XXXX", "error bad position"),
            ("play", "error play needs a move"),
            ("play zz", "error cannot read move `zz`"),
            ("perft x", "error perft needs a depth"),
            ("perft 99", "error perft needs a depth"),
            ("moves now", "error `moves` takes no arguments"),
        ] {
            let reply = talk(&mut s, line);
            assert!(reply.starts_with(starts), "{line:?} -> {reply:?}");
        }
        assert_eq!(s.handle("   ").0, None);
        assert_eq!(s.handle("# comment").0, None);
        assert_eq!(talk(&mut s, "moves"), "moves d3 c4 f5 e6");
    }

    #[test]
    fn a_failed_play_of_several_moves_changes_nothing() {
        let mut s = Session::new();
        let before = talk(&mut s, "show");
        assert!(talk(&mut s, "play f5 a1").starts_with("error"));
        assert_eq!(talk(&mut s, "show"), before);
    }

    #[test]
    fn go_answers_bestmove_for_every_game() {
        let mut s = Session::on(gridplay_games::registry_with_test_games());
        // Every game, the test games too: the protocol learns each from the registry.
        for entry in gridplay_games::registry_with_test_games().entries() {
            let game = entry.name;
            assert_eq!(talk(&mut s, &format!("game {game}")), "ok");
            for go in [
                "go depth=2",
                "go level=1",
                "go nodes=500",
                "go time=50",
                "go depth=6 threads=2",
            ] {
                let reply = talk(&mut s, go);
                let parts: Vec<&str> = reply.split(' ').collect();
                assert_eq!(
                    (parts[0], parts[2], parts[4], parts[6]),
                    ("bestmove", "score", "depth", "nodes"),
                    "{reply}"
                );
                let moves = talk(&mut s, "moves");
                assert!(
                    moves.split(' ').skip(1).any(|m| m == parts[1]),
                    "{game}: {reply} not in {moves}"
                );
            }
        }
    }

    #[test]
    fn go_by_mcts() {
        let mut s = Session::new();
        talk(&mut s, "game cornered:size=5");
        let reply = talk(&mut s, "go mcts=1 nodes=200");
        assert!(
            reply.starts_with("bestmove ") && reply.ends_with(" depth 0 nodes 200"),
            "{reply}"
        );
    }

    #[test]
    fn go_finds_the_winning_capture() {
        let mut s = Session::new();
        talk(&mut s, "game checkers");
        talk(&mut s, "position B:W18:B14,1");
        assert!(talk(&mut s, "go depth=3").starts_with("bestmove 14x23 score "));
    }

    #[test]
    fn go_spends_a_share_of_the_clock() {
        let mut s = Session::new();
        for game in ["reversi", "checkers", "ywf"] {
            talk(&mut s, &format!("game {game}"));
            let started = std::time::Instant::now();
            // Two seconds left: a Reversi opening move may take a sixth of that at most, the others a quarter.
            let answer = talk(&mut s, "go left=2000 inc=0");
            assert!(answer.starts_with("bestmove "), "{game}: {answer}");
            assert!(
                started.elapsed() < std::time::Duration::from_millis(1000),
                "{game}: {:?}",
                started.elapsed()
            );
        }
    }

    #[test]
    fn bad_go_lines_are_refused() {
        let mut s = Session::new();
        for (line, starts) in [
            ("go depth=0", "error `depth=0` is out of range"),
            (
                "go level=9",
                "error level 9 does not exist: this game's levels are 1 to 8",
            ),
            ("go level=0", "error `level=0` is out of range"),
            ("go depth", "error `depth` is not a limit"),
            ("go speed=3", "error unknown limit `speed`"),
            ("go time=x", "error `x` in `time=x` is not a whole number"),
            ("go left=0", "error `left=0` is out of range"),
            ("go threads=0", "error `threads=0` is out of range"),
            ("go inc=100", "error `inc=MS` needs the clock's time left"),
        ] {
            assert!(
                talk(&mut s, line).starts_with(starts),
                "{line}: {}",
                talk(&mut s, line)
            );
        }
        talk(&mut s, "game checkers");
        talk(&mut s, "position W:W:B1");
        assert!(talk(&mut s, "go depth=2").starts_with("error the game is over"));
        assert_eq!(talk(&mut s, "stop"), "ok");
    }
}
