//! The guard on the server's throughput: a short load run whose CPU time per move is printed beside the
//! figure recorded in `baseline.txt` for the same build profile, as a ratio. A figure, not a timed assertion
//! (a shared machine's timings vary): a reader of scripts/test's log sees a regression as a ratio well above
//! 1. The run itself must be exact: every acknowledged move stored once.

use std::time::Duration;

use gridplay_bench::load::{LoadOptions, run};

/// The recorded figure: `cpu_us_per_move_test_profile = N` in `baseline.txt`, with its `measured` line.
fn baseline() -> Option<(f64, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/baseline.txt")).ok()?;
    let value = text.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == "cpu_us_per_move_test_profile").then(|| v.trim().parse::<f64>().ok())?
    })?;
    let source = text
        .lines()
        .find_map(|l| l.strip_prefix("measured").map(str::trim))
        .unwrap_or("unknown")
        .to_owned();
    Some((value, source))
}

#[test]
#[ignore = "a figure for the log: scripts/test runs it with --ignored --nocapture"]
fn cpu_time_per_move_beside_the_baseline() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let report = rt
        .block_on(run(LoadOptions {
            players: 40,
            duration: Duration::from_secs(4),
            database: None,
            spec: "reversi".into(),
            weigh: false,
            targets: Vec::new(),
            db_writers: None,
            clock_s: None,
        }))
        .expect("the load run");
    assert!(report.moves > 0, "no move was played");
    assert!(report.exact, "an acknowledged move was lost or stored twice");
    assert!(
        report.cpu > Duration::ZERO,
        "no CPU time was read (/proc/self/stat)"
    );
    let now = report.cpu_us_per_move();
    println!("{report}");
    match baseline() {
        Some((base, source)) => println!(
            "throughput guard: {now:.0} us of CPU per move; baseline {base:.0} us ({source}): {:.2}x",
            now / base
        ),
        None => println!("throughput guard: {now:.0} us of CPU per move; no baseline recorded"),
    }
}
