//! Games as text files. Each game names its format in its [`crate::GameModule`]; most use [`MoveListCodec`], the
//! tags and then the moves in the game's own notation.
//!
//! Tags are written `[Name "value"]`, one a line, as in PGN: `Game` (the spec), `First`, `Second`, `Result`
//! (`1-0`, `0-1`, `1/2-1/2` or `*`) and `Termination`.

use thiserror::Error;

use crate::{DynGame, GameRecord, Outcome, Player, RecordError};

/// The tags of a file, in order, as name and value.
pub type Tags = Vec<(String, String)>;

/// A game read from a file.
#[derive(Debug)]
pub struct GameFile {
    pub record: GameRecord,
    /// The first and second player's names as the file gives them.
    pub names: [Option<String>; 2],
    /// The result the file states, which may be a resignation or an agreed draw the moves do not show.
    pub result: Option<Outcome>,
}

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CodecError {
    #[error("the file is larger than {0} KiB")]
    TooLarge(usize),
    #[error("line {line}: {reason}")]
    Tag { line: usize, reason: TagError },
    #[error("the file has no Game tag, and its moves are in no format gridplay knows")]
    UnknownFormat,
    #[error("the Game tag: {0}")]
    Game(String),
    #[error("move {number} ({text}): {error}")]
    Move {
        number: usize,
        text: String,
        error: RecordError,
    },
    /// The game's own format refused the file (PDN's reader, say).
    #[error("{0}")]
    Format(String),
}

/// What is wrong with a tag line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum TagError {
    #[error("a tag is written [Name \"value\"]")]
    Shape,
    #[error("the tag's value is not in quotes")]
    Unquoted,
}

/// A game's file format.
pub trait Codec: Send + Sync {
    /// The file name's extension, without the dot.
    fn extension(&self) -> &'static str;

    /// The file of `record`, with `tags` (`Event`, `Site`, `Game`, `First`, `Second`, `Termination`...) first.
    fn write(&self, tags: &[(String, String)], record: &GameRecord) -> String;

    /// Whether a file without a `Game` tag is in this format: `tags` are the file's tags, `body` the rest.
    fn recognizes(&self, tags: &[(String, String)], body: &str) -> bool {
        let _ = (tags, body);
        false
    }

    /// Reads a file of `game`, the variant its `Game` tag names (or the game's default variant).
    fn read(&self, game: &dyn DynGame, text: &str) -> Result<GameFile, CodecError>;
}

/// The tags, then the moves in the game's notation separated by spaces: the format of every game without one
/// of its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveListCodec;

impl Codec for MoveListCodec {
    fn extension(&self) -> &'static str {
        "txt"
    }

    fn write(&self, tags: &[(String, String)], record: &GameRecord) -> String {
        let mut out = write_tags(tags, record.outcome().map(|(o, _)| o));
        out.push_str(&wrap(&record.moves().join(" ")));
        out.push('\n');
        out
    }

    fn read(&self, game: &dyn DynGame, text: &str) -> Result<GameFile, CodecError> {
        let tags = read_tags(text)?;
        let mut record = GameRecord::new(game.start());
        for (i, word) in strip_tags(text).split_whitespace().enumerate() {
            if parse_result(word).is_some() || word == "*" {
                break;
            }
            record.play(word).map_err(|error| CodecError::Move {
                number: i + 1,
                text: word.to_owned(),
                error,
            })?;
        }
        Ok(GameFile {
            record,
            names: names(&tags, ["First", "Second"]),
            result: tag(&tags, "Result").as_deref().and_then(parse_result),
        })
    }
}

/// The value of the tag `name`.
#[must_use]
pub fn tag(tags: &[(String, String)], name: &str) -> Option<String> {
    tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
}

/// The players' names from the first of `keys` tags present for each side.
fn names(tags: &[(String, String)], keys: [&str; 2]) -> [Option<String>; 2] {
    [tag(tags, keys[0]), tag(tags, keys[1])]
}

/// A result token: `1-0`, `0-1`, `1/2-1/2` (and the draughts `2-0`, `0-2`, `1-1`).
#[must_use]
pub fn parse_result(token: &str) -> Option<Outcome> {
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

/// The result token of an outcome, `*` for a game in progress.
#[must_use]
pub fn result_token(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win {
            winner: Player::First,
        }) => "1-0",
        Some(Outcome::Win {
            winner: Player::Second,
        }) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// The tag lines, the `Result` tag last, and a blank line.
#[must_use]
pub fn write_tags(tags: &[(String, String)], outcome: Option<Outcome>) -> String {
    let escape = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push_str(&format!("[Result \"{}\"]\n\n", result_token(outcome)));
    out
}

/// The `[Name "value"]` lines at the top of a file.
///
/// # Errors
///
/// A line at the top that starts with `[` but is not a well-formed tag.
pub fn read_tags(text: &str) -> Result<Tags, CodecError> {
    let mut tags = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if !line.starts_with('[') {
            break;
        }
        let bad = |reason| CodecError::Tag { line: n + 1, reason };
        let (name, value) = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .and_then(|inner| inner.split_once(' '))
            .ok_or(bad(TagError::Shape))?;
        let value = value
            .trim()
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or(bad(TagError::Unquoted))?;
        tags.push((name.to_owned(), value.replace("\\\"", "\"").replace("\\\\", "\\")));
    }
    Ok(tags)
}

/// The text after the tags, its lines joined by spaces.
#[must_use]
pub fn strip_tags(text: &str) -> String {
    text.lines()
        .skip_while(|l| l.trim().is_empty() || l.trim().starts_with('['))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Breaks a long line of moves at spaces, or every 60 characters where it has none.
#[must_use]
pub fn wrap(body: &str) -> String {
    let mut out = String::new();
    if !body.contains(' ') {
        for (i, c) in body.chars().enumerate() {
            if i > 0 && i % 60 == 0 {
                out.push('\n');
            }
            out.push(c);
        }
        return out;
    }
    let mut line = 0;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_round_trip_with_quotes_and_backslashes() {
        let tags = vec![
            ("Event".to_owned(), "a \"b\" \\ c".to_owned()),
            ("Game".to_owned(), "x".to_owned()),
        ];
        let text = write_tags(&tags, None);
        let mut back = read_tags(&text).unwrap();
        assert_eq!(back.pop(), Some(("Result".to_owned(), "*".to_owned())));
        assert_eq!(back, tags);
    }

    #[test]
    fn bad_tags_say_which_line_and_why() {
        assert_eq!(
            read_tags("\n[Game ywf]\n").unwrap_err(),
            CodecError::Tag {
                line: 2,
                reason: TagError::Unquoted
            }
        );
        assert_eq!(
            read_tags("[Game]").unwrap_err(),
            CodecError::Tag {
                line: 1,
                reason: TagError::Shape
            }
        );
    }

    #[test]
    fn results_read_back() {
        for o in [
            None,
            Some(Outcome::Draw),
            Some(Outcome::Win {
                winner: Player::First,
            }),
            Some(Outcome::Win {
                winner: Player::Second,
            }),
        ] {
            assert_eq!(parse_result(result_token(o)), o);
        }
    }

    #[test]
    fn long_lines_wrap_under_80_columns() {
        let body = vec!["abcdefghi"; 30].join(" ");
        assert!(wrap(&body).lines().all(|l| l.len() < 80));
        assert_eq!(wrap(&body).replace('\n', " "), body);
        assert_eq!(wrap(&"f5".repeat(40)).lines().next().unwrap().len(), 60);
    }
}
