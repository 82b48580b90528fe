//! `prepare` stocks Reversi's pools before a first move, once however often it is called, and the first
//! search takes its table from there rather than making one. Its own test binary: no other test's search
//! takes from the pools meanwhile.

use gridplay_engine::reversi;
use gridplay_games::reversi::bitboard::Board;
use gridplay_search::{Limits, StopFlag};

#[test]
fn prepare_stocks_the_pools_once() {
    assert_eq!(
        reversi::pooled(),
        (0, 0),
        "nothing is pooled before the first move"
    );
    gridplay_engine::prepare("no such game");
    assert_eq!(reversi::pooled(), (0, 0));
    gridplay_engine::prepare("reversi");
    assert_eq!(reversi::pooled(), (1, 1));
    gridplay_engine::prepare("reversi");
    assert_eq!(reversi::pooled(), (1, 1), "a second call makes nothing more");
    let found = reversi::search::search(
        Board::START,
        Limits::depth(4),
        &StopFlag::new(),
        reversi::search::Options::default(),
    );
    assert!(found.best.is_some());
    assert_eq!(
        reversi::pooled(),
        (1, 1),
        "the search took the prepared table and gave it back"
    );
}
