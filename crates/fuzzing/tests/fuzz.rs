//! Runs every fuzz target for a fixed time on mutations of its seeds (byte flips, insertions, deletions,
//! repeats, splices and JSON/notation tokens), and fails on the first input that makes a target panic, printing
//! it. The time per target is `GRIDPLAY_FUZZ_SECONDS` (default 5). `scripts/test` runs it with `--ignored
//! --nocapture`, so that the number of runs of each target shows in the log.

use std::{
    panic::{AssertUnwindSafe, catch_unwind},
    time::{Duration, Instant},
};

use rand::{Rng, RngExt, SeedableRng, rngs::SmallRng};

const TOKENS: &[&str] = &[
    "\"",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\n",
    "-",
    "x",
    "=",
    "0",
    "-1",
    "18446744073709551616",
    "null",
    "true",
    "\\u0000",
    "é",
    "\u{202e}",
    "[Game \"",
    "\"]\n",
    "1-0",
    "*",
    "size=",
    "move",
    "watch",
    "GAME",
];

fn mutate(rng: &mut SmallRng, seeds: &[Vec<u8>], input: &mut Vec<u8>) {
    for _ in 0..rng.random_range(1..=4) {
        match rng.random_range(0..7) {
            0 if !input.is_empty() => {
                let i = rng.random_range(0..input.len());
                input[i] ^= 1 << rng.random_range(0..8);
            }
            1 => {
                let i = rng.random_range(0..=input.len());
                input.insert(i, rng.random());
            }
            2 if !input.is_empty() => {
                let a = rng.random_range(0..input.len());
                let b = rng.random_range(a..=input.len().min(a + 16));
                input.drain(a..b);
            }
            3 if !input.is_empty() => {
                let a = rng.random_range(0..input.len());
                let b = rng.random_range(a..=input.len().min(a + 32));
                let part = input[a..b].to_vec();
                let at = rng.random_range(0..=input.len());
                input.splice(at..at, part);
            }
            4 => {
                let other = &seeds[rng.random_range(0..seeds.len())];
                if !other.is_empty() {
                    let a = rng.random_range(0..other.len());
                    let at = rng.random_range(0..=input.len());
                    input.splice(at..at, other[a..].iter().copied());
                }
            }
            5 => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())].as_bytes();
                let at = rng.random_range(0..=input.len());
                input.splice(at..at, t.iter().copied());
            }
            _ => input.truncate(rng.random_range(0..=input.len())),
        }
    }
    input.truncate(4096);
}

#[test]
#[ignore = "runs for a fixed time; scripts/test runs it with --ignored --nocapture"]
fn every_fuzz_target_survives_mutated_inputs() {
    let seconds: u64 = std::env::var("GRIDPLAY_FUZZ_SECONDS").map_or(5, |s| {
        s.parse()
            .unwrap_or_else(|_| panic!("GRIDPLAY_FUZZ_SECONDS={s} is not a whole number of seconds"))
    });
    assert!(
        seconds > 0,
        "GRIDPLAY_FUZZ_SECONDS=0 would run no input: give each target 1 second or more"
    );
    // Panics are the findings: keep their messages out of the log until one is reported.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    for target in gridplay_fuzzing::targets() {
        let seeds = (target.seeds)();
        assert!(!seeds.is_empty(), "{} has seeds", target.name);
        let mut rng = SmallRng::seed_from_u64(rand::rng().next_u64());
        let start = Instant::now();
        let mut runs = 0u64;
        while start.elapsed() < Duration::from_secs(seconds) {
            let mut input = seeds[rng.random_range(0..seeds.len())].clone();
            if runs >= seeds.len() as u64 {
                mutate(&mut rng, &seeds, &mut input);
            }
            runs += 1;
            if let Err(e) = catch_unwind(AssertUnwindSafe(|| (target.run)(&input))) {
                let why = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default();
                failures.push(format!(
                    "{}: {why}\n  input: {:?}",
                    target.name,
                    String::from_utf8_lossy(&input)
                ));
                break;
            }
        }
        assert!(
            runs > seeds.len() as u64 || !failures.is_empty(),
            "{}: only {runs} runs in {seconds} s, none past the seeds",
            target.name
        );
        println!(
            "fuzz {:<16} {runs:>9} runs in {:.1} s, {}",
            target.name,
            start.elapsed().as_secs_f64(),
            if failures.iter().any(|f| f.starts_with(target.name)) {
                "FAILED"
            } else {
                "no crash"
            }
        );
    }
    std::panic::set_hook(hook);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
