//! Armies: the default for each board size, the `army` setting, and deployment on the home rows.

use arrayvec::ArrayVec;
use gridplay_core::{ArmyCheck, ArmyKind, GameSpec, Player};

use super::{
    MAX_UNITS, MAX_UNITS_ON_BOARD,
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

/// The fewest units an army may have: one of each class.
pub const MIN_UNITS: usize = 3;

/// The clauses of the composition rule, as the army builder shows them ([`clauses_met`] checks them).
pub const CLAUSES: &[&str] = &[
    "From 3 to 16 units",
    "Every class at least once",
    "Warriors and archers: each at most half of the army",
    "Healers: at most a third of the army",
    "Archers: at least a third of the army",
    "Every class within one unit of a third of the army",
];

/// The units of an army setting, for a page's army builder, in the order the builder writes them: warriors
/// first, as the default army does, so that they stand in the front row.
const PARTS: &[(char, &str)] = &[('w', "warrior"), ('h', "healer"), ('a', "archer")];

/// The first player's army (the `army` setting).
pub static ARMY: ArmyKind = ArmyKind {
    parts: PARTS,
    min: MIN_UNITS as u32,
    max: MAX_UNITS as u32,
    default: "6 units on 16x16, 9 on 24x24, 12 on 32x32, a third of each class",
    same_as: None,
    clauses: CLAUSES,
    check: check_setting,
};

/// The second player's army (`army2`): the first player's unless given.
pub static ARMY2: ArmyKind = ArmyKind {
    parts: PARTS,
    min: MIN_UNITS as u32,
    max: MAX_UNITS as u32,
    default: "the first player's army",
    same_as: Some("army"),
    clauses: CLAUSES,
    check: check_setting,
};

/// The army setting `key` of a spec as it stands: the value in force (`army2` falls back on `army`, and
/// both on the default for the spec's size) and which clauses of the rule it meets. A value that is not
/// class letters meets none.
fn check_setting(spec: &GameSpec, key: &str) -> ArmyCheck {
    let size = spec
        .get("size")
        .and_then(|s| s.parse::<u8>().ok())
        .filter(|s| (super::MIN_SIZE..=super::MAX_SIZE).contains(s))
        .unwrap_or(super::MIN_SIZE);
    let given = spec
        .get(key)
        .or_else(|| if key == "army2" { spec.get("army") } else { None });
    let army = match given {
        Some(text) => parse_letters(text),
        None => Ok(default_army(size)),
    };
    match army {
        Ok(army) => ArmyCheck {
            value: army_text(&army),
            met: clauses_met(&army).to_vec(),
        },
        Err(_) => ArmyCheck {
            value: String::new(),
            met: vec![false; CLAUSES.len()],
        },
    }
}

/// For each clause of [`CLAUSES`], whether `army` meets it (halves and thirds rounded down).
#[must_use]
pub fn clauses_met(army: &[Class]) -> [bool; 6] {
    let n = army.len();
    let [w, a, h] = [Class::Warrior, Class::Archer, Class::Healer].map(|c| units_of(army, c));
    let (least, most) = (n.saturating_sub(1) / 3, n / 3 + 1);
    [
        (MIN_UNITS..=MAX_UNITS).contains(&n),
        w > 0 && a > 0 && h > 0,
        w <= n / 2 && a <= n / 2,
        h <= n / 3,
        a >= n / 3,
        [w, a, h].iter().all(|c| (least..=most).contains(c)),
    ]
}

/// Why an army setting was refused: what was expected, and what was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArmyError {
    #[error(
        "{MIN_UNITS} to {MAX_UNITS} class letters (w warrior, a archer, h healer, such as wwhhaa), not {count}"
    )]
    Letters { count: usize },
    #[error("only the lower-case class letters w warrior, a archer, h healer (such as wwhhaa)")]
    NotALetter,
    #[error("{MIN_UNITS} to {MAX_UNITS} units, one of each class at least, not {count}")]
    TooFew { count: usize },
    #[error("every class in the army, and this one has no {} ({})", class.name(), class.letter())]
    Missing { class: Class },
    #[error(
        "at most {} of the army of one class: {most} {}{} in {units} units, not {count}",
        if *class == Class::Healer { "a third" } else { "half" },
        class.name(),
        plural(*most)
    )]
    TooMany {
        class: Class,
        most: usize,
        units: usize,
        count: usize,
    },
    #[error(
        "at least a third of the army archers: {least} {}{} in {units} units, not {count}",
        Class::Archer.name(),
        plural(*least)
    )]
    TooFewArchers {
        least: usize,
        units: usize,
        count: usize,
    },
    #[error(
        "every class within one unit of a third of the army: {least} to {most} {}s in {units} units, not {count}",
        class.name()
    )]
    Spread {
        class: Class,
        least: usize,
        most: usize,
        units: usize,
        count: usize,
    },
}

fn plural(k: usize) -> &'static str {
    if k == 1 { "" } else { "s" }
}

/// Reads an army setting such as `wwhhaa` and checks the composition rule (docs/rules/tactics.md, rule 3).
pub fn parse_army(text: &str) -> Result<Vec<Class>, ArmyError> {
    let army = parse_letters(text)?;
    if army.len() < MIN_UNITS {
        return Err(ArmyError::TooFew { count: army.len() });
    }
    check_composition(&army)?;
    Ok(army)
}

/// Reads 1 to 16 class letters without the composition rule, for stored games and balance research
/// (`Game::from_stored_spec`).
pub fn parse_letters(text: &str) -> Result<Vec<Class>, ArmyError> {
    let count = text.chars().count();
    if !(1..=MAX_UNITS).contains(&count) {
        return Err(ArmyError::Letters { count });
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
        .ok_or(ArmyError::NotALetter)
}

/// The composition rule: every class is fielded, no class fills more than half of the army, healers no
/// more than a third and archers at least a third (all rounded down), and every class within one unit of
/// a third of the army. Without it some armies beat others by more than the 60% bound of the rulings
/// (`docs/rules/tactics.md`, rule 3). The error says what was expected.
pub fn check_composition(army: &[Class]) -> Result<(), ArmyError> {
    let n = army.len();
    for class in [Class::Warrior, Class::Archer, Class::Healer] {
        let count = units_of(army, class);
        if count == 0 {
            return Err(ArmyError::Missing { class });
        }
        let most = if class == Class::Healer { n / 3 } else { n / 2 };
        if count > most {
            return Err(ArmyError::TooMany {
                class,
                most,
                units: n,
                count,
            });
        }
        if class == Class::Archer && count < n / 3 {
            return Err(ArmyError::TooFewArchers {
                least: n / 3,
                units: n,
                count,
            });
        }
    }
    spread(army)
}

/// The last clause of the composition rule: every class fields from a third of the army less one to a
/// third plus one (`(n - 1) / 3` to `n / 3 + 1` units, both rounded down): 1 to 3 of six, 2 to 4 of nine,
/// 3 to 5 of twelve. It leaves the four armies of twelve that keep the bound and changes nothing for six.
fn spread(army: &[Class]) -> Result<(), ArmyError> {
    let n = army.len();
    let (least, most) = (n.saturating_sub(1) / 3, n / 3 + 1);
    for class in [Class::Warrior, Class::Archer, Class::Healer] {
        let count = units_of(army, class);
        if !(least..=most).contains(&count) {
            return Err(ArmyError::Spread {
                class,
                least,
                most,
                units: n,
                count,
            });
        }
    }
    Ok(())
}

/// How many units of `class` the army fields.
fn units_of(army: &[Class], class: Class) -> usize {
    army.iter().filter(|&&a| a == class).count()
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
pub fn deploy(size: u8, armies: &[Vec<Class>; 2]) -> ArrayVec<Unit, MAX_UNITS_ON_BOARD> {
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
