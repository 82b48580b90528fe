//! Property tests over every registered game: random legal playouts never panic, every generated move is
//! legal, texts round-trip, scores add up, and no parser panics on any input.

use gridplay_core::{Game, Position};
use gridplay_games::{
    checkers::Checkers,
    cornered::{Cornered, Tie},
    reversi::{Colour, Reversi},
    tactics::Tactics,
    ywf::Ywf,
};
use proptest::prelude::*;

/// Plays the moves chosen by `picks` (each taken modulo the number of legal moves) and checks each step.
fn walk<G: Game>(game: &G, picks: &[usize], score_total: impl Fn(&G::Position) -> i32) {
    let mut pos = game.start();
    for &pick in picks {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            assert!(pos.outcome().is_some());
            break;
        }
        let m = moves[pick % moves.len()];
        assert!(pos.is_legal(m));
        let text = pos.move_text(m);
        assert_eq!(pos.parse_move(&text), Ok(m));
        let next = pos.clone().play(m).expect("a generated move is legal");
        let back = game.parse_position(&next.to_text()).expect("own text reads back");
        assert_eq!(back.to_text(), next.to_text());
        let s = next.score();
        assert!(s.first >= 0 && s.second >= 0);
        assert_eq!(s.first + s.second, score_total(&next));
        pos = next;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn reversi_playouts(picks in prop::collection::vec(any::<usize>(), 0..70), white in any::<bool>()) {
        let game = Reversi { first: if white { Colour::White } else { Colour::Black } };
        walk(&game, &picks, |p| { let (b, w) = p.discs(); (b | w).count_ones() as i32 });
    }

    #[test]
    fn cornered_playouts(picks in prop::collection::vec(any::<usize>(), 0..90), size in 2u8..=9, black in any::<bool>()) {
        let game = Cornered { size, tie: if black { Tie::Black } else { Tie::Draw } };
        walk(&game, &picks, |p| p.board().cells().iter().filter(|c| c.owner().is_some()).count() as i32);
    }

    #[test]
    fn ywf_playouts(picks in prop::collection::vec(any::<usize>(), 0..120)) {
        walk(&Ywf::default(), &picks, |p| {
            p.board().squares.iter().filter(|s| matches!(s, gridplay_games::ywf::board::Square::Own(_))).count() as i32
        });
    }

    #[test]
    fn checkers_playouts(picks in prop::collection::vec(any::<usize>(), 0..200)) {
        walk(&Checkers, &picks, |p| p.board().occupied().count_ones() as i32);
    }

    #[test]
    fn tactics_playouts(picks in prop::collection::vec(any::<usize>(), 0..300), size in 16u8..=20) {
        walk(&Tactics::with_size(size), &picks, |p| p.units().iter().map(|u| u.health).sum());
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,120}") {
        for entry in gridplay_games::registry().entries() {
            let game = gridplay_games::registry().game(entry.name).unwrap();
            let _ = game.parse_position(&text);
            let mut pos = game.start();
            let _ = pos.play(&text);
        }
        let _ = gridplay_games::registry().game(&text);
    }

    #[test]
    fn position_like_texts_never_panic(text in "[XOWBwbYFK.:,\\-/0-9 c*]{0,100}") {
        for entry in gridplay_games::registry().entries() {
            let game = gridplay_games::registry().game(entry.name).unwrap();
            if let Ok(pos) = game.parse_position(&text) {
                // Whatever was accepted plays by the rules: moves are legal and the text is stable.
                let text2 = pos.to_text();
                let again = game.parse_position(&text2).unwrap();
                assert_eq!(again.to_text(), text2);
                for m in pos.legal_moves() {
                    let mut p = pos.clone();
                    p.play(&m).unwrap();
                }
            }
        }
    }
}

#[test]
fn registry_lists_every_game_and_builds_specs() {
    let names: Vec<&str> = gridplay_games::registry()
        .entries()
        .iter()
        .map(|e| e.name)
        .collect();
    assert_eq!(names, ["reversi", "cornered", "ywf", "checkers", "tactics"]);
    for spec in [
        "reversi",
        "reversi:first=white",
        "cornered",
        "cornered:size=11",
        "cornered:size=4,tie=black",
        "ywf",
        "checkers",
        "tactics",
        "tactics:army=wha,army2=wwhaa,size=24",
    ] {
        let g = gridplay_games::registry().game(spec).unwrap();
        assert_eq!(g.spec().to_string(), spec);
    }
    let err = gridplay_games::registry().game("chess").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown game `chess`; the games are: reversi, cornered, ywf, checkers, tactics"
    );
}
