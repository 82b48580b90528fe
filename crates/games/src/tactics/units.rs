//! The three unit classes and their figures. `docs/rules/tactics.md` explains them, and `docs/tactics-balance.md`
//! how they were balanced.

use gridplay_core::Player;

/// A unit class. Each has one special ability that it may use instead of its attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Melee, high health. Ability *Cleave*: hits every enemy within [`CLEAVE_RANGE`] for [`CLEAVE_DAMAGE`].
    Warrior,
    /// Fragile, fast. Ability *Shoot*: hits one enemy at distance 2 to [`SHOOT_RANGE`] for [`SHOOT_DAMAGE`], from
    /// the square the archer starts its activation on ([`SHOOT_STILL`]).
    Archer,
    /// Support. Ability *Heal*: restores [`HEAL_AMOUNT`] health to one adjacent ally, up to its maximum.
    Healer,
}

/// Cleave's damage to each enemy it reaches.
pub const CLEAVE_DAMAGE: i32 = 4;
/// Cleave's reach (Chebyshev): it hits every enemy within this distance of the warrior.
pub const CLEAVE_RANGE: u32 = 1;
/// Whether Shoot needs the archer to stand still: an archer that moved in this activation cannot shoot, so it
/// shoots only at enemies in range where it stood, which are then close enough to answer. Without this aimed
/// shot an archer could step into range, shoot, and step back out of reach on its next turn. It is a constant
/// so that `scripts/tactics-balance.py` can measure the game without it.
pub const SHOOT_STILL: bool = true;
/// Shoot's damage.
pub const SHOOT_DAMAGE: i32 = 8;
/// Shoot's longest distance (Chebyshev: diagonals count as one).
pub const SHOOT_RANGE: u32 = 4;
/// Heal's amount.
pub const HEAL_AMOUNT: i32 = 5;

/// A class's fixed figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    pub health: i32,
    pub moves: u32,
    pub attack: i32,
}

impl Class {
    pub const ALL: [Class; 3] = [Class::Warrior, Class::Archer, Class::Healer];

    #[must_use]
    pub const fn stats(self) -> Stats {
        match self {
            Class::Warrior => Stats {
                health: 25,
                moves: 3,
                attack: 4,
            },
            Class::Archer => Stats {
                health: 15,
                moves: 4,
                attack: 4,
            },
            Class::Healer => Stats {
                health: 20,
                moves: 3,
                attack: 6,
            },
        }
    }

    /// The letter used in army settings and position texts (lower case; the first player's units are upper
    /// case in positions).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Class::Warrior => 'w',
            Class::Archer => 'a',
            Class::Healer => 'h',
        }
    }

    #[must_use]
    pub fn from_letter(c: char) -> Option<Class> {
        Class::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_lowercase())
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Class::Warrior => "warrior",
            Class::Archer => "archer",
            Class::Healer => "healer",
        }
    }

    #[must_use]
    pub const fn ability(self) -> &'static str {
        match self {
            Class::Warrior => "cleave",
            Class::Archer => "shoot",
            Class::Healer => "heal",
        }
    }
}

/// A unit on the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Stable identity within a game (its place in the starting armies), for displays that animate units.
    pub id: u8,
    pub owner: Player,
    pub class: Class,
    /// Square index, row by row from the top-left.
    pub square: u16,
    pub health: i32,
    /// Whether it has acted this turn.
    pub used: bool,
}

impl Unit {
    /// The sprite both players see: the class name; the owner's colour is applied by the display.
    #[must_use]
    pub const fn sprite(&self) -> &'static str {
        self.class.name()
    }
}
