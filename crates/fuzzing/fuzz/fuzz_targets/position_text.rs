//! Every game's position parser: no panic, and whatever is accepted writes back to a text that reads the same.
//! The body is `gridplay_fuzzing::position_text`, which `crates/fuzzing/tests/fuzz.rs` also runs on every test run.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gridplay_fuzzing::position_text(data));
