//! Every game's move parser and validator on the start position and a few plies in: no panic, and an
//! accepted move is one of the legal moves.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for entry in gridplay_games::registry().entries() {
        let game = gridplay_games::registry().game(entry.name).expect("registered");
        let mut pos = game.start();
        for _ in 0..3 {
            let legal = pos.legal_moves();
            let mut trial = pos.box_clone();
            if trial.play(text).is_ok() {
                let canonical = pos.normalize_move(text).expect("accepted moves normalise");
                assert!(legal.contains(&canonical), "{text:?} accepted but not listed");
            }
            let Some(first) = legal.first() else { break };
            pos.play(first).expect("legal");
        }
    }
});
