//! A first Grid Tactics evaluation: health and units on each side. Attacks and abilities are searched
//! first, ending the turn last.

use gridplay_core::{Player, Position};
use gridplay_games::tactics::{Action, Move, TacticsPosition};
use gridplay_search::Evaluator;

/// The evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

fn side(pos: &TacticsPosition, p: Player) -> i32 {
    pos.units()
        .iter()
        .filter(|u| u.owner == p)
        .map(|u| u.health * 100 + 400)
        .sum()
}

impl Evaluator<TacticsPosition> for Eval {
    fn evaluate(&self, pos: &TacticsPosition) -> i32 {
        side(pos, pos.turn()) - side(pos, !pos.turn())
    }

    fn order_hint(&self, _pos: &TacticsPosition, m: Move) -> i32 {
        match m {
            Move::Activate {
                action: Action::Attack(_) | Action::Ability(_),
                ..
            } => 100,
            Move::Activate {
                action: Action::Wait, ..
            } => 0,
            Move::EndTurn => -100,
        }
    }
}
