//! A first Cornered Reversi evaluation: the crosses held, with placed pieces (which never change) counted
//! extra.

use gridplay_core::Position;
use gridplay_games::cornered::{CorneredPosition, board::Cross};
use gridplay_search::Evaluator;

/// The evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

impl Evaluator<CorneredPosition> for Eval {
    fn evaluate(&self, pos: &CorneredPosition) -> i32 {
        let me = pos.turn();
        let placed: i32 = pos
            .board()
            .cells()
            .iter()
            .map(|c| match *c {
                Cross::Placed(p) if p == me => 1,
                Cross::Placed(_) => -1,
                _ => 0,
            })
            .sum();
        pos.score().margin(me) * 100 + placed * 40
    }
}
