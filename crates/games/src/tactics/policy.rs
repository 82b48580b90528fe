//! A greedy reference player for Grid Tactics: it takes the activation with the best immediate result (damage,
//! kills, healing) and otherwise moves each class to its preferred distance from the enemy. It was the "equal
//! strength" player of the first balance and first-move measurements in `docs/lab/2026-11-26-tactics-balance-notebook.md` (`gridplay
//! selfplay tactics --policy greedy`), and is a reference opponent in matches; the real engine comes with the
//! engines crate.

use rand::{Rng, RngExt};

use super::{
    Action, Move, TacticsPosition, distance,
    units::{CLEAVE_DAMAGE, CLEAVE_RANGE, Class, HEAL_AMOUNT, SHOOT_DAMAGE},
};
use gridplay_core::Position;

/// The value of dealing `damage` to a unit with `health` left: the damage that lands, and a bonus for a kill.
fn hit(damage: i32, health: i32) -> f64 {
    let landed = damage.min(health);
    f64::from(landed) + if damage >= health { 10.0 } else { 0.0 }
}

/// The greedy score of one move.
fn score(pos: &TacticsPosition, m: Move) -> f64 {
    let Move::Activate { unit, to, action } = m else {
        return -1000.0;
    };
    let n = pos.size();
    let u = pos.units[usize::from(unit)];
    let health_at = |sq: u16| pos.unit_at(sq).map_or(0, |i| pos.units[i].health);
    let gain = match action {
        Action::Wait => 0.0,
        Action::Attack(t) => hit(u.class.stats().attack, health_at(t)),
        Action::Ability(None) => pos
            .units
            .iter()
            .filter(|e| e.owner != u.owner && distance(to, e.square, n) <= CLEAVE_RANGE)
            .map(|e| hit(CLEAVE_DAMAGE, e.health))
            .sum(),
        Action::Ability(Some(t)) => match u.class {
            Class::Healer => {
                let a = &pos.units[pos.unit_at(t).expect("a heal target exists")];
                f64::from(HEAL_AMOUNT.min(a.class.stats().health - a.health)) * 0.75
            }
            _ => hit(SHOOT_DAMAGE, health_at(t)),
        },
    };
    let nearest = pos
        .units
        .iter()
        .filter(|e| e.owner != u.owner)
        .map(|e| distance(to, e.square, n))
        .min()
        .unwrap_or(0);
    let preferred = match u.class {
        Class::Warrior => 1,
        Class::Archer => 3,
        Class::Healer => 2,
    };
    gain - 0.5 * f64::from(nearest.abs_diff(preferred))
}

/// The greedy choice, ties broken at random; `None` when the game is over.
pub fn greedy_move(pos: &TacticsPosition, rng: &mut dyn Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    let mut best: Option<(f64, Move)> = None;
    for m in moves {
        let s = score(pos, m) + rng.random_range(0.0..0.01);
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, m));
        }
    }
    best.map(|(_, m)| m)
}
