//! Checkers endgame databases: the win, loss or draw of every position with few pieces, by perfect play under
//! the rules of `docs/rules/checkers.md` (a side that cannot move loses; the 40-move rule and repetitions are
//! not counted, as in the published databases).
//!
//! Positions are grouped by material, a *slice* (Red's men and kings, White's men and kings). A slice is
//! solved once every slice its moves can lead out to is solved: captures lead to fewer pieces, a man crowned
//! to one man fewer and one king more. A slice is solved by retrograde analysis. First every position looks at
//! its moves once: a position with no move is lost, one with a move out of the slice to a lost position is
//! won, and the others count their moves that stay in the slice. Then each decided position goes back over
//! the moves that lead to it (steps back, which must have been legal: no capture was on offer): a lost
//! position makes each such predecessor won, a won one takes one from the predecessor's count, and a count
//! that reaches zero is a loss (unless a move out of the slice draws). What is never decided is a draw.
//!
//! A slice's positions are numbered by the combinatorial number system over the squares each kind of piece
//! may stand on (men never stand on their own crowning row), times two for the side to move; numbers whose
//! pieces overlap stand for no position. Solved slices keep two bits a number, and are saved deflated, a file
//! a slice, by [`Database::save`] (`gridplay egdb --pieces 6` writes them to [`default_dir`]): `files.rs`.
//! `verify.rs` checks a sample of a built database.

mod files;
mod verify;

use std::sync::Mutex;

pub use files::{SEARCH_PIECES, default_dir, shared};
pub use verify::{Disagreement, Verified};

use gridplay_core::Player;
use gridplay_games::checkers::{
    bitboard::{Bb, Board, DIRECTIONS, forward, king_row},
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

/// The most pieces a database is built for.
pub const MAX_PIECES: u32 = 6;

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

    /// The slice's place in [`Database`]'s table, or `None` beyond [`MAX_PIECES`].
    fn code(&self) -> Option<usize> {
        let n = MAX_PIECES as usize + 1;
        (self.pieces() <= MAX_PIECES).then(|| {
            ((usize::from(self.red_men) * n + usize::from(self.red_kings)) * n + usize::from(self.white_men))
                * n
                + usize::from(self.white_kings)
        })
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

    /// Every slice of `pieces` pieces or fewer in which each side has a piece, in the order they are solved:
    /// fewer pieces first, and among equal pieces fewer men first (a man crowned leads to one man fewer).
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
        out.sort_by_key(|s| (s.pieces(), s.red_men + s.white_men));
        out
    }

    fn file_name(&self) -> String {
        format!(
            "r{}{}w{}{}.wld",
            self.red_men, self.red_kings, self.white_men, self.white_kings
        )
    }
}

const BINOMIALS: [[usize; 9]; 33] = {
    let mut t = [[0usize; 9]; 33];
    let mut n = 0;
    while n < 33 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 9 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

#[inline]
fn binomial(n: usize, k: usize) -> usize {
    if k > n { 0 } else { BINOMIALS[n][k] }
}

/// The rank of a set of positions (bits of `set`, counted from `offset`) in the combinatorial number system.
#[inline]
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
#[inline]
fn unrank(mut r: usize, k: usize, offset: u32) -> Bb {
    let mut set = 0;
    let mut p = 32;
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= r; each element lies below the one before.
        p -= 1;
        while binomial(p, i) > r {
            p -= 1;
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

/// The positions from which `u` reaches `b` by a step that stays in the slice: a king's step back in any
/// direction, or a man's step back against its forward directions, onto an empty square, where `u` had no
/// capture (a step is legal only then).
fn predecessors(b: &Board, u: Player, out: &mut impl FnMut(Board)) {
    let empty = b.empty();
    let own = b.pieces[u.index()];
    let ahead = forward(u);
    let mut rest = own;
    while rest != 0 {
        let x = rest & rest.wrapping_neg();
        rest &= rest - 1;
        let king = b.kings & x != 0;
        if !king && x & king_row(u) != 0 {
            continue;
        }
        for d in DIRECTIONS {
            if !king && !ahead.contains(&d) {
                continue;
            }
            let y = d.reverse().step(x) & empty;
            if y == 0 {
                continue;
            }
            let mut q = *b;
            q.pieces[u.index()] = (own & !x) | y;
            if king {
                q.kings = (b.kings & !x) | y;
            }
            if !q.can_capture(u) {
                out(q);
            }
        }
    }
}

/// The value a position must have, given the values of its moves' positions (for the side to move there): a
/// win has a move to a loss, a loss only moves to wins (or none), a draw a move to a draw and none to a loss.
fn by_moves(children: &[u8]) -> u8 {
    if children.contains(&LOSS) {
        WIN
    } else if children.iter().all(|&c| c == WIN) {
        LOSS
    } else {
        DRAW
    }
}

/// How many positions of each result a slice (or a database) holds, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub won: u64,
    pub lost: u64,
    pub drawn: u64,
}

impl Counts {
    #[must_use]
    pub fn total(&self) -> u64 {
        self.won + self.lost + self.drawn
    }

    fn add(&mut self, other: Counts) {
        self.won += other.won;
        self.lost += other.lost;
        self.drawn += other.drawn;
    }
}

/// A solved slice: two bits a number (0 a draw or no position, 1 a win, 2 a loss).
#[derive(Debug)]
struct Solved {
    bits: Vec<u8>,
    counts: Counts,
}

impl Solved {
    fn pack(values: &[u8]) -> Solved {
        let mut bits = vec![0u8; values.len().div_ceil(4)];
        let mut counts = Counts::default();
        for (i, &v) in values.iter().enumerate() {
            let code = match v {
                WIN => {
                    counts.won += 1;
                    1
                }
                LOSS => {
                    counts.lost += 1;
                    2
                }
                DRAW => {
                    counts.drawn += 1;
                    0
                }
                _ => 0,
            };
            bits[i >> 2] |= code << ((i & 3) * 2);
        }
        Solved { bits, counts }
    }

    #[inline]
    fn get(&self, i: usize) -> u8 {
        match (self.bits[i >> 2] >> ((i & 3) * 2)) & 3 {
            1 => WIN,
            2 => LOSS,
            _ => DRAW,
        }
    }
}

/// Solved slices.
#[derive(Debug)]
pub struct Database {
    /// By [`Slice::code`].
    slices: Vec<Option<Solved>>,
    pieces: u32,
}

impl Database {
    fn empty(pieces: u32) -> Database {
        let n = MAX_PIECES as usize + 1;
        Database {
            slices: (0..n * n * n * n).map(|_| None).collect(),
            pieces,
        }
    }

    /// Solves every slice of `pieces` pieces or fewer (at most [`MAX_PIECES`]) on one thread.
    #[must_use]
    pub fn build(pieces: u32) -> Database {
        Database::build_with(pieces, 1, |_, _| {})
    }

    /// [`Database::build`] on `threads` threads, calling `progress(done, total)` in numbers after each slice.
    ///
    /// # Panics
    /// If `pieces` is above [`MAX_PIECES`].
    #[must_use]
    pub fn build_with(pieces: u32, threads: usize, mut progress: impl FnMut(u64, u64)) -> Database {
        assert!(pieces <= MAX_PIECES, "{pieces} pieces: at most {MAX_PIECES}");
        let mut db = Database::empty(pieces);
        let order = Slice::all(pieces);
        let total: u64 = order.iter().map(|s| s.size() as u64).sum();
        let mut done = 0;
        for s in order {
            let values = db.solve(&s, threads.max(1));
            db.slices[s.code().expect("within MAX_PIECES")] = Some(Solved::pack(&values));
            done += s.size() as u64;
            progress(done, total);
        }
        db
    }

    /// Every position of a solved slice (none if the slice is not in the database).
    pub fn positions<'a>(&'a self, s: &'a Slice) -> impl Iterator<Item = (Board, Player)> + 'a {
        let size = if self.solved(s).is_some() { s.size() } else { 0 };
        (0..size).filter_map(move |i| position(i, s))
    }

    /// The largest number of pieces covered.
    #[must_use]
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// How many positions of exactly `pieces` pieces are won, lost and drawn for the side to move.
    #[must_use]
    pub fn counts(&self, pieces: u32) -> Counts {
        let mut out = Counts::default();
        for s in Slice::all(self.pieces).iter().filter(|s| s.pieces() == pieces) {
            if let Some(solved) = self.solved(s) {
                out.add(solved.counts);
            }
        }
        out
    }

    fn solved(&self, s: &Slice) -> Option<&Solved> {
        self.slices.get(s.code()?)?.as_ref()
    }

    /// The result of a position for the side to move, if the database covers it.
    #[must_use]
    pub fn probe(&self, b: &Board, turn: Player) -> Option<Wld> {
        if b.pieces[0] == 0 || b.pieces[1] == 0 {
            return None;
        }
        let s = Slice::of(b);
        match self.solved(&s)?.get(index(b, turn, &s)) {
            WIN => Some(Wld::Win),
            LOSS => Some(Wld::Loss),
            _ => Some(Wld::Draw),
        }
    }

    /// The value of a child position (after a move) for the side to move there, from the solved slices; a
    /// child in which the mover has no piece left is lost.
    fn outside(&self, b: &Board, turn: Player) -> u8 {
        if b.pieces[turn.index()] == 0 {
            return LOSS;
        }
        let s = Slice::of(b);
        self.solved(&s).map_or(UNKNOWN, |v| v.get(index(b, turn, &s)))
    }

    /// A position's first look at its moves: its value if they decide it, else the count of its moves that
    /// stay in the slice (one more if a move out of it draws, so that the count never reaches zero).
    fn first_look(&self, b: &Board, turn: Player, s: &Slice, moves: &mut Moves) -> (u8, u8) {
        moves.clear();
        movegen::generate(b, turn, moves);
        if moves.is_empty() {
            return (LOSS, 0);
        }
        let mut inside = 0u8;
        let mut draw = false;
        for &m in moves.iter() {
            let next = movegen::apply(b, turn, m);
            if next.pieces[(!turn).index()] != 0 && Slice::of(&next) == *s {
                inside += 1;
                continue;
            }
            match self.outside(&next, !turn) {
                LOSS => return (WIN, 0),
                WIN => {}
                // A draw, or (never, by the order of solving) a slice not yet solved.
                _ => draw = true,
            }
        }
        match (inside, draw) {
            (0, true) => (DRAW, 0),
            (0, false) => (LOSS, 0),
            _ => (UNKNOWN, inside + u8::from(draw)),
        }
    }

    fn solve(&self, s: &Slice, threads: usize) -> Vec<u8> {
        let size = s.size();
        // Positions are queued as u32: the largest slice of MAX_PIECES pieces has 385,753,088 numbers.
        assert!(u32::try_from(size).is_ok(), "slice {s:?} has {size} numbers");
        let [rm, wm, rk, wk] = s.radices();
        let block = wk * 2;
        let mut values = vec![NONE; size];
        let mut counters = vec![0u8; size];
        let blocks = rm * wm * rk;
        let chunk_blocks = blocks.div_ceil(threads * 64).max(1);
        let chunk = chunk_blocks * block;
        let work = Mutex::new(
            values
                .chunks_mut(chunk)
                .zip(counters.chunks_mut(chunk))
                .enumerate(),
        );
        let mut decided: Vec<u32> = Vec::new();
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut decided = Vec::new();
                        let mut moves = Moves::new();
                        loop {
                            let next = work
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .next();
                            let Some((c, (vals, counts))) = next else {
                                break;
                            };
                            let first = c * chunk_blocks;
                            for (o, (vals, counts)) in
                                vals.chunks_mut(block).zip(counts.chunks_mut(block)).enumerate()
                            {
                                let outer = first + o;
                                let red_kings = unrank(outer % rk, s.red_kings.into(), 0);
                                let white_men = unrank((outer / rk) % wm, s.white_men.into(), 4);
                                let red_men = unrank(outer / rk / wm, s.red_men.into(), 0);
                                let men = red_men | white_men;
                                if men.count_ones() != u32::from(s.red_men + s.white_men)
                                    || men & red_kings != 0
                                {
                                    continue;
                                }
                                let taken = men | red_kings;
                                for w in 0..wk {
                                    let white_kings = unrank(w, s.white_kings.into(), 0);
                                    if white_kings & taken != 0 {
                                        continue;
                                    }
                                    let b = Board {
                                        pieces: [red_men | red_kings, white_men | white_kings],
                                        kings: red_kings | white_kings,
                                    };
                                    for (t, turn) in [Player::First, Player::Second].into_iter().enumerate() {
                                        let (v, n) = self.first_look(&b, turn, s, &mut moves);
                                        vals[w * 2 + t] = v;
                                        counts[w * 2 + t] = n;
                                        if v == WIN || v == LOSS {
                                            decided.push(((outer * wk + w) * 2 + t) as u32);
                                        }
                                    }
                                }
                            }
                        }
                        decided
                    })
                })
                .collect();
            for h in handles {
                decided.extend(h.join().expect("a solving thread panicked"));
            }
        });
        while let Some(i) = decided.pop() {
            let i = i as usize;
            let v = values[i];
            let Some((b, turn)) = position(i, s) else {
                continue;
            };
            let mover = !turn;
            predecessors(&b, mover, &mut |q| {
                let j = index(&q, mover, s);
                if values[j] != UNKNOWN {
                    return;
                }
                if v == LOSS {
                    values[j] = WIN;
                    decided.push(j as u32);
                } else {
                    counters[j] -= 1;
                    if counters[j] == 0 {
                        values[j] = LOSS;
                        decided.push(j as u32);
                    }
                }
            });
        }
        for v in &mut values {
            if *v == UNKNOWN {
                *v = DRAW;
            }
        }
        values
    }
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

    /// The value of a child for the side to move there, as the database gives it.
    fn child(db: &Database, b: &Board, turn: Player) -> u8 {
        if b.pieces[turn.index()] == 0 {
            return LOSS;
        }
        match db.probe(b, turn).expect("every child is covered") {
            Wld::Win => WIN,
            Wld::Loss => LOSS,
            Wld::Draw => DRAW,
        }
    }

    #[test]
    fn every_value_agrees_with_the_values_of_its_moves() {
        // The database is a fixed point: a win has a move to a loss, a loss has only moves to wins, a draw
        // has a move to a draw and none to a loss.
        let db = Database::build(3);
        let mut checked = 0;
        for s in Slice::all(3) {
            for (b, turn) in db.positions(&s) {
                let mut moves = Moves::new();
                movegen::generate(&b, turn, &mut moves);
                let children: Vec<u8> = moves
                    .iter()
                    .map(|&m| child(&db, &movegen::apply(&b, turn, m), !turn))
                    .collect();
                assert_eq!(
                    child(&db, &b, turn),
                    by_moves(&children),
                    "slice {s:?} {b:?} {turn:?}"
                );
                checked += 1;
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn the_steps_back_are_exactly_the_steps_that_stay_in_the_slice() {
        // For every position of some slices, each move that keeps the material leads to a position whose
        // predecessors include it, and every predecessor found has such a move.
        let slices = [
            Slice {
                red_men: 1,
                red_kings: 1,
                white_men: 1,
                white_kings: 0,
            },
            Slice {
                red_men: 0,
                red_kings: 2,
                white_men: 0,
                white_kings: 1,
            },
            Slice {
                red_men: 2,
                red_kings: 0,
                white_men: 1,
                white_kings: 1,
            },
        ];
        let mut steps = 0;
        for s in slices {
            for i in (0..s.size()).step_by(7) {
                let Some((b, turn)) = position(i, &s) else {
                    continue;
                };
                let mut moves = Moves::new();
                movegen::generate(&b, turn, &mut moves);
                for &m in &moves {
                    let next = movegen::apply(&b, turn, m);
                    if Slice::of(&next) != s {
                        continue;
                    }
                    let mut back = Vec::new();
                    predecessors(&next, turn, &mut |q| back.push(q));
                    assert!(back.contains(&b), "{b:?} {turn:?} {m:?}");
                    for q in back {
                        let mut qm = Moves::new();
                        movegen::generate(&q, turn, &mut qm);
                        assert!(
                            qm.iter().any(|&m| movegen::apply(&q, turn, m) == next),
                            "{q:?} {next:?}"
                        );
                    }
                    steps += 1;
                }
            }
        }
        assert!(steps > 10_000, "{steps}");
    }

    #[test]
    fn the_numbering_ranks_every_set() {
        for k in 0..=4usize {
            for r in (0..binomial(28, k)).step_by(13) {
                assert_eq!(rank(unrank(r, k, 4), 4), r);
                assert_eq!(unrank(r, k, 0).count_ones() as usize, k);
            }
        }
    }

    #[test]
    fn four_pieces_match_the_counts_of_the_first_solver() {
        // The counts the earlier solver (repeated passes over every move) found for 4 pieces.
        let db = Database::build_with(4, 2, |_, _| {});
        assert_eq!(
            db.counts(4),
            Counts {
                won: 5_148_608,
                lost: 3_834_180,
                drawn: 3_435_844
            }
        );
        assert_eq!(db.counts(3).total(), 392_064);
        assert_eq!(db.counts(2).total(), 6_976);
    }
}
