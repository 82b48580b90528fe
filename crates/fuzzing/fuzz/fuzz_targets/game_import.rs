//! Game import: no panic, and an accepted file exports and imports back to the same game.
//! The body is `gridplay_fuzzing::game_import`, which `crates/fuzzing/tests/fuzz.rs` also runs on every test run.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gridplay_fuzzing::game_import(data));
