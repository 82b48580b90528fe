//! Whole games in PDN (Portable Draughts Notation), as American checkers programs exchange them:
//!
//! ```text
//! [Event "gridplay"]
//! [GameType "21"]
//! [Result "1-0"]
//!
//! 1. 11-15 23-19 2. 8-11 22-17 1-0
//! ```
//!
//! The result is written first player first, as in PGN: `1-0` is a win for Black (Red, who moves first),
//! `0-1` a win for White, `1/2-1/2` a draw and `*` unknown or unfinished. The old two-point forms `2-0`,
//! `0-2` and `1-1` are read too. A `[FEN "..."]` tag (with `[SetUp "1"]`) gives another start position.

use std::fmt;

use gridplay_core::{
    Codec, CodecError, Game, GameFile, GameRecord, Outcome, Player, Position,
    codec::{result_token, tag},
};

use super::{Checkers, CheckersPosition, movegen::Move};

/// A game read from PDN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Every tag in file order, `GameType`, `FEN` and `Result` included.
    pub tags: Vec<(String, String)>,
    pub start: CheckersPosition,
    pub moves: Vec<Move>,
    /// `None` for `*`.
    pub result: Option<Outcome>,
}

/// Where a PDN text went wrong: line and column (from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PDN line {}, column {}: {}",
            self.line, self.column, self.reason
        )
    }
}

impl std::error::Error for PdnError {}

fn read_result(token: &str) -> Option<Option<Outcome>> {
    match token {
        "1-0" | "2-0" => Some(Some(Outcome::Win {
            winner: Player::First,
        })),
        "0-1" | "0-2" => Some(Some(Outcome::Win {
            winner: Player::Second,
        })),
        "1/2-1/2" | "1-1" => Some(Some(Outcome::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn error(&self, at: usize, reason: impl Into<String>) -> PdnError {
        let before = &self.text[..at.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before
            .rfind('\n')
            .map_or(before.chars().count(), |i| before[i + 1..].chars().count())
            + 1;
        PdnError {
            line,
            column,
            reason: reason.into(),
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    /// Skips a bracketed span that may nest (`(...)` variations) or not (`{...}` comments).
    fn skip_span(&mut self, open: char, close: char, nests: bool) -> Result<(), PdnError> {
        let start = self.at;
        let mut depth = 0;
        for (i, c) in self.rest().char_indices() {
            if c == open && (nests || depth == 0) {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    self.at += i + c.len_utf8();
                    return Ok(());
                }
            }
        }
        Err(self.error(start, format!("`{open}` is never closed by `{close}`")))
    }

    fn tag(&mut self) -> Result<(String, String), PdnError> {
        let start = self.at;
        let Some(end) = self.rest().find(']') else {
            return Err(self.error(start, "a tag `[` is never closed by `]`"));
        };
        let inner = &self.rest()[1..end];
        let bad = || self.error(start, "a tag is written [Name \"value\"]");
        let (name, value) = inner.trim().split_once(char::is_whitespace).ok_or_else(bad)?;
        let value = value.trim();
        if !(value.len() >= 2 && value.starts_with('"') && value.ends_with('"')) || name.is_empty() {
            return Err(bad());
        }
        let value = value[1..value.len() - 1]
            .replace("\\\"", "\"")
            .replace("\\\\", "\\");
        self.at += end + 1;
        Ok((name.to_owned(), value))
    }

    fn token(&mut self) -> (usize, &'a str) {
        let start = self.at;
        let rest = self.rest();
        let len = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '{' | '(' | '[' | ';'))
            .unwrap_or(rest.len());
        self.at += len;
        (start, &self.text[start..start + len])
    }
}

/// Reads one game.
///
/// # Errors
///
/// A [`PdnError`] that points at the tag, token or move that could not be read or played.
pub fn parse(text: &str) -> Result<PdnGame, PdnError> {
    let mut r = Reader { text, at: 0 };
    let mut tags = Vec::new();
    loop {
        r.skip_space();
        if r.rest().starts_with('[') {
            let at = r.at;
            let (name, value) = r.tag()?;
            if name == "GameType" && value.split(',').next().map(str::trim) != Some("21") {
                return Err(r.error(at, format!("GameType `{value}` is not American checkers (21)")));
            }
            tags.push((name, value));
        } else if r.rest().starts_with('{') {
            r.skip_span('{', '}', false)?;
        } else {
            break;
        }
    }
    let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let start = match tag("FEN") {
        Some(fen) => Checkers
            .parse_position(fen)
            .map_err(|e| r.error(0, format!("the FEN tag: {e}")))?,
        None => Checkers.start(),
    };
    let tag_result = match tag("Result") {
        Some(v) => Some(
            read_result(v)
                .ok_or_else(|| r.error(0, format!("Result tag `{v}` is not 1-0, 0-1, 1/2-1/2 or *")))?,
        ),
        None => None,
    };
    let mut pos = start;
    let mut moves = Vec::new();
    let mut token_result = None;
    loop {
        r.skip_space();
        let rest = r.rest();
        if rest.is_empty() {
            break;
        }
        if rest.starts_with('{') {
            r.skip_span('{', '}', false)?;
            continue;
        }
        if rest.starts_with('(') {
            r.skip_span('(', ')', true)?;
            continue;
        }
        if rest.starts_with(';') {
            r.at += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if rest.starts_with('[') {
            return Err(r.error(r.at, "a second game starts here; give one game at a time"));
        }
        let (at, token) = r.token();
        if let Some(result) = read_result(token) {
            token_result = Some(result);
            r.skip_space();
            if !r.rest().is_empty() {
                return Err(r.error(r.at, "nothing may follow the result"));
            }
            break;
        }
        // Move numbers (`12.`, `12...`), glued to a move or alone, and annotations (`!`, `?`, `$3`).
        let mut t = token.trim_end_matches(['!', '?']);
        if t.starts_with('$') {
            continue;
        }
        if let Some(dot) = t.rfind('.') {
            if !t[..dot].trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) {
                return Err(r.error(at, format!("`{token}` is not a move number")));
            }
            t = &t[dot + 1..];
            if t.is_empty() {
                continue;
            }
        }
        let m = pos
            .parse_move(t)
            .map_err(|e| r.error(at, format!("move {}: {}", moves.len() + 1, e)))?;
        let next = pos
            .play(m)
            .map_err(|e| r.error(at, format!("move {}: {}", moves.len() + 1, e.error)))?;
        pos = next;
        moves.push(m);
    }
    let result = match (tag_result, token_result) {
        (Some(a), Some(b)) if a != b => {
            return Err(r.error(
                r.at,
                format!(
                    "the result token `{}` disagrees with the Result tag `{}`",
                    result_token(b),
                    result_token(a)
                ),
            ));
        }
        (_, Some(x)) | (Some(x), None) => x,
        (None, None) => None,
    };
    Ok(PdnGame {
        tags,
        start,
        moves,
        result,
    })
}

/// Writes a game. `tags` are written first (GameType, SetUp, FEN and Result are supplied here and skipped if
/// given); the movetext is wrapped at 80 columns.
#[must_use]
pub fn write(
    tags: &[(String, String)],
    start: &CheckersPosition,
    moves: &[Move],
    result: Option<Outcome>,
) -> String {
    let mut out = String::new();
    let escape = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let own = ["GameType", "SetUp", "FEN", "Result"];
    for (name, value) in tags.iter().filter(|(n, _)| !own.contains(&n.as_str())) {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push_str("[GameType \"21\"]\n");
    if start.to_text() != Checkers.start().to_text() {
        out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", start.to_text()));
    }
    out.push_str(&format!("[Result \"{}\"]\n\n", result_token(result)));
    let mut tokens = Vec::new();
    let mut pos = *start;
    let mut number = 1;
    for (i, &m) in moves.iter().enumerate() {
        if pos.turn() == Player::First {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(pos.move_text(m));
        if pos.turn() == Player::Second {
            number += 1;
        }
        pos.play_unchecked(m);
    }
    tokens.push(result_token(result).to_owned());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// PDN as the game's file format: what `gridplay` exports for checkers and reads back, and what it recognizes in
/// a file without a `Game` tag (a `GameType` tag, or numbered moves).
#[derive(Clone, Copy, Debug, Default)]
pub struct PdnCodec;

impl Codec for PdnCodec {
    fn extension(&self) -> &'static str {
        "pdn"
    }

    fn write(&self, tags: &[(String, String)], record: &GameRecord) -> String {
        let start = record
            .start()
            .as_any()
            .downcast_ref::<CheckersPosition>()
            .copied()
            .unwrap_or_else(|| Checkers.start());
        let mut pos = start;
        let mut moves = Vec::new();
        for text in record.moves() {
            let Ok(m) = pos.parse_move(text) else { break };
            pos.play_unchecked(m);
            moves.push(m);
        }
        // Checkers programs read the players from `Black` and `White`.
        let mut named = Vec::new();
        for (side, key) in [("Black", "First"), ("White", "Second")] {
            if let Some(name) = tag(tags, key) {
                named.push((side.to_owned(), name));
            }
        }
        named.extend(tags.iter().cloned());
        write(&named, &start, &moves, record.outcome().map(|(o, _)| o))
    }

    fn recognizes(&self, tags: &[(String, String)], body: &str) -> bool {
        tag(tags, "GameType").is_some()
            || body
                .split_whitespace()
                .any(|w| w.ends_with('.') && w[..w.len() - 1].chars().all(|c| c.is_ascii_digit()))
    }

    fn read(&self, _game: &dyn gridplay_core::DynGame, text: &str) -> Result<GameFile, CodecError> {
        let game = parse(text).map_err(|e| CodecError::Format(e.to_string()))?;
        let mut record = GameRecord::new(Box::new(game.start));
        let mut pos = game.start;
        for (i, m) in game.moves.iter().enumerate() {
            let text = pos.move_text(*m);
            pos.play_unchecked(*m);
            record.play(&text).map_err(|error| CodecError::Move {
                number: i + 1,
                text,
                error,
            })?;
        }
        let tags = &game.tags;
        Ok(GameFile {
            record,
            names: [
                tag(tags, "Black").or_else(|| tag(tags, "First")),
                tag(tags, "White").or_else(|| tag(tags, "Second")),
            ],
            result: game.result,
        })
    }
}
