use std::{path::PathBuf, sync::atomic::AtomicBool};

use gridplay_core::Position;
use gridplay_games::reversi::bitboard::Board;

use super::*;

/// Cheap recipes for the job's tests: small shards of quick labels.
const SMALL: &[Recipe] = &[
    Recipe {
        name: "exact-10-12",
        low: 10,
        high: 12,
        label: Label::Exact,
        shard_size: 3,
    },
    Recipe {
        name: "search4-30-40",
        low: 30,
        high: 40,
        label: Label::Search { depth: 4 },
        shard_size: 3,
    },
];

/// Reversi's labeller with [`SMALL`]'s recipes.
struct Small(reversi::Labeller);

impl Source for Small {
    fn game(&self) -> &'static str {
        "reversi"
    }
    fn generator(&self) -> &'static str {
        reversi::GENERATOR
    }
    fn recipes(&self) -> &'static [Recipe] {
        SMALL
    }
    fn label_source(&mut self) -> String {
        "test".into()
    }
    fn label(&mut self, seed: u64, index: u64, recipe: &Recipe) -> i16 {
        self.0.label(seed, index, recipe)
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridplay-datagen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run_small(dir: &std::path::Path, labels: u64) -> u64 {
    let job = Job {
        dir,
        build: "test-build",
        seeds: 0..100,
        labels: Some(labels),
    };
    let mut sources: Vec<Box<dyn Source>> = vec![Box::new(Small(reversi::Labeller::new()))];
    run(&job, &mut sources, &AtomicBool::new(false), |_| {}).expect("the job runs")
}

/// FNV-1a over the words: a hash that no Rust release changes, unlike the standard library's.
fn fingerprint(words: impl Iterator<Item = u64>) -> u64 {
    let mut h = 0xCBF2_9CE4_8422_2325u64;
    for w in words {
        for byte in w.to_le_bytes() {
            h = (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3);
        }
    }
    h
}

#[test]
fn the_reversi_generator_is_frozen() {
    // Pinned: a change to the generator changes these, and must take a new GENERATOR name.
    let positions = (0..50).flat_map(|i| {
        let b = reversi::position(7, i, 20, 44);
        [b.player, b.opponent]
    });
    assert_eq!(
        fingerprint(positions),
        9_362_177_467_005_286_424,
        "reversi-positions-1 changed"
    );
}

#[test]
fn the_checkers_generator_is_frozen() {
    let positions = (0..50).flat_map(|i| {
        let p = checkers::position(7, i, 7, 20);
        let b = p.board();
        [
            u64::from(b.pieces[0]),
            u64::from(b.pieces[1]),
            u64::from(b.kings),
            p.turn().index() as u64,
        ]
    });
    assert_eq!(
        fingerprint(positions),
        7_434_576_659_204_797_081,
        "checkers-positions-1 changed"
    );
}

fn position_key(b: Board) -> (u64, u64) {
    (b.player, b.opponent)
}

#[test]
fn reversi_positions_keep_to_their_recipe_and_vary() {
    let mut seen = std::collections::HashSet::new();
    for i in 0..200 {
        let b = reversi::position(3, i, 20, 24);
        let empties = b.empty().count_ones();
        assert!((20..=24).contains(&empties), "position {i}: {empties} empties");
        assert_ne!(b.moves(), 0, "position {i}: the side to move has a move");
        seen.insert(position_key(b));
    }
    assert!(seen.len() > 190, "only {} distinct positions of 200", seen.len());
}

#[test]
fn checkers_positions_keep_to_their_recipe_and_are_quiet() {
    let mut seen = std::collections::HashSet::new();
    for i in 0..200 {
        let p = checkers::position(3, i, 7, 12);
        let pieces = p.board().occupied().count_ones();
        assert!((7..=12).contains(&pieces), "position {i}: {pieces} pieces");
        let moves = p.legal_moves();
        assert!(!moves.is_empty(), "position {i}: the side to move has a move");
        assert!(!moves[0].is_capture(), "position {i}: no capture is pending");
        seen.insert((p.board().pieces, p.board().kings, p.turn().index()));
    }
    assert!(seen.len() > 190, "only {} distinct positions of 200", seen.len());
}

#[test]
fn checkers_labels_are_the_side_to_moves_and_the_same_each_time() {
    use gridplay_games::checkers::{CheckersPosition, bitboard::Board as CheckersBoard};
    // Red (to move) has three men against one: well ahead for the side to move, and behind when White is.
    let board = CheckersBoard {
        pieces: [(1 << 8) | (1 << 9) | (1 << 10), 1 << 28],
        kings: 0,
    };
    let red = CheckersPosition::from_board(board, gridplay_core::Player::First);
    let white = CheckersPosition::from_board(board, gridplay_core::Player::Second);
    let (r, w) = (
        checkers::label_for_test(&red, 8),
        checkers::label_for_test(&white, 8),
    );
    assert!(r > 100 && w < -100, "red to move {r}, white to move {w}");
    let p = checkers::position(11, 0, 9, 9);
    assert_eq!(
        checkers::label_for_test(&p, 8),
        checkers::label_for_test(&p, 8),
        "a fresh table each time"
    );
}

#[test]
fn the_job_fills_shards_in_turn_resumes_and_reads_back_what_it_labelled() {
    let dir = temp_dir("job");
    assert_eq!(run_small(&dir, 4), 4);
    let folder = dir.join("reversi");
    let manifests = shard::manifests(&folder).expect("manifests");
    let counts: Vec<(u64, &str, u32, u32)> = manifests
        .iter()
        .map(|(_, m)| (m.seed, m.recipe.as_str(), m.count, m.target))
        .collect();
    assert_eq!(counts, [(0, "exact-10-12", 3, 3), (1, "search4-30-40", 1, 3)]);

    // A job killed in the middle of a label leaves a partial one: the next job cuts it and goes on.
    let labels_path = folder.join("000001.labels");
    let mut bytes = std::fs::read(&labels_path).expect("labels");
    bytes.push(0x7F);
    std::fs::write(&labels_path, bytes).expect("write");
    assert_eq!(run_small(&dir, 2), 2);
    let manifests = shard::manifests(&folder).expect("manifests");
    let second = &manifests[1].1;
    assert_eq!(second.count, 3);
    assert_eq!(
        second
            .runs
            .iter()
            .map(|r| (r.from, r.to, r.build.as_str()))
            .collect::<Vec<_>>(),
        [(0, 1, "test-build"), (1, 3, "test-build")]
    );
    assert_eq!(
        manifests.len(),
        2,
        "no shard is opened once the labels asked for are made"
    );

    // Read back: the generator's positions, with the labels made for them.
    let read = reversi::read(&folder).expect("read");
    assert_eq!(read.len(), 6);
    for (i, (l, kind)) in read.iter().enumerate() {
        let (seed, index) = ((i / 3) as u64, (i % 3) as u64);
        let recipe = SMALL[seed as usize];
        assert_eq!(
            l.position,
            reversi::position(seed, index, recipe.low, recipe.high)
        );
        assert_eq!(*kind, recipe.label);
        assert_eq!(
            l.label,
            reversi::label_for_test(l.position, recipe.label),
            "label {i}"
        );
    }
    // An exact label is a whole number of discs.
    assert!(read[..3].iter().all(|(l, _)| l.label % 100 == 0));
    // The fit's samples: the same positions, each label in discs.
    let samples = reversi::samples(&folder).expect("samples");
    assert_eq!(samples.len(), read.len());
    for (s, (l, _)) in samples.iter().zip(&read) {
        assert_eq!((s.player, s.opponent), (l.position.player, l.position.opponent));
        assert_eq!(i32::from(s.score), (f32::from(l.label) / 100.0).round() as i32);
        assert_eq!(s.score, s.searched);
    }

    // The same job elsewhere makes the same bytes.
    let again = temp_dir("job-again");
    run_small(&again, 6);
    for name in ["000000.labels", "000001.labels"] {
        assert_eq!(
            std::fs::read(folder.join(name)).expect("first"),
            std::fs::read(again.join("reversi").join(name)).expect("second"),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&again);
}

#[test]
fn the_reader_refuses_another_generators_shards_and_short_labels() {
    let dir = temp_dir("refuse");
    run_small(&dir, 1);
    let folder = dir.join("reversi");
    let path = folder.join("000000.json");
    let text = std::fs::read_to_string(&path).expect("manifest");
    std::fs::write(&path, text.replace("\"count\": 1", "\"count\": 2")).expect("write");
    let err = reversi::read(&folder).expect_err("too few labels").to_string();
    assert!(err.contains("1 labels, where the manifest counts 2"), "{err}");
    std::fs::write(&path, text.replace(reversi::GENERATOR, "reversi-positions-0")).expect("write");
    let err = reversi::read(&folder).expect_err("another generator").to_string();
    assert!(err.contains("made by generator `reversi-positions-0`"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checkers_shards_are_samples_for_the_fit() {
    // The shards committed under data/train: each labelled position a sample whose result is what its
    // label predicts for the side to move.
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/train/checkers");
    let read = checkers::read(&folder).expect("the committed shards read");
    assert!(!read.is_empty(), "data/train/checkers holds shards");
    let samples = checkers::samples(&folder).expect("samples");
    assert_eq!(samples.len(), read.len());
    for (s, (l, _)) in samples.iter().zip(&read) {
        assert_eq!(s.board, *l.position.board());
        assert!((0.0..=1.0).contains(&s.result));
        assert_eq!(s.result > 0.5, l.label > 0, "label {}", l.label);
        assert_eq!(s.result < 0.5, l.label < 0, "label {}", l.label);
    }
}
