//! The NBoard protocol for Reversi, which NBoard-compatible GUIs and engines (NBoard, Edax, NTest) speak.
//!
//! Handled: `nboard 2` (answered `set myname gridplay`), `set depth N`, `set game <GGF>`, `set contempt N`
//! (accepted, unused), `move <sq>[/eval[/time]]`, `go` (answered `=== <sq>/<eval>/<seconds>`, then `status`),
//! `hint N` (`search` lines, then `status`), `ping N` (`pong N`), `learn` (`learned`) and `quit`. Problems go
//! to standard error, as the protocol expects, and the session goes on.

use std::{
    io::{self, BufRead, Write},
    time::Duration,
};

use gridplay_core::{DynGame, DynPosition};
use gridplay_engine::Request;
use gridplay_search::{Limits, StopFlag};

/// The engine side of an NBoard session.
#[derive(Debug)]
pub(crate) struct Nboard {
    game: Box<dyn DynGame>,
    pos: Box<dyn DynPosition>,
    depth: u32,
}

/// What one command produced: lines for standard output and an error for standard error.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Output {
    pub lines: Vec<String>,
    pub error: Option<String>,
    pub quit: bool,
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

/// Reads a GGF game: its `BO[...]` start board and its `B[...]`/`W[...]` moves, in order.
fn parse_ggf(text: &str) -> Result<(String, Vec<String>), String> {
    let body = text.trim();
    let body = body.strip_prefix("(;").unwrap_or(body);
    let mut board = None;
    let mut moves = Vec::new();
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
        let close = rest[open..].find(']').ok_or("a GGF value `[` is never closed")? + open;
        let value = &rest[open + 1..close];
        match name.as_str() {
            "BO" => board = Some(value.to_owned()),
            "B" | "W" => moves.push(value.split('/').next().unwrap_or("").trim().to_owned()),
            _ => {}
        }
        rest = &rest[close + 1..];
    }
    let board = board.ok_or("the GGF game has no BO[...] board")?;
    let mut parts = board.split_whitespace();
    if parts.next() != Some("8") {
        return Err("only 8x8 boards are played".into());
    }
    let cells: Vec<&str> = parts.collect();
    let (side, squares) = cells.split_last().ok_or("the GGF board is empty")?;
    Ok((format!("{} {side}", squares.concat()), moves))
}

impl Nboard {
    pub(crate) fn new() -> Nboard {
        let game = crate::registry().game("reversi").expect("reversi is registered");
        let pos = game.start();
        Nboard { game, pos, depth: 12 }
    }

    fn think(&self) -> Result<gridplay_engine::Reply, String> {
        let request = Request {
            limits: Limits {
                depth: Some(self.depth),
                time: Some(Duration::from_secs(10)),
                nodes: None,
            },
            ..Request::default()
        };
        gridplay_engine::think(self.pos.as_ref(), &request, &StopFlag::new()).map_err(|e| e.to_string())
    }

    pub(crate) fn handle(&mut self, line: &str) -> Output {
        let line = line.trim();
        let (command, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, r)| (c, r.trim()));
        match command {
            "" => Output::default(),
            "nboard" => match rest {
                "2" => Output::lines(vec!["set myname gridplay".into()]),
                v => Output::error(format!("NBoard protocol version {v} is not supported (2 is)")),
            },
            "set" => self.set(rest),
            "move" => {
                let mv = rest.split('/').next().unwrap_or("").trim();
                match self.pos.play(mv) {
                    Ok(()) => Output::default(),
                    Err(e) => Output::error(e.to_string()),
                }
            }
            "go" => match self.think() {
                Ok(r) => Output::lines(vec![
                    format!(
                        "=== {}/{:.2}/{:.3}",
                        r.best.to_uppercase(),
                        f64::from(r.score) / 100.0,
                        r.elapsed.as_secs_f64()
                    ),
                    "status".into(),
                ]),
                Err(e) => Output {
                    lines: vec!["status".into()],
                    error: Some(e),
                    quit: false,
                },
            },
            "hint" => {
                let Ok(n) = rest.parse::<usize>() else {
                    return Output::error("hint needs a number of moves");
                };
                match self.think() {
                    Ok(r) => {
                        let mut lines = vec!["status Analysing".to_owned()];
                        lines.extend(
                            std::iter::once(format!(
                                "search {} {:.2} 0 {}",
                                r.pv.concat().to_uppercase(),
                                f64::from(r.score) / 100.0,
                                r.depth
                            ))
                            .take(n),
                        );
                        lines.push("status".into());
                        Output::lines(lines)
                    }
                    Err(e) => Output {
                        lines: vec!["status".into()],
                        error: Some(e),
                        quit: false,
                    },
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
                let (board, moves) = match parse_ggf(value) {
                    Ok(x) => x,
                    Err(e) => return Output::error(format!("set game: {e}")),
                };
                let mut pos = match self.game.parse_position(&board) {
                    Ok(p) => p,
                    Err(e) => return Output::error(format!("set game: {e}")),
                };
                for m in &moves {
                    if let Err(e) = pos.play(m) {
                        return Output::error(format!("set game: {e}"));
                    }
                }
                self.pos = pos;
                Output::default()
            }
            other => Output::error(format!("unknown setting `{other}`")),
        }
    }
}

/// Runs an NBoard session over standard input and output.
pub(crate) fn run() -> Result<(), String> {
    let stdin = io::stdin();
    let mut session = Nboard::new();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("reading standard input: {e}"))?;
        let output = session.handle(&line);
        let mut out = io::stdout().lock();
        for l in &output.lines {
            writeln!(out, "{l}").map_err(crate::output_error)?;
        }
        out.flush().map_err(crate::output_error)?;
        if let Some(e) = output.error {
            eprintln!("error: {e}");
        }
        if output.quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GGF: &str = "(;GM[Othello]PC[NBoard]DT[2026-11-22]PB[me]PW[gridplay]RE[?]TI[5:00]TY[8]\
        BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.2]W[D6];)";

    #[test]
    fn a_session_sets_a_game_and_moves() {
        let mut s = Nboard::new();
        assert_eq!(s.handle("nboard 2").lines, ["set myname gridplay"]);
        assert_eq!(s.handle("set depth 4"), Output::default());
        assert_eq!(s.handle(&format!("set game {GGF}")), Output::default());
        // After F5 and D6, Black to move.
        assert_eq!(
            s.pos.to_text(),
            "---------------------------OX------OXX-----O-------------------- X"
        );
        let go = s.handle("go");
        assert!(go.lines[0].starts_with("=== "), "{go:?}");
        let mv = go.lines[0][4..].split('/').next().unwrap().to_lowercase();
        assert!(s.pos.legal_moves().contains(&mv));
        assert_eq!(go.lines[1], "status");
        assert_eq!(s.handle("move c3/0.5/1.0"), Output::default());
        assert_eq!(s.handle("ping 7").lines, ["pong 7"]);
        assert_eq!(s.handle("learn").lines, ["learned"]);
        let hint = s.handle("hint 1");
        assert_eq!(hint.lines.first().map(String::as_str), Some("status Analysing"));
        assert!(hint.lines[1].starts_with("search "));
        assert!(s.handle("quit").quit);
    }

    #[test]
    fn bad_input_goes_to_standard_error() {
        let mut s = Nboard::new();
        assert!(s.handle("nboard 3").error.unwrap().contains("version 3"));
        assert!(s.handle("move z9").error.unwrap().contains("cannot read move"));
        assert!(s.handle("move a1").error.unwrap().contains("must flip"));
        assert!(
            s.handle("set game (;GM[Othello];)")
                .error
                .unwrap()
                .contains("no BO")
        );
        assert!(s.handle("set depth 99").error.is_some());
        assert!(s.handle("frob").error.unwrap().contains("unknown command"));
        assert_eq!(s.handle("ping 1").lines, ["pong 1"]);
    }
}
