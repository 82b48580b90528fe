//! The NBoard protocol for Reversi, which NBoard-compatible GUIs and engines (NBoard, Edax, NTest) speak.
//!
//! Handled: `nboard 1` or `nboard 2` (answered `set myname gridplay`), `set depth N` (a depth that reaches the
//! end asks for the exact score, as in other NBoard engines), `set game <GGF>`,
//! `set contempt N` (accepted, unused), `move <sq>[/eval[/time]]` (`PA` for a pass), `go` (answered
//! `=== <SQ>/<eval>/<seconds>`, `=== PA` when the side to move must pass or the game is over, then `status`),
//! `hint N` (`status Analysing`, the N best moves as `search` lines, `100%` as the depth of exact solves, then
//! `status`), `ping N` (`pong N`; a `ping` during a search stops it and its answer is dropped), `learn`
//! (`learned`) and `quit`. Searches run on a thread of their own while the session reads on. Problems go to
//! standard error, as the protocol expects, and the session goes on.

use std::{
    collections::VecDeque,
    io::{self, BufRead, Write},
    sync::mpsc,
    time::{Duration, Instant},
};

use gridplay_core::{DynGame, DynPosition};
use gridplay_engine::{
    Clock,
    reversi::{
        SOLVE_EMPTIES, clock,
        endgame::{Bounds, Solver},
        search,
    },
};
use gridplay_games::reversi::{ReversiPosition, bitboard::Board, notation::square_name};
use gridplay_search::{Limits, StopFlag};

/// The longest a `go` or a `hint` thinks.
const THINK_CAP: Duration = Duration::from_secs(10);

/// The most empty squares at which a depth that reaches the end is solved exactly rather than searched.
const EXACT_MOST: u32 = 30;

/// The engine side of an NBoard session.
#[derive(Debug)]
pub(crate) struct Nboard {
    game: Box<dyn DynGame>,
    pos: Box<dyn DynPosition>,
    depth: u32,
    /// The game's clock, when `set game` gave one: searches then spend the time of the side to move.
    clock: Option<GameClock>,
    /// Threads of each search and solve.
    threads: usize,
}

/// What one command produced: lines for standard output and an error for standard error.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Output {
    pub lines: Vec<String>,
    pub error: Option<String>,
    pub quit: bool,
}

/// What a command asks for: an answer now, or a search to run (on another thread in a session).
pub(crate) enum Step {
    Done(Output),
    Think(Job),
}

/// A search a command asked for, with its own copy of the position.
pub(crate) struct Job {
    board: Board,
    depth: u32,
    clock: Option<Clock>,
    /// `None` for `go`, `Some(n)` for `hint n`.
    hint: Option<usize>,
    threads: usize,
}

/// A square in NBoard's way, `PA` for a pass.
fn nboard_square(sq: Option<u8>) -> String {
    sq.map_or_else(|| "PA".to_owned(), |sq| square_name(sq).to_uppercase())
}

impl Job {
    /// A solver on the job's threads.
    fn solver(&self) -> Solver {
        let mut solver = Solver::new(64);
        solver.set_threads(self.threads);
        solver
    }

    /// Runs the search; `stop` ends it early.
    pub(crate) fn run(&self, stop: &StopFlag) -> Output {
        match self.hint {
            None => self.go(stop),
            Some(n) => self.hints(n, stop),
        }
    }

    fn go(&self, stop: &StopFlag) -> Output {
        let b = self.board;
        if b.moves() == 0 {
            let note = b
                .is_over()
                .then(|| "the game is over: there is no move to make".to_owned());
            return Output {
                lines: vec!["=== PA".into(), "status".into()],
                error: note,
                quit: false,
            };
        }
        let empties = b.empty().count_ones();
        let started = Instant::now();
        let (best, score, elapsed) = if empties <= self.clock.map_or(SOLVE_EMPTIES, clock::solve_empties) {
            let Some(s) = self.solver().solve_within(b, Bounds::stop(stop)) else {
                return Output::default();
            };
            (s.best, s.score * 100, started.elapsed())
        } else {
            let mut limits = Limits {
                depth: Some(self.depth),
                time: Some(THINK_CAP),
                nodes: None,
            };
            let mut options = search::Options {
                threads: self.threads,
                ..search::Options::default()
            };
            if let Some(clock) = self.clock {
                let (soft, hard) = clock::allot(clock, empties);
                limits.time = Some(hard.min(THINK_CAP));
                options.soft = Some(soft);
            }
            let time = limits.time.unwrap_or(THINK_CAP);
            // A depth that reaches the end asks for the exact score, as in other NBoard engines: solved
            // within half the time, else searched with the rest. On a clock, from the end of the game (and
            // within 6 empties of the depth, as NTest's selective depths solve) a won or drawn position is
            // played by a win/loss/draw solve within its share of the clock.
            let solved = (self.depth >= empties && empties <= EXACT_MOST)
                .then(|| {
                    self.solver()
                        .solve_within(b, Bounds::within(started, time / 2, stop))
                })
                .flatten();
            let wld = self
                .clock
                .filter(|_| solved.is_none() && empties <= clock::END_EMPTIES.min(self.depth + 6))
                .and_then(|c| {
                    gridplay_engine::reversi::wld_move(
                        b,
                        Bounds::within(started, clock::wld_budget(c), stop),
                        self.threads,
                    )
                });
            if let Some(s) = solved {
                (s.best, s.score * 100, started.elapsed())
            } else if let Some((best, score, _)) = wld {
                (Some(best), score, started.elapsed())
            } else {
                limits.time = Some(time.saturating_sub(started.elapsed()).max(time / 4));
                let f = search::search(b, limits, stop, options);
                (f.best, f.score, started.elapsed())
            }
        };
        Output::lines(vec![
            format!(
                "=== {}/{:.2}/{:.3}",
                nboard_square(best),
                f64::from(score) / 100.0,
                elapsed.as_secs_f64()
            ),
            "status".into(),
        ])
    }

    /// The `n` best moves, each searched (or, near the end, solved) on its own.
    fn hints(&self, n: usize, stop: &StopFlag) -> Output {
        let b = self.board;
        let mut lines = vec!["status Analysing".to_owned()];
        let mut moves = b.moves();
        let count = moves.count_ones().max(1);
        let empties = b.empty().count_ones();
        // Solved exactly near the end, and where the depth reaches the end (each move within its share of
        // the time, else searched).
        let always = empties <= SOLVE_EMPTIES;
        let mut solver = (always || self.depth >= empties && empties <= EXACT_MOST).then(|| self.solver());
        let mut scored = Vec::new();
        while moves != 0 && !stop.is_stopped() {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let child = b.play(sq);
            // Each move's share of the time: half of it for a solve that may give up, the rest for the search.
            let (started, share) = (Instant::now(), THINK_CAP / count);
            let bounds = if always {
                Bounds::stop(stop)
            } else {
                Bounds::within(started, share / 2, stop)
            };
            let solved = solver
                .as_mut()
                .and_then(|solver| solver.solve_within(child, bounds));
            let line = if let Some(s) = solved {
                let pv = format!("{}{}", nboard_square(Some(sq)), nboard_square(s.best));
                (-s.score * 100, pv, "100%".to_owned())
            } else {
                let limits = Limits {
                    depth: Some(self.depth.saturating_sub(1).max(1)),
                    time: Some(share.saturating_sub(started.elapsed()).max(share / 4)),
                    nodes: None,
                };
                let options = search::Options {
                    threads: self.threads,
                    ..search::Options::default()
                };
                let f = search::search(child, limits, stop, options);
                let pv: String = std::iter::once(Some(sq)).chain(f.pv).map(nboard_square).collect();
                (-f.score, pv, (f.depth + 1).to_string())
            };
            scored.push(line);
        }
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        for (score, pv, depth) in scored.into_iter().take(n) {
            lines.push(format!("search {pv} {:.2} 0 {depth}", f64::from(score) / 100.0));
        }
        lines.push("status".into());
        Output::lines(lines)
    }
}

impl Output {
    fn lines(lines: Vec<String>) -> Output {
        Output {
            lines,
            ..Output::default()
        }
    }

    fn error(e: impl Into<String>) -> Output {
        Output {
            error: Some(e.into()),
            ..Output::default()
        }
    }
}

/// A game read from GGF.
#[derive(Debug, PartialEq)]
struct Ggf {
    /// The start board, as the position text.
    board: String,
    /// The moves in order, each with the time it took when the record gives one.
    moves: Vec<(String, Option<Duration>)>,
    /// The clock `TI[...]`: each side's time and increment, when the record has one that can be read.
    clock: Option<(Duration, Duration)>,
}

/// Reads a GGF duration: seconds, `m:ss` or `h:mm:ss`.
fn parse_duration(text: &str) -> Option<Duration> {
    let mut seconds = 0.0;
    for part in text.trim().split(':') {
        seconds = seconds * 60.0 + part.trim().parse::<f64>().ok().filter(|v| *v >= 0.0)?;
    }
    Duration::try_from_secs_f64(seconds).ok()
}

/// Reads a GGF game: its `BO[...]` start board, its `B[...]`/`W[...]` moves in order (with their times) and its
/// clock `TI[time/increment]`.
fn parse_ggf(text: &str) -> anyhow::Result<Ggf> {
    let body = text.trim();
    let body = body.strip_prefix("(;").unwrap_or(body);
    let mut board = None;
    let mut moves = Vec::new();
    let mut clock = None;
    let mut rest = body;
    while let Some(open) = rest.find('[') {
        let name: String = rest[..open]
            .chars()
            .rev()
            .take_while(char::is_ascii_uppercase)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let close = rest[open..]
            .find(']')
            .ok_or_else(|| anyhow::anyhow!("a GGF value `[` is never closed"))?
            + open;
        let value = &rest[open + 1..close];
        match name.as_str() {
            "BO" => board = Some(value.to_owned()),
            "B" | "W" => {
                let mut parts = value.split('/');
                let mv = parts.next().unwrap_or("").trim().to_owned();
                let time = parts.nth(1).and_then(parse_duration);
                moves.push((mv, time));
            }
            "TI" => {
                let mut parts = value.split('/');
                clock = parts.next().and_then(parse_duration).map(|main| {
                    let inc = parts.next().and_then(parse_duration).unwrap_or_default();
                    (main, inc)
                });
            }
            _ => {}
        }
        rest = &rest[close + 1..];
    }
    let board = board.ok_or_else(|| anyhow::anyhow!("the GGF game has no BO[...] board"))?;
    let mut parts = board.split_whitespace();
    if parts.next() != Some("8") {
        return Err(anyhow::anyhow!("only 8x8 boards are played"));
    }
    let cells: Vec<&str> = parts.collect();
    let (side, squares) = cells
        .split_last()
        .ok_or_else(|| anyhow::anyhow!("the GGF board is empty"))?;
    Ok(Ggf {
        board: format!("{} {side}", squares.concat()),
        moves,
        clock,
    })
}

/// The GGF clock of a game: each side's time and increment, and what each side has used and played.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct GameClock {
    main: Duration,
    increment: Duration,
    used: [Duration; 2],
    made: [u32; 2],
}

impl GameClock {
    fn record(&mut self, side: usize, time: Option<Duration>) {
        self.used[side] += time.unwrap_or_default();
        self.made[side] += 1;
    }

    /// The clock of `side` now.
    fn of(&self, side: usize) -> Clock {
        Clock {
            left: (self.main + self.increment * self.made[side]).saturating_sub(self.used[side]),
            increment: self.increment,
        }
    }
}

/// A move in NBoard's way, `PA` for a pass, as the game reads it.
fn move_text(mv: &str) -> &str {
    if mv.eq_ignore_ascii_case("pa") { "pass" } else { mv }
}

impl Nboard {
    pub(crate) fn new(threads: usize) -> Nboard {
        let game = crate::registry().game("reversi").expect("reversi is registered");
        let pos = game.start();
        Nboard {
            game,
            pos,
            depth: 12,
            clock: None,
            threads: threads.max(1),
        }
    }

    fn job(&self, hint: Option<usize>) -> Job {
        let board = self
            .pos
            .as_any()
            .downcast_ref::<ReversiPosition>()
            .expect("an NBoard session plays Reversi")
            .board();
        Job {
            threads: self.threads,
            board,
            depth: self.depth,
            clock: self.clock.map(|c| c.of(self.pos.turn().index())),
            hint,
        }
    }

    /// Handles a line; a search it asks for runs at once (see [`Nboard::handle`] for the session's way).
    #[cfg(test)]
    fn handle_now(&mut self, line: &str) -> Output {
        match self.handle(line) {
            Step::Done(out) => out,
            Step::Think(job) => job.run(&StopFlag::new()),
        }
    }

    /// Handles a line: an answer, or the search `go` and `hint` ask for.
    pub(crate) fn handle(&mut self, line: &str) -> Step {
        let line = line.trim();
        let (command, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, r)| (c, r.trim()));
        match command {
            "go" => Step::Think(self.job(None)),
            "hint" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => Step::Think(self.job(Some(n))),
                _ => Step::Done(Output::error("hint needs a number of moves, 1 or more")),
            },
            _ => Step::Done(self.answer(command, rest)),
        }
    }

    fn answer(&mut self, command: &str, rest: &str) -> Output {
        match command {
            "" => Output::default(),
            "nboard" => match rest {
                "1" | "2" => Output::lines(vec!["set myname gridplay".into()]),
                v => Output::error(format!(
                    "NBoard protocol version {v} is not supported (1 and 2 are)"
                )),
            },
            "set" => self.set(rest),
            "move" => {
                let mut parts = rest.split('/');
                let mv = move_text(parts.next().unwrap_or("").trim());
                let time = parts.nth(1).and_then(parse_duration);
                let side = self.pos.turn().index();
                match self.pos.play(mv) {
                    Ok(()) => {
                        if let Some(clock) = &mut self.clock {
                            clock.record(side, time);
                        }
                        Output::default()
                    }
                    Err(e) => Output::error(e.to_string()),
                }
            }
            "ping" => Output::lines(vec![format!("pong {}", rest.parse::<i64>().unwrap_or(0))]),
            "learn" => Output::lines(vec!["learned".into()]),
            "analyze" => Output::error("analyze is not supported"),
            "quit" => Output {
                quit: true,
                ..Output::default()
            },
            other => Output::error(format!("unknown command `{other}`")),
        }
    }

    fn set(&mut self, rest: &str) -> Output {
        let (what, value) = rest
            .split_once(char::is_whitespace)
            .map_or((rest, ""), |(a, b)| (a, b.trim()));
        match what {
            "depth" => match value.parse::<u32>() {
                Ok(d) if (1..=60).contains(&d) => {
                    self.depth = d;
                    Output::default()
                }
                _ => Output::error("depth must be a whole number from 1 to 60"),
            },
            "contempt" => Output::default(),
            "game" => {
                let ggf = match parse_ggf(value) {
                    Ok(x) => x,
                    Err(e) => return Output::error(format!("set game: {e}")),
                };
                let mut pos = match self.game.parse_position(&ggf.board) {
                    Ok(p) => p,
                    Err(e) => return Output::error(format!("set game: {e}")),
                };
                let mut clock = ggf.clock.map(|(main, increment)| GameClock {
                    main,
                    increment,
                    ..GameClock::default()
                });
                for (m, time) in &ggf.moves {
                    let side = pos.turn().index();
                    if let Err(e) = pos.play(move_text(m)) {
                        return Output::error(format!("set game: {e}"));
                    }
                    if let Some(clock) = &mut clock {
                        clock.record(side, *time);
                    }
                }
                self.clock = clock;
                self.pos = pos;
                Output::default()
            }
            other => Output::error(format!("unknown setting `{other}`")),
        }
    }
}

/// What the session loop waits for.
enum Event {
    Line(String),
    Finished(Output),
    End,
}

fn print(output: &Output) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    for l in &output.lines {
        writeln!(out, "{l}").map_err(crate::output_error)?;
    }
    out.flush().map_err(crate::output_error)?;
    if let Some(e) = &output.error {
        eprintln!("error: {e}");
    }
    Ok(())
}

/// Runs an NBoard session over standard input and output. Lines are read on a thread of their own, so that a
/// `ping` (or `quit`) reaches a running search: it stops the search and drops its answer. Other lines that
/// arrive during a search wait for it to end.
pub(crate) fn run(threads: usize) -> anyhow::Result<()> {
    // Before the first command: a GUI starts its clock when it asks for a move.
    gridplay_engine::prepare("reversi");
    let (tx, rx) = mpsc::channel();
    let reader = tx.clone();
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if reader.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::End);
    });
    let mut session = Nboard::new(threads);
    let mut running: Option<StopFlag> = None;
    let mut dropped = false;
    let mut waiting: VecDeque<String> = VecDeque::new();
    let mut ended = false;
    loop {
        if running.is_none() {
            if let Some(line) = waiting.pop_front() {
                match session.handle(&line) {
                    Step::Done(output) => {
                        print(&output)?;
                        if output.quit {
                            return Ok(());
                        }
                    }
                    Step::Think(job) => {
                        let stop = StopFlag::new();
                        let flag = stop.clone();
                        let done = tx.clone();
                        std::thread::spawn(move || {
                            let _ = done.send(Event::Finished(job.run(&flag)));
                        });
                        running = Some(stop);
                    }
                }
                continue;
            }
            if ended {
                return Ok(());
            }
        }
        match rx.recv() {
            Ok(Event::Line(line)) => {
                // A ping or a quit stops the search under way and drops its answer; every line is answered in
                // the order it came.
                if let Some(stop) = &running
                    && matches!(line.split_whitespace().next(), Some("ping" | "quit"))
                {
                    stop.stop();
                    dropped = true;
                }
                waiting.push_back(line);
            }
            Ok(Event::Finished(output)) => {
                running = None;
                if !dropped {
                    print(&output)?;
                }
                dropped = false;
            }
            Ok(Event::End) | Err(_) => ended = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GGF: &str = "(;GM[Othello]PC[NBoard]DT[2026-11-22]PB[me]PW[gridplay]RE[?]TI[5:00]TY[8]\
        BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.2]W[D6];)";

    #[test]
    fn a_depth_that_reaches_the_end_is_solved_exactly() {
        // FFO #40: 20 empty squares, Black to move; A2 wins by 38, C7 by 36, D8 by 34 (the problem file's
        // scores). The search alone answers other scores at this depth.
        let ffo40 =
            "(;GM[Othello]PC[ffo]BO[8 O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- *];)";
        let mut s = Nboard::new(1);
        s.handle_now(&format!("set game {ffo40}"));
        s.handle_now("set depth 20");
        let go = s.handle_now("go");
        assert!(go.lines[0].starts_with("=== A2/38.00/"), "{go:?}");
        s.handle_now("set depth 21");
        let hint = s.handle_now("hint 3");
        assert!(
            hint.lines[1].starts_with("search A2") && hint.lines[1].ends_with(" 38.00 0 100%"),
            "{hint:?}"
        );
        assert!(
            hint.lines[2].starts_with("search C7") && hint.lines[2].ends_with(" 36.00 0 100%"),
            "{hint:?}"
        );
        assert!(
            hint.lines[3].starts_with("search D8") && hint.lines[3].ends_with(" 34.00 0 100%"),
            "{hint:?}"
        );
        // Shallower, it searches.
        s.handle_now("set depth 8");
        let go = s.handle_now("go");
        assert!(go.lines[0].starts_with("=== "), "{go:?}");
        assert!(!go.lines[0].contains("/2.00/"), "{go:?}");
        // On a game clock, from 22 empty squares (and 6 beyond the depth) a won position is played by a
        // win/loss/draw solve, which answers a win as 2 discs.
        s.handle_now("set depth 14");
        s.handle_now(&format!(
            "set game {}",
            ffo40.replace("PC[ffo]", "PC[ffo]TI[5:00]")
        ));
        let go = s.handle_now("go");
        assert!(
            go.lines[0].starts_with("=== ") && go.lines[0].contains("/2.00/"),
            "{go:?}"
        );
    }

    #[test]
    fn a_session_sets_a_game_and_moves() {
        let mut s = Nboard::new(1);
        assert_eq!(s.handle_now("nboard 2").lines, ["set myname gridplay"]);
        assert_eq!(s.handle_now("set depth 4"), Output::default());
        assert_eq!(s.handle_now(&format!("set game {GGF}")), Output::default());
        // After F5 and D6, Black to move.
        assert_eq!(
            s.pos.to_text(),
            "---------------------------OX------OXX-----O-------------------- X"
        );
        let go = s.handle_now("go");
        assert!(go.lines[0].starts_with("=== "), "{go:?}");
        let mv = go.lines[0][4..].split('/').next().unwrap().to_lowercase();
        assert!(s.pos.legal_moves().contains(&mv));
        assert_eq!(go.lines[1], "status");
        assert_eq!(s.handle_now("move c3/0.5/1.0"), Output::default());
        assert_eq!(s.handle_now("ping 7").lines, ["pong 7"]);
        assert_eq!(s.handle_now("learn").lines, ["learned"]);
        let hint = s.handle_now("hint 1");
        assert_eq!(hint.lines.first().map(String::as_str), Some("status Analysing"));
        assert!(hint.lines[1].starts_with("search "));
        assert!(s.handle_now("quit").quit);
    }

    fn game_of(board: &str, side: char) -> String {
        format!("set game (;GM[Othello]BO[8 {} {side}];)", board.replace('X', "*"))
    }

    #[test]
    fn a_pass_and_a_finished_game_answer_at_once() {
        let mut s = Nboard::new(1);
        assert_eq!(s.handle_now("nboard 1").lines, ["set myname gridplay"]);
        // Black's one disc on b1 cannot flank White's on a1; White can play c1.
        let pass = format!("OX{}", "-".repeat(62));
        assert_eq!(s.handle_now(&game_of(&pass, '*')), Output::default());
        let go = s.handle_now("go");
        assert_eq!(go.lines, ["=== PA", "status"]);
        assert_eq!(go.error, None);
        assert_eq!(s.handle_now("move PA"), Output::default());
        assert!(s.handle_now("go").lines[0].starts_with("=== C1/"));
        let over = format!("XX{}", "-".repeat(62));
        assert_eq!(s.handle_now(&game_of(&over, 'O')), Output::default());
        let go = s.handle_now("go");
        assert_eq!(go.lines, ["=== PA", "status"]);
        assert!(go.error.unwrap().contains("game is over"));
        assert_eq!(s.handle_now("hint 2").lines, ["status Analysing", "status"]);
    }

    #[test]
    fn hint_gives_the_best_moves_with_exact_solves_at_100_percent() {
        let mut s = Nboard::new(1);
        // FFO #1: G8 +18, H1 +12, H7 and A2 +6.
        let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
        assert_eq!(s.handle_now(&game_of(ffo1, '*')), Output::default());
        let hint = s.handle_now("hint 3");
        assert_eq!(hint.lines.len(), 5, "{hint:?}");
        assert!(hint.lines[1].starts_with("search G8"), "{hint:?}");
        assert!(hint.lines[1].ends_with(" 18.00 0 100%"), "{hint:?}");
        assert!(hint.lines[2].starts_with("search H1") && hint.lines[2].ends_with(" 12.00 0 100%"));
        assert!(hint.lines[3].ends_with(" 6.00 0 100%"), "{hint:?}");
        // From the start, four moves at most, best first.
        let mut s = Nboard::new(1);
        s.handle_now("set depth 5");
        let hint = s.handle_now("hint 9");
        assert_eq!(hint.lines.len(), 6, "{hint:?}");
        let scores: Vec<f64> = hint.lines[1..5]
            .iter()
            .map(|l| l.split(' ').nth(2).unwrap().parse().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    }

    #[test]
    fn the_ggf_clock_is_followed() {
        let ggf = parse_ggf(GGF).unwrap();
        assert_eq!(ggf.clock, Some((Duration::from_secs(300), Duration::ZERO)));
        assert_eq!(
            ggf.moves,
            [
                ("F5".to_owned(), Some(Duration::from_millis(1200))),
                ("D6".to_owned(), None)
            ]
        );
        assert_eq!(parse_duration("1:02:03"), Some(Duration::from_secs(3723)));
        assert_eq!(parse_duration("x"), None);
        let mut s = Nboard::new(1);
        s.handle_now(&format!("set game {GGF}"));
        // Black has used 1.2 s of five minutes.
        assert_eq!(
            s.clock.unwrap().of(0),
            Clock {
                left: Duration::from_millis(298_800),
                increment: Duration::ZERO
            }
        );
        assert_eq!(s.handle_now("move C3/0.5/4.5"), Output::default());
        assert_eq!(s.clock.unwrap().of(0).left, Duration::from_millis(294_300));
        // With two seconds on the clock, Black answers within its share.
        let short = GGF.replace("TI[5:00]", "TI[0:02]");
        s.handle_now(&format!("set game {short}"));
        s.handle_now("set depth 60");
        let started = std::time::Instant::now();
        assert!(s.handle_now("go").lines[0].starts_with("=== "));
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn bad_input_goes_to_standard_error() {
        let mut s = Nboard::new(1);
        assert!(s.handle_now("nboard 3").error.unwrap().contains("version 3"));
        assert!(s.handle_now("hint").error.unwrap().contains("number of moves"));
        assert!(s.handle_now("hint 0").error.unwrap().contains("number of moves"));
        assert!(
            s.handle_now("move z9")
                .error
                .unwrap()
                .contains("cannot read move")
        );
        assert!(s.handle_now("move a1").error.unwrap().contains("must flip"));
        assert!(
            s.handle_now("set game (;GM[Othello];)")
                .error
                .unwrap()
                .contains("no BO")
        );
        assert!(s.handle_now("set depth 99").error.is_some());
        assert!(s.handle_now("frob").error.unwrap().contains("unknown command"));
        assert_eq!(s.handle_now("ping 1").lines, ["pong 1"]);
    }
}
