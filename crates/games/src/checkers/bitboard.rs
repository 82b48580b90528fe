//! 32-square bitboards for American checkers.
//!
//! Bit `i` is square `i + 1` of the standard numbering: square 1 is b8, 4 is h8, 5 is a7, 29 is a1 and 32 is
//! g1. Rows run from the top (row 0 = rank 8) and hold four squares each; on even rows the squares are on
//! files b d f h, on odd rows on a c e g. A diagonal step is therefore +3, +4 or +5 (down) or -3, -4, -5
//! (up) depending on the row, which the four step functions hide behind masks. Two steps in one direction
//! (a jump) are always +-7 or +-9.
//!
//! Red (the first player, called Black in the literature) starts on 1-12 and moves down; White starts on
//! 21-32 and moves up.

use gridplay_core::Player;

/// A set of squares.
pub type Bb = u32;

/// The diagonal directions: up-left, up-right, down-left, down-right.
pub const DIRECTIONS: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    UpLeft = 0,
    UpRight = 1,
    DownLeft = 2,
    DownRight = 3,
}

impl Dir {
    #[must_use]
    pub const fn from_index(i: u32) -> Dir {
        match i & 3 {
            0 => Dir::UpLeft,
            1 => Dir::UpRight,
            2 => Dir::DownLeft,
            _ => Dir::DownRight,
        }
    }

    /// The opposite direction.
    #[inline(always)]
    #[must_use]
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::UpLeft => Dir::DownRight,
            Dir::UpRight => Dir::DownLeft,
            Dir::DownLeft => Dir::UpRight,
            Dir::DownRight => Dir::UpLeft,
        }
    }

    /// One diagonal step of every square in `b`; squares that would leave the board are dropped.
    #[inline(always)]
    #[must_use]
    pub const fn step(self, b: Bb) -> Bb {
        match self {
            Dir::UpLeft => ((b & 0x0F0F_0F00) >> 4) | ((b & 0xE0E0_E0E0) >> 5),
            Dir::UpRight => ((b & 0x0707_0700) >> 3) | ((b & 0xF0F0_F0F0) >> 4),
            Dir::DownLeft => ((b & 0x0F0F_0F0F) << 4) | ((b & 0x00E0_E0E0) << 3),
            Dir::DownRight => ((b & 0x0707_0707) << 5) | ((b & 0x00F0_F0F0) << 4),
        }
    }
}

/// The row where a side's men are crowned: row 7 (29-32) for Red, row 0 (1-4) for White.
#[inline]
#[must_use]
pub const fn king_row(p: Player) -> Bb {
    match p {
        Player::First => 0xF000_0000,
        Player::Second => 0x0000_000F,
    }
}

/// The directions a side's men move in: down for Red, up for White.
#[inline]
#[must_use]
pub const fn forward(p: Player) -> [Dir; 2] {
    match p {
        Player::First => [Dir::DownLeft, Dir::DownRight],
        Player::Second => [Dir::UpLeft, Dir::UpRight],
    }
}

/// The pieces on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Each side's pieces (men and kings), indexed by [`Player::index`].
    pub pieces: [Bb; 2],
    /// The kings of both sides.
    pub kings: Bb,
}

impl Board {
    /// The start: Red on 1-12, White on 21-32.
    pub const START: Board = Board {
        pieces: [0x0000_0FFF, 0xFFF0_0000],
        kings: 0,
    };

    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> Bb {
        self.pieces[0] | self.pieces[1]
    }

    #[inline]
    #[must_use]
    pub const fn empty(&self) -> Bb {
        !self.occupied()
    }

    /// The squares from which `p`'s pieces move or jump in direction `d`: kings always, men forward only.
    #[inline]
    #[must_use]
    pub fn movers(&self, p: Player, d: Dir) -> Bb {
        let own = self.pieces[p.index()];
        let [f0, f1] = forward(p);
        if d == f0 || d == f1 { own } else { own & self.kings }
    }

    /// The pieces of `p` that can capture: those with an opposing piece next to them and a free square behind
    /// it, in a direction they may move in.
    #[inline]
    #[must_use]
    pub fn jumpers(&self, p: Player) -> Bb {
        let opp = self.pieces[(!p).index()];
        let empty = self.empty();
        let mut out = 0;
        for d in DIRECTIONS {
            let back = d.reverse();
            out |= self.movers(p, d) & back.step(back.step(empty) & opp);
        }
        out
    }

    /// Whether `p` has a capture anywhere.
    #[inline]
    #[must_use]
    pub fn can_capture(&self, p: Player) -> bool {
        self.jumpers(p) != 0
    }

    /// The number of simple (non-capturing) moves of `p`.
    #[inline]
    #[must_use]
    pub fn count_steps(&self, p: Player) -> u32 {
        let empty = self.empty();
        DIRECTIONS
            .iter()
            .map(|&d| (d.step(self.movers(p, d)) & empty).count_ones())
            .sum()
    }
}
