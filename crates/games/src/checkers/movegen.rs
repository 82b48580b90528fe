//! Legal moves: captures by depth-first search over every path, simple steps by shifts.
//!
//! A capture path follows the rules of RULINGS.md: capturing is compulsory but any capture path may be chosen;
//! a path goes on while it can (a multi-jump must be completed); a captured piece stays on the board until the
//! move ends, so it can be neither jumped again nor landed on; the moving piece's start square is free; and a
//! man that reaches the king row is crowned, which ends the move.

use gridplay_core::Player;
use smallvec::SmallVec;

use super::bitboard::{Bb, Board, DIRECTIONS, Dir, forward, king_row};

/// One move: a step, or a whole capture path.
///
/// The path is stored as the direction of each jump (two bits each), so two paths between the same squares
/// that take the pieces in a different order are different moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: u8,
    to: u8,
    jumps: u8,
    dirs: u32,
    captured: Bb,
}

/// The longest capture path: each jump takes one of the at most 12 opposing pieces.
pub const MAX_JUMPS: usize = 12;

impl Move {
    /// A one-square step. No check is made that it is a diagonal neighbour.
    #[must_use]
    pub const fn step(from: u8, to: u8) -> Move {
        Move {
            from,
            to,
            jumps: 0,
            dirs: 0,
            captured: 0,
        }
    }

    /// A capture path from `from` along `dirs` (at most [`MAX_JUMPS`]), or `None` if it leaves the board.
    #[must_use]
    pub fn jumps(from: u8, dirs: &[Dir]) -> Option<Move> {
        if dirs.is_empty() || dirs.len() > MAX_JUMPS || from >= 32 {
            return None;
        }
        let mut at: Bb = 1 << from;
        let mut m = Move {
            from,
            to: from,
            jumps: 0,
            dirs: 0,
            captured: 0,
        };
        for &d in dirs {
            let mid = d.step(at);
            at = d.step(mid);
            if at == 0 {
                return None;
            }
            m.captured |= mid;
            m.dirs |= (d as u32) << (2 * m.jumps);
            m.jumps += 1;
        }
        m.to = at.trailing_zeros() as u8;
        Some(m)
    }

    /// The start square index (square number - 1).
    #[must_use]
    pub const fn from(&self) -> u8 {
        self.from
    }

    /// The final square index.
    #[must_use]
    pub const fn to(&self) -> u8 {
        self.to
    }

    #[must_use]
    pub const fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// The squares of the pieces this move captures.
    #[must_use]
    pub const fn captured(&self) -> Bb {
        self.captured
    }

    /// The direction of each jump.
    pub fn directions(&self) -> impl Iterator<Item = Dir> + '_ {
        (0..u32::from(self.jumps)).map(|i| Dir::from_index(self.dirs >> (2 * i)))
    }

    /// The start square and every landing square, as indices.
    #[must_use]
    pub fn path(&self) -> SmallVec<[u8; 14]> {
        let mut path = SmallVec::new();
        path.push(self.from);
        if self.jumps == 0 {
            path.push(self.to);
            return path;
        }
        let mut at: Bb = 1 << self.from;
        for d in self.directions() {
            at = d.step(d.step(at));
            path.push(at.trailing_zeros() as u8);
        }
        path
    }
}

/// A list of moves. 48 fit on the stack, more than any position reached in play needs; a list longer than that
/// (a set-up position full of kings) moves to the heap instead of failing.
pub type Moves = SmallVec<[Move; 48]>;

/// Everything the capture search carries down a path.
struct Search {
    king: bool,
    player: Player,
    from: u8,
    /// Squares a jump may land on: empty squares and the mover's own start square.
    empty: Bb,
}

impl Search {
    /// Extends a path at `at` after `jumps` jumps; `prey` is the opposing pieces not yet captured.
    fn extend(&self, at: Bb, jumps: u8, dirs: u32, captured: Bb, prey: Bb, sink: &mut impl FnMut(Move)) {
        let mut extended = false;
        for d in DIRECTIONS {
            if !self.king && !forward(self.player).contains(&d) {
                continue;
            }
            let mid = d.step(at) & prey;
            if mid == 0 {
                continue;
            }
            let land = d.step(mid) & self.empty;
            if land == 0 {
                continue;
            }
            extended = true;
            let dirs = dirs | ((d as u32) << (2 * jumps));
            let captured = captured | mid;
            if !self.king && land & king_row(self.player) != 0 {
                // Crowning ends the move.
                sink(Move {
                    from: self.from,
                    to: land.trailing_zeros() as u8,
                    jumps: jumps + 1,
                    dirs,
                    captured,
                });
            } else {
                self.extend(land, jumps + 1, dirs, captured, prey & !mid, sink);
            }
        }
        if !extended && jumps > 0 {
            sink(Move {
                from: self.from,
                to: at.trailing_zeros() as u8,
                jumps,
                dirs,
                captured,
            });
        }
    }
}

/// Calls `sink` for every capture path of `p`, searching only from the pieces that can jump.
fn captures(b: &Board, p: Player, jumpers: Bb, sink: &mut impl FnMut(Move)) {
    let prey = b.pieces[(!p).index()];
    let free = b.empty();
    let mut rest = jumpers;
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        let bit = 1u32 << sq;
        rest &= rest - 1;
        let search = Search {
            king: b.kings & bit != 0,
            player: p,
            from: sq,
            empty: free | bit,
        };
        search.extend(bit, 0, 0, 0, prey, sink);
    }
}

/// All legal moves of `p`: the capture paths if there is any capture, else the steps.
pub fn generate(b: &Board, p: Player, out: &mut Moves) {
    let jumpers = b.jumpers(p);
    if jumpers != 0 {
        captures(b, p, jumpers, &mut |m| out.push(m));
        return;
    }
    let empty = b.empty();
    let mut rest = b.pieces[p.index()];
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        let bit = 1u32 << sq;
        rest &= rest - 1;
        for d in DIRECTIONS {
            if b.movers(p, d) & bit != 0 {
                let to = d.step(bit) & empty;
                if to != 0 {
                    out.push(Move::step(sq, to.trailing_zeros() as u8));
                }
            }
        }
    }
}

/// The number of legal moves of `p`, without listing them.
#[must_use]
pub fn count(b: &Board, p: Player) -> u64 {
    let jumpers = b.jumpers(p);
    if jumpers != 0 {
        let mut n = 0u64;
        captures(b, p, jumpers, &mut |_| n += 1);
        n
    } else {
        u64::from(b.count_steps(p))
    }
}

/// The board after `p` plays `m` (which must be legal).
#[inline]
#[must_use]
pub fn apply(b: &Board, p: Player, m: Move) -> Board {
    let from: Bb = 1 << m.from;
    let to: Bb = 1 << m.to;
    let mut next = *b;
    let (me, them) = (p.index(), (!p).index());
    next.pieces[me] = (next.pieces[me] & !from) | to;
    let was_king = b.kings & from != 0;
    next.kings &= !(from | m.captured);
    if was_king || to & king_row(p) != 0 {
        next.kings |= to;
    }
    next.pieces[them] &= !m.captured;
    next
}

/// Perft with the last ply counted in bulk. Every capture path counts separately.
#[must_use]
pub fn perft(b: &Board, p: Player, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count(b, p),
        _ => {
            let mut moves = Moves::new();
            generate(b, p, &mut moves);
            moves.iter().map(|&m| perft(&apply(b, p, m), !p, depth - 1)).sum()
        }
    }
}
