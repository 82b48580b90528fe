//! One test per rule of `docs/rules/reversi.md`; the test names are the ones the rules cite.

use gridplay_core::{
    Game, GameSpec, MoveError, Outcome, Player, Position, Reason, Score,
    perft::{parse_table, perft_naive},
    testkit,
};

use super::{Colour, Illegal, Move, Reversi, ReversiPosition, bitboard::get_moves, notation};

fn std_game() -> Reversi {
    Reversi::default()
}

fn white_first() -> Reversi {
    Reversi::from_spec(&"reversi:first=white".parse::<GameSpec>().unwrap()).unwrap()
}

fn sq(name: &str) -> Move {
    Move::Place(notation::parse_square(name).unwrap())
}

fn pos(text: &str) -> ReversiPosition {
    std_game().parse_position(text).unwrap()
}

const START_TEXT: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn rule_1_start_position_standard() {
    let p = std_game().start();
    assert_eq!(p.to_text(), START_TEXT);
    assert_eq!(p.turn(), Player::First);
    assert!(p.black_to_move());
    let moves: Vec<String> = p.legal_moves().iter().map(|&m| p.move_text(m)).collect();
    assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
}

#[test]
fn rule_1_start_position_seed_white_first() {
    let g = white_first();
    let p = g.start();
    // The seed draws the centre as B W / W B with White to move.
    assert_eq!(
        p.to_text(),
        "---------------------------XO------OX--------------------------- O"
    );
    assert!(!p.black_to_move());
    assert_eq!(g.info().sides[0].name, "White");
    assert_eq!(p.perft(6), std_game().start().perft(6));
}

#[test]
fn rule_2_placement_must_flip() {
    let p = std_game().start();
    let err = p.validate(sq("a1")).unwrap_err();
    assert_eq!(err.reason, Illegal::NoFlip.into());
    let err = p.validate(sq("d4")).unwrap_err();
    assert_eq!(err.reason, Illegal::Occupied.into());
}

#[test]
fn rule_3_all_flanked_lines_flip() {
    // Black on a1 flanks the row b1..c1 (to d1) and the diagonal b2 (to c3), but not the column a2 (open end).
    let p = pos(&format!(
        "-OOX----{}{}{} X",
        "OO------",
        "--X-----",
        "-".repeat(40)
    ));
    let after = p.play(sq("a1")).unwrap();
    let (black, white) = after.discs();
    let bit = |n: &str| 1u64 << notation::parse_square(n).unwrap();
    for s in ["a1", "b1", "c1", "d1", "b2", "c3"] {
        assert_ne!(black & bit(s), 0, "{s} should be black");
    }
    assert_ne!(white & bit("a2"), 0, "a2 is not flanked and stays white");
    assert_eq!(after.score(), Score::new(6, 1));
}

#[test]
fn rule_4_pass_only_when_forced() {
    // White to move has no placement; Black has one.
    let p = pos(&format!("XO{} O", "-".repeat(62)));
    assert_eq!(get_moves(p.board().player, p.board().opponent), 0);
    assert_eq!(p.legal_moves().as_slice(), &[Move::Pass]);
    let after = p.play(Move::Pass).unwrap();
    assert_eq!(after.turn(), Player::First);
    assert_eq!(after.legal_moves().as_slice(), &[sq("c1")]);
    let err = std_game().start().validate(Move::Pass).unwrap_err();
    assert_eq!(err.reason, Illegal::PassWithPlacements.into());
    assert_eq!(p.validate(sq("c1")).unwrap_err().reason, Illegal::MustPass.into());
}

#[test]
fn rule_5_game_ends_when_neither_side_can_place() {
    // Neither side can place: the game is over with empty squares left.
    let p = pos(&format!("XX{} O", "-".repeat(62)));
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert_eq!(p.validate(sq("c1")).unwrap_err().reason, Reason::GameOver);
    // A full board ends the game.
    let full = pos(&format!("{}{} X", "X".repeat(33), "O".repeat(31)));
    assert_eq!(
        full.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert_eq!(full.score().to_string(), "33-31");
}

#[test]
fn rule_6_equal_discs_is_a_draw() {
    let p = pos(&format!("{}{} X", "X".repeat(32), "O".repeat(32)));
    assert_eq!(p.outcome(), Some(Outcome::Draw));
}

#[test]
fn rule_7_perft_table() {
    let table = parse_table(include_str!("../../tests/perft/reversi.perft")).unwrap();
    assert_eq!(table.len(), 12);
    let start = std_game().start();
    // Depth 12 (1.9e9 leaves) takes a few seconds; the test profile is optimised for it.
    for (depth, count) in table {
        assert_eq!(start.perft(depth), count, "perft {depth}");
    }
}

#[test]
fn rule_7_fast_perft_equals_the_naive_walk() {
    let mut rng = gridplay_core::playout::seeded(7);
    for _ in 0..30 {
        let (p, _) = gridplay_core::playout::random_playout(&std_game().start(), &mut rng, 40, |_| {});
        for depth in 0..=3 {
            assert_eq!(p.perft(depth), perft_naive(&p, depth), "{}", p.to_text());
        }
    }
}

#[test]
fn rule_7_perft_convention_ended_games_are_not_extended() {
    // The other convention counts 24571284 at depth 10: a finished game would be a leaf at every depth.
    let over = pos(&format!("XX{} O", "-".repeat(62)));
    assert_eq!(over.perft(0), 1);
    assert_eq!(over.perft(1), 0);
    assert_eq!(over.perft(3), 0);
    // A forced pass is one ply.
    let passing = pos(&format!("XO{} O", "-".repeat(62)));
    assert_eq!(passing.perft(1), 1);
    assert_eq!(passing.perft(2), 1);
}

#[test]
fn rule_8_notation_squares_and_transcripts() {
    assert_eq!(notation::parse_square("a1"), Ok(0));
    assert_eq!(notation::parse_square("H8"), Ok(63));
    assert_eq!(notation::square_name(19), "d3");
    for bad in ["i1", "a9", "a", "a10", "", "11"] {
        assert!(notation::parse_square(bad).is_err(), "{bad}");
    }
    let (p, moves) = std_game().start().play_transcript("f5d6c3d3c4").unwrap();
    assert_eq!(moves.len(), 5);
    assert_eq!(ReversiPosition::transcript(&moves), "f5d6c3d3c4");
    assert_eq!(p.turn(), Player::Second);
    let (n, err) = std_game().start().play_transcript("f5d6a1").unwrap_err();
    assert_eq!(n, 3);
    assert!(matches!(err, MoveError::Illegal(_)));
    let (n, err) = std_game().start().play_transcript("f5z9").unwrap_err();
    assert_eq!(n, 2);
    assert!(matches!(err, MoveError::Parse(_)));
    // A letter of several bytes where a square's is expected is a parse error (found by the import fuzz target).
    let (n, err) = std_game().start().play_transcript("d3c3b\u{202e}b1").unwrap_err();
    assert_eq!(n, 3);
    assert!(matches!(err, MoveError::Parse(_)));
}

#[test]
fn rule_8_transcript_inserts_forced_passes() {
    // After d1 White (to move) has no placement; the transcript's next square is Black's again.
    let p = pos(&format!("XOO-----{} X", "-".repeat(56)));
    let (_, moves) = p.play_transcript("d1").unwrap();
    assert_eq!(moves, vec![sq("d1")]);
    let p2 = pos(&format!("XO------XO------{} O", "-".repeat(48)));
    assert_eq!(p2.legal_moves().as_slice(), &[Move::Pass]);
    let (_, moves) = p2.play_transcript("c1").unwrap();
    assert_eq!(moves, vec![Move::Pass, sq("c1")]);
}

#[test]
fn rule_8_position_text_round_trips_and_rejects_bad_input() {
    let p = pos("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X");
    assert_eq!(
        p.to_text(),
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
    );
    let g = std_game();
    let e = g.parse_position("---").unwrap_err();
    assert!(e.reason.contains("needs 64"), "{e}");
    let e = g.parse_position(&format!("{}? X", "-".repeat(63))).unwrap_err();
    assert_eq!(e.at, Some(63));
    let e = g.parse_position(&"-".repeat(64)).unwrap_err();
    assert!(e.reason.contains("side to move is missing"));
    let e = g.parse_position(&format!("{} Z", "-".repeat(64))).unwrap_err();
    assert!(e.reason.contains("not a side to move"));
}

#[test]
fn settings_are_checked() {
    let bad = Reversi::from_spec(&"reversi:first=green".parse().unwrap()).unwrap_err();
    assert_eq!(
        bad.to_string(),
        "reversi: setting `first=green` is invalid: expected one of black, white"
    );
    let bad = Reversi::from_spec(&"reversi:size=10".parse().unwrap()).unwrap_err();
    assert!(bad.to_string().starts_with("reversi has no setting `size`"));
    assert_eq!(white_first().first, Colour::White);
}

#[test]
fn generic_invariants_hold_on_random_games() {
    testkit::check_game(&std_game(), &testkit::Plan::default(), |p| {
        let s = p.score();
        assert!(s.first + s.second <= 64);
        let (b, w) = p.discs();
        assert_eq!(b & w, 0);
        assert_eq!((b | w).count_ones() as i32, s.first + s.second);
    });
    testkit::check_game(
        &white_first(),
        &testkit::Plan {
            games: 10,
            ..Default::default()
        },
        |_| {},
    );
}

/// The file format: the usual transcript after the tags, read back with passes put in, and recognized in a file
/// without a `Game` tag.
#[test]
fn files_are_transcripts() {
    use gridplay_core::{Codec, GameRecord};
    let codec = notation::TranscriptCodec;
    let game = std_game();
    let rec = GameRecord::replay(Box::new(game.start()), ["f5", "d6", "c3"]).unwrap();
    let tags = vec![("Game".to_owned(), "reversi".to_owned())];
    let text = codec.write(&tags, &rec);
    assert!(text.ends_with("\n\nf5d6c3\n"), "{text}");
    let back = codec.read(&game, &text).unwrap();
    assert_eq!(back.record.moves(), rec.moves());
    assert!(codec.recognizes(&[], "f5d6c3d3c4"));
    assert!(!codec.recognizes(&[], "1. 11-15 23-19"));
    let err = codec.read(&game, "f5f5").unwrap_err().to_string();
    assert!(err.contains("move 2"), "{err}");
}
