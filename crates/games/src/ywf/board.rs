//! The YWF board: 81 squares holding Yoi-ko, Warui-ko, Futsu-no-ko or nothing, and the conversion rule.
//!
//! Squares are numbered row by row from the top-left: index `(rank - 1) * 9 + file`, with rank 1 at the top.

use gridplay_core::Player;

pub const SIZE: usize = 9;
pub const SQUARES: usize = SIZE * SIZE;

/// What a square holds. Warui-ko is the first player's piece, Yoi-ko the second's, Futsu-no-ko nobody's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Square {
    #[default]
    Empty,
    /// A player's own piece: Warui-ko for `First`, Yoi-ko for `Second`.
    Own(Player),
    /// Futsu-no-ko, the standing piece that belongs to nobody.
    Futsu,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The 9x9 board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub squares: [Square; SQUARES],
}

impl Board {
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            squares: [Square::Empty; SQUARES],
        }
    }

    /// The squares whose pieces convert when `p` converts from `from` (rule 3), as a bit set.
    ///
    /// In each direction the longest run of Futsu-no-ko and opponent pieces next to `from` is taken; if it is
    /// not empty and the square after it holds `p`'s piece, the whole run converts.
    #[must_use]
    pub fn conversion(&self, from: usize, p: Player) -> u128 {
        let (x0, y0) = ((from % SIZE) as i32, (from / SIZE) as i32);
        let mut all = 0u128;
        for (dx, dy) in DIRECTIONS {
            let (mut x, mut y) = (x0 + dx, y0 + dy);
            let mut run = 0u128;
            while (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y) {
                let i = (y * SIZE as i32 + x) as usize;
                match self.squares[i] {
                    Square::Futsu => run |= 1 << i,
                    Square::Own(q) if q != p => run |= 1 << i,
                    Square::Own(_) => {
                        all |= run;
                        break;
                    }
                    Square::Empty => break,
                }
                x += dx;
                y += dy;
            }
        }
        all
    }

    /// Converts the squares in `set` for `p`: Futsu-no-ko becomes `p`'s, an opponent piece becomes Futsu-no-ko.
    pub fn convert(&mut self, mut set: u128, p: Player) {
        while set != 0 {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            self.squares[i] = match self.squares[i] {
                Square::Futsu => Square::Own(p),
                Square::Own(_) => Square::Futsu,
                Square::Empty => Square::Empty,
            };
        }
    }

    /// Pieces of each player's own colour, first player first.
    #[must_use]
    pub fn counts(&self) -> [i32; 2] {
        let mut n = [0, 0];
        for s in self.squares {
            if let Square::Own(p) = s {
                n[p.index()] += 1;
            }
        }
        n
    }

    #[must_use]
    pub fn has_empty(&self) -> bool {
        self.squares.contains(&Square::Empty)
    }
}
