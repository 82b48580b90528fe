//! Checkers PDN games: no panic, and an accepted game writes back to a text that reads the same.
#![no_main]

use gridplay_games::checkers::pdn;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(game) = pdn::parse(text) {
        let written = pdn::write(&game.tags, &game.start, &game.moves, game.result);
        let again = pdn::parse(&written).expect("written PDN reads back");
        assert_eq!(again.moves, game.moves);
        assert_eq!(again.result, game.result);
    }
});
