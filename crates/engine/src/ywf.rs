//! A first YWF evaluation: own pieces against the opponent's, and the token, which breaks ties.

use gridplay_core::Position;
use gridplay_games::ywf::YwfPosition;
use gridplay_search::Evaluator;

/// The evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

impl Evaluator<YwfPosition> for Eval {
    fn evaluate(&self, pos: &YwfPosition) -> i32 {
        let me = pos.turn();
        let token = match pos.token() {
            Some(side) if side == me => 40,
            Some(_) => -40,
            None => 0,
        };
        pos.score().margin(me) * 100 + token
    }
}
