//! Every game's position parser: no panic, and whatever is accepted writes back to a text that reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for entry in gridplay_games::registry().entries() {
        let game = gridplay_games::registry().game(entry.name).expect("registered");
        if let Ok(pos) = game.parse_position(text) {
            let written = pos.to_text();
            let again = game.parse_position(&written).expect("own text reads back");
            assert_eq!(again.to_text(), written);
            for m in pos.legal_moves() {
                pos.box_clone().play(&m).expect("generated moves are legal");
            }
        }
    }
});
