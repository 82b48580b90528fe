//! Checkers: the full-strength engine is a search of its own ([`search`]) with the network of [`net`]
//! (trained by [`train`]; [`learned`] holds the other learned model, pattern tables) and the endgame databases
//! of [`egdb`];
//! the weak levels search with the game-independent search and the simple evaluation [`Eval`] below:
//! material (men and kings), the back rank kept, men's advance (tempo), the centre and mobility (the simple
//! moves each side has). Captures are searched first.

pub mod book;
pub mod egdb;
pub mod eval;
pub mod evaluation;
pub mod learned;
pub mod net;
pub mod samples;
pub mod search;
pub mod train;

use gridplay_core::{Player, Position};
use gridplay_games::checkers::{CheckersPosition, bitboard::Board, movegen::Move};
use gridplay_search::Evaluator;

/// The evaluation's weights, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    pub man: i32,
    pub king: i32,
    /// Each man still on its own back rank (it keeps the opponent's men from crowning there).
    pub back: i32,
    /// Each row a man has advanced.
    pub advance: i32,
    /// Each piece on the four centre squares.
    pub centre: i32,
    /// Each simple move (not a capture) the side has.
    pub mobility: i32,
}

impl Default for Eval {
    fn default() -> Eval {
        Eval {
            man: 100,
            king: 160,
            back: 15,
            advance: 4,
            centre: 10,
            mobility: 12,
        }
    }
}

/// Why hand-written weights could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    #[error("weight {text:?}: {source}")]
    Weight {
        text: String,
        source: std::num::ParseIntError,
    },
    #[error("six weights are needed (man,king,back,advance,centre,mobility), not {0}")]
    Count(usize),
}

impl std::str::FromStr for Eval {
    type Err = EvalError;

    /// Reads `man,king,back,advance,centre,mobility`.
    fn from_str(text: &str) -> Result<Eval, EvalError> {
        let w = text
            .split(',')
            .map(|v| {
                v.trim().parse::<i32>().map_err(|source| EvalError::Weight {
                    text: v.to_owned(),
                    source,
                })
            })
            .collect::<Result<Vec<i32>, EvalError>>()?;
        let [man, king, back, advance, centre, mobility] = w[..] else {
            return Err(EvalError::Count(w.len()));
        };
        Ok(Eval {
            man,
            king,
            back,
            advance,
            centre,
            mobility,
        })
    }
}

const CENTRE: u32 = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);

impl Eval {
    fn side(&self, b: &Board, p: Player) -> i32 {
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
        men.count_ones() as i32 * self.man
            + kings.count_ones() as i32 * self.king
            + back.count_ones() as i32 * self.back
            + advance * self.advance
            + (own & CENTRE).count_ones() as i32 * self.centre
            + b.count_steps(p) as i32 * self.mobility
    }
}

impl Evaluator<CheckersPosition> for Eval {
    fn evaluate(&self, pos: &CheckersPosition) -> i32 {
        let b = pos.board();
        self.side(b, pos.turn()) - self.side(b, !pos.turn())
    }

    fn order_hint(&self, _pos: &CheckersPosition, m: Move) -> i32 {
        m.captured().count_ones() as i32 * 1000
    }
}

/// Reads the evaluation and the book, starts the endgame database's load in the background and puts a search
/// table in the pool if it holds none (see [`crate::prepare`]).
pub(crate) fn prepare() {
    let _ = book::Book::shipped();
    search::prepare();
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridplay_core::Game;
    use gridplay_games::checkers::Checkers;

    #[test]
    fn weights_read_back_and_bad_weights_say_what_is_wrong() {
        let text = "100,160,15,4,10,12";
        let w: Eval = text.parse().unwrap();
        assert_eq!(w.mobility, 12);
        assert_eq!(w.king, 160);
        let short = "100,160".parse::<Eval>().unwrap_err().to_string();
        assert!(short.contains("six weights"), "{short}");
        let bad = "100,160,15,x,10,0".parse::<Eval>().unwrap_err().to_string();
        assert!(bad.contains("\"x\""), "{bad}");
    }

    #[test]
    fn mobility_counts_the_simple_moves_of_each_side() {
        let start: CheckersPosition = Checkers.start();
        // The start is symmetric: every term cancels, mobility included.
        let only_mobility = Eval {
            man: 0,
            king: 0,
            back: 0,
            advance: 0,
            centre: 0,
            mobility: 1,
        };
        assert_eq!(only_mobility.evaluate(&start), 0);
        // After a first move the score is exactly the difference of the two sides' simple moves; the second
        // player still has its 7 opening moves.
        let mut pos = start;
        let first = pos.legal_moves()[0];
        pos.play_unchecked(first);
        let b = pos.board();
        let expected = b.count_steps(pos.turn()) as i32 - b.count_steps(!pos.turn()) as i32;
        assert_eq!(only_mobility.evaluate(&pos), expected);
        assert_eq!(b.count_steps(pos.turn()), 7);
    }
}
