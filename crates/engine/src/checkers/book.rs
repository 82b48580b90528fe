//! The checkers opening book: the positions of the first plies from the start and from the end of each 3-move
//! ballot, each with the moves the project's own search found within a margin of the best and their scores.
//! It is made by `gridplay train checkers-book` (every position reached by the kept moves is scored move by
//! move, to a fixed depth) and shipped deflated in `book.bin`. A player that uses the book draws among the
//! moves within [`CHOICE_MARGIN`] of the best, by its seed, so that games differ.

use std::{
    collections::HashMap,
    sync::{
        Mutex, OnceLock,
        atomic::{AtomicUsize, Ordering},
    },
};

use gridplay_core::{Game, Position};
use gridplay_games::checkers::{BALLOTS, Checkers, CheckersPosition, movegen::Move};
use gridplay_search::{Limits, StopFlag};

use super::{
    evaluation,
    search::{Table, search_with},
};

/// A book move is drawn among those within this many hundredths of a man of the best.
pub const CHOICE_MARGIN: i32 = 5;

/// The opening book.
#[derive(Debug, Default)]
pub struct Book {
    /// By position: the kept moves with their scores (hundredths of a man for the side to move), best first.
    entries: HashMap<CheckersPosition, Vec<(Move, i16)>>,
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

    /// The book's moves for `pos` with their scores, best first.
    #[must_use]
    pub fn moves(&self, pos: &CheckersPosition) -> Vec<(Move, i32)> {
        self.entries
            .get(pos)
            .map(|kept| kept.iter().map(|&(m, s)| (m, i32::from(s))).collect())
            .unwrap_or_default()
    }

    /// A move for `pos` drawn by `seed` among the book's moves within [`CHOICE_MARGIN`] of the best.
    #[must_use]
    pub fn choose(&self, pos: &CheckersPosition, seed: u64) -> Option<(Move, i32)> {
        let moves = self.moves(pos);
        let best = moves.first()?.1;
        let near: Vec<(Move, i32)> = moves
            .into_iter()
            .filter(|&(_, s)| s >= best - CHOICE_MARGIN)
            .collect();
        let b = pos.board();
        let mix = u64::from(b.pieces[0]).rotate_left(17)
            ^ u64::from(b.pieces[1]).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(b.kings).rotate_left(41);
        Some(near[crate::books::pick(seed, mix, near.len())])
    }

    /// The book's text: one line a position, its FEN, then `move:score` for each kept move, best first.
    #[must_use]
    pub fn to_text(&self, header: &str) -> String {
        let lines = self
            .entries
            .iter()
            .map(|(pos, kept)| {
                let mut line = pos.to_text();
                for &(m, s) in kept {
                    line.push_str(&format!(" {}:{s}", pos.move_text(m)));
                }
                line
            })
            .collect();
        crate::books::text(header, lines)
    }

    /// Reads the text of [`Book::to_text`].
    ///
    /// # Errors
    /// A line that is not a position with its legal moves, named by its number and what is wrong.
    pub fn from_text(text: &str) -> Result<Book, crate::DataError> {
        let mut entries = HashMap::new();
        for (n, line) in crate::books::lines(text) {
            let at = |why: String| crate::DataError::line("checkers book", n, why);
            let mut parts = line.split_whitespace();
            let fen = parts.next().unwrap_or_default();
            let pos = Checkers.parse_position(fen).map_err(|e| at(e.to_string()))?;
            let legal = pos.legal_moves();
            let mut kept: Vec<(Move, i16)> = Vec::new();
            for part in parts {
                let (m, score) = part
                    .split_once(':')
                    .ok_or_else(|| at(format!("`{part}` is not move:score")))?;
                let m = pos.parse_move(m).map_err(|e| at(e.to_string()))?;
                if !legal.contains(&m) {
                    return Err(at(format!("{} is not a legal move there", pos.move_text(m))));
                }
                let score: i16 = score
                    .parse()
                    .map_err(|_| at(format!("score `{score}` is not a whole number")))?;
                kept.push((m, score));
            }
            if kept.is_empty() {
                return Err(at("a position without moves".into()));
            }
            kept.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            entries.insert(pos, kept);
        }
        Ok(Book { entries })
    }

    /// Reads a book file: the deflated text of [`Book::to_text`].
    ///
    /// # Errors
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

/// How a book is made.
#[derive(Clone, Copy, Debug)]
pub struct BookConfig {
    /// Positions up to this many plies from each root (the start and the end of each ballot) are in the book.
    pub plies: u32,
    /// Each move is scored by a search of this depth (the position it reaches, one less).
    pub depth: u32,
    /// At most this many moves of each position are kept and followed.
    pub width: usize,
    /// Moves within this many hundredths of a man of the best are kept.
    pub margin: i32,
    /// Roots searched at once.
    pub threads: usize,
}

/// The roots of the book: the start, and the position at the end of each 3-move ballot.
#[must_use]
pub fn roots() -> Vec<CheckersPosition> {
    let mut out = vec![Checkers.start()];
    for line in BALLOTS.lines().filter(|l| !l.trim().is_empty()) {
        let mut pos = Checkers.start();
        for text in line.split_whitespace() {
            pos.play_text(text).expect("the ballots are legal");
        }
        if !out.contains(&pos) {
            out.push(pos);
        }
    }
    out
}

/// A position's kept moves with their scores, best first.
type Entry = (CheckersPosition, Vec<(Move, i16)>);

/// The position after `m`, a legal move of `pos`.
fn after(pos: &CheckersPosition, m: Move) -> CheckersPosition {
    let mut next = *pos;
    next.play_unchecked(m);
    next
}

/// The entries of one root: the positions reached from it by kept moves, each scored move by move.
fn expand(root: CheckersPosition, config: BookConfig, progress: &(dyn Fn() + Sync)) -> Vec<Entry> {
    let mut table = Table::new(16);
    let stop = StopFlag::new();
    let mut out: Vec<Entry> = Vec::new();
    let mut frontier = vec![root];
    for _ in 0..config.plies {
        let mut next = Vec::new();
        for pos in frontier {
            let legal = pos.legal_moves();
            if legal.is_empty() || out.iter().any(|(p, _)| *p == pos) {
                continue;
            }
            let mut scored: Vec<(Move, i32)> = legal
                .iter()
                .map(|&m| {
                    let child = after(&pos, m);
                    let found = search_with(
                        &mut table,
                        evaluation::shipped(),
                        None,
                        &child,
                        &[pos],
                        Limits::depth(config.depth.saturating_sub(1).max(1)),
                        &stop,
                    );
                    // A move that leaves the opponent without a move wins at once.
                    (m, found.map_or(i32::from(i16::MAX), |f| -f.score))
                })
                .collect();
            scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            let best = scored[0].1;
            scored.retain(|&(_, s)| s >= best.saturating_sub(config.margin));
            scored.truncate(config.width.max(1));
            next.extend(scored.iter().map(|&(m, _)| after(&pos, m)));
            let kept = scored
                .iter()
                .map(|&(m, s)| (m, s.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16))
                .collect();
            out.push((pos, kept));
            progress();
        }
        frontier = next;
    }
    out
}

/// Makes a book: from each root, every position reached by kept moves is scored move by move, and the moves
/// within the margin of the best (at most `width`) are kept and followed, to `plies`. Roots are searched on
/// `threads` threads, each root with a table of its own, so that the book is the same whatever the threads.
/// `progress` is called once a position, with the number made so far.
pub fn build(config: BookConfig, progress: &(dyn Fn(usize) + Sync)) -> Book {
    let roots = roots();
    let next = AtomicUsize::new(0);
    let made = AtomicUsize::new(0);
    let one_more = || progress(made.fetch_add(1, Ordering::Relaxed) + 1);
    let done: Mutex<Vec<Option<Vec<Entry>>>> = Mutex::new(roots.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&root) = roots.get(i) else { break };
                    let entries = expand(root, config, &one_more);
                    done.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(entries);
                }
            });
        }
    });
    let mut book = Book::default();
    for entries in done
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .flatten()
    {
        for (pos, kept) in entries {
            book.entries.entry(pos).or_insert(kept);
        }
    }
    book
}

pub use crate::books::compress;

#[cfg(test)]
mod tests {
    use super::*;

    fn small(threads: usize) -> Book {
        let config = BookConfig {
            plies: 2,
            depth: 3,
            width: 2,
            margin: 20,
            threads,
        };
        build(config, &|_| {})
    }

    #[test]
    fn the_roots_are_the_start_and_every_ballot() {
        let roots = roots();
        assert_eq!(roots[0], Checkers.start());
        // The 157 ballots end in 157 different positions, each three plies from the start.
        let ballots = BALLOTS.lines().filter(|l| !l.trim().is_empty()).count();
        assert_eq!((ballots, roots.len()), (157, 158));
        assert!(
            roots
                .iter()
                .skip(1)
                .all(|p| p.turn() == gridplay_core::Player::Second)
        );
    }

    #[test]
    fn a_small_book_is_made_the_same_on_any_threads_written_and_read_back() {
        let one = small(1);
        let two = small(3);
        assert_eq!(one.to_text(""), two.to_text(""));
        // Each root and, for each, up to two positions after its kept moves.
        assert!(one.len() > roots().len(), "{}", one.len());
        let text = one.to_text("a test book\nsecond line");
        assert!(text.starts_with("# a test book\n# second line\n"));
        let back = Book::from_bytes(&compress(&text)).unwrap();
        assert_eq!(back.to_text(""), one.to_text(""));
        for (pos, kept) in &back.entries {
            let legal = pos.legal_moves();
            assert!(!kept.is_empty() && kept.len() <= 2);
            assert!(kept.iter().all(|(m, _)| legal.contains(m)));
            assert!(kept.windows(2).all(|w| w[0].1 >= w[1].1 && w[0].1 - w[1].1 <= 20));
            let (m, s) = back.choose(pos, 7).unwrap();
            assert!(kept.iter().any(|&(k, ks)| k == m && i32::from(ks) == s));
            assert!(s >= i32::from(kept[0].1) - CHOICE_MARGIN);
        }
    }

    #[test]
    fn a_bad_book_is_refused_with_its_line() {
        let start = Checkers.start().to_text();
        assert!(Book::from_text(&format!("{start} 11-15:3 9-13:1")).is_ok());
        let err = Book::from_text(&format!("# header\n{start} 11-19:3"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("checkers book, line 2:"), "{err}");
        let err = Book::from_text(&format!("{start} 11-15:3 22-18:1"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("22-18 is not a legal move"), "{err}");
        let err = Book::from_text(&format!("{start} 11-15"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("not move:score"), "{err}");
        let err = Book::from_text(&format!("{start} 11-15:x"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a whole number"), "{err}");
        assert!(Book::from_text(&start).is_err());
        assert!(Book::from_text("B:W99:B1 1-5:0").is_err());
        assert!(Book::from_bytes(b"not a book").is_err());
    }

    #[test]
    fn the_shipped_book_covers_the_start_and_the_ballots() {
        let book = Book::shipped();
        for root in roots() {
            if root.legal_moves().is_empty() {
                continue;
            }
            let (m, _) = book
                .choose(&root, 1)
                .unwrap_or_else(|| panic!("{} is not in the book", root.to_text()));
            assert!(root.legal_moves().contains(&m));
        }
    }

    #[test]
    fn the_engine_plays_from_the_book_only_when_asked_and_never_at_weak_levels() {
        let mut pos = Checkers.start();
        pos.play_text("11-15").unwrap();
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
        assert!(
            Book::shipped()
                .moves(&pos)
                .iter()
                .any(|(m, _)| pos.move_text(*m) == booked.best)
        );
        assert_eq!(ask(Some(8), true).depth, 0);
        assert!(ask(None, false).depth > 0);
        assert!(ask(Some(3), true).depth > 0);
    }
}
