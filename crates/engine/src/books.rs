//! What the games' opening books (`reversi::book`, `checkers::book`) share: their file, deflated text with a
//! `#` header that names the command that made it, and the seeded draw among a position's near-best moves.

use std::io::{Read, Write};

/// Deflates a book's text for its `book.bin`.
#[must_use]
pub fn compress(text: &str) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(text.as_bytes()).expect("writing to memory");
    e.finish().expect("writing to memory")
}

/// The text of a book file.
pub(crate) fn inflate(bytes: &[u8]) -> Result<String, crate::DataError> {
    let mut text = String::new();
    flate2::read::DeflateDecoder::new(bytes)
        .read_to_string(&mut text)
        .map_err(|e| crate::DataError::format("book", format!("the book does not inflate: {e}")))?;
    Ok(text)
}

/// The position lines of a book's text, each with its line number (from 1): not blank, not a `#` comment.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(n, line)| (n + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// A book's text: each line of `header` after `# `, then the position lines in sorted order.
pub(crate) fn text(header: &str, mut lines: Vec<String>) -> String {
    lines.sort_unstable();
    let mut text: String = header.lines().map(|l| format!("# {l}\n")).collect();
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// Which of `n` near-best moves to play, drawn by `seed` mixed with the position (`mix`), so that one seed
/// serves a whole game.
pub(crate) fn pick(seed: u64, mix: u64, n: usize) -> usize {
    let mut x = seed ^ mix;
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    (x % n.max(1) as u64) as usize
}
