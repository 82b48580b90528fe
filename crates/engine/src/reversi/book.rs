//! The Reversi opening book: the positions of the first plies, each with the moves the project's own search
//! found within a margin of the best and their scores. It is made by `gridplay train reversi-book` (every
//! position reached by the kept moves is scored move by move, to a fixed depth) and shipped deflated in
//! `book.bin`. Positions are stored once for all eight symmetries of the board. A player that uses the book
//! draws among the moves within one disc of the best, by its seed, so that games differ.

use std::{collections::HashMap, sync::OnceLock};

use gridplay_games::reversi::bitboard::{Board, symmetry};
use gridplay_search::{Limits, StopFlag};

use super::search::{self, Options};

/// A book move is drawn among those within this many hundredths of a disc of the best.
pub const CHOICE_MARGIN: i32 = 100;

/// The symmetry that takes `b` to its canonical form (the least of its eight images), and that form.
fn canonical(b: Board) -> (usize, (u64, u64)) {
    (0..8)
        .map(|i| (i, (symmetry(i, b.player), symmetry(i, b.opponent))))
        .min_by_key(|&(_, key)| key)
        .expect("eight symmetries")
}

/// A square moved by a symmetry.
fn map_square(i: usize, sq: u8) -> u8 {
    symmetry(i, 1 << sq).trailing_zeros() as u8
}

/// The opening book.
#[derive(Debug, Default)]
pub struct Book {
    /// By canonical position: the kept moves (in the canonical frame) with their scores, best first.
    entries: HashMap<(u64, u64), Vec<(u8, i16)>>,
}

impl Book {
    /// Positions in the book.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's moves for `b` with their scores (hundredths of a disc for the side to move), best first.
    #[must_use]
    pub fn moves(&self, b: Board) -> Vec<(u8, i32)> {
        let (i, key) = canonical(b);
        let Some(kept) = self.entries.get(&key) else {
            return Vec::new();
        };
        let mut legal = b.moves();
        let mut out = Vec::new();
        while legal != 0 {
            let sq = legal.trailing_zeros() as u8;
            legal &= legal - 1;
            if let Some(&(_, score)) = kept.iter().find(|&&(m, _)| m == map_square(i, sq)) {
                out.push((sq, i32::from(score)));
            }
        }
        out.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        out
    }

    /// A move for `b` drawn by `seed` among the book's moves within [`CHOICE_MARGIN`] of the best.
    #[must_use]
    pub fn choose(&self, b: Board, seed: u64) -> Option<(u8, i32)> {
        let moves = self.moves(b);
        let best = moves.first()?.1;
        let near: Vec<(u8, i32)> = moves
            .into_iter()
            .filter(|&(_, s)| s >= best - CHOICE_MARGIN)
            .collect();
        let mix = b.player.rotate_left(17) ^ b.opponent.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Some(near[crate::books::pick(seed, mix, near.len())])
    }

    /// The book's text: one line a position, `player opponent` in hex, then `square:score` for each kept move.
    #[must_use]
    pub fn to_text(&self, header: &str) -> String {
        let lines = self
            .entries
            .iter()
            .map(|(key, kept)| {
                let mut line = format!("{:016x} {:016x}", key.0, key.1);
                for &(sq, score) in kept {
                    line.push_str(&format!(" {sq}:{score}"));
                }
                line
            })
            .collect();
        crate::books::text(header, lines)
    }

    /// Reads the text of [`Book::to_text`].
    ///
    /// # Errors
    ///
    /// A line that is not a position with its moves, named by its number.
    pub fn from_text(text: &str) -> Result<Book, crate::DataError> {
        let mut entries = HashMap::new();
        for (n, line) in crate::books::lines(text) {
            let bad =
                || crate::DataError::line("reversi book", n, "expected `player opponent square:score ...`");
            let mut parts = line.split_whitespace();
            let p = u64::from_str_radix(parts.next().ok_or_else(bad)?, 16).map_err(|_| bad())?;
            let o = u64::from_str_radix(parts.next().ok_or_else(bad)?, 16).map_err(|_| bad())?;
            let legal = get_moves_of(p, o);
            let mut kept = Vec::new();
            for part in parts {
                let (sq, score) = part.split_once(':').ok_or_else(bad)?;
                let sq: u8 = sq.parse().map_err(|_| bad())?;
                let score: i16 = score.parse().map_err(|_| bad())?;
                if sq >= 64 || legal & (1 << sq) == 0 {
                    return Err(crate::DataError::line(
                        "reversi book",
                        n,
                        format!("square {sq} is not a legal move there"),
                    ));
                }
                kept.push((sq, score));
            }
            if p & o != 0 || kept.is_empty() {
                return Err(bad());
            }
            entries.insert((p, o), kept);
        }
        Ok(Book { entries })
    }

    /// Reads a book file: the deflated text of [`Book::to_text`].
    ///
    /// # Errors
    ///
    /// When the bytes do not inflate to text, or the text is not a book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, crate::DataError> {
        Book::from_text(&crate::books::inflate(bytes)?)
    }

    /// The shipped book.
    pub fn shipped() -> &'static Book {
        static SHIPPED: OnceLock<Book> = OnceLock::new();
        SHIPPED
            .get_or_init(|| Book::from_bytes(include_bytes!("book.bin")).expect("the shipped book is valid"))
    }
}

fn get_moves_of(p: u64, o: u64) -> u64 {
    Board {
        player: p,
        opponent: o,
    }
    .moves()
}

/// How a book is made.
#[derive(Clone, Copy, Debug)]
pub struct BookConfig {
    /// Positions up to this many plies from the start are in the book.
    pub plies: u32,
    /// Each move is scored by a search of this depth (the position it reaches, one less).
    pub depth: u32,
    /// At most this many moves of each position are kept and followed.
    pub width: usize,
    /// Moves within this many hundredths of a disc of the best are kept.
    pub margin: i32,
}

/// Makes a book: from the start, every position reached by kept moves is scored move by move, and the moves
/// within the margin of the best (at most `width`) are kept and followed, to `plies`. `progress` is called
/// once a position.
pub fn build(config: BookConfig, progress: &(dyn Fn(usize) + Sync)) -> Book {
    let mut book = Book::default();
    let mut frontier = vec![Board::START];
    let stop = StopFlag::new();
    for _ in 0..config.plies {
        let mut next = Vec::new();
        for b in frontier {
            let (i, key) = canonical(b);
            if book.entries.contains_key(&key) || b.moves() == 0 {
                continue;
            }
            // Moves that reach the same position up to symmetry are scored once.
            let mut scored = Vec::new();
            let mut reached = Vec::new();
            let mut legal = b.moves();
            while legal != 0 {
                let sq = legal.trailing_zeros() as u8;
                legal &= legal - 1;
                let child = canonical(b.play(sq)).1;
                if reached.contains(&child) {
                    continue;
                }
                reached.push(child);
                let found = search::search(
                    b.play(sq),
                    Limits::depth(config.depth.saturating_sub(1).max(1)),
                    &stop,
                    Options::default(),
                );
                scored.push((sq, -found.score));
            }
            scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            let best = scored[0].1;
            scored.retain(|&(_, s)| s >= best - config.margin);
            scored.truncate(config.width.max(1));
            for &(sq, _) in &scored {
                next.push(b.play(sq));
            }
            let kept = scored
                .iter()
                .map(|&(sq, s)| (map_square(i, sq), s.clamp(-6400, 6400) as i16))
                .collect();
            book.entries.insert(key, kept);
            progress(book.entries.len());
        }
        frontier = next;
    }
    book
}

pub use crate::books::compress;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetries_are_the_eight_of_the_square() {
        let a1 = 1u64;
        let images: std::collections::BTreeSet<u64> = (0..8).map(|i| symmetry(i, a1)).collect();
        assert_eq!(
            images,
            [1u64 << 0, 1 << 7, 1 << 56, 1 << 63].into_iter().collect()
        );
        let b2c1 = (1u64 << 9) | (1 << 2);
        let images: std::collections::BTreeSet<u64> = (0..8).map(|i| symmetry(i, b2c1)).collect();
        assert_eq!(images.len(), 8);
        // The four first moves are one position.
        let firsts: std::collections::BTreeSet<_> = [19u8, 26, 37, 44]
            .into_iter()
            .map(|sq| canonical(Board::START.play(sq)).1)
            .collect();
        assert_eq!(firsts.len(), 1);
    }

    #[test]
    fn a_small_book_is_made_read_and_played_in_every_orientation() {
        let config = BookConfig {
            plies: 3,
            depth: 4,
            width: 2,
            margin: 300,
        };
        let book = build(config, &|_| {});
        assert!(book.len() >= 3, "{}", book.len());
        let text = book.to_text("test");
        let read = Book::from_text(&text).unwrap();
        assert_eq!(read.to_text("test"), text);
        // The start's four moves reach one position: one of them is kept, and after any of the four the book
        // answers with a legal move.
        assert_eq!(read.moves(Board::START).len(), 1);
        for first in [19u8, 26, 37, 44] {
            let b = Board::START.play(first);
            let (sq, _) = read.choose(b, 7).expect("the book knows every first move");
            assert!(b.moves() & (1 << sq) != 0);
        }
        // Moves within a disc of the best are drawn by the seed: the same seed, the same move.
        let b = Board::START.play(37);
        let (i, key) = canonical(b);
        let two = Book::from_text(&format!(
            "{:016x} {:016x} {}:50 {}:10 {}:-300",
            key.0,
            key.1,
            map_square(i, 29),
            map_square(i, 43),
            map_square(i, 45)
        ))
        .unwrap();
        assert_eq!(two.moves(b), [(29, 50), (43, 10), (45, -300)]);
        assert_eq!(two.choose(b, 3), two.choose(b, 3));
        let chosen: std::collections::BTreeSet<u8> =
            (0..40).filter_map(|s| two.choose(b, s)).map(|m| m.0).collect();
        assert_eq!(chosen, [29, 43].into_iter().collect());
        assert!(Book::from_text("0 0 3:1").is_err());
        assert!(Book::from_text("zz 0 3:1").is_err());
        assert!(
            Book::from_text(&format!(
                "{:016x} {:016x} 0:5",
                Board::START.player,
                Board::START.opponent
            ))
            .is_err()
        );
    }

    #[test]
    fn the_shipped_book_reads_and_answers_the_opening() {
        let book = Book::shipped();
        assert!(book.len() > 100, "{}", book.len());
        let b = Board::START.play(37);
        let (sq, _) = book.choose(b, 1).unwrap();
        assert!(b.moves() & (1 << sq) != 0);
        assert!(Book::from_bytes(b"not a book").is_err());
    }

    #[test]
    fn the_engine_plays_from_the_book_only_when_asked_and_never_at_weak_levels() {
        use gridplay_core::Game;
        let mut pos = gridplay_games::reversi::Reversi::default().start();
        gridplay_core::Position::play_unchecked(&mut pos, gridplay_games::reversi::Move::Place(37));
        let ask = |level: Option<u8>, book: bool| {
            let request = crate::Request {
                level,
                book,
                seed: 5,
                limits: Limits::depth(4),
                ..crate::Request::default()
            };
            crate::think(&pos, &request, &StopFlag::new()).unwrap()
        };
        let booked = ask(None, true);
        assert_eq!((booked.depth, booked.nodes), (0, 0));
        assert_eq!(ask(Some(8), true).depth, 0);
        assert!(ask(None, false).depth > 0);
        assert!(ask(Some(3), true).depth > 0);
    }
}
