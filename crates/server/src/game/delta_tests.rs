//! The typed delta of an event (`state::StateDelta`) against the JSON one (`messages::delta`) on random games of
//! every registered game: the two agree, and the delta turns the old state into the new.

use gridplay_core::{DynGame, GameRecord, Player};
use rand::RngExt;

use super::{
    messages::{apply_delta, delta},
    state::{GameState, LiveFacts, MoveTexts, StateDelta, build_state},
};
use crate::{
    clock::{Clocks, TimeControl},
    db::GameRow,
};

/// The state of `record` as the actor builds it, with a live clock that moves on with the moves.
fn state_of(
    row: &GameRow,
    game: &dyn DynGame,
    record: &GameRecord,
    texts: &mut MoveTexts,
    movers: &[Player],
) -> GameState {
    let view = record.position().view();
    let last_move = view.moves.first().cloned();
    let clocks = Clocks::new(row.time, i64::try_from(record.moves().len()).unwrap_or(0));
    let facts = LiveFacts {
        version: record.moves().len() as u64,
        rotate: [false, true],
        aborted: false,
        clocks: &clocks,
        both_moved: movers.len() > 1,
        ratings: &[None, None],
        movers,
        takeback: None,
        draw_waits: [movers.len() % 3, 0],
        moves: texts.sync(record),
        gone: [
            None,
            Some(crate::game::state::Gone {
                since: 1,
                claim_at: 2,
            })
            .filter(|_| movers.len() % 2 == 1),
        ],
    };
    build_state(row, game, record, view, last_move, &facts)
}

/// Along random games of every registered game, with a takeback now and then, the delta written from the
/// two states is the one computed from their JSON, and it turns the old state's JSON into the new one's.
#[test]
fn the_typed_delta_is_the_json_delta_in_every_game() {
    let registry = gridplay_games::registry_with_test_games();
    for entry in registry.entries() {
        let game = registry.game(entry.name).expect("a registered game builds");
        let mut row = GameRow::new(
            entry.name.to_owned(),
            entry.name.to_owned(),
            [None, None],
            [None, Some(3)],
        );
        row.time = TimeControl::Live {
            initial_ms: 60_000,
            increment_ms: 1_000,
        };
        for seed in 0..3 {
            let mut rng = gridplay_core::playout::seeded(seed);
            let mut record = GameRecord::new(game.start());
            let mut texts = MoveTexts::default();
            let mut movers = Vec::new();
            let mut old = serde_json::Value::Null;
            let mut before = state_of(&row, game.as_ref(), &record, &mut texts, &movers);
            for ply in 0..150 {
                let legal = record.position().legal_moves();
                if legal.is_empty() {
                    break;
                }
                if ply % 7 == 6 && record.moves().len() > 1 {
                    let kept = record.moves().len() - 2;
                    let moves = record.moves()[..kept].to_vec();
                    record = GameRecord::replay(game.start(), moves.iter().map(String::as_str))
                        .expect("a game's own moves replay");
                    movers.truncate(kept);
                } else {
                    let m = &legal[rng.random_range(0..legal.len())];
                    record.play(m).expect("a legal move plays");
                    movers.push(if ply % 2 == 0 {
                        Player::First
                    } else {
                        Player::Second
                    });
                }
                let after = state_of(&row, game.as_ref(), &record, &mut texts, &movers);
                let typed = serde_json::to_value(StateDelta {
                    old: &before,
                    new: &after,
                })
                .expect("a delta serializes");
                let (a, b) = (
                    serde_json::to_value(&before).expect("a state serializes"),
                    serde_json::to_value(&after).expect("a state serializes"),
                );
                assert_eq!(typed, delta(&a, &b), "{} seed {seed} ply {ply}", entry.name);
                old.clone_from(&a);
                apply_delta(&mut old, &typed);
                assert_eq!(old, b, "{} seed {seed} ply {ply}", entry.name);
                before = after;
            }
        }
    }
}
