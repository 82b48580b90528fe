//! Games as text files: export in each game's standard form and import back into a replay.
//!
//! - Checkers: PDN (`gridplay_games::checkers::pdn`), as checkers programs exchange games.
//! - Reversi: tags, then the usual Othello transcript (`f5d6c3d3...`, passes left out).
//! - Cornered Reversi, YWF, Grid Tactics: tags, then the moves in the game's own notation, separated by spaces
//!   (our documented form, `docs/web.md`).
//!
//! Tags are written `[Name "value"]`, one a line, as in PGN: `Game` (the spec), `First`, `Second`, `Result`
//! (`1-0`, `0-1`, `1/2-1/2` or `*`) and `Termination`.

use gridplay_core::{DynGame, GameRecord, Outcome, Player, Position, Registry};
use gridplay_games::{
    checkers::{CheckersPosition, pdn},
    reversi::ReversiPosition,
};

/// A file that could not be imported, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ImportError(pub String);

/// A game read from a file.
#[derive(Debug)]
pub struct Imported {
    pub spec: String,
    pub game: Box<dyn DynGame>,
    pub record: GameRecord,
    /// First and second player's names as the file gives them.
    pub names: [Option<String>; 2],
    /// The result the file states, which may be a resignation or an agreed draw the moves do not show.
    pub result: Option<Outcome>,
}

fn parse_result(token: &str) -> Option<Outcome> {
    match token.trim() {
        "1-0" | "2-0" => Some(Outcome::Win {
            winner: Player::First,
        }),
        "0-1" | "0-2" => Some(Outcome::Win {
            winner: Player::Second,
        }),
        "1/2-1/2" | "1-1" => Some(Outcome::Draw),
        _ => None,
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The file name and text of a game.
#[must_use]
pub fn export(
    id: &str,
    spec: &str,
    names: [&str; 2],
    record: &GameRecord,
    termination: Option<&str>,
) -> (String, String) {
    let outcome = record.outcome().map(|(o, _)| o);
    let mut tags = vec![
        ("Event".to_owned(), "gridplay".to_owned()),
        ("Site".to_owned(), format!("gridplay game {id}")),
        ("Game".to_owned(), spec.to_owned()),
        ("First".to_owned(), names[0].to_owned()),
        ("Second".to_owned(), names[1].to_owned()),
    ];
    if let Some(t) = termination {
        tags.push(("Termination".to_owned(), t.to_owned()));
    }
    let start = record.start().as_any();
    if let Some(start) = start.downcast_ref::<CheckersPosition>() {
        let moves = typed_moves(start, record.moves());
        let mut named = vec![
            ("Black".to_owned(), names[0].to_owned()),
            ("White".to_owned(), names[1].to_owned()),
        ];
        named.extend(tags);
        return (format!("{id}.pdn"), pdn::write(&named, start, &moves, outcome));
    }
    let mut out = String::new();
    for (name, value) in &tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push_str(&format!("[Result \"{}\"]\n\n", pdn::result_token(outcome)));
    let body = if let Some(start) = start.downcast_ref::<ReversiPosition>() {
        ReversiPosition::transcript(&typed_moves(start, record.moves()))
    } else {
        record.moves().join(" ")
    };
    out.push_str(&wrap(&body));
    out.push('\n');
    (format!("{id}.txt"), out)
}

/// A record's moves as a game's own moves. The record holds only moves it played, so each one reads and plays
/// again.
fn typed_moves<P: Position>(start: &P, texts: &[String]) -> Vec<P::Move> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in texts {
        if let Ok(m) = pos.parse_move(text) {
            pos.play_unchecked(m);
            moves.push(m);
        }
    }
    moves
}

/// Breaks a long line of moves at spaces (or every 60 characters for a compact transcript).
fn wrap(body: &str) -> String {
    let mut out = String::new();
    let mut line = 0;
    if !body.contains(' ') {
        for (i, c) in body.chars().enumerate() {
            if i > 0 && i % 60 == 0 {
                out.push('\n');
            }
            out.push(c);
        }
        return out;
    }
    for word in body.split(' ') {
        if line > 0 && line + word.len() > 79 {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

/// Reads a game file: PDN for checkers, or tags and moves for the others.
pub fn import(registry: &Registry, text: &str) -> Result<Imported, ImportError> {
    if text.len() > 256 * 1024 {
        return Err(ImportError("the file is larger than 256 KiB".into()));
    }
    let tags = read_tags(text)?;
    let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let is_pdn = tag("GameType").is_some() || (tag("Game").is_none() && looks_like_pdn(text));
    if is_pdn {
        let game = pdn::parse(text).map_err(|e| ImportError(e.to_string()))?;
        let dyn_game = registry
            .game("checkers")
            .map_err(|e| ImportError(e.to_string()))?;
        let mut record = GameRecord::new(Box::new(game.start));
        let mut pos = game.start;
        for m in &game.moves {
            let text = pos.move_text(*m);
            pos.play_unchecked(*m);
            record
                .play(&text)
                .map_err(|e| ImportError(format!("move {text}: {e}")))?;
        }
        let name = |t: &str| game.tags.iter().find(|(n, _)| n == t).map(|(_, v)| v.clone());
        return Ok(Imported {
            spec: "checkers".into(),
            game: dyn_game,
            record,
            names: [
                name("Black").or_else(|| name("First")),
                name("White").or_else(|| name("Second")),
            ],
            result: game.result,
        });
    }
    let spec = tag("Game").unwrap_or_else(|| "reversi".into());
    let game = registry
        .game(&spec)
        .map_err(|e| ImportError(format!("the Game tag: {e}")))?;
    let body = strip_tags(text);
    let mut record = GameRecord::new(game.start());
    let start = game.start();
    if let Some(start) = start.as_any().downcast_ref::<ReversiPosition>() {
        let (_, moves) = start
            .play_transcript(&body)
            .map_err(|(n, e)| ImportError(format!("move {n}: {e}")))?;
        let mut pos = *start;
        for m in moves {
            let text = pos.move_text(m);
            pos.play_unchecked(m);
            record
                .play(&text)
                .map_err(|e| ImportError(format!("move {text}: {e}")))?;
        }
    } else {
        for (i, word) in body.split_whitespace().enumerate() {
            if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                break;
            }
            record
                .play(word)
                .map_err(|e| ImportError(format!("move {} ({word}): {e}", i + 1)))?;
        }
    }
    Ok(Imported {
        spec: game.spec().to_string(),
        game,
        record,
        names: [tag("First"), tag("Second")],
        result: tag("Result").as_deref().and_then(parse_result),
    })
}

fn looks_like_pdn(text: &str) -> bool {
    strip_tags(text)
        .split_whitespace()
        .any(|w| w.ends_with('.') && w[..w.len() - 1].chars().all(|c| c.is_ascii_digit()))
}

/// The `[Name "value"]` lines at the top.
fn read_tags(text: &str) -> Result<Vec<(String, String)>, ImportError> {
    let mut tags = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if !line.starts_with('[') {
            break;
        }
        let inner = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .ok_or_else(|| ImportError(format!("line {}: a tag is written [Name \"value\"]", n + 1)))?;
        let (name, value) = inner
            .split_once(' ')
            .ok_or_else(|| ImportError(format!("line {}: a tag is written [Name \"value\"]", n + 1)))?;
        let value = value
            .trim()
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or_else(|| ImportError(format!("line {}: the tag's value is not in quotes", n + 1)))?;
        tags.push((name.to_owned(), value.replace("\\\"", "\"").replace("\\\\", "\\")));
    }
    Ok(tags)
}

fn strip_tags(text: &str) -> String {
    text.lines()
        .skip_while(|l| l.trim().is_empty() || l.trim().starts_with('['))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(spec: &str, moves: &[&str]) -> GameRecord {
        let game = gridplay_games::registry().game(spec).unwrap();
        GameRecord::replay(game.start(), moves.iter().copied()).unwrap()
    }

    #[test]
    fn every_game_round_trips_through_its_file() {
        let registry = gridplay_games::registry();
        let mut rng = gridplay_core::playout::seeded(7);
        for spec in ["reversi", "cornered:size=6", "ywf", "checkers", "tactics"] {
            let game = registry.game(spec).unwrap();
            let mut rec = GameRecord::new(game.start());
            for _ in 0..60 {
                if rec.outcome().is_some() {
                    break;
                }
                let mv = rec.position().random_move(&mut rng).unwrap();
                rec.play(&mv).unwrap();
            }
            let (name, text) = export("abc", &game.spec().to_string(), ["ann", "ben"], &rec, None);
            assert!(
                name.ends_with(if spec == "checkers" { ".pdn" } else { ".txt" }),
                "{name}"
            );
            let back = import(registry, &text).unwrap_or_else(|e| panic!("{spec}: {e}\n{text}"));
            assert_eq!(back.record.moves(), rec.moves(), "{spec}\n{text}");
            assert_eq!(back.names, [Some("ann".into()), Some("ben".into())], "{spec}");
            assert_eq!(back.spec, game.spec().to_string());
        }
    }

    #[test]
    fn reversi_exports_the_usual_transcript() {
        let rec = record("reversi", &["f5", "d6", "c3"]);
        let (_, text) = export("x", "reversi", ["a", "b"], &rec, None);
        assert!(text.ends_with("\n\nf5d6c3\n"), "{text}");
        let back = import(gridplay_games::registry(), "f5d6c3d3c4").unwrap();
        assert_eq!(back.record.moves().len(), 5);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let registry = gridplay_games::registry();
        for (text, why) in [
            ("[Game \"chess\"]\n\ne4 e5", "chess"),
            ("[Game \"ywf\"]\n\nzz9", "move 1"),
            ("f5f5", "move 2"),
            ("[Game ywf]\n", "quotes"),
            ("[GameType \"21\"]\n\n1. 9-13 9-14", "PDN"),
        ] {
            let e = import(registry, text).expect_err(text);
            assert!(e.0.contains(why), "{text}: {e}");
        }
    }
}
