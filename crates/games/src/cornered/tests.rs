//! One test per rule of `docs/rules/cornered.md`, with the vectors of RULINGS.md.

use gridplay_core::{
    Game, Outcome, Player, Position, Score,
    perft::{parse_table, perft_naive},
    testkit,
};

use super::{Cornered, CorneredPosition, Illegal, Tie, board::Cross, notation};

fn game(size: u8) -> Cornered {
    Cornered { size, tie: Tie::Draw }
}

fn play(size: u8, moves: &str) -> CorneredPosition {
    let mut p = game(size).start();
    for m in moves.split_whitespace() {
        p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    p
}

fn glyph(c: Cross) -> char {
    match c {
        Cross::Empty => '.',
        Cross::Placed(Player::First) => 'W',
        Cross::Placed(Player::Second) => 'B',
        Cross::Occupied(Player::First) => 'w',
        Cross::Occupied(Player::Second) => 'b',
    }
}

/// A rank (1 = bottom) read left to right, as `W w W w w`.
fn rank(p: &CorneredPosition, r: usize) -> String {
    let n = p.board().size();
    let row = n - r;
    (0..n)
        .map(|c| glyph(p.board().get(row * n + c)).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A file (0 = a) read top to bottom.
fn file(p: &CorneredPosition, f: usize) -> String {
    let n = p.board().size();
    (0..n)
        .map(|row| glyph(p.board().get(row * n + f)).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn occupied(p: &CorneredPosition) -> Vec<String> {
    let n = p.board().size();
    (0..n * n)
        .filter(|&i| matches!(p.board().get(i), Cross::Occupied(_)))
        .map(|i| notation::square_name(i, n))
        .collect()
}

#[test]
fn rule_1_board_sizes_2_to_25() {
    for n in [2u8, 3, 5, 9, 19, 25] {
        let p = game(n).start();
        assert_eq!(p.legal_moves().len(), usize::from(n) * usize::from(n));
    }
    for bad in ["cornered:size=1", "cornered:size=26", "cornered:size=x"] {
        assert!(Cornered::from_spec(&bad.parse().unwrap()).is_err(), "{bad}");
    }
    assert_eq!(Cornered::default().size, 9);
}

#[test]
fn rule_2_white_first_any_empty_cross_never_a_pass() {
    let p = game(5).start();
    assert_eq!(p.turn(), Player::First);
    let p = play(5, "c3");
    assert_eq!(p.turn(), Player::Second);
    assert!(!p.legal_moves().iter().any(|&m| p.move_text(m) == "c3"));
    let err = p.validate(p.parse_move("c3").unwrap()).unwrap_err();
    assert_eq!(err.reason, Illegal::Placed("White").into());
}

#[test]
fn rule_2_occupied_cross_is_forbidden() {
    let p = play(5, "a3 b2 c3");
    let err = p.validate(p.parse_move("b3").unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal move `b3`: that cross is occupied by White: placing on an occupied cross is forbidden"
    );
    assert_eq!(err.reason, Illegal::Occupied("White").into());
}

#[test]
fn rule_3_vector_row_fill_through_empty() {
    let p = play(5, "a3 b2 c3");
    assert_eq!(rank(&p, 3), "W w W w w");
    assert_eq!(p.score(), Score::new(5, 1));
}

#[test]
fn rule_3_vector_overwrite_enemy_occupation() {
    let p = play(5, "a3 b2 c3 b4");
    assert_eq!(file(&p, 1), "b B b B b");
    assert_eq!(p.score(), Score::new(4, 5));
}

#[test]
fn rule_3_vector_enemy_placed_piece_blocks() {
    let p = play(5, "a3 c3 e3");
    assert!(occupied(&p).is_empty());
}

#[test]
fn rule_3_vector_diagonal() {
    let p = play(5, "a1 e5 c3");
    assert_eq!(occupied(&p), ["d4", "b2"]);
}

#[test]
fn rule_3_vector_own_placed_passed_through() {
    let p = play(5, "b1 e5 d1");
    assert_eq!(rank(&p, 1), "w W w W w");
}

#[test]
fn rule_3_vector_fill_stops_before_enemy_placed() {
    let p = play(5, "a3 e3 c3");
    assert_eq!(rank(&p, 3), "W w W w B");
}

#[test]
fn rule_3_lines_are_decided_before_filling() {
    // Filling one line never changes a placed piece, so no line's activity depends on another's filling:
    // placing in every order of the lines gives one result. Check it against a one-line-at-a-time replay.
    let mut rng = gridplay_core::playout::seeded(3);
    for _ in 0..200 {
        let (p, _) = gridplay_core::playout::random_playout(&game(7).start(), &mut rng, 20, |_| {});
        for m in p.legal_moves() {
            let i = usize::from(m);
            let before = p.board().active_lines(i, p.turn());
            let mut after = p.clone();
            after.play_unchecked(m);
            // Any line that was active still has the mover's placed piece as its first placed piece.
            let again = after.board().active_lines(i, p.turn());
            for (b, a) in before.iter().zip(again) {
                assert!(!b || a, "{}", p.to_text());
            }
        }
    }
}

#[test]
fn rule_4_placed_pieces_never_change() {
    let mut rng = gridplay_core::playout::seeded(4);
    for _ in 0..50 {
        let mut p = game(6).start();
        while !p.is_over() {
            let before: Vec<Cross> = p.board().cells().to_vec();
            let moves = p.legal_moves();
            let m = moves[rand::RngExt::random_range(&mut rng, 0..moves.len())];
            p.play_unchecked(m);
            for (i, c) in before.iter().enumerate() {
                if matches!(c, Cross::Placed(_)) {
                    assert_eq!(p.board().get(i), *c);
                }
            }
        }
    }
}

#[test]
fn rule_5_score_is_placed_plus_occupied() {
    let p = play(5, "a3 b2 c3 b4");
    let view = p.view();
    assert_eq!(view.score, Score::new(4, 5));
    assert_eq!(view.info, vec![("difference".to_owned(), "-1".to_owned())]);
}

#[test]
fn rule_6_game_ends_when_no_empty_cross_remains() {
    let p = game(2).parse_position("WB/wW B").unwrap();
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert!(p.legal_moves().is_empty());
    let draw = game(2).parse_position("WB/bw W").unwrap();
    assert_eq!(draw.outcome(), Some(Outcome::Draw));
    let black_ties = Cornered {
        size: 2,
        tie: Tie::Black,
    }
    .parse_position("WB/bw W")
    .unwrap();
    assert_eq!(
        black_ties.outcome(),
        Some(Outcome::Win {
            winner: Player::Second
        })
    );
    let going = game(2).parse_position("WB/b1 W").unwrap();
    assert_eq!(going.outcome(), None);
}

#[test]
fn rule_7_perft_3x3() {
    let table = parse_table(include_str!("../../tests/perft/cornered-3x3.perft")).unwrap();
    let start = game(3).start();
    for (depth, count) in table {
        assert_eq!(start.perft(depth), count, "perft {depth}");
        assert_eq!(perft_naive(&start, depth), count, "naive perft {depth}");
    }
}

#[test]
fn rule_8_position_text() {
    let p = play(5, "a3 b2 c3 b4");
    assert_eq!(p.to_text(), "1b3/1B3/WbWww/1B3/1b3 W");
    assert_eq!(game(25).start().to_text().split('/').count(), 25);
    let g = game(5);
    assert!(
        g.parse_position("5/5/5/5 W")
            .unwrap_err()
            .reason
            .contains("must be square")
    );
    assert!(
        g.parse_position("5/5/5/5/6 W")
            .unwrap_err()
            .reason
            .contains("more than 5")
    );
    assert!(
        g.parse_position("5/5/5/5/4 W")
            .unwrap_err()
            .reason
            .contains("has 4 crosses")
    );
    assert!(
        g.parse_position("5/5/5/5/5")
            .unwrap_err()
            .reason
            .contains("missing")
    );
    assert!(
        g.parse_position("5/5/5/5/5 Q")
            .unwrap_err()
            .reason
            .contains("not a side")
    );
    assert!(
        g.parse_position("5/5/5/5/4x W")
            .unwrap_err()
            .reason
            .contains("`x` is not a cross")
    );
    assert!(g.parse_position("5/5/5/5/05 W").is_err());
    assert!(g.parse_position("99999999999999999999999/5/5/5/5 W").is_err());
}

#[test]
fn rule_8_square_names() {
    assert_eq!(notation::parse_square("a1", 5), Ok(20));
    assert_eq!(notation::parse_square("e5", 5), Ok(4));
    assert_eq!(notation::square_name(4, 5), "e5");
    assert_eq!(notation::parse_square("y25", 25), Ok(24));
    for bad in ["f1", "a6", "a0", "a", "", "11", "a01", "a+1"] {
        assert!(notation::parse_square(bad, 5).is_err(), "{bad}");
    }
}

#[test]
fn generic_invariants_hold_on_random_games() {
    for n in [2u8, 3, 4, 5, 9, 13] {
        testkit::check_game(
            &game(n),
            &testkit::Plan {
                games: 12,
                ..Default::default()
            },
            |p| {
                let s = p.score();
                let total = p.board().cells().iter().filter(|c| **c != Cross::Empty).count() as i32;
                assert_eq!(s.first + s.second, total);
            },
        );
    }
    testkit::check_game(
        &Cornered {
            size: 4,
            tie: Tie::Black,
        },
        &testkit::Plan::default(),
        |_| {},
    );
}
