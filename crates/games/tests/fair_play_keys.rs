//! The fair-play rule's keys (`Position::fair_play_key`): a position, its images under the board's
//! symmetries and its colour-swapped copy share one key, and different positions have different keys, along
//! random games of every game whose key is more than its text.

use gridplay_core::{DynPosition, playout};
use gridplay_games::registry;

/// A square's name mirrored in the a1-h8 diagonal (`f5` becomes `e6`), for boards of up to 9 files.
fn mirror(m: &str) -> String {
    let b = m.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_digit() {
        return m.to_owned();
    }
    format!(
        "{}{}",
        (b'a' + (b[1] - b'1')) as char,
        (b'1' + (b[0] - b'a')) as char
    )
}

/// Plays random games of `spec` beside their mirror images: at every ply both share a key, which differs
/// from the key one ply before.
fn mirrored_games_share_keys(spec: &str, seed: u64) {
    let game = registry().game(spec).unwrap();
    let mut rng = playout::seeded(seed);
    for _ in 0..20 {
        let (mut a, mut b) = (game.start(), game.start());
        for _ in 0..30 {
            let Some(m) = a.random_move(&mut rng) else { break };
            let before = a.fair_play_key();
            a.play(&m).unwrap();
            b.play(&mirror(&m)).unwrap_or_else(|e| panic!("{spec} {m}: {e}"));
            assert_eq!(
                a.fair_play_key(),
                b.fair_play_key(),
                "{spec}: a game and its mirror image"
            );
            assert_ne!(a.fair_play_key(), before, "{spec}: a move changes the key");
        }
    }
}

#[test]
fn reversi_and_cornered_games_meet_their_mirror_images() {
    mirrored_games_share_keys("reversi", 3);
    mirrored_games_share_keys("cornered:size=7", 4);
}

#[test]
fn a_reversi_position_and_its_colour_swapped_copy_share_a_key() {
    let game = registry().game("reversi").unwrap();
    let mut pos = game.start();
    for m in ["f5", "d6", "c3", "d3"] {
        pos.play(m).unwrap();
    }
    let swapped: String = pos
        .to_text()
        .chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            other => other,
        })
        .collect();
    let copy = game.parse_position(&swapped).unwrap();
    assert_ne!(copy.to_text(), pos.to_text());
    assert_eq!(copy.fair_play_key(), pos.fair_play_key());
}

/// A checkers FEN with the board turned half round and the colours swapped (square n becomes 33 - n).
fn turn_round(fen: &str) -> String {
    let mut parts = fen.split(':');
    let turn = match parts.next() {
        Some("B") => "W",
        _ => "B",
    };
    let mut sides: Vec<String> = parts
        .map(|side| {
            let colour = if side.starts_with('W') { 'B' } else { 'W' };
            let squares: Vec<String> = side[1..]
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| {
                    let (king, n) = s.strip_prefix('K').map_or(("", s), |n| ("K", n));
                    format!("{king}{}", 33 - n.parse::<u32>().unwrap())
                })
                .collect();
            format!("{colour}{}", squares.join(","))
        })
        .collect();
    sides.sort_by_key(|s| s.starts_with('B'));
    format!("{turn}:{}", sides.join(":"))
}

#[test]
fn a_checkers_position_and_its_colour_swapped_copy_share_a_key() {
    let game = registry().game("checkers").unwrap();
    let mut rng = playout::seeded(9);
    for _ in 0..20 {
        let mut pos: Box<dyn DynPosition> = game.start();
        for _ in 0..20 {
            let Some(m) = pos.random_move(&mut rng) else { break };
            pos.play(&m).unwrap();
        }
        let text = pos.to_text();
        let copy = game
            .parse_position(&turn_round(&text))
            .unwrap_or_else(|e| panic!("{text} turned round: {e}"));
        assert_ne!(copy.to_text(), text);
        assert_eq!(copy.fair_play_key(), pos.fair_play_key(), "{text}");
    }
}

#[test]
fn the_least_image_is_the_same_for_all_eight_and_differs_for_another_board() {
    // A 3x3 board with one corner marked: its eight images are the four corners.
    let corners = ["x--------", "--x------", "------x--", "--------x"];
    let keys: Vec<String> = corners
        .iter()
        .map(|c| gridplay_core::least_image(3, c.as_bytes()))
        .collect();
    assert!(keys.iter().all(|k| *k == keys[0]), "{keys:?}");
    assert_ne!(gridplay_core::least_image(3, b"-x-------"), keys[0]);
}
