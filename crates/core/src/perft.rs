//! Move-path enumeration: the standard check of a move generator against published figures.

use crate::Position;

/// The number of move sequences of exactly `depth` plies from `pos`, counting the last ply in bulk.
/// A game that ends before `depth` contributes nothing beyond its end.
pub fn perft_generic<P: Position>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => {
            let mut total = 0;
            for m in pos.legal_moves() {
                let mut next = pos.clone();
                next.play_unchecked(m);
                total += perft_generic(&next, depth - 1);
            }
            total
        }
    }
}

/// The same count, one ply at a time with no bulk counting: the slow reference that checks the fast paths.
pub fn perft_naive<P: Position>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            perft_naive(&next, depth - 1)
        })
        .sum()
}

/// Perft split by first move, in the order of [`Position::legal_moves`].
pub fn divide<P: Position>(pos: &P, depth: u32) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            (m, next.perft(depth - 1))
        })
        .collect()
}

/// Reads a perft table: one `depth count` pair a line; `#` starts a comment.
///
/// # Errors
///
/// A line that is not two whole numbers, with its line number.
pub fn parse_table(text: &str) -> Result<Vec<(u32, u64)>, TableError> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |what: TableLine| TableError { line: i + 1, what };
        let mut parts = line.split_whitespace();
        let (Some(d), Some(n), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(at(TableLine::Shape(line.to_owned())));
        };
        let depth = d.parse().map_err(|_| at(TableLine::Depth(d.to_owned())))?;
        let count = n.parse().map_err(|_| at(TableLine::Count(n.to_owned())))?;
        rows.push((depth, count));
    }
    Ok(rows)
}

/// A line of a perft table that could not be read: its number (from 1) and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct TableError {
    pub line: usize,
    pub what: TableLine,
}

/// What was wrong with a line of a perft table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableLine {
    #[error("expected `depth count`, found `{0}`")]
    Shape(String),
    #[error("`{0}` is not a depth")]
    Depth(String),
    #[error("`{0}` is not a count")]
    Count(String),
}
