//! `gridplay play`: a game in the terminal.

use std::io::{self, BufRead, Write};

use clap::{Args, ValueEnum};
use gridplay_core::{DynGame, DynPosition, Player, playout};

#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    /// The game spec, such as `reversi`, `cornered:size=7` or `ywf`.
    spec: String,
    /// Who plays the other side.
    #[arg(long, value_enum, default_value_t = Opponent::Engine)]
    opponent: Opponent,
    /// The side you play against the computer: first or second.
    #[arg(long, value_enum, default_value_t = Side::First)]
    side: Side,
    /// The engine's level, from 1 (beginner) to the game's top level (full strength: 8 in every game but
    /// tic-tac-toe; `gridplay games` lists them), with `--opponent engine`.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..))]
    level: u8,
    /// Seed for the random mover (the same seed replays the same game); random by default.
    #[arg(long)]
    seed: Option<u64>,
    /// Start from this position text instead of the start position.
    #[arg(long)]
    position: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Opponent {
    /// Another person at the same keyboard.
    Human,
    /// A mover that picks uniformly among the legal moves.
    Random,
    /// The gridplay engine at `--level`.
    Engine,
}

/// Who moves for the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mover {
    Random,
    Engine(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Side {
    First,
    Second,
}

pub(crate) fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let (game, pos) = crate::load(&args.spec, args.position.as_deref())?;
    let side = match args.side {
        Side::First => Player::Second,
        Side::Second => Player::First,
    };
    let computer = match args.opponent {
        Opponent::Human => None,
        Opponent::Random => Some((side, Mover::Random)),
        Opponent::Engine => Some((side, Mover::Engine(crate::check_level(&args.spec, args.level)?))),
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    match session(game.as_ref(), pos, computer, seed, &mut stdin.lock(), &mut out) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

const HELP: &str =
    "Type a move as listed, or: moves (list them), undo (take back your last move), help, quit.";
/// How a move is typed in a game whose units act (Grid Tactics).
const HELP_ACTIVATE: &str = "A unit's move: from-to, then xSQUARE to attack or * / *SQUARE for the ability (c2-c5xc6, \
    d1-d1*d2); end ends the turn.";

/// The help for `game`: how moves are typed in it.
fn help(game: &dyn DynGame) -> String {
    let spec = game.spec();
    match crate::registry().entry(spec.name()).map(|e| e.module.entry) {
        Some(gridplay_core::MoveEntry::Activate) => format!("{HELP}\n{HELP_ACTIVATE}"),
        _ => HELP.to_owned(),
    }
}

/// The game loop over any input and output, so that tests can drive it.
fn session(
    game: &dyn DynGame,
    mut pos: Box<dyn DynPosition>,
    computer: Option<(Player, Mover)>,
    seed: u64,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<()> {
    let info = game.info();
    let mut rng = playout::seeded(seed);
    let mut history: Vec<Box<dyn DynPosition>> = Vec::new();
    let help = help(game);
    writeln!(out, "{} ({}). {help}", info.title, game.spec())?;
    let mut show = true;
    loop {
        let view = pos.view();
        if show {
            write!(out, "\n{}", crate::render::board(&view, &info))?;
        }
        show = true;
        if pos.outcome().is_some() {
            return Ok(());
        }
        let turn = pos.turn();
        let name = &info.sides[turn.index()].name;
        if let Some((side, mover)) = computer
            && side == turn
        {
            let m = match mover {
                Mover::Random => pos.random_move(&mut rng),
                Mover::Engine(level) => {
                    let request = gridplay_engine::Request {
                        level: Some(level),
                        seed,
                        ..Default::default()
                    };
                    gridplay_engine::think(pos.as_ref(), &request, &gridplay_search::StopFlag::new())
                        .ok()
                        .map(|r| r.best)
                }
            };
            let Some(m) = m else { return Ok(()) };
            writeln!(out, "{name} plays {m}")?;
            pos.play(&m).map_err(|e| io::Error::other(e.to_string()))?;
            continue;
        }
        let legal = pos.legal_moves();
        if legal.len() > 40 {
            writeln!(out, "{} legal moves; type `moves` to list them.", legal.len())?;
        } else {
            writeln!(out, "Legal: {}", legal.join(" "))?;
        }
        write!(out, "{name}> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        match line.trim() {
            "" => show = false,
            "quit" | "exit" => return Ok(()),
            "help" => {
                writeln!(out, "{help}")?;
                show = false;
            }
            "moves" => {
                writeln!(out, "{}", pos.legal_moves().join(" "))?;
                show = false;
            }
            "undo" => match history.pop() {
                // History holds the position before each move typed here, so against the computer this
                // takes back its reply as well.
                Some(before) => pos = before,
                None => {
                    writeln!(out, "Nothing to undo.")?;
                    show = false;
                }
            },
            text => {
                let before = pos.clone();
                match pos.play(text) {
                    Ok(()) => history.push(before),
                    Err(e) => {
                        writeln!(out, "{e}")?;
                        show = false;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_script(spec: &str, computer: Option<(Player, Mover)>, script: &str) -> String {
        let game = crate::registry().game(spec).unwrap();
        let pos = game.start();
        let mut out = Vec::new();
        session(game.as_ref(), pos, computer, 1, &mut script.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn two_people_play_and_bad_moves_are_explained() {
        let out = run_script("reversi", None, "a1\nzz\nf5\nquit\n");
        assert!(
            out.contains("illegal move `a1`: a placement must flip at least one disc"),
            "{out}"
        );
        assert!(out.contains("cannot read move `zz`"), "{out}");
        assert!(out.contains("Black 4 - 1 White. White to move."), "{out}");
        assert!(out.contains("Legal: d3 c4 f5 e6"), "{out}");
    }

    #[test]
    fn the_board_marks_legal_targets() {
        let out = run_script("reversi", None, "quit\n");
        assert!(out.contains("3 . . . * . . . . 3"), "{out}");
        assert!(out.contains("4 . . * O X . . . 4"), "{out}");
    }

    #[test]
    fn random_opponent_replies_and_undo_takes_back_both() {
        let out = run_script(
            "cornered:size=3",
            Some((Player::Second, Mover::Random)),
            "b2\nundo\nmoves\nquit\n",
        );
        assert!(out.contains("Black plays"), "{out}");
        assert!(
            out.contains("a3 b3 c3 a2 b2 c2 a1 b1 c1"),
            "undo returns to the start: {out}"
        );
    }

    #[test]
    fn a_game_plays_to_the_end_against_the_random_mover() {
        let script = "b2\na1\nc1\na3\nc3\na2\nb1\nc2\nb3\n".repeat(2);
        let out = run_script("cornered:size=3", Some((Player::Second, Mover::Random)), &script);
        assert!(out.contains("Game over"), "{out}");
    }

    #[test]
    fn the_engine_replies_at_a_level() {
        let out = run_script(
            "checkers",
            Some((Player::Second, Mover::Engine(3))),
            "11-15\nquit\n",
        );
        assert!(out.contains("White plays "), "{out}");
    }

    #[test]
    fn the_help_says_how_this_game_s_moves_are_typed() {
        let reversi = run_script("reversi", None, "help\nquit\n");
        assert_eq!(
            reversi.matches("undo (take back your last move)").count(),
            2,
            "{reversi}"
        );
        assert!(!reversi.contains("from-to"), "{reversi}");
        let tactics = run_script("tactics", None, "help\nquit\n");
        assert_eq!(tactics.matches("A unit's move: from-to").count(), 2, "{tactics}");
    }

    #[test]
    fn end_of_input_ends_the_session() {
        let out = run_script("ywf", None, "");
        assert!(out.contains("Warui-ko 3 - 3 Yoi-ko. Warui-ko to move."), "{out}");
        assert!(out.contains("token: centre"), "{out}");
    }
}
