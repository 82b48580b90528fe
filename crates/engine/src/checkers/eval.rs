//! What every evaluation the checkers search reads is ([`Evaluate`]; the side to move's view of the board,
//! [`seen_by`]), and the hand-written one ([`Hand`]): it plays the first round of the training games
//! ([`super::train`]) and is what the learned evaluations are measured against.
//!
//! Terms, each for Red minus White and then seen from the side to move, in hundredths of a man:
//! - material: men and kings, and a bonus for trading down when ahead (the same lead is worth more with
//!   fewer pieces left);
//! - the back rank: men kept on the bridge squares (Red's 1 and 3, White's 30 and 32) while the other side
//!   still has men to crown;
//! - advance: rows a man has moved, weighted more as the board empties, and men one or two rows from the
//!   crown with a free square ahead;
//! - the centre for men and kings, and mobility (simple moves);
//! - kings-only endings with equal kings are drawn in practice: their score is pulled towards 0.

use gridplay_core::Player;
use gridplay_games::checkers::bitboard::{Bb, Board, DIRECTIONS, forward};

/// The four centre squares (14, 15, 18, 19).
const CENTRE: Bb = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
/// The inner board: every square not on an edge.
pub(super) const INNER: Bb = 0x07E7_E7E0;
/// Red's bridge (squares 1 and 3) and White's (30 and 32).
const BRIDGE: [Bb; 2] = [(1 << 0) | (1 << 2), (1 << 29) | (1 << 31)];

/// The weights of [`evaluate`], in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub man: i32,
    pub king: i32,
    pub bridge: i32,
    pub advance: i32,
    pub near_crown: i32,
    pub centre_man: i32,
    pub centre_king: i32,
    pub mobility: i32,
}

pub const WEIGHTS: Weights = Weights {
    man: 100,
    king: 135,
    bridge: 14,
    advance: 2,
    near_crown: 12,
    centre_man: 6,
    centre_king: 10,
    mobility: 4,
};

/// Rows a man of `p` has advanced, summed, and the men of `p` within two rows of crowning.
#[inline]
fn advance(men: Bb, p: Player) -> (i32, Bb) {
    let mut sum = 0;
    let mut rest = men;
    while rest != 0 {
        let row = (rest.trailing_zeros() / 4) as i32;
        rest &= rest - 1;
        sum += if p == Player::First { row } else { 7 - row };
    }
    let near = match p {
        Player::First => men & 0x0FF0_0000,
        Player::Second => men & 0x0000_0FF0,
    };
    (sum, near)
}

fn side(b: &Board, p: Player, w: &Weights, stage: i32) -> i32 {
    let own = b.pieces[p.index()];
    let men = own & !b.kings;
    let kings = own & b.kings;
    let opp_men = b.pieces[(!p).index()] & !b.kings;
    let empty = b.empty();
    let mut s = men.count_ones() as i32 * w.man + kings.count_ones() as i32 * w.king;
    if opp_men != 0 {
        s += (men & BRIDGE[p.index()]).count_ones() as i32 * w.bridge;
    }
    let (adv, near) = advance(men, p);
    // stage runs from 0 (24 pieces) to 20 (4 pieces).
    s += adv * w.advance * (4 + stage) / 8;
    // A man near the crown with a free square ahead.
    let [f0, f1] = forward(p);
    let free_ahead = near & ((f0.reverse().step(empty)) | (f1.reverse().step(empty)));
    s += free_ahead.count_ones() as i32 * w.near_crown;
    s += (men & CENTRE).count_ones() as i32 * w.centre_man;
    s += (kings & INNER).count_ones() as i32 * w.centre_king;
    let mobility: u32 = DIRECTIONS
        .iter()
        .map(|&d| (d.step(b.movers(p, d)) & empty).count_ones())
        .sum();
    s + mobility as i32 * w.mobility
}

/// The evaluation of `b` for `turn`, the side to move.
#[must_use]
pub fn evaluate(b: &Board, turn: Player) -> i32 {
    evaluate_with(b, turn, &WEIGHTS)
}

/// [`evaluate`] with other weights.
#[must_use]
pub fn evaluate_with(b: &Board, turn: Player, w: &Weights) -> i32 {
    let total = b.occupied().count_ones() as i32;
    let stage = (24 - total).clamp(0, 20);
    let red = side(b, Player::First, w, stage);
    let white = side(b, Player::Second, w, stage);
    let mut score = red - white;
    // Trading down when ahead: the lead grows as pieces come off.
    let material = |p: Player| {
        let own = b.pieces[p.index()];
        (own & !b.kings).count_ones() as i32 * w.man + (own & b.kings).count_ones() as i32 * w.king
    };
    let lead = material(Player::First) - material(Player::Second);
    score += lead * stage / 40;
    // Kings only, kings equal: a draw in practice.
    if b.kings == b.occupied() && b.pieces[0].count_ones() == b.pieces[1].count_ones() {
        score /= 8;
    }
    if turn == Player::First { score } else { -score }
}

/// The board turned half a circle with the colours swapped: White's view of the board as Red's.
#[must_use]
pub fn turned(b: &Board) -> Board {
    Board {
        pieces: [b.pieces[1].reverse_bits(), b.pieces[0].reverse_bits()],
        kings: b.kings.reverse_bits(),
    }
}

/// The pieces of the side to move, the other side's, and the kings, seen by the side to move (White's view
/// is the board [`turned`]), so that one set of learned weights serves both sides.
#[inline]
#[must_use]
pub fn seen_by(b: &Board, turn: Player) -> (Bb, Bb, Bb) {
    let view = match turn {
        Player::First => *b,
        Player::Second => turned(b),
    };
    (view.pieces[0], view.pieces[1], view.kings)
}

/// A static evaluation for the checkers search: the value of a quiet position for the side to move, in
/// hundredths of a man.
pub trait Evaluate {
    fn evaluate(&self, b: &Board, turn: Player) -> i32;
}

/// The hand-written evaluation of this module ([`evaluate`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Hand;

impl Evaluate for Hand {
    fn evaluate(&self, b: &Board, turn: Player) -> i32 {
        evaluate(b, turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridplay_core::{Game, Position};
    use gridplay_games::checkers::Checkers;

    fn board(fen: &str) -> (Board, Player) {
        let pos = Checkers.parse_position(fen).unwrap();
        (*pos.board(), pos.turn())
    }

    #[test]
    fn the_start_is_even_and_a_man_up_is_good() {
        let (b, t) = board("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
        assert_eq!(evaluate(&b, t), 0);
        let (b, t) = board("B:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12");
        assert!(evaluate(&b, t) > 80, "{}", evaluate(&b, t));
        // The same position seen by White.
        assert_eq!(evaluate(&b, Player::Second), -evaluate(&b, Player::First));
    }

    #[test]
    fn a_lead_is_worth_more_with_fewer_pieces() {
        let (many, t) = board("B:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12");
        let (few, _) = board("B:WK21:BK1,K10");
        assert!(evaluate(&few, t) > evaluate(&many, t));
    }

    #[test]
    fn equal_kings_alone_are_nearly_even() {
        let (b, t) = board("B:WK21,K25:BK1,K10");
        assert!(evaluate(&b, t).abs() < 20, "{}", evaluate(&b, t));
    }
}
