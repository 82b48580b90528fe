//! Game specs: no panic, and an accepted spec's canonical form builds the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(game) = gridplay_games::registry().game(text) {
        let canonical = game.spec().to_string();
        let again = gridplay_games::registry().game(&canonical).expect("canonical spec builds");
        assert_eq!(again.spec().to_string(), canonical);
    }
});
