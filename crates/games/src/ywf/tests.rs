//! One test per rule of `docs/rules/ywf.md`, with the vectors of RULINGS.md.

use gridplay_core::{
    Game, GameSpec, Outcome, Player, Position, Reason, Score,
    perft::{parse_table, perft_naive},
    testkit,
};

use super::{
    DEFAULT_LAYOUT, Illegal, Move, Ywf, YwfPosition,
    board::{SIZE, Square},
    notation,
};

fn pos(text: &str) -> YwfPosition {
    Ywf::default()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &YwfPosition) -> Vec<String> {
    p.legal_moves().iter().map(|&m| p.move_text(m)).collect()
}

fn at(p: &YwfPosition, name: &str) -> Square {
    p.board().squares[notation::parse_square(name).unwrap()]
}

const W: Square = Square::Own(Player::First);
const Y: Square = Square::Own(Player::Second);
const F: Square = Square::Futsu;

#[test]
fn rule_1_board_and_first_actor() {
    let p = Ywf::default().start();
    assert_eq!(p.board().squares.len(), 81);
    assert_eq!(p.turn(), Player::First);
    assert_eq!(Ywf::default().info().sides[0].name, "Warui-ko");
}

#[test]
fn rule_2_initial_position() {
    let p = Ywf::default().start();
    assert_eq!(p.to_text(), "9/9/9/3YWF3/3WFY3/3FYW3/9/9/9 W C -");
    for (sq, s) in [
        ("d4", Y),
        ("e4", W),
        ("f4", F),
        ("d5", W),
        ("e5", F),
        ("f5", Y),
        ("d6", F),
        ("e6", Y),
        ("f6", W),
    ] {
        assert_eq!(at(&p, sq), s, "{sq}");
    }
    // Every row and column of the block holds one piece of each kind.
    for k in 3..6 {
        let row: Vec<Square> = (3..6).map(|c| p.board().squares[k * SIZE + c]).collect();
        let col: Vec<Square> = (3..6).map(|r| p.board().squares[r * SIZE + k]).collect();
        for kind in [W, Y, F] {
            assert!(row.contains(&kind) && col.contains(&kind));
        }
    }
    assert_eq!(p.token(), None);
}

#[test]
fn rule_2_layout_is_a_setting() {
    let spec: GameSpec = "ywf:layout=9/9/9/3WYF3/3YFW3/3FWY3/9/9/9".parse().unwrap();
    let g = Ywf::from_spec(&spec).unwrap();
    assert_eq!(at(&g.start(), "d4"), W);
    assert_eq!(gridplay_core::Game::spec(&g), spec);
    assert_eq!(gridplay_core::Game::spec(&Ywf::default()).to_string(), "ywf");
    for bad in [
        "ywf:layout=9/9",
        "ywf:layout=9/9/9/9/9/9/9/9/9",
        "ywf:layout=9/9/9/3WWF3/9/9/9/9/9",
    ] {
        let err = Ywf::from_spec(&bad.parse().unwrap()).unwrap_err();
        assert!(err.to_string().contains("layout"), "{bad}: {err}");
    }
    assert_eq!(notation::write_rows(&Ywf::default().layout), DEFAULT_LAYOUT);
}

#[test]
fn rule_3_conversion_futsu_to_own_and_opponent_to_futsu() {
    let p = pos("1FYW5/9/9/9/9/9/9/9/8Y W C -");
    let after = p.play(Move::Play(0)).unwrap();
    assert_eq!(
        (
            at(&after, "a1"),
            at(&after, "b1"),
            at(&after, "c1"),
            at(&after, "d1")
        ),
        (W, W, F, W)
    );
}

#[test]
fn rule_3_conversion_needs_an_own_piece_after_the_run() {
    // An empty square inside the run, or the edge, stops it.
    let gap = pos("1F1W5/9/9/9/9/9/9/9/8Y W C -");
    assert!(!moves(&gap).contains(&"a1".to_owned()));
    let edge = pos("1FY6/9/9/9/9/9/9/9/8W W C -");
    assert!(!moves(&edge).contains(&"a1".to_owned()));
}

#[test]
fn rule_3_all_eight_directions_convert_together() {
    // Warui-ko plays e5 with a run ending in W in every direction.
    let p = pos("9/9/2W1W1W2/3FYF3/2WY1YW2/3FYF3/2W1W1W2/9/9 W C -");
    let after = p.play(p.parse_move("e5").unwrap()).unwrap();
    for sq in ["d4", "f4", "d6", "f6"] {
        assert_eq!(at(&after, sq), W, "{sq} was Futsu-no-ko");
    }
    for sq in ["e4", "d5", "f5", "e6"] {
        assert_eq!(at(&after, sq), F, "{sq} was Yoi-ko");
    }
}

#[test]
fn rule_4_play_must_change_a_piece() {
    let p = Ywf::default().start();
    let e = p.validate(p.parse_move("a1").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::PlayChangesNothing.into());
    let e = p.validate(p.parse_move("e5").unwrap()).unwrap_err();
    assert!(e.reason.to_string().starts_with("that square is not empty"));
}

#[test]
fn rule_5_change_turns_a_futsu_and_converts() {
    let p = pos("FYW6/9/9/9/9/9/9/9/8Y W C -");
    assert!(moves(&p).contains(&"*a1".to_owned()));
    let after = p.play(p.parse_move("*a1").unwrap()).unwrap();
    assert_eq!((at(&after, "a1"), at(&after, "b1")), (W, F));
    assert!(after.last_change());
}

#[test]
fn rule_5_change_must_convert_another_piece() {
    let p = Ywf::default().start();
    let e = p.validate(p.parse_move("*e5").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::ChangeChangesNothing.into());
    let e = p.validate(p.parse_move("*e4").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::NotFutsu.into());
}

#[test]
fn rule_5_no_change_right_after_the_opponents_change() {
    let banned = pos("FYW6/9/9/9/9/9/9/9/8Y W C c");
    let e = banned.validate(banned.parse_move("*a1").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::ChangeAfterChange.into());
    // Its only action was that Change, so Warui-ko must pass; the pass lifts the ban.
    assert_eq!(moves(&banned), ["pass"]);
    let after_pass = banned.play(Move::Pass).unwrap();
    assert!(!after_pass.last_change());
    assert!(after_pass.to_text().ends_with(" Y C -"));
}

#[test]
fn rule_5_no_change_while_the_token_is_on_the_opponents_side() {
    let p = pos("FYW6/9/9/9/9/9/9/9/8Y W Y -");
    let e = p.validate(p.parse_move("*a1").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::TokenAway.into());
}

#[test]
fn rule_5_token_moves_one_step_away_from_the_changer() {
    let from_centre = pos("FYW6/9/9/9/9/9/9/9/8Y W C -").play(Move::Change(0)).unwrap();
    assert_eq!(from_centre.token(), Some(Player::Second));
    let from_own_side = pos("FYW6/9/9/9/9/9/9/9/8Y W W -").play(Move::Change(0)).unwrap();
    assert_eq!(from_own_side.token(), None);
    // A Play leaves the token where it is.
    let p = Ywf::default().start();
    assert_eq!(p.play(p.parse_move("c3").unwrap()).unwrap().token(), None);
}

#[test]
fn rule_6_pass_only_when_no_play_and_no_change() {
    let p = Ywf::default().start();
    assert_eq!(
        p.validate(Move::Pass).unwrap_err().reason,
        Illegal::PassWithActions.into()
    );
}

#[test]
fn rule_7_end_when_no_empty_square() {
    let full = pos(
        "WWWWWWWWW/WWWWWWWWW/WWWWWWWWW/WWWWWWWWW/WWWWWYYYY/YYYYYYYYY/YYYYYYYYY/YYYYYYYYY/YYYYYYYYY Y C -",
    );
    assert!(full.legal_moves().is_empty());
    assert_eq!(
        full.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert_eq!(full.score(), Score::new(41, 40));
}

#[test]
fn rule_7_end_after_two_compulsory_passes() {
    let stuck = pos("W8/9/9/9/9/9/9/9/8Y W C -");
    assert!(stuck.legal_moves().is_empty());
    assert!(stuck.outcome().is_some());
    assert_eq!(stuck.validate(Move::Pass).unwrap_err().reason, Reason::GameOver);
}

#[test]
fn rule_7_end_when_a_player_has_no_piece() {
    let p = pos("1YW6/9/9/9/9/9/9/9/8F W C -");
    let after = p.play(p.parse_move("a1").unwrap()).unwrap();
    // Warui-ko's Play on a1 turned b1's Yoi-ko into Futsu-no-ko: Yoi-ko has no piece left.
    assert_eq!(after.score(), Score::new(2, 0));
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
}

#[test]
fn rule_7_equal_counts_go_to_the_token_side() {
    assert_eq!(pos("W8/9/9/9/9/9/9/9/8Y W C -").outcome(), Some(Outcome::Draw));
    assert_eq!(
        pos("W8/9/9/9/9/9/9/9/8Y W Y -").outcome(),
        Some(Outcome::Win {
            winner: Player::Second
        })
    );
    assert_eq!(
        pos("W8/9/9/9/9/9/9/9/8Y Y W -").outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    // More pieces wins whatever the token says.
    assert_eq!(
        pos("WW7/9/9/9/9/9/9/9/8Y W Y -").outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
}

#[test]
fn rule_8_first_actions() {
    let mut got = moves(&Ywf::default().start());
    got.sort();
    let mut want: Vec<String> = [
        "*d6", "*f4", "c3", "c4", "c6", "d3", "d7", "e7", "f3", "f7", "g4", "g5", "g6",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn rule_8_perft() {
    let table = parse_table(include_str!("../../tests/perft/ywf.perft")).unwrap();
    let start = Ywf::default().start();
    for (depth, count) in table {
        assert_eq!(start.perft(depth), count, "perft {depth}");
        assert_eq!(perft_naive(&start, depth), count, "naive perft {depth}");
    }
}

#[test]
fn rule_9_notation() {
    assert_eq!(notation::parse_move("e5"), Ok(Move::Play(40)));
    assert_eq!(notation::parse_move("*D6"), Ok(Move::Change(48)));
    assert_eq!(notation::parse_move("PASS"), Ok(Move::Pass));
    for bad in ["j1", "a0", "**a1", "*", "e", "e55"] {
        assert!(notation::parse_move(bad).is_err(), "{bad}");
    }
    let g = Ywf::default();
    assert!(
        g.parse_position("9/9/9 W C -")
            .unwrap_err()
            .reason
            .contains("needs 9")
    );
    assert!(
        g.parse_position(&format!("{DEFAULT_LAYOUT} W C"))
            .unwrap_err()
            .reason
            .contains("4 fields")
    );
    assert!(
        g.parse_position(&format!("{DEFAULT_LAYOUT} X C -"))
            .unwrap_err()
            .reason
            .contains("side to act")
    );
    assert!(
        g.parse_position(&format!("{DEFAULT_LAYOUT} W Q -"))
            .unwrap_err()
            .reason
            .contains("token")
    );
    assert!(
        g.parse_position(&format!("{DEFAULT_LAYOUT} W C x"))
            .unwrap_err()
            .reason
            .contains("last action")
    );
    assert!(
        g.parse_position("9/9/9/3YWF4/3WFY3/3FYW3/9/9/9 W C -")
            .unwrap_err()
            .reason
            .contains("more than 9")
    );
    assert!(
        g.parse_position("9/9/9/3YWQ3/3WFY3/3FYW3/9/9/9 W C -")
            .unwrap_err()
            .at
            .is_some()
    );
}

#[test]
fn generic_invariants_hold_on_random_games() {
    testkit::check_game(&Ywf::default(), &testkit::Plan::default(), |p| {
        // Changes are offered only when allowed.
        if p.last_change() || p.token() == Some(!p.turn()) {
            assert!(!p.legal_moves().iter().any(|m| matches!(m, Move::Change(_))));
        }
    });
}
