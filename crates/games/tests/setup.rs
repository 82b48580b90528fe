//! The board editor's positions (`Game::setup`): every game's start set up from its own view comes back the
//! same, and positions the games cannot have are refused with the reason.

use gridplay_core::{DynPosition, Player};
use gridplay_games::registry_with_test_games;

/// A position's cells as the board editor sends them: each cell's piece character.
fn cells(pos: &dyn DynPosition) -> Vec<Option<char>> {
    pos.view()
        .cells
        .iter()
        .map(|c| c.piece.as_ref().map(|p| p.glyph))
        .collect()
}

const SPECS: &[&str] = &[
    "reversi",
    "reversi:first=white",
    "cornered",
    "cornered:size=5",
    "ywf",
    "checkers",
    "tactics",
    "tactics:size=20",
    "tictactoe",
];

#[test]
fn every_start_set_up_from_its_view_is_the_same_position() {
    let registry = registry_with_test_games();
    for spec in SPECS {
        let game = registry.game(spec).unwrap();
        let start = game.start();
        let set = game
            .setup(start.as_ref(), &cells(start.as_ref()), start.turn())
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(set.to_text(), start.to_text(), "{spec}");
        // Every piece the module offers is one its views draw.
        let module = registry.entry(&game.info().name).unwrap().module;
        assert!(!module.pieces.is_empty(), "{spec}");
    }
}

#[test]
fn a_piece_set_down_or_taken_away_is_in_the_position() {
    let registry = registry_with_test_games();
    for spec in SPECS {
        let game = registry.game(spec).unwrap();
        let start = game.start();
        let module = registry.entry(&game.info().name).unwrap().module;
        let mut edited = cells(start.as_ref());
        let view = start.view();
        // Take away the last piece that may go (none may in Reversi's start: its four discs are the centre).
        let removable = edited
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, c)| c.is_some())
            .map(|(i, _)| i)
            .find(|&i| {
                let mut fewer = edited.clone();
                fewer[i] = None;
                game.setup(start.as_ref(), &fewer, start.turn()).is_ok()
            });
        if let Some(i) = removable {
            edited[i] = None;
            let set = game.setup(start.as_ref(), &edited, start.turn()).unwrap();
            assert_eq!(cells(set.as_ref()), edited, "{spec}");
        } else {
            assert!(
                spec.starts_with("reversi") || edited.iter().all(Option::is_none),
                "{spec}: no piece may be taken away"
            );
        }
        let glyph = module.pieces[0].glyph;
        let placed = (0..edited.len()).rev().find(|&i| {
            let mut more = edited.clone();
            more[i] = Some(glyph);
            view.cells[i].piece.is_none() && game.setup(start.as_ref(), &more, start.turn()).is_ok()
        });
        if let Some(i) = placed {
            edited[i] = Some(glyph);
            let set = game.setup(start.as_ref(), &edited, start.turn()).unwrap();
            assert_eq!(
                set.view().cells[i].piece.as_ref().map(|p| p.glyph),
                Some(glyph),
                "{spec}"
            );
        }
    }
}

/// Positions that cannot be, each with a word of the reason given.
#[test]
fn impossible_positions_are_refused_with_the_reason() {
    let registry = registry_with_test_games();
    let refused = |spec: &str, edit: &dyn Fn(&mut Vec<Option<char>>), turn: Option<Player>, why: &str| {
        let game = registry.game(spec).unwrap();
        let start = game.start();
        let mut c = cells(start.as_ref());
        edit(&mut c);
        let e = game
            .setup(start.as_ref(), &c, turn.unwrap_or(start.turn()))
            .err()
            .unwrap_or_else(|| panic!("{spec}: accepted"));
        assert!(e.to_string().contains(why), "{spec}: {e}");
    };
    // Reversi: a centre square emptied.
    refused("reversi", &|c| c[27] = None, None, "centre");
    // Any game: a character that is no piece, the wrong number of cells.
    refused("reversi", &|c| c[0] = Some('Z'), None, "not a piece");
    refused(
        "ywf",
        &|c| {
            c.pop();
        },
        None,
        "cells",
    );
    // Checkers: a piece on a light square; a man on its king row; thirteen pieces a side.
    refused("checkers", &|c| c[0] = Some('b'), None, "light square");
    refused(
        "checkers",
        &|c| {
            c[1] = None;
            c[62] = Some('b');
            c[1] = None;
        },
        None,
        "king row",
    );
    refused(
        "checkers",
        &|c| {
            let free = (0..64)
                .find(|&i| c[i].is_none() && (i / 8 + i % 8) % 2 == 1 && i / 8 == 3)
                .unwrap();
            c[free] = Some('w');
        },
        None,
        "12",
    );
    // Tic-tac-toe: O with more marks than X; the wrong side to move; both sides with three in a row.
    refused("tictactoe", &|c| c[0] = Some('O'), None, "as many marks");
    refused(
        "tictactoe",
        &|c| c[0] = Some('X'),
        Some(Player::First),
        "O to move",
    );
    refused(
        "tictactoe",
        &|c| {
            for i in 0..3 {
                c[i] = Some('X');
                c[3 + i] = Some('O');
            }
        },
        Some(Player::First),
        "both sides",
    );
}

#[test]
fn a_tactics_unit_left_in_place_keeps_its_health() {
    let registry = registry_with_test_games();
    let game = registry.game("tactics").unwrap();
    let mut rng = gridplay_core::playout::seeded(5);
    // Play on until some unit has lost health.
    let hurt = |p: &dyn DynPosition| {
        p.to_text() != game.start().to_text() && {
            let start: Vec<_> = game
                .start()
                .view()
                .cells
                .iter()
                .filter_map(|c| c.piece.as_ref().and_then(|p| p.label.clone()))
                .collect();
            let now: Vec<_> = p
                .view()
                .cells
                .iter()
                .filter_map(|c| c.piece.as_ref().and_then(|p| p.label.clone()))
                .collect();
            let total = |v: &[String]| v.iter().map(|h| h.parse::<i32>().unwrap()).sum::<i32>();
            total(&now) < total(&start)
        }
    };
    let mut pos = game.start();
    while !hurt(pos.as_ref()) && pos.outcome().is_none() {
        let m = pos.random_move(&mut rng).unwrap();
        pos.play(&m).unwrap();
    }
    assert!(hurt(pos.as_ref()), "a unit was hurt");
    let set = game
        .setup(pos.as_ref(), &cells(pos.as_ref()), pos.turn())
        .unwrap();
    assert_eq!(set.to_text(), pos.to_text());
}
