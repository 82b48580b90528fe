//! One test per rule of `docs/rules/checkers.md`.

use gridplay_core::{
    Game, GameRecord, Outcome, Player, Position, RecordError, Termination,
    perft::{parse_table, perft_naive},
    testkit,
};

use super::{Checkers, CheckersPosition, START_FEN, cell_of, pdn};

fn pos(fen: &str) -> CheckersPosition {
    Checkers
        .parse_position(fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &CheckersPosition) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| p.move_text(m)).collect();
    v.sort();
    v
}

fn refusal(p: &CheckersPosition, text: &str) -> String {
    let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.validate(m).expect_err("should be refused").reason.to_string()
}

#[test]
fn rule_1_start_position() {
    let p = Checkers.start();
    assert_eq!(p.to_text(), START_FEN);
    assert_eq!(p.turn(), Player::First);
    assert_eq!(
        moves(&p),
        ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    );
    // Square 1 is b8, 4 is h8, 5 is a7, 29 is a1, 32 is g1 (cells row by row from the top-left).
    assert_eq!(
        [cell_of(0), cell_of(3), cell_of(4), cell_of(28), cell_of(31)],
        [1, 7, 8, 56, 62]
    );
}

#[test]
fn rule_2_men_step_diagonally_forward_to_an_empty_square() {
    let p = pos("W:W22:B1");
    assert_eq!(moves(&p), ["22-17", "22-18"]);
    assert_eq!(
        refusal(&p, "22-26"),
        "a man moves only forward; only kings move backward"
    );
    let blocked = pos("W:W22,18:B1");
    assert_eq!(refusal(&blocked, "22-18"), "square 18 is occupied");
    assert_eq!(refusal(&p, "1-5"), "there is no White piece on 1");
}

#[test]
fn rule_3_capture_is_compulsory() {
    let p = pos("B:W18:B14,1");
    assert_eq!(moves(&p), ["14x23"]);
    assert!(refusal(&p, "1-5").starts_with("a capture is available, so you must capture (14x23"));
}

#[test]
fn rule_3_free_choice_among_captures() {
    // Red may take one piece (15x24) although it could take two (14x23x30 or 15x22x31): no rule to take the
    // most.
    let p = pos("B:W18,19,26:B14,15");
    let m = moves(&p);
    assert_eq!(m, ["14x23x30", "15x22x31", "15x24"]);
    for text in &m {
        assert!(p.validate(p.parse_move(text).unwrap()).is_ok());
    }
}

#[test]
fn rule_4_a_multi_jump_must_be_completed() {
    let p = pos("B:W18,26:B14");
    assert_eq!(moves(&p), ["14x23x30"]);
    assert_eq!(
        refusal(&p, "14x23"),
        "the capture must be completed: it goes on, as in 14x23x30"
    );
}

#[test]
fn rule_5_no_piece_is_jumped_twice() {
    // The king on 2 can take all four pieces round a loop, in either order, and ends on its own start
    // square (vacated when it left). The first piece jumped is next to it again but may not be taken twice.
    let p = pos("W:WK2:B6,7,14,15");
    assert_eq!(moves(&p), ["2x11x18x9x2", "2x9x18x11x2"]);
    let after: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut q = p;
            q.play_unchecked(m);
            q.to_text()
        })
        .collect();
    assert_eq!(after[0], after[1], "two distinct moves reach the same position");
    assert_eq!(after[0], "B:WK2:B");
}

#[test]
fn rule_5_captured_pieces_stay_until_the_move_ends() {
    // Removing each piece as it is jumped would let the king go round again; it cannot.
    let p = pos("W:WK2:B6,7,14,15");
    assert!(p.legal_moves().iter().all(|m| m.captured().count_ones() == 4));
    assert!(refusal(&p, "2x11x18x9x2x11").contains("already captured"));
}

#[test]
fn rule_6_crowning_ends_the_move() {
    let man = pos("B:W25,26:B23");
    assert_eq!(moves(&man), ["23x30"]);
    assert_eq!(
        refusal(&man, "23x30x21"),
        "a man that reaches the king row is crowned, and that ends the move"
    );
    let mut crowned = man;
    crowned.play_text("23x30").unwrap();
    assert_eq!(crowned.to_text(), "W:W25:BK30");
    // A king on the same square goes on.
    assert_eq!(moves(&pos("B:W25,26:BK23")), ["23x30x21"]);
    // A step onto the king row crowns too.
    let mut step = pos("B:W5:B27");
    step.play_text("27-32").unwrap();
    assert_eq!(step.to_text(), "W:W5:BK32");
}

#[test]
fn rule_7_kings_move_and_jump_both_ways() {
    assert_eq!(moves(&pos("B:W32:BK14")), ["14-10", "14-17", "14-18", "14-9"]);
    assert_eq!(moves(&pos("B:W10:BK14")), ["14x7"]);
    let man = pos("B:W10:B14");
    assert!(moves(&man).iter().all(|m| !m.contains('x')));
}

#[test]
fn rule_8_a_player_who_cannot_move_or_has_no_pieces_loses() {
    let blocked = pos("W:W29:B25,22");
    assert!(blocked.legal_moves().is_empty());
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    let none = pos("W:W:B1");
    assert_eq!(
        none.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert_eq!(refusal(&none, "1-5"), "the game is over");
    // A set-up position in which the side not to move has no pieces: the side to move has won.
    let gone = pos("B:W:B1");
    assert_eq!(
        gone.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert!(gone.legal_moves().is_empty());
}

fn record(fen: &str) -> GameRecord {
    GameRecord::new(Box::new(pos(fen)) as Box<dyn gridplay_core::DynPosition>)
}

#[test]
fn rule_9_draw_on_the_third_repetition() {
    let mut r = record("B:WK32:BK1");
    for (i, m) in ["1-5", "32-27", "5-1", "27-32", "1-5", "32-27", "5-1", "27-32"]
        .iter()
        .enumerate()
    {
        assert!(r.outcome().is_none(), "ended early at ply {i}");
        r.play(m).unwrap();
    }
    assert_eq!(r.outcome(), Some((Outcome::Draw, Termination::Repetition)));
    assert_eq!(r.play("1-5"), Err(RecordError::GameOver));
}

#[test]
fn rule_9_draw_after_forty_moves_each_without_progress() {
    // Red's kings on 1 and 3 take turns round two 4-cycles (Red's state repeats every 8 rounds) and White's
    // king goes round a 6-cycle far from them, so no capture arises and a position first recurs after 24
    // rounds (48 plies); a third occurrence would need 96 plies. The 80th quiet ply draws.
    let mut r = record("B:WK32:BK1,K3");
    let red_a = ["1-6", "6-9", "9-5", "5-1"];
    let red_b = ["3-8", "8-11", "11-7", "7-3"];
    let white = ["32-28", "28-24", "24-19", "19-23", "23-27", "27-32"];
    for round in 0..40 {
        assert!(r.outcome().is_none(), "ended at round {round}");
        let red = if round % 2 == 0 {
            red_a[(round / 2) % 4]
        } else {
            red_b[(round / 2) % 4]
        };
        r.play(red).unwrap();
        assert_eq!(r.outcome(), None, "ended at round {round}");
        r.play(white[round % 6]).unwrap();
    }
    assert_eq!(r.quiet_plies(), 80);
    assert_eq!(r.outcome(), Some((Outcome::Draw, Termination::QuietMoves)));
    // A man's move resets the count.
    let mut r = record("B:WK32:B1");
    r.play("1-5").unwrap();
    assert_eq!(r.quiet_plies(), 0);
    r.play("32-27").unwrap();
    assert_eq!(r.quiet_plies(), 1);
}

#[test]
fn rule_9_draw_by_agreement_and_resignation() {
    let mut r = record(START_FEN);
    assert_eq!(r.accept_draw(Player::Second), Err(RecordError::NoDrawOffer));
    r.offer_draw(Player::First).unwrap();
    assert_eq!(r.offer_draw(Player::First), Err(RecordError::AlreadyOffered));
    r.decline_draw(Player::Second).unwrap();
    assert_eq!(r.draw_offer(), None);
    r.offer_draw(Player::Second).unwrap();
    r.play("11-15").unwrap();
    assert_eq!(r.draw_offer(), None, "an offer lapses when a move is played");
    r.offer_draw(Player::First).unwrap();
    r.accept_draw(Player::Second).unwrap();
    assert_eq!(r.outcome(), Some((Outcome::Draw, Termination::Agreement)));
    let mut r = record(START_FEN);
    r.resign(Player::First).unwrap();
    assert_eq!(
        r.outcome(),
        Some((
            Outcome::Win {
                winner: Player::Second
            },
            Termination::Resignation
        ))
    );
}

#[test]
fn rule_10_move_notation() {
    let p = Checkers.start();
    assert_eq!(p.move_text(p.parse_move("11-15").unwrap()), "11-15");
    for (bad, why) in [
        ("11-17", "11 and 17 are not diagonal neighbours"),
        ("11-18", "11-18 is a jump: write it 11x18"),
        ("0-4", "`0` is not a square"),
        ("33-29", "`33` is not a square"),
        ("11", "write a step as 11-15"),
        ("11-", "a square number is missing"),
        ("11-15-19", "a step is two squares"),
        ("9x13", "9 to 13 is not a jump"),
    ] {
        let err = p.parse_move(bad).unwrap_err();
        assert!(err.reason.contains(why), "{bad}: {}", err.reason);
    }
    // Every landing square is written; the short form is read when it is unambiguous.
    let two = pos("B:W18,26:B14");
    assert_eq!(two.move_text(two.parse_move("14x30").unwrap()), "14x23x30");
    let loop_pos = pos("W:WK2:B6,7,14,15");
    assert!(
        loop_pos
            .parse_move("2x2")
            .unwrap_err()
            .reason
            .starts_with("ambiguous")
    );
}

#[test]
fn rule_10_fen() {
    let text = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29";
    assert_eq!(pos(text).to_text(), text);
    assert_eq!(pos("B:W21-32:B1-12").to_text(), START_FEN);
    assert_eq!(pos("B:B1-12:W21-32.").to_text(), START_FEN);
    // A PDN FEN tag holds the same text.
    assert_eq!(pos("[FEN \"B:W21-32:B1-12\"]").to_text(), START_FEN);
    assert!(
        Checkers
            .parse_position("[FEN B:W21-32:B1-12]")
            .unwrap_err()
            .reason
            .contains("double quotes")
    );
    for (bad, why) in [
        ("", "side to move is missing"),
        ("X:W1:B2", "not a side to move"),
        ("B:W1:W2", "listed twice"),
        ("B:W1:B1", "square 1 is given twice"),
        ("B:W33:B1", "not a square 1-32"),
        ("B:W1-13,14:B20", "at most 12"),
        ("B:W5:B30", "king row"),
        ("B:Q1", "must start with B or W"),
    ] {
        let err = Checkers.parse_position(bad).unwrap_err();
        assert!(err.reason.contains(why), "{bad}: {}", err.reason);
    }
}

#[test]
fn rule_10_pdn_games_round_trip() {
    let start = Checkers.start();
    let mut p = start;
    let mut played = Vec::new();
    for m in [
        "11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14",
    ] {
        played.push(p.play_text(m).unwrap());
    }
    let tags = vec![("Event".to_owned(), "Test \"quoted\"".to_owned())];
    let text = pdn::write(&tags, &start, &played, Some(Outcome::Draw));
    assert!(text.contains("[GameType \"21\"]"));
    assert!(
        text.contains("1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1/2-1/2"),
        "{text}"
    );
    let game = pdn::parse(&text).unwrap();
    assert_eq!(game.moves, played);
    assert_eq!(game.result, Some(Outcome::Draw));
    assert_eq!(game.tags[0], ("Event".to_owned(), "Test \"quoted\"".to_owned()));
    // From a set-up position with White to move.
    let setup = pos("W:WK2:B6,7,14,15");
    let m = setup.legal_moves()[0];
    let text = pdn::write(
        &[],
        &setup,
        &[m],
        Some(Outcome::Win {
            winner: Player::Second,
        }),
    );
    assert!(
        text.contains("[FEN \"W:WK2:B6,7,14,15\"]") && text.contains("1... 2x"),
        "{text}"
    );
    assert_eq!(pdn::parse(&text).unwrap().moves, vec![m]);
}

#[test]
fn rule_10_pdn_reads_annotations_and_points_at_errors() {
    let game =
        pdn::parse("[Result \"1-0\"]\n1. 11-15 {a comment} 23-19 (2. 9-13) 2. 8-11! $1 22-17 1-0").unwrap();
    assert_eq!(game.moves.len(), 4);
    assert_eq!(
        game.result,
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    let err = pdn::parse("[GameType \"21\"]\n1. 11-15 23-19\n2. 11-16 22-17").unwrap_err();
    assert_eq!((err.line, err.column), (3, 4));
    assert!(err.reason.contains("move 3"), "{err}");
    for (bad, why) in [
        ("[GameType \"20\"] 1. 32-28", "not American checkers"),
        ("[Event \"x\" 1. 11-15", "never closed"),
        ("[Event x] 1. 11-15", "a tag is written"),
        ("1. 11-15 {open", "never closed"),
        ("1. 11-15 1-0 22-18", "nothing may follow"),
        ("[Result \"0-1\"] 1. 11-15 1-0", "disagrees"),
        ("[FEN \"B:W1\"] 1. 2-3", "FEN tag"),
    ] {
        let err = pdn::parse(bad).unwrap_err();
        assert!(err.to_string().contains(why), "{bad}: {err}");
    }
}

#[test]
fn rule_11_perft_start_position() {
    let table = parse_table(include_str!("../../tests/perft/checkers-start.perft")).unwrap();
    let start = Checkers.start();
    for (depth, count) in table.into_iter().filter(|&(d, _)| d <= 12) {
        assert_eq!(start.perft(depth), count, "perft {depth}");
    }
}

#[test]
#[ignore = "depths 13 and 14 take about 3.5 minutes: the slow tier, scripts/test-slow"]
fn rule_11_perft_start_position_deep() {
    let table = parse_table(include_str!("../../tests/perft/checkers-start.perft")).unwrap();
    let start = Checkers.start();
    for (depth, count) in table.into_iter().filter(|&(d, _)| d > 12) {
        assert_eq!(start.perft(depth), count, "perft {depth}");
    }
}

#[test]
fn rule_11_perft_kings_position() {
    let table = parse_table(include_str!("../../tests/perft/checkers-kings.perft")).unwrap();
    let p = pos("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29");
    for (depth, count) in table {
        assert_eq!(p.perft(depth), count, "perft {depth}");
    }
}

#[test]
fn rule_11_bulk_perft_equals_the_naive_walk() {
    let mut rng = gridplay_core::playout::seeded(5);
    for _ in 0..40 {
        let (p, _) = gridplay_core::playout::random_playout(&Checkers.start(), &mut rng, 60, |_| {});
        for depth in 0..=3 {
            assert_eq!(p.perft(depth), perft_naive(&p, depth), "{}", p.to_text());
        }
    }
}

#[test]
fn generic_invariants_hold_on_random_games() {
    // Random checkers games can shuffle kings for a long time; the position alone has no draw rule.
    testkit::check_game(
        &Checkers,
        &testkit::Plan {
            games: 30,
            seed: 1,
            max_plies: 100_000,
        },
        |p| {
            let b = p.board();
            assert_eq!(b.pieces[0] & b.pieces[1], 0);
            assert_eq!(b.kings & !b.occupied(), 0);
            assert!(b.pieces.iter().all(|s| s.count_ones() <= 12));
        },
    );
}

#[test]
fn every_ballot_is_three_legal_moves() {
    let lines: Vec<&str> = super::BALLOTS.lines().collect();
    assert_eq!(lines.len(), 157);
    for line in lines {
        let mut p = Checkers.start();
        let moves: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(moves.len(), 3, "{line}");
        for m in moves {
            p.play_text(m).unwrap_or_else(|e| panic!("{line}: {m}: {e}"));
        }
        assert!(!p.is_over(), "{line}");
    }
}

/// The file format is PDN: players as Black and White, a file without a `Game` tag recognized by its
/// `GameType` tag or its numbered moves, and bad files refused with PDN's own reason.
#[test]
fn rule_10_files_are_pdn() {
    use gridplay_core::Codec;
    let codec = pdn::PdnCodec;
    let rec = GameRecord::replay(Box::new(Checkers.start()), ["11-15", "23-19"]).unwrap();
    let tags = vec![
        ("First".to_owned(), "Ann".to_owned()),
        ("Second".to_owned(), "Ben".to_owned()),
    ];
    let text = codec.write(&tags, &rec);
    assert!(
        text.contains("[Black \"Ann\"]") && text.contains("1. 11-15 23-19"),
        "{text}"
    );
    let back = codec.read(&Checkers, &text).unwrap();
    assert_eq!(back.record.moves(), rec.moves());
    assert_eq!(back.names, [Some("Ann".to_owned()), Some("Ben".to_owned())]);
    assert!(codec.recognizes(&[], "1. 11-15 23-19 *"));
    assert!(codec.recognizes(&[("GameType".to_owned(), "21".to_owned())], ""));
    assert!(!codec.recognizes(&[], "f5d6c3"));
    let err = codec
        .read(&Checkers, "[GameType \"21\"]\n\n1. 9-13 9-14")
        .unwrap_err()
        .to_string();
    assert!(err.contains("PDN"), "{err}");
}
