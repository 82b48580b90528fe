//! Game specs: no panic, and an accepted spec's canonical form builds the same game.
//! The body is `gridplay_fuzzing::game_spec`, which `crates/fuzzing/tests/fuzz.rs` also runs on every test run.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gridplay_fuzzing::game_spec(data));
