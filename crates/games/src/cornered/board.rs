//! The cross states and the occupation rule of Cornered Reversi.
//!
//! Cells are stored row by row from the top-left, as the view draws them: index `row * size + col`, where row 0
//! is the top rank (rank `size`) and col 0 is file a.

use gridplay_core::Player;

/// The largest board side.
pub const MAX_SIZE: usize = 25;
/// The most crosses on a board.
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// The five states of a cross. White is the first player, Black the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Cross {
    #[default]
    Empty,
    Placed(Player),
    Occupied(Player),
}

impl Cross {
    /// The side that scores this cross, if any.
    #[must_use]
    pub const fn owner(self) -> Option<Player> {
        match self {
            Cross::Empty => None,
            Cross::Placed(p) | Cross::Occupied(p) => Some(p),
        }
    }
}

/// The four lines through a cross, each as one of its two directions (the other is the negation).
const LINES: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A board of `size * size` crosses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    cells: [Cross; MAX_CELLS],
}

impl Board {
    /// An empty board. `size` must be 2..=25.
    #[must_use]
    pub fn new(size: u8) -> Board {
        assert!(
            (2..=MAX_SIZE as u8).contains(&size),
            "board size {size} out of range"
        );
        Board {
            size,
            cells: [Cross::Empty; MAX_CELLS],
        }
    }

    #[must_use]
    pub const fn size(&self) -> usize {
        self.size as usize
    }

    /// The crosses in use, row by row from the top-left.
    #[must_use]
    pub fn cells(&self) -> &[Cross] {
        &self.cells[..self.size() * self.size()]
    }

    #[must_use]
    pub fn get(&self, index: usize) -> Cross {
        self.cells[index]
    }

    pub fn set(&mut self, index: usize, cross: Cross) {
        self.cells[index] = cross;
    }

    /// Whether any empty cross remains.
    #[must_use]
    pub fn has_empty(&self) -> bool {
        self.cells().contains(&Cross::Empty)
    }

    /// Placed plus occupied crosses for each side, first player first.
    #[must_use]
    pub fn counts(&self) -> [i32; 2] {
        let mut n = [0, 0];
        for c in self.cells() {
            if let Some(p) = c.owner() {
                n[p.index()] += 1;
            }
        }
        n
    }

    /// Walks from `index` in direction `(dx, dy)` (x to the right, y downwards), excluding `index` itself.
    fn ray(&self, index: usize, dx: i32, dy: i32) -> impl Iterator<Item = usize> + use<> {
        let n = self.size() as i32;
        let (mut x, mut y) = ((index % self.size()) as i32, (index / self.size()) as i32);
        std::iter::from_fn(move || {
            x += dx;
            y += dy;
            ((0..n).contains(&x) && (0..n).contains(&y)).then(|| (y * n + x) as usize)
        })
    }

    /// Whether, scanning this ray, the first placed piece met is `mover`'s (rule 3: empty and occupied crosses
    /// are skipped; an enemy placed piece or the edge ends the scan).
    fn ray_reaches_own(&self, index: usize, dx: i32, dy: i32, mover: Player) -> bool {
        self.ray(index, dx, dy)
            .find_map(|i| match self.cells[i] {
                Cross::Placed(p) => Some(p == mover),
                _ => None,
            })
            .unwrap_or(false)
    }

    /// Which of the four lines through `index` are active for `mover`.
    #[must_use]
    pub fn active_lines(&self, index: usize, mover: Player) -> [bool; 4] {
        LINES.map(|(dx, dy)| {
            self.ray_reaches_own(index, dx, dy, mover) || self.ray_reaches_own(index, -dx, -dy, mover)
        })
    }

    /// Places `mover`'s piece on the empty cross `index` and fills every active line (rule 3): both rays run
    /// outward to the edge or to the first enemy placed piece (excluded), and every cross passed that is not
    /// placed becomes occupied by `mover`. The lines are all decided on the position before filling.
    pub fn place(&mut self, index: usize, mover: Player) {
        let active = self.active_lines(index, mover);
        self.cells[index] = Cross::Placed(mover);
        for (&(dx, dy), _) in LINES.iter().zip(active).filter(|(_, a)| *a) {
            for (sx, sy) in [(dx, dy), (-dx, -dy)] {
                for i in self.ray(index, sx, sy) {
                    match self.cells[i] {
                        Cross::Placed(p) if p == mover => {}
                        Cross::Placed(_) => break,
                        _ => self.cells[i] = Cross::Occupied(mover),
                    }
                }
            }
        }
    }
}
