//! A Grid Tactics position: the units on the grid, where each can go and what it can do there, and what a
//! blow or the end of a turn changes. The rules that judge a move and the game's text forms are in the
//! module above.

use arrayvec::ArrayVec;
use gridplay_core::Player;

use super::{
    Action, MAX_UNITS_ON_BOARD, notation,
    units::{CLEAVE_RANGE, Class, SHOOT_RANGE, SHOOT_STILL, Unit},
};

/// A Grid Tactics position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TacticsPosition {
    pub(super) size: u8,
    pub(super) turn: Player,
    /// Turns played so far, both sides counted.
    pub(super) turns: u16,
    /// Turns in a row in which no damage was dealt.
    pub(super) quiet: u16,
    /// Whether damage was dealt in the current turn.
    pub(super) damaged: bool,
    pub(super) units: ArrayVec<Unit, MAX_UNITS_ON_BOARD>,
}

/// A square's column and row (row 0 at the top).
fn xy(sq: u16, n: usize) -> (i32, i32) {
    ((usize::from(sq) % n) as i32, (usize::from(sq) / n) as i32)
}

/// Chebyshev distance: diagonals count as one step.
pub(super) fn distance(a: u16, b: u16, n: usize) -> u32 {
    let ((ax, ay), (bx, by)) = (xy(a, n), xy(b, n));
    (ax - bx).unsigned_abs().max((ay - by).unsigned_abs())
}

/// Where a unit can go this activation: each reachable square with the path of steps to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// (square, path from the start excluded to the square included); the start itself has an empty path.
    pub squares: Vec<(u16, Vec<u16>)>,
}

impl TacticsPosition {
    #[must_use]
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    #[must_use]
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    #[must_use]
    pub fn turns(&self) -> u16 {
        self.turns
    }

    #[must_use]
    pub fn quiet_turns(&self) -> u16 {
        self.quiet
    }

    #[must_use]
    pub fn unit_at(&self, sq: u16) -> Option<usize> {
        self.units.iter().position(|u| u.square == sq)
    }

    fn occupied(&self) -> Vec<bool> {
        let mut occ = vec![false; self.size() * self.size()];
        for u in &self.units {
            occ[usize::from(u.square)] = true;
        }
        occ
    }

    /// Breadth-first search from the unit's square through empty squares, one orthogonal step at a time, up
    /// to its move distance. Each square keeps the first (shortest) path found.
    #[must_use]
    pub fn reach(&self, unit: usize) -> Reach {
        let n = self.size();
        let u = self.units[unit];
        let occ = self.occupied();
        let mut paths: Vec<(u16, Vec<u16>)> = vec![(u.square, Vec::new())];
        let mut frontier = 0;
        for _ in 0..u.class.stats().moves {
            let end = paths.len();
            for i in frontier..end {
                let (sq, ref path) = paths[i];
                let path = path.clone();
                let (x, y) = xy(sq, n);
                for (dx, dy) in [(0, -1), (-1, 0), (1, 0), (0, 1)] {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= n as i32 || ny >= n as i32 {
                        continue;
                    }
                    let next = (ny as usize * n + nx as usize) as u16;
                    if occ[usize::from(next)] || paths.iter().any(|(s, _)| *s == next) {
                        continue;
                    }
                    let mut p = path.clone();
                    p.push(next);
                    paths.push((next, p));
                }
            }
            frontier = end;
        }
        Reach { squares: paths }
    }

    /// The actions available to `unit` standing on `at` (after moving there).
    pub(super) fn actions_from(&self, unit: usize, at: u16, out: &mut Vec<Action>) {
        let n = self.size();
        let u = self.units[unit];
        out.push(Action::Wait);
        let enemies = || self.units.iter().filter(move |e| e.owner != u.owner);
        for e in enemies() {
            if distance(at, e.square, n) == 1 {
                out.push(Action::Attack(e.square));
            }
        }
        match u.class {
            Class::Warrior => {
                if enemies().any(|e| distance(at, e.square, n) <= CLEAVE_RANGE) {
                    out.push(Action::Ability(None));
                }
            }
            Class::Archer if !SHOOT_STILL || at == u.square => {
                for e in enemies() {
                    if (2..=SHOOT_RANGE).contains(&distance(at, e.square, n)) {
                        out.push(Action::Ability(Some(e.square)));
                    }
                }
            }
            Class::Healer => {
                for (i, a) in self.units.iter().enumerate() {
                    if i != unit
                        && a.owner == u.owner
                        && a.health < a.class.stats().health
                        && distance(at, a.square, n) == 1
                    {
                        out.push(Action::Ability(Some(a.square)));
                    }
                }
            }
            Class::Archer => {}
        }
    }

    pub(super) fn end_turn(&mut self) {
        for u in &mut self.units {
            u.used = false;
        }
        self.turns += 1;
        self.quiet = if self.damaged { 0 } else { self.quiet + 1 };
        self.damaged = false;
        self.turn = !self.turn;
    }

    /// Deals damage to the unit on `sq`, removing it if its health falls to 0 or less.
    pub(super) fn hurt(&mut self, sq: u16, damage: i32) {
        if let Some(i) = self.unit_at(sq) {
            self.damaged = true;
            self.units[i].health -= damage;
            if self.units[i].health <= 0 {
                self.units.remove(i);
            }
        }
    }

    pub(super) fn health(&self, p: Player) -> i32 {
        self.units.iter().filter(|u| u.owner == p).map(|u| u.health).sum()
    }

    pub(super) fn alive(&self, p: Player) -> bool {
        self.units.iter().any(|u| u.owner == p)
    }

    pub(super) fn name(&self, sq: u16) -> String {
        notation::square_name(sq, self.size())
    }

    pub(super) fn action_kind(&self, unit: usize, action: Action) -> &'static str {
        match action {
            Action::Wait => "move",
            Action::Attack(_) => "attack",
            Action::Ability(_) => self.units[unit].class.ability(),
        }
    }
}
