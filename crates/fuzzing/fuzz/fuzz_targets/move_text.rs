//! Every game's move parser and validator: no panic, and an accepted move is one of the legal moves.
//! The body is `gridplay_fuzzing::move_text`, which `crates/fuzzing/tests/fuzz.rs` also runs on every test run.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gridplay_fuzzing::move_text(data));
