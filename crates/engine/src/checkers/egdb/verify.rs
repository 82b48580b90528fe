//! A check of a built database against its own moves and against an outside proof (in play, a search that
//! does not use it: `search::verify_database`).

use gridplay_core::Player;
use gridplay_games::checkers::{
    bitboard::Board,
    movegen::{self, Moves},
};

use super::{DRAW, Database, LOSS, Slice, UNKNOWN, WIN, Wld, by_moves, position};

/// What [`Database::verify`] checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verified {
    /// Positions whose value agreed with the values of their moves.
    pub positions: u64,
    /// Of those, positions that the outside proof proved won or lost, as the database says.
    pub proven: u64,
}

impl Database {
    /// Checks `samples` positions of the most pieces, drawn by `seed` (slices by their size): each value
    /// agrees with the values of its moves (a win has a move to a loss, a loss only moves to wins, a draw a
    /// move to a draw and none to a loss), and `prove`, a proof that does not use the database, never proves
    /// the opposite of what the database says (it returns a win or a loss for the side to move where it
    /// proves one, else `None`).
    ///
    /// # Errors
    /// The first position that disagrees, as FEN with both values.
    pub fn verify(
        &self,
        samples: u64,
        seed: u64,
        mut prove: impl FnMut(&Board, Player) -> Option<Wld>,
    ) -> Result<Verified, Disagreement> {
        use gridplay_games::checkers::CheckersPosition;
        use rand::{RngExt, SeedableRng, rngs::SmallRng};
        let slices: Vec<Slice> = Slice::all(self.pieces)
            .into_iter()
            .filter(|s| s.pieces() == self.pieces)
            .collect();
        let total: usize = slices.iter().map(Slice::size).sum();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut done = Verified::default();
        let fen = |b: &Board, turn: Player| {
            gridplay_core::Position::to_text(&CheckersPosition::from_board(*b, turn))
        };
        let value = |b: &Board, turn: Player| -> u8 {
            if b.pieces[turn.index()] == 0 {
                return LOSS;
            }
            match self.probe(b, turn) {
                Some(Wld::Win) => WIN,
                Some(Wld::Loss) => LOSS,
                Some(Wld::Draw) => DRAW,
                None => UNKNOWN,
            }
        };
        while done.positions < samples {
            let mut at = rng.random_range(0..total);
            let s = slices
                .iter()
                .find(|s| {
                    let inside = at < s.size();
                    if !inside {
                        at -= s.size();
                    }
                    inside
                })
                .expect("a number within the total");
            let Some((b, turn)) = position(at, s) else {
                continue;
            };
            let mut moves = Moves::new();
            movegen::generate(&b, turn, &mut moves);
            let children: Vec<u8> = moves
                .iter()
                .map(|&m| value(&movegen::apply(&b, turn, m), !turn))
                .collect();
            let expected = by_moves(&children);
            let here = value(&b, turn);
            if here != expected || children.contains(&UNKNOWN) {
                return Err(Disagreement::Moves {
                    fen: fen(&b, turn),
                    database: here,
                    moves: expected,
                });
            }
            done.positions += 1;
            let proven = prove(&b, turn).map(|w| match w {
                Wld::Win => WIN,
                Wld::Loss => LOSS,
                Wld::Draw => DRAW,
            });
            if let Some(p) = proven {
                if p != here {
                    return Err(Disagreement::Proof {
                        fen: fen(&b, turn),
                        database: here,
                        proof: p,
                    });
                }
                done.proven += 1;
            }
        }
        Ok(done)
    }
}

/// A position where the database is wrong: its value (1 win, 2 loss, 3 draw, 0 unknown) and what says
/// otherwise.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Disagreement {
    #[error("{fen}: the database says {database}, its moves say {moves} (1 win, 2 loss, 3 draw, 0 unknown)")]
    Moves { fen: String, database: u8, moves: u8 },
    #[error("{fen}: the database says {database}, a proof without it says {proof} (1 win, 2 loss, 3 draw)")]
    Proof { fen: String, database: u8, proof: u8 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_passes_a_sound_database_and_catches_a_damaged_slice_and_a_contradicting_proof() {
        let mut db = Database::build(3);
        let mut asked = 0;
        let done = db
            .verify(3000, 1, |_, _| {
                asked += 1;
                None
            })
            .unwrap();
        assert_eq!((done.positions, done.proven, asked), (3000, 0, 3000));
        // The database as its own proof: every decided position counts as proven.
        let proven = db
            .verify(3000, 1, |b, turn| db.probe(b, turn).filter(|w| *w != Wld::Draw))
            .unwrap();
        assert!(proven.proven > 100, "{proven:?}");
        let err = db.verify(3000, 1, |_, _| Some(Wld::Win)).unwrap_err().to_string();
        assert!(err.contains("a proof without it says 1"), "{err}");
        // Two kings against a man, every position marked won for the side to move: wrong for many.
        let s = Slice {
            red_men: 0,
            red_kings: 2,
            white_men: 1,
            white_kings: 0,
        };
        let code = s.code().unwrap();
        let solved = db.slices[code].as_mut().unwrap();
        solved.bits.iter_mut().for_each(|b| *b = 0b0101_0101);
        let err = db.verify(3000, 1, |_, _| None).unwrap_err().to_string();
        assert!(err.contains("the database says 1"), "{err}");
    }
}
