//! Checkers PDN games: no panic, and an accepted game writes back to a text that reads the same.
//! The body is `gridplay_fuzzing::checkers_pdn`, which `crates/fuzzing/tests/fuzz.rs` also runs on every test run.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gridplay_fuzzing::checkers_pdn(data));
