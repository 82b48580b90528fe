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

use gridplay_core::{Player, Position};
use gridplay_games::tactics::{
    Move, TacticsPosition,
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
        let me = pos.turn();
        let n = pos.size();
        let units = pos.units();
        let mut total = 0;
        let (mut now, mut next) = (0, 0);
        let mut distance = 0;
        for a in units {
            let sign = if a.owner == me { 1 } else { -1 };
            total += sign * worth(a);
            let from = coords(a.square, n);
            let mut best = 0;
            let mut nearest = i32::MAX;
            for e in units {
                let at = coords(e.square, n);
                if e.owner == a.owner {
                    // A healer can mend a hurt ally it reaches.
                    if a.class == Class::Healer
                        && !std::ptr::eq(a, e)
                        && steps_to_range(from, at, 1) <= a.class.stats().moves as i32
                    {
                        let missing = e.class.stats().health - e.health;
                        best = best.max(missing.min(HEAL_AMOUNT) * 100 / 2);
                    }
                    continue;
                }
                nearest = nearest.min((from.0 - at.0).abs().max((from.1 - at.1).abs()));
                best = best.max(threat(a, from, e, at));
            }
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
