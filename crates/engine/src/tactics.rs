//! The Grid Tactics evaluation, in hundredths of a health point.
//!
//! Material alone (health and units) makes a shallow search wait forever: in a mirrored position the side
//! that first steps into the enemy's reach is struck first, and the 30-quiet-turn rule then decides on total
//! health. This evaluation adds what a player sees at a glance, so that a search of one or two activations
//! fights:
//! - **strikes now**: the best blow each unused unit of the side to move can land this turn;
//! - **strikes next**: the best blow each enemy unit can land on its next turn, counted at a discount because
//!   the side to move may still kill or dodge first;
//! - **approach**: the units of the side the search plays for (the attacker) are drawn towards their
//!   preferred distance from the nearest enemy (warriors 1, healers 2, archers Shoot's range), the harder
//!   the more turns have passed without damage.
//!
//! The approach term is not zero-sum, on purpose. Distance between two armies is shared: any measure of it
//! that both sides pay for cancels out, and a zero-sum search then waits, because in a mirrored position the
//! side that first steps into reach is struck first and the 30-quiet-turn rule ends an equal game drawn.
//! So only the attacker pays for its distance, whoever is to move, and the search models the opponent as
//! trying to keep it away. Each side's engine attacks for itself.
//!
//! Reach is estimated without blocking: a unit with move distance `m` can strike a unit whose row and column
//! distances exceed the strike range by `m` steps in all. The weights were chosen by self-play with
//! `examples/tactics_tune.rs`; see `docs/engines.md` ("Grid Tactics").

use arrayvec::ArrayVec;
use gridplay_core::{Player, Position};
use gridplay_games::tactics::{
    MAX_UNITS_ON_BOARD, Move, TacticsPosition,
    units::{CLEAVE_DAMAGE, CLEAVE_RANGE, Class, HEAL_AMOUNT, SHOOT_DAMAGE, SHOOT_RANGE, SHOOT_STILL, Unit},
};
use gridplay_search::Evaluator;

/// The evaluation's weights.
#[derive(Clone, Copy, Debug)]
pub struct Eval {
    /// Share (percent) of the side to move's best blows that counts.
    pub now: i32,
    /// Share (percent) of the enemy's next-turn blows that counts against the side to move.
    pub next: i32,
    /// Hundredths per square one of the attacker's units stands beyond its preferred distance from the
    /// nearest enemy, at the start of a quiet spell; each turn without damage adds a tenth.
    pub approach: i32,
    /// The side that plays to close in, usually the side the search is run for. Distance between the armies
    /// is worth nothing to either side in a zero-sum sense (closing in helps both equally), so a search
    /// whose evaluation is zero-sum waits for the 30-quiet-turn rule. The attacker is charged for its own
    /// distance only; the opponent, as the search models it, tries to keep it away.
    pub attacker: Option<Player>,
    /// How many activations a search node two or more plies from its horizon tries, best first by the
    /// evaluation of the position each one reaches ([`Evaluator::width`]); `None` tries them all.
    pub width: Option<usize>,
}

impl Default for Eval {
    fn default() -> Eval {
        Eval {
            now: 80,
            next: 20,
            approach: 24,
            attacker: None,
            width: Some(WIDTH),
        }
    }
}

/// The search width: see [`Eval::width`] and docs/engines.md ("Grid Tactics").
pub const WIDTH: usize = 8;

/// A unit's worth: its health, plus a bonus for being alive (a live unit acts every turn): 32 hundredths of a
/// fresh warrior's health (8 health points), about a third of a warrior. It follows the warrior's health so
/// that figures scaled by a common factor (`scripts/tactics-balance.py`) leave the evaluation's balance alone.
const UNIT_VALUE: i32 = Class::Warrior.stats().health * 32;

fn worth(u: &Unit) -> i32 {
    u.health * 100 + UNIT_VALUE
}

/// The value of dealing `damage` to `target`: the health removed and, for a kill, the unit itself.
fn blow(damage: i32, target: &Unit) -> i32 {
    if damage >= target.health {
        worth(target)
    } else {
        damage * 100
    }
}

fn coords(sq: u16, n: usize) -> (i32, i32) {
    ((usize::from(sq) % n) as i32, (usize::from(sq) / n) as i32)
}

/// Orthogonal steps `a` needs to come within Chebyshev distance `range` of `b` (ignoring blockers).
fn steps_to_range(a: (i32, i32), b: (i32, i32), range: i32) -> i32 {
    ((a.0 - b.0).abs() - range).max(0) + ((a.1 - b.1).abs() - range).max(0)
}

/// The best blow `a` (standing at `from`) can land on `e` after moving, or 0.
fn threat(a: &Unit, from: (i32, i32), e: &Unit, at: (i32, i32)) -> i32 {
    let stats = a.class.stats();
    let moves = stats.moves as i32;
    let mut best = 0;
    if steps_to_range(from, at, 1) <= moves {
        best = blow(stats.attack, e);
    }
    // Shoot reaches distance 2 to its range. An archer that must stand still to shoot reaches only what is in
    // range now, so an enemy next to it is out of its Shoot.
    let shoots = if SHOOT_STILL {
        (2..=SHOOT_RANGE as i32).contains(&(from.0 - at.0).abs().max((from.1 - at.1).abs()))
    } else {
        steps_to_range(from, at, SHOOT_RANGE as i32) <= moves
    };
    if a.class == Class::Archer && shoots {
        best = best.max(blow(SHOOT_DAMAGE, e));
    }
    if a.class == Class::Warrior && steps_to_range(from, at, CLEAVE_RANGE as i32) <= moves {
        best = best.max(blow(CLEAVE_DAMAGE, e));
    }
    best
}

fn preferred(class: Class) -> i32 {
    match class {
        Class::Warrior => 1,
        Class::Healer => 2,
        Class::Archer => SHOOT_RANGE as i32,
    }
}

/// What a unit sees of the others: the best value it has on one of them (a blow on an enemy, or a heal for a
/// hurt ally it reaches) and its Chebyshev distance to the nearest enemy (`i32::MAX` if there is none).
#[derive(Clone, Copy)]
struct Sight {
    best: i32,
    nearest: i32,
}

/// The value `a` (standing at `from`) has on `e` (at `at`): the best blow on an enemy, or half the health a
/// healer can mend on an ally it reaches.
fn value(a: &Unit, from: (i32, i32), e: &Unit, at: (i32, i32)) -> i32 {
    if e.owner != a.owner {
        threat(a, from, e, at)
    } else if a.class == Class::Healer && steps_to_range(from, at, 1) <= a.class.stats().moves as i32 {
        let missing = e.class.stats().health - e.health;
        missing.min(HEAL_AMOUNT) * 100 / 2
    } else {
        0
    }
}

fn chebyshev(a: (i32, i32), b: (i32, i32)) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// Every other unit as `units[i]` sees it: its id, `value` on it and, for an enemy, the Chebyshev distance.
fn others(units: &[Unit], i: usize, n: usize) -> impl Iterator<Item = (u8, i32, Option<i32>)> + '_ {
    let a = &units[i];
    let from = coords(a.square, n);
    units
        .iter()
        .enumerate()
        .filter(move |&(j, _)| j != i)
        .map(move |(_, e)| {
            let at = coords(e.square, n);
            (
                e.id,
                value(a, from, e, at),
                (e.owner != a.owner).then(|| chebyshev(from, at)),
            )
        })
}

/// What `units[i]` sees of the others.
fn sight(units: &[Unit], i: usize, n: usize) -> Sight {
    let mut seen = Sight {
        best: 0,
        nearest: i32::MAX,
    };
    for (_, value, distance) in others(units, i, n) {
        seen.best = seen.best.max(value);
        if let Some(d) = distance {
            seen.nearest = seen.nearest.min(d);
        }
    }
    seen
}

impl Eval {
    /// The evaluation of a search for `side`: it plays to close in (see [`Eval::attacker`]).
    #[must_use]
    pub fn attacking(side: Player) -> Eval {
        Eval {
            attacker: Some(side),
            ..Eval::default()
        }
    }

    /// The score for the side to move.
    #[must_use]
    pub fn score(&self, pos: &TacticsPosition) -> i32 {
        let n = pos.size();
        self.total(pos, |i| sight(pos.units(), i, n))
    }

    /// The score for the side to move, given what each unit (by its index) sees.
    fn total(&self, pos: &TacticsPosition, mut sight: impl FnMut(usize) -> Sight) -> i32 {
        let me = pos.turn();
        let mut total = 0;
        let (mut now, mut next) = (0, 0);
        let mut distance = 0;
        for (i, a) in pos.units().iter().enumerate() {
            let sign = if a.owner == me { 1 } else { -1 };
            total += sign * worth(a);
            let Sight { best, nearest } = sight(i);
            if a.owner == me {
                if !a.used {
                    now += best;
                }
            } else {
                next += best;
            }
            if Some(a.owner) == self.attacker && nearest != i32::MAX {
                distance += (nearest - preferred(a.class)).max(0);
            }
        }
        // The attacker's own score falls with its distance, whoever is to move, and more so the longer nothing
        // has happened: a standoff at the edge of reach breaks before the quiet rule ends the game.
        let pull = self.approach * (10 + i32::from(pos.quiet_turns())) / 10;
        let approach = if Some(me) == self.attacker { -1 } else { 1 } * pull * distance;
        total + now * self.now / 100 - next * self.next / 100 + approach
    }
}

/// Unit ids (0-255), as a set.
#[derive(Clone, Copy, Default)]
struct Ids([u64; 4]);

impl Ids {
    fn insert(&mut self, id: u8) {
        self.0[usize::from(id / 64)] |= 1 << (id % 64);
    }

    fn contains(&self, id: u8) -> bool {
        self.0[usize::from(id / 64)] & (1 << (id % 64)) != 0
    }
}

/// The three largest of a list of values, each with the id of the unit it belongs to.
#[derive(Clone, Copy, Default)]
struct Top {
    items: [(i32, u8); 3],
    len: u8,
    /// Whether a value was left out.
    more: bool,
}

impl Top {
    fn push(&mut self, value: i32, id: u8) {
        let len = usize::from(self.len);
        let mut at = len;
        while at > 0 && self.items[at - 1].0 < value {
            at -= 1;
        }
        if at == 3 {
            self.more = true;
            return;
        }
        if len == 3 {
            self.more = true;
        } else {
            self.len += 1;
        }
        let last = usize::from(self.len) - 1;
        self.items.copy_within(at..last, at + 1);
        self.items[at] = (value, id);
    }

    /// The largest value of a unit not in `left_out`: `Some(None)` if there is none, `None` if it was not kept.
    fn largest_without(&self, left_out: &Ids) -> Option<Option<i32>> {
        match self.items[..usize::from(self.len)]
            .iter()
            .find(|(_, id)| !left_out.contains(*id))
        {
            Some(&(value, _)) => Some(Some(value)),
            None if self.more => None,
            None => Some(None),
        }
    }
}

/// What a unit sees of the others, with the units behind its three best values and its three nearest enemies.
#[derive(Clone, Copy, Default)]
struct Row {
    /// Values above 0.
    best: Top,
    /// Distances to enemies, negated (so that the nearest is the largest).
    nearest: Top,
}

/// A position's evaluation kept so that each position one activation later is scored from the units the
/// activation changed: the moved unit, those it hurt, healed or killed. A unit that did not change keeps its
/// best value on the units that did not change either (the largest of its three kept that is not among the
/// changed), and meets the changed units anew. Scoring a child this way costs a pass over the units per
/// changed unit, instead of one over every pair. Its scores equal [`Eval::score`]'s (tested below).
struct Incremental<'a> {
    eval: &'a Eval,
    pos: &'a TacticsPosition,
    rows: Vec<Row>,
}

impl<'a> Incremental<'a> {
    fn new(eval: &'a Eval, pos: &'a TacticsPosition) -> Incremental<'a> {
        let n = pos.size();
        let units = pos.units();
        let rows = (0..units.len())
            .map(|i| {
                let mut row = Row::default();
                for (id, value, distance) in others(units, i, n) {
                    if value > 0 {
                        row.best.push(value, id);
                    }
                    if let Some(d) = distance {
                        row.nearest.push(-d, id);
                    }
                }
                row
            })
            .collect();
        Incremental { eval, pos, rows }
    }

    /// [`Eval::score`] of `next`, a position one activation (or an end of turn) after this one.
    fn score(&self, next: &TacticsPosition) -> i32 {
        let n = next.size();
        let (before, after) = (self.pos.units(), next.units());
        // The units of `next` are this position's, in the same order, less the dead.
        let mut parent: ArrayVec<usize, MAX_UNITS_ON_BOARD> = ArrayVec::new();
        let mut changed = Ids::default();
        let mut j = 0;
        for (i, u) in before.iter().enumerate() {
            match after.get(j) {
                Some(v) if v.id == u.id => {
                    if (v.square, v.health) != (u.square, u.health) {
                        changed.insert(u.id);
                    }
                    parent.push(i);
                    j += 1;
                }
                _ => changed.insert(u.id),
            }
        }
        if j != after.len() || next.size() != self.pos.size() {
            return self.eval.score(next);
        }
        let moved: ArrayVec<usize, MAX_UNITS_ON_BOARD> = (0..after.len())
            .filter(|&k| changed.contains(after[k].id))
            .collect();
        self.eval.total(next, |k| {
            let a = &after[k];
            let row = &self.rows[parent[k]];
            let (false, Some(best), Some(nearest)) = (
                changed.contains(a.id),
                row.best.largest_without(&changed),
                row.nearest.largest_without(&changed),
            ) else {
                return sight(after, k, n);
            };
            let from = coords(a.square, n);
            let mut seen = Sight {
                best: best.unwrap_or(0),
                nearest: nearest.map_or(i32::MAX, |d| -d),
            };
            for &c in &moved {
                let e = &after[c];
                let at = coords(e.square, n);
                seen.best = seen.best.max(value(a, from, e, at));
                if e.owner != a.owner {
                    seen.nearest = seen.nearest.min(chebyshev(from, at));
                }
            }
            seen
        })
    }
}

impl Evaluator<TacticsPosition> for Eval {
    fn evaluate(&self, pos: &TacticsPosition) -> i32 {
        self.score(pos)
    }

    /// The evaluation of the position the move reaches, for the side that makes it.
    fn order_hint(&self, pos: &TacticsPosition, m: Move) -> i32 {
        let mut next = pos.clone();
        next.play_unchecked(m);
        let score = self.score(&next);
        if next.turn() == pos.turn() { score } else { -score }
    }

    /// [`Eval::order_hint`] of every move, each child scored from what its move changed.
    fn order_hints(&self, pos: &TacticsPosition, moves: &[Move]) -> Vec<i32> {
        let base = Incremental::new(self, pos);
        moves
            .iter()
            .map(|&m| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                let score = base.score(&next);
                if next.turn() == pos.turn() { score } else { -score }
            })
            .collect()
    }

    fn hints_are_evaluations(&self) -> bool {
        true
    }

    fn width(&self, _pos: &TacticsPosition) -> Option<usize> {
        self.width
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> TacticsPosition {
        gridplay_core::Game::parse_position(&gridplay_games::tactics::Tactics::default(), text).unwrap()
    }

    #[test]
    fn equal_mirrored_armies_score_zero_for_either_side() {
        let start: TacticsPosition = gridplay_core::Game::start(&gridplay_games::tactics::Tactics::default());
        // The side to move has its unused units' blows; none are in reach at the start.
        assert_eq!(Eval::default().score(&start), 0);
    }

    #[test]
    fn a_blow_in_reach_counts_for_the_side_to_move() {
        // A first-player warrior three steps from an enemy archer: it can reach and strike now.
        let near = pos("16 1 0 0 - 0.Wc2:10,1.ac6:7");
        let far = pos("16 1 0 0 - 0.Wc2:10,1.ac12:7");
        let e = Eval::default();
        assert!(
            e.score(&near) > e.score(&far) + 100,
            "{} vs {}",
            e.score(&near),
            e.score(&far)
        );
    }

    #[test]
    fn an_archer_shoots_only_at_distance_two_or_more() {
        // The first player's archer stands next to an enemy warrior, then three squares from it: Shoot (rule 7)
        // reaches only the second, so next to it the archer's best blow is its attack.
        let next_to = pos("16 1 0 0 - 0.Ac2:15,1.wc3:20");
        let three_away = pos("16 1 0 0 - 0.Ac2:15,1.wc5:20");
        let e = Eval::default();
        assert_eq!(
            e.score(&three_away) - e.score(&next_to),
            (SHOOT_DAMAGE - Class::Archer.stats().attack) * e.now,
        );
    }

    #[test]
    fn exposure_to_the_enemy_next_turn_costs() {
        // The first player's warrior has acted and stands where the enemy warrior reaches it.
        let exposed = pos("16 1 0 0 - 0.Wc2:10!,1.wc6:10,2.Wp2:10");
        let safe = pos("16 1 0 0 - 0.Wc2:10!,1.wc12:10,2.Wp2:10");
        let e = Eval {
            approach: 0,
            ..Eval::default()
        };
        assert!(e.score(&exposed) < e.score(&safe));
    }

    #[test]
    fn the_attacker_pays_for_its_own_distance_whoever_is_to_move() {
        let far = "0.Wc2:10,1.wc14:10";
        let near = "0.Wc8:10,1.wc14:10";
        for turn in ["1", "2"] {
            let at = |units: &str| pos(&format!("16 {turn} 0 0 - {units}"));
            let first = Eval::attacking(Player::First);
            let sign = if turn == "1" { 1 } else { -1 };
            // From the first player's point of view, its warrior closing in is worth the approach weight per square.
            assert_eq!(
                sign * (first.score(&at(near)) - first.score(&at(far))),
                6 * first.approach,
                "turn {turn}"
            );
            // A zero-sum evaluation is indifferent to the distance of units out of reach.
            let neutral = Eval::default();
            assert_eq!(neutral.score(&at(near)), neutral.score(&at(far)), "turn {turn}");
        }
    }

    #[test]
    fn keeping_the_three_largest() {
        let mut top = Top::default();
        for (value, id) in [(5, 1), (9, 2), (1, 3), (7, 4)] {
            top.push(value, id);
        }
        assert_eq!(top.items, [(9, 2), (7, 4), (5, 1)]);
        assert!(top.more);
        let mut out = Ids::default();
        assert_eq!(top.largest_without(&out), Some(Some(9)));
        out.insert(2);
        out.insert(4);
        assert_eq!(top.largest_without(&out), Some(Some(5)));
        // The value of unit 3 was not kept, so the largest without 1, 2 and 4 is unknown.
        out.insert(1);
        assert_eq!(top.largest_without(&out), None);
        let mut short = Top::default();
        short.push(4, 7);
        assert_eq!(short.largest_without(&out), Some(Some(4)));
        out.insert(7);
        assert_eq!(short.largest_without(&out), Some(None));
    }

    #[test]
    fn a_cleave_that_kills_a_units_three_best_targets_is_scored_from_scratch() {
        // The archer on h4 can kill each of the three weak enemies around the warrior on h8; its fourth best
        // blow, on k4, was not kept. The warrior's cleave kills all three.
        let p = pos("16 1 0 0 - 0.Wh8:25,1.Ah4:15,2.wg8:2,3.wi8:2,4.wh9:2,5.wk4:25");
        let cleave = Move::Activate {
            unit: 0,
            to: p.units()[0].square,
            action: gridplay_games::tactics::Action::Ability(None),
        };
        assert!(p.is_legal(cleave));
        let mut next = p.clone();
        next.play_unchecked(cleave);
        assert_eq!(next.units().len(), 3, "the cleave kills three");
        for eval in [Eval::default(), Eval::attacking(Player::First)] {
            assert_eq!(eval.order_hints(&p, &[cleave]), [eval.order_hint(&p, cleave)]);
        }
    }

    #[test]
    fn scores_from_what_a_move_changed_equal_scores_from_scratch() {
        use gridplay_games::tactics::{Action, Tactics, units::Class::*};
        use rand::RngExt;
        // Playouts that fight: each side plays the move its own evaluation prefers every other ply, and a random
        // one in between. Every move of every third position is scored both ways, for a neutral and an attacking
        // evaluation.
        let games = [
            Tactics::default(),
            Tactics {
                size: 16,
                armies: [
                    vec![Warrior, Warrior, Healer, Healer, Archer],
                    vec![Archer, Archer, Archer, Healer],
                ],
            },
            Tactics {
                size: 20,
                armies: [
                    vec![Healer, Healer, Healer, Warrior],
                    vec![Warrior, Warrior, Archer],
                ],
            },
        ];
        let mut rng = gridplay_core::playout::seeded(11);
        let (mut checked, mut deaths, mut heals, mut cleaves) = (0, 0, 0, 0);
        for tactics in &games {
            let mut p: TacticsPosition = gridplay_core::Game::start(tactics);
            for ply in 0..600 {
                if p.outcome().is_some() {
                    break;
                }
                let moves = p.legal_moves();
                if ply % 3 == 0 {
                    for eval in [Eval::default(), Eval::attacking(Player::First)] {
                        let hints = eval.order_hints(&p, &moves);
                        for (&m, &hint) in moves.iter().zip(&hints) {
                            assert_eq!(hint, eval.order_hint(&p, m), "{} {m:?}", p.to_text());
                            let mut next = p.clone();
                            next.play_unchecked(m);
                            checked += 1;
                            deaths += usize::from(next.units().len() < p.units().len());
                            if let Move::Activate { unit, action, .. } = m {
                                let class = p.units()[usize::from(unit)].class;
                                heals += usize::from(
                                    class == Healer && matches!(action, Action::Ability(Some(_))),
                                );
                                cleaves += usize::from(class == Warrior && action == Action::Ability(None));
                            }
                        }
                    }
                }
                let m = if ply % 2 == 0 {
                    let eval = Eval::attacking(p.turn());
                    let hints = eval.order_hints(&p, &moves);
                    moves[(0..moves.len()).max_by_key(|&i| hints[i]).unwrap()]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                p.play_unchecked(m);
            }
        }
        // The positions checked held fights: kills, heals and cleaves, not only armies out of each other's reach.
        assert!(
            checked > 10_000 && deaths > 20 && heals > 50 && cleaves > 100,
            "{checked} {deaths} {heals} {cleaves}"
        );
    }

    #[test]
    fn engines_that_attack_for_themselves_fight() {
        // From the default start, two depth-1 searches each charging its own distance come to blows well before
        // the 30-quiet-turn rule; zero-sum ones (attacker None) do not.
        let tactics = gridplay_games::tactics::Tactics::default();
        let mut p: TacticsPosition = gridplay_core::Game::start(&tactics);
        let health = |p: &TacticsPosition| p.units().iter().map(|u| u.health).sum::<i32>();
        let start = health(&p);
        let mut tt = gridplay_search::TranspositionTable::new(4);
        while p.outcome().is_none() && health(&p) == start && p.turns() < 30 {
            let eval = Eval::attacking(p.turn());
            let limits = gridplay_search::Limits::depth(1);
            let m = gridplay_search::Search::new(&eval, &mut tt, limits, gridplay_search::StopFlag::new())
                .run(&p)
                .best
                .unwrap();
            p.play_unchecked(m);
            // The two sides' evaluations differ, so no table entry may pass from one to the other.
            tt.clear();
        }
        assert!(
            health(&p) < start && p.turns() < 15,
            "no blow by turn {}: {}",
            p.turns(),
            p.to_text()
        );
    }
}
