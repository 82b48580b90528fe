//! Positions near the end of a Reversi game for the endgame examples (`endgame_payoff`, `reversi_probable`).

use gridplay_engine::reversi::search::{Options, search};
use gridplay_games::reversi::bitboard::Board;
use gridplay_search::{Limits, StopFlag};

fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// A position with `empties` empty squares and a move to play, reached by random then depth-6 play.
pub(crate) fn position(empties: u32, rng: &mut u64) -> Board {
    'game: loop {
        let mut b = Board::START;
        while b.empty().count_ones() > empties {
            if b.is_over() {
                continue 'game;
            }
            let moves = b.moves();
            if moves == 0 {
                b = b.pass();
                continue;
            }
            let sq = if b.empty().count_ones() > 52 {
                let n = next(rng) % u64::from(moves.count_ones());
                let mut m = moves;
                for _ in 0..n {
                    m &= m - 1;
                }
                m.trailing_zeros() as u8
            } else {
                let limits = Limits {
                    depth: Some(6),
                    time: None,
                    nodes: None,
                };
                search(b, limits, &StopFlag::new(), Options::default())
                    .best
                    .expect("a move")
            };
            b = b.play(sq);
        }
        if b.moves() != 0 {
            return b;
        }
    }
}
