//! Every game's levels come from the engine table: the top level plays, and the level past it (and level 0)
//! is refused with the game's top level named, never an index past the table.

use gridplay_engine::{ENGINES, EngineError, Request, think, top_level};
use gridplay_search::StopFlag;

#[test]
fn the_top_level_plays_and_the_one_past_it_is_refused_in_every_game() {
    let registry = gridplay_games::registry_with_test_games();
    for engine in ENGINES {
        let top = top_level(engine.game).expect("the table names the game");
        assert_eq!(usize::from(top), engine.levels.len());
        let pos = registry.game(engine.game).expect("a registered game").start();
        let at = |level| {
            let request = Request {
                level: Some(level),
                ..Request::default()
            };
            think(pos.as_ref(), &request, &StopFlag::new())
        };
        let reply = at(top).unwrap_or_else(|e| panic!("{}: level {top}: {e}", engine.game));
        assert!(
            pos.view().moves.iter().any(|m| m.text == reply.best),
            "{}: {}",
            engine.game,
            reply.best
        );
        for past in [top + 1, u8::MAX, 0] {
            match at(past) {
                Err(EngineError::BadLevel { level, top: named }) => {
                    assert_eq!((level, named), (past, engine.levels.len()), "{}", engine.game);
                }
                other => panic!("{}: level {past} gave {other:?}", engine.game),
            }
        }
    }
    assert_eq!(top_level("chess"), None);
}
