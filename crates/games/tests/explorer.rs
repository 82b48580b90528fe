//! The opening explorer's keys: Reversi's positions that are images of each other under the board's eight
//! symmetries share one key; the other games key positions by their text.

use gridplay_games::registry_with_test_games;

#[test]
fn reversis_four_first_moves_reach_one_key_and_a_game_meets_its_mirror_image() {
    let game = gridplay_games::registry().game("reversi").unwrap();
    let keys: Vec<String> = ["f5", "d3", "c4", "e6"]
        .iter()
        .map(|m| {
            let mut p = game.start();
            p.play(m).unwrap();
            p.explorer_key()
        })
        .collect();
    assert!(keys.iter().all(|k| *k == keys[0]), "{keys:?}");
    assert_ne!(keys[0], game.start().explorer_key());
    // A game, and the same game mirrored in the a1-h8 diagonal (f5 becomes e6), meet at every ply, and
    // differ from it in their texts once a move is played.
    let mirror = |m: &str| {
        let b = m.as_bytes();
        if m == "pass" {
            m.to_owned()
        } else {
            format!(
                "{}{}",
                (b'a' + (b[1] - b'1')) as char,
                (b'1' + (b[0] - b'a')) as char
            )
        }
    };
    let mut rng = gridplay_core::playout::seeded(11);
    for _ in 0..40 {
        let (mut a, mut b) = (game.start(), game.start());
        for _ in 0..40 {
            let Some(m) = a.random_move(&mut rng) else { break };
            a.play(&m).unwrap();
            b.play(&mirror(&m)).unwrap_or_else(|e| panic!("{m}: {e}"));
            assert_eq!(
                a.explorer_key(),
                b.explorer_key(),
                "{} / {}",
                a.to_text(),
                b.to_text()
            );
        }
        assert_ne!(a.to_text(), b.to_text());
    }
}

#[test]
fn other_games_key_positions_by_their_text() {
    let registry = registry_with_test_games();
    for spec in ["cornered", "ywf", "checkers", "tactics", "tictactoe"] {
        let start = registry.game(spec).unwrap().start();
        assert_eq!(start.explorer_key(), start.to_text(), "{spec}");
    }
}
