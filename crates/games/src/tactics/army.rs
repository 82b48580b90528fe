//! Armies: the default for each board size, the `army` setting, and deployment on the home rows.

use arrayvec::ArrayVec;
use gridplay_core::Player;

use super::{
    MAX_UNITS,
    units::{Class, Unit},
};

/// The default army: 6 units on 16x16, 9 on 24x24, 12 on 32x32 (`3 * size / 8`), warriors, archers and
/// healers in equal numbers, warriors first so that they stand in the front row: `wwhhaa` on 16x16.
#[must_use]
pub fn default_army(size: u8) -> Vec<Class> {
    let third = usize::from(size) / 8;
    [Class::Warrior, Class::Healer, Class::Archer]
        .into_iter()
        .flat_map(|c| std::iter::repeat_n(c, third))
        .collect()
}

/// Reads an army setting such as `wwaahh`.
pub fn parse_army(text: &str) -> Result<Vec<Class>, String> {
    let expected =
        || format!("1 to {MAX_UNITS} class letters: w warrior, a archer, h healer (such as wwaahh)");
    if text.is_empty() || text.chars().count() > MAX_UNITS {
        return Err(expected());
    }
    text.chars()
        .map(|c| {
            if c.is_ascii_lowercase() {
                Class::from_letter(c)
            } else {
                None
            }
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(expected)
}

#[must_use]
pub fn army_text(army: &[Class]) -> String {
    army.iter().map(|c| c.letter()).collect()
}

/// `count` columns spread evenly over a row of `size` squares.
fn columns(count: usize, size: usize) -> impl Iterator<Item = usize> {
    (0..count).map(move |i| (2 * i + 1) * size / (2 * count))
}

/// Places both armies. The first player's home rows are the two bottom rows, the second's the two top rows;
/// the first half of an army (rounded up) stands on the front home row and the rest behind, each row spread
/// evenly. The second player's deployment is the first's reflected in the board's middle line, so equal armies
/// stand as mirror images. Unit ids run through the first army, then the second.
#[must_use]
pub fn deploy(size: u8, armies: &[Vec<Class>; 2]) -> ArrayVec<Unit, 64> {
    let n = usize::from(size);
    let mut units = ArrayVec::new();
    let mut id = 0u8;
    for (p, army) in Player::BOTH.into_iter().zip(armies) {
        let front = army.len().div_ceil(2);
        let (front_row, back_row) = match p {
            Player::First => (n - 2, n - 1),
            Player::Second => (1, 0),
        };
        let places = columns(front, n)
            .map(|x| (x, front_row))
            .chain(columns(army.len() - front, n).map(|x| (x, back_row)));
        for (&class, (x, y)) in army.iter().zip(places) {
            units.push(Unit {
                id,
                owner: p,
                class,
                square: (y * n + x) as u16,
                health: class.stats().health,
                used: false,
            });
            id += 1;
        }
    }
    units
}
