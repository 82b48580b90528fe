//! One test per rule of `docs/rules/tictactoe.md`.

use gridplay_core::{Game, Outcome, Player, Position, testkit};

use super::{TicTacToe, TicTacToePosition};

fn after(moves: &[&str]) -> TicTacToePosition {
    let mut pos = TicTacToe.start();
    for m in moves {
        pos.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    pos
}

#[test]
fn rule_1_x_moves_first_on_an_empty_board() {
    let pos = TicTacToe.start();
    assert_eq!(pos.turn(), Player::First);
    assert_eq!(pos.legal_moves().len(), 9);
    assert_eq!(pos.to_text(), "3/3/3 X");
}

#[test]
fn rule_2_a_mark_goes_on_an_empty_square() {
    let mut pos = after(&["b2"]);
    let err = pos.play_text("b2").unwrap_err();
    assert!(err.to_string().contains("X is already there"), "{err}");
    assert!(pos.play_text("d4").is_err());
    assert_eq!(pos.to_text(), "3/1X1/3 O");
}

#[test]
fn rule_3_three_in_a_row_wins_and_a_full_board_draws() {
    let won = after(&["a1", "a2", "b1", "b2", "c1"]);
    assert_eq!(
        won.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert!(won.legal_moves().is_empty());
    let drawn = after(&["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]);
    assert_eq!(drawn.outcome(), Some(Outcome::Draw));
}

#[test]
fn perft_counts_every_game() {
    // 255,168 possible games; the leaves at full depth are the 9! orders less those cut short by a line.
    assert_eq!(TicTacToe.start().perft(1), 9);
    assert_eq!(TicTacToe.start().perft(2), 72);
    assert_eq!(TicTacToe.start().perft(9), 127_872);
}

#[test]
fn positions_read_back_and_bad_ones_say_why() {
    let pos = after(&["a1", "c3"]);
    assert_eq!(TicTacToe.parse_position(&pos.to_text()), Ok(pos));
    for (text, why) in [
        ("3/3/3", "side to move"),
        ("3/3/3 Z", "X or O"),
        ("3/3 X", "rows"),
        ("X2/3/3 X", "disagree"),
    ] {
        let err = TicTacToe.parse_position(text).unwrap_err().to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
}

#[test]
fn random_games_keep_every_invariant() {
    testkit::check_game(&TicTacToe, &testkit::Plan::default(), |_| {});
}
