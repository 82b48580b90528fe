//! Checkers endgame databases: the win, loss or draw of every position with few pieces, by perfect play under
//! the rules of `docs/rules/checkers.md` (a side that cannot move loses; the 40-move rule and repetitions are
//! not counted, as in the published databases).
//!
//! Positions are grouped by material, a *slice* (Red's men and kings, White's men and kings). A slice is
//! solved once every slice its moves can lead out to is solved: captures lead to fewer pieces, a man crowned
//! to one man fewer and one king more. Within a slice every position starts unknown; a position with no move
//! is lost; then, pass after pass, a position with a move to a lost position (for the opponent) is won, and a
//! position whose moves all lead to won positions is lost, until a pass changes nothing. What is left is a
//! draw: neither side can force anything.
//!
//! A slice's positions are numbered by the combinatorial number system over the squares each kind of piece
//! may stand on (men never stand on their own crowning row), times two for the side to move; numbers whose
//! pieces overlap stand for no position. One byte a number.

use std::{
    collections::HashMap,
    sync::{
        OnceLock,
        atomic::{AtomicBool, Ordering},
    },
};

use gridplay_core::Player;
use gridplay_games::checkers::{
    bitboard::{Bb, Board},
    movegen::{self, Moves},
};

/// The result of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wld {
    Win,
    Loss,
    Draw,
}

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;
/// A number that stands for no position.
const NONE: u8 = 4;

/// A material balance: Red's men and kings, White's men and kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slice {
    pub red_men: u8,
    pub red_kings: u8,
    pub white_men: u8,
    pub white_kings: u8,
}

impl Slice {
    #[must_use]
    pub fn of(b: &Board) -> Slice {
        let count = |x: Bb| x.count_ones() as u8;
        Slice {
            red_men: count(b.pieces[0] & !b.kings),
            red_kings: count(b.pieces[0] & b.kings),
            white_men: count(b.pieces[1] & !b.kings),
            white_kings: count(b.pieces[1] & b.kings),
        }
    }

    #[must_use]
    pub fn pieces(&self) -> u32 {
        u32::from(self.red_men + self.red_kings + self.white_men + self.white_kings)
    }

    /// The sizes of the four sets, in the order of the numbering: Red's men (28 squares), White's men (28),
    /// Red's kings (32), White's kings (32).
    fn radices(&self) -> [usize; 4] {
        [
            binomial(28, self.red_men.into()),
            binomial(28, self.white_men.into()),
            binomial(32, self.red_kings.into()),
            binomial(32, self.white_kings.into()),
        ]
    }

    /// How many numbers the slice has (both sides to move).
    #[must_use]
    pub fn size(&self) -> usize {
        self.radices().iter().product::<usize>() * 2
    }

    /// Every slice of `pieces` pieces or fewer in which each side has a piece.
    #[must_use]
    pub fn all(pieces: u32) -> Vec<Slice> {
        let mut out = Vec::new();
        for total in 2..=pieces as u8 {
            for red in 1..total {
                let white = total - red;
                for red_men in 0..=red {
                    for white_men in 0..=white {
                        out.push(Slice {
                            red_men,
                            red_kings: red - red_men,
                            white_men,
                            white_kings: white - white_men,
                        });
                    }
                }
            }
        }
        out
    }
}

const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The rank of a set of positions (bits of `set`, counted from `offset`) in the combinatorial number system.
fn rank(set: Bb, offset: u32) -> usize {
    let mut r = 0;
    let mut rest = set;
    let mut i = 1;
    while rest != 0 {
        let p = (rest.trailing_zeros() - offset) as usize;
        r += binomial(p, i);
        rest &= rest - 1;
        i += 1;
    }
    r
}

/// The set of `k` positions of rank `r`, shifted by `offset`.
fn unrank(mut r: usize, k: usize, offset: u32) -> Bb {
    let mut set = 0;
    for i in (1..=k).rev() {
        let mut p = i - 1;
        while binomial(p + 1, i) <= r {
            p += 1;
        }
        r -= binomial(p, i);
        set |= 1 << (p as u32 + offset);
    }
    set
}

/// The number of a position within its slice.
fn index(b: &Board, turn: Player, s: &Slice) -> usize {
    let [_, wm, rk, wk] = s.radices();
    let red_men = b.pieces[0] & !b.kings;
    let white_men = b.pieces[1] & !b.kings;
    let red_kings = b.pieces[0] & b.kings;
    let white_kings = b.pieces[1] & b.kings;
    let i =
        ((rank(red_men, 0) * wm + rank(white_men, 4)) * rk + rank(red_kings, 0)) * wk + rank(white_kings, 0);
    i * 2 + turn.index()
}

/// The position of a number, or `None` if its pieces overlap.
fn position(i: usize, s: &Slice) -> Option<(Board, Player)> {
    let [_, wm, rk, wk] = s.radices();
    let turn = if i.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    let mut n = i / 2;
    let white_kings = unrank(n % wk, s.white_kings.into(), 0);
    n /= wk;
    let red_kings = unrank(n % rk, s.red_kings.into(), 0);
    n /= rk;
    let white_men = unrank(n % wm, s.white_men.into(), 4);
    n /= wm;
    let red_men = unrank(n, s.red_men.into(), 0);
    let all = [red_men, white_men, red_kings, white_kings];
    let total: u32 = all.iter().map(|x| x.count_ones()).sum();
    let union = all.iter().fold(0, |a, x| a | x);
    (union.count_ones() == total).then_some((
        Board {
            pieces: [red_men | red_kings, white_men | white_kings],
            kings: red_kings | white_kings,
        },
        turn,
    ))
}

/// Solved slices.
#[derive(Debug, Default)]
pub struct Database {
    slices: HashMap<Slice, Vec<u8>>,
    pieces: u32,
}

impl Database {
    /// Solves every slice of `pieces` pieces or fewer.
    #[must_use]
    pub fn build(pieces: u32) -> Database {
        Database::build_with(pieces, |_, _| {})
    }

    /// [`Database::build`], calling `progress(done, total)` after each slice.
    #[must_use]
    pub fn build_with(pieces: u32, mut progress: impl FnMut(usize, usize)) -> Database {
        let mut db = Database {
            slices: HashMap::new(),
            pieces,
        };
        let mut order = Slice::all(pieces);
        // Fewer pieces first; among equal pieces, fewer men first (a man crowned leads to one man fewer).
        order.sort_by_key(|s| (s.pieces(), s.red_men + s.white_men));
        let total = order.len();
        for (n, s) in order.into_iter().enumerate() {
            let values = db.solve(&s);
            db.slices.insert(s, values);
            progress(n + 1, total);
        }
        db
    }

    /// Every position of a solved slice (none if the slice is not in the database).
    pub fn positions<'a>(&'a self, s: &'a Slice) -> impl Iterator<Item = (Board, Player)> + 'a {
        let size = if self.slices.contains_key(s) { s.size() } else { 0 };
        (0..size).filter_map(move |i| position(i, s))
    }

    /// The largest number of pieces covered.
    #[must_use]
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The result of a position for the side to move, if the database covers it.
    #[must_use]
    pub fn probe(&self, b: &Board, turn: Player) -> Option<Wld> {
        if b.pieces[0] == 0 || b.pieces[1] == 0 {
            return None;
        }
        let s = Slice::of(b);
        let values = self.slices.get(&s)?;
        match values[index(b, turn, &s)] {
            WIN => Some(Wld::Win),
            LOSS => Some(Wld::Loss),
            DRAW => Some(Wld::Draw),
            _ => None,
        }
    }

    /// The value of a child position (after a move) for the side to move there; a child in which the mover
    /// has no piece left is lost.
    fn child(&self, b: &Board, turn: Player, here: &Slice, values: &[u8]) -> u8 {
        if b.pieces[turn.index()] == 0 {
            return LOSS;
        }
        let s = Slice::of(b);
        if s == *here {
            values[index(b, turn, here)]
        } else {
            self.slices.get(&s).map_or(UNKNOWN, |v| v[index(b, turn, &s)])
        }
    }

    fn solve(&self, s: &Slice) -> Vec<u8> {
        let size = s.size();
        let mut values = vec![UNKNOWN; size];
        let mut boards: Vec<(usize, Board, Player)> = Vec::new();
        for (i, v) in values.iter_mut().enumerate() {
            match position(i, s) {
                None => *v = NONE,
                Some((b, turn)) => {
                    // A man on its crowning row cannot stand there (the radices exclude it).
                    if movegen::count(&b, turn) == 0 {
                        *v = LOSS;
                    } else {
                        boards.push((i, b, turn));
                    }
                }
            }
        }
        let mut moves = Moves::new();
        loop {
            let mut changed = false;
            for &(i, b, turn) in &boards {
                if values[i] != UNKNOWN {
                    continue;
                }
                moves.clear();
                movegen::generate(&b, turn, &mut moves);
                let mut all_won = true;
                let mut result = UNKNOWN;
                for &m in &moves {
                    let next = movegen::apply(&b, turn, m);
                    match self.child(&next, !turn, s, &values) {
                        LOSS => {
                            result = WIN;
                            break;
                        }
                        WIN => {}
                        _ => all_won = false,
                    }
                }
                if result == UNKNOWN && all_won {
                    result = LOSS;
                }
                if result != UNKNOWN {
                    values[i] = result;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for v in &mut values {
            if *v == UNKNOWN {
                *v = DRAW;
            }
        }
        values
    }
}

/// The pieces of the database the search uses.
pub const SEARCH_PIECES: u32 = 4;

/// The database of [`SEARCH_PIECES`] pieces, once it is built. The first call starts building it on a
/// thread of its own (about 15-25 s of one core) and returns `None`, as every call does until it is ready: a
/// search never waits for it.
#[must_use]
pub fn shared() -> Option<&'static Database> {
    static DB: OnceLock<Database> = OnceLock::new();
    static STARTED: AtomicBool = AtomicBool::new(false);
    if let Some(db) = DB.get() {
        return Some(db);
    }
    if !STARTED.swap(true, Ordering::Relaxed) {
        let spawned = std::thread::Builder::new()
            .name("checkers-egdb".into())
            .spawn(|| {
                let _ = DB.set(Database::build(SEARCH_PIECES));
            });
        if spawned.is_err() {
            STARTED.store(false, Ordering::Relaxed);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridplay_core::Game;
    use gridplay_games::checkers::Checkers;

    fn probe(db: &Database, fen: &str) -> Option<Wld> {
        let p = Checkers.parse_position(fen).unwrap();
        db.probe(p.board(), gridplay_core::Position::turn(&p))
    }

    #[test]
    fn numbering_round_trips() {
        let s = Slice {
            red_men: 1,
            red_kings: 1,
            white_men: 1,
            white_kings: 0,
        };
        let mut valid = 0;
        for i in 0..s.size() {
            if let Some((b, turn)) = position(i, &s) {
                assert_eq!(index(&b, turn, &s), i);
                assert_eq!(Slice::of(&b), s);
                valid += 1;
            }
        }
        // 28 squares for the red man, 28 for the white one, the king on any free square, both sides to move,
        // less the overlaps of the two men (squares 5-28, which both may stand on).
        assert_eq!(valid, (28 * 28 - 24) * 30 * 2);
    }

    #[test]
    fn known_results_of_three_pieces() {
        let db = Database::build(3);
        // Two kings beat one, wherever they stand, when the lone king cannot take one at once.
        assert_eq!(probe(&db, "B:WK14:BK1,K3"), Some(Wld::Win));
        assert_eq!(probe(&db, "W:WK14:BK1,K3"), Some(Wld::Loss));
        // A king against a king is a draw, unless one can take the other.
        assert_eq!(probe(&db, "B:WK32:BK1"), Some(Wld::Draw));
        assert_eq!(probe(&db, "B:WK10:BK6,K1"), Some(Wld::Win));
        // White's man on 5 is blocked by the king on 1 and cannot jump it off the board: White cannot move.
        assert_eq!(probe(&db, "W:W5:BK1"), Some(Wld::Loss));
    }

    #[test]
    fn every_value_agrees_with_the_values_of_its_moves() {
        // The database is a fixed point: a win has a move to a loss, a loss has only moves to wins, a draw
        // has a move to a draw and none to a loss.
        let db = Database::build(3);
        let mut checked = 0;
        for (s, values) in &db.slices {
            for (i, &v) in values.iter().enumerate() {
                let Some((b, turn)) = position(i, s) else {
                    assert_eq!(v, NONE);
                    continue;
                };
                let mut moves = Moves::new();
                movegen::generate(&b, turn, &mut moves);
                let children: Vec<u8> = moves
                    .iter()
                    .map(|&m| db.child(&movegen::apply(&b, turn, m), !turn, s, values))
                    .collect();
                let expected = if children.is_empty() {
                    LOSS
                } else if children.contains(&LOSS) {
                    WIN
                } else if children.iter().all(|&c| c == WIN) {
                    LOSS
                } else {
                    DRAW
                };
                assert_eq!(v, expected, "slice {s:?} number {i}");
                checked += 1;
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn a_deep_search_never_contradicts_the_database() {
        use crate::checkers::search::{Hand, Table, search_with};
        use gridplay_search::{Limits, StopFlag};
        let db = Database::build(3);
        let s = Slice {
            red_men: 0,
            red_kings: 2,
            white_men: 1,
            white_kings: 0,
        };
        let mut table = Table::new(2);
        let mut proven = 0;
        for i in (0..s.size()).step_by(997) {
            let Some((b, turn)) = position(i, &s) else {
                continue;
            };
            let pos = gridplay_games::checkers::CheckersPosition::from_board(b, turn);
            let found = search_with(
                &mut table,
                &Hand,
                None,
                &pos,
                &[],
                Limits::depth(14),
                &StopFlag::new(),
            );
            let Some(found) = found else { continue };
            let wld = db.probe(&b, turn).unwrap();
            if found.score >= gridplay_search::WIN_THRESHOLD {
                assert_eq!(wld, Wld::Win, "{b:?} {turn:?}");
                proven += 1;
            } else if found.score <= -gridplay_search::WIN_THRESHOLD {
                assert_eq!(wld, Wld::Loss, "{b:?} {turn:?}");
                proven += 1;
            }
        }
        assert!(proven > 5, "{proven} proven");
    }
}
