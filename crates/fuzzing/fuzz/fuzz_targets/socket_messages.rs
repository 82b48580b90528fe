//! The WebSocket reader: each line is one message of a page on an in-memory server; every answer is JSON.
//! The body is `gridplay_fuzzing::socket_messages`, which `crates/fuzzing/tests/fuzz.rs` also runs on every test run.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gridplay_fuzzing::socket_messages(data));
