//! A first checkers evaluation: material (men 100, kings 160), the back rank kept, men's advance and the
//! centre. Captures are searched first.

use gridplay_core::{Player, Position};
use gridplay_games::checkers::{CheckersPosition, bitboard::Board, movegen::Move};
use gridplay_search::Evaluator;

/// The evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

const CENTRE: u32 = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);

fn side(b: &Board, p: Player) -> i32 {
    let own = b.pieces[p.index()];
    let men = own & !b.kings;
    let kings = own & b.kings;
    let (back, advance) = match p {
        Player::First => (
            men & 0x0000_000F,
            (0..32)
                .filter(|&i| men & (1 << i) != 0)
                .map(|i| i / 4)
                .sum::<i32>(),
        ),
        Player::Second => (
            men & 0xF000_0000,
            (0..32)
                .filter(|&i| men & (1 << i) != 0)
                .map(|i| 7 - i / 4)
                .sum::<i32>(),
        ),
    };
    men.count_ones() as i32 * 100
        + kings.count_ones() as i32 * 160
        + back.count_ones() as i32 * 15
        + advance * 4
        + (own & CENTRE).count_ones() as i32 * 10
}

impl Evaluator<CheckersPosition> for Eval {
    fn evaluate(&self, pos: &CheckersPosition) -> i32 {
        let b = pos.board();
        side(b, pos.turn()) - side(b, !pos.turn())
    }

    fn order_hint(&self, _pos: &CheckersPosition, m: Move) -> i32 {
        m.captured().count_ones() as i32 * 1000
    }
}
