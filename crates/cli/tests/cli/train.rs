//! `gridplay train`: weights, samples files, books and the checkers trainer, as a user runs them.

use std::process::Command;

use super::gridplay;

#[test]
fn train_writes_weights_the_engine_can_read() {
    let out_path = std::env::temp_dir().join(format!("gridplay-train-{}.bin", std::process::id()));
    let out_text = out_path.to_str().unwrap();
    let (ok, out, err) = gridplay(&[
        "train",
        "reversi",
        "--games",
        "40",
        "--rounds",
        "1",
        "--epochs",
        "3",
        "--check-pairs",
        "2",
        "--check-depth",
        "1",
        "--out",
        out_text,
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("trained vs hand-written at depth 1 (both exact from 12 empties): +"),
        "{out}"
    );
    let bytes = std::fs::read(&out_path).unwrap();
    let weights = gridplay_engine::reversi::pattern::Weights::from_bytes(&bytes).unwrap();
    assert!(
        weights.values.iter().any(|&w| w != 0),
        "training moved some weights"
    );
    std::fs::remove_file(&out_path).ok();
    let (ok, _, err) = gridplay(&["train", "ywf", "--out", out_text]);
    assert!(!ok);
    assert!(
        err.contains(
            "`ywf` cannot be trained: `reversi`, `reversi-probcut`, `reversi-book`, `checkers` and `checkers-book` can"
        ),
        "{err}"
    );
    // The ProbCut regression and the book, small, and the engine reads what they write.
    let pc_path = std::env::temp_dir().join(format!("gridplay-probcut-{}.txt", std::process::id()));
    let scores_path = std::env::temp_dir().join(format!("gridplay-scores-{}.txt", std::process::id()));
    let (ok, out, err) = gridplay(&[
        "train",
        "reversi-probcut",
        "--games",
        "200",
        "--depth",
        "5",
        "--scores-out",
        scores_path.to_str().unwrap(),
        "--out",
        pc_path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("# bucket depth shallow mean sigma"), "{out}");
    let text = std::fs::read_to_string(&pc_path).unwrap();
    gridplay_engine::reversi::probcut::ProbCut::parse(&text).unwrap();
    // Refitted from the scores file without searching: the same regression.
    let (ok, again, err) = gridplay(&[
        "train",
        "reversi-probcut",
        "--depth",
        "5",
        "--scores-in",
        scores_path.to_str().unwrap(),
        "--out",
        pc_path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let fitted = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("wrote"))
            .map(str::to_owned)
            .collect()
    };
    assert!(!fitted(&out).is_empty());
    assert_eq!(fitted(&again), fitted(&out));
    std::fs::write(&scores_path, "not a board\n").unwrap();
    let (ok, _, err) = gridplay(&[
        "train",
        "reversi-probcut",
        "--scores-in",
        scores_path.to_str().unwrap(),
        "--out",
        pc_path.to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains(scores_path.to_str().unwrap()) && err.contains("line 1"),
        "{err}"
    );
    std::fs::remove_file(&pc_path).ok();
    std::fs::remove_file(&scores_path).ok();
    let book_path = std::env::temp_dir().join(format!("gridplay-book-{}.bin", std::process::id()));
    let (ok, out, err) = gridplay(&[
        "train",
        "reversi-book",
        "--plies",
        "3",
        "--depth",
        "3",
        "--out",
        book_path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains(" positions, "), "{out}");
    let book = gridplay_engine::reversi::book::Book::from_bytes(&std::fs::read(&book_path).unwrap()).unwrap();
    assert!(!book.is_empty());
    let (ok, out, err) = gridplay(&[
        "train",
        "checkers-book",
        "--plies",
        "1",
        "--depth",
        "3",
        "--out",
        book_path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("158 positions, "), "{out}");
    let book =
        gridplay_engine::checkers::book::Book::from_bytes(&std::fs::read(&book_path).unwrap()).unwrap();
    assert_eq!(book.len(), 158);
    std::fs::remove_file(&book_path).ok();
    let (ok, _, err) = gridplay(&["train", "reversi-probcut", "--depth", "3", "--out", out_text]);
    assert!(
        !ok && err.contains("--depth (the deepest search fitted) must be 5 to 16 (22 with --pruned)"),
        "{err}"
    );
}

/// `gridplay` starts with the candidate file `good` named in the environment variable `var`, and refuses to
/// start, naming the variable and the file, with `bad`.
fn candidate_file_is_read_or_refused(var: &str, good: &str, bad: &str) {
    let with = |file: &str| {
        Command::new(env!("CARGO_BIN_EXE_gridplay"))
            .arg("games")
            .env(var, file)
            .output()
            .expect("gridplay runs")
    };
    let run = with(good);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let run = with(bad);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains(var) && err.contains(bad), "{err}");
}

#[test]
fn train_plays_games_by_the_search_and_fits_them_again_from_a_samples_file() {
    let dir = std::env::temp_dir().join(format!("gridplay-train-samples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let common = [
        "--rounds",
        "1",
        "--epochs",
        "2",
        "--check-pairs",
        "0",
        "--threads",
        "1",
    ];
    let mut played = vec![
        "train",
        "reversi",
        "--play",
        "search",
        "--depth",
        "2",
        "--games",
        "6",
        "--solve-at",
        "8",
    ];
    played.extend(common);
    let (w1, s1) = (path("w1.bin"), path("s1.bin"));
    played.extend(["--out", &w1, "--samples-out", &s1]);
    let (ok, out, err) = gridplay(&played);
    assert!(ok, "{err}");
    let wrote = out
        .lines()
        .find_map(|l| {
            l.strip_prefix("wrote ")
                .and_then(|l| l.split(' ').next()?.parse::<u64>().ok())
        })
        .unwrap_or_else(|| panic!("{out}"));
    assert!(wrote > 6 * 40, "{out}");
    assert_eq!(std::fs::metadata(&s1).unwrap().len(), 16 + 18 * wrote);

    // The ProbCut regression fitted to the midgames of those games, deep scores by the pruned search,
    // NTest's shallow depths; a candidate regression is searched with by naming it in
    // GRIDPLAY_REVERSI_PROBCUT, and a bad one stops gridplay.
    let pc = path("pc.txt");
    let (ok, out, err) = gridplay(&[
        "train",
        "reversi-probcut",
        "--samples-in",
        &s1,
        "--games",
        "60",
        "--depth",
        "9",
        "--pruned",
        "--checks",
        "third",
        "--threads",
        "1",
        "--out",
        &pc,
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("--depth 9 --seed 1 --threads 1 --checks third --pruned --samples-in")
            && out.contains("from 60 positions"),
        "{out}"
    );
    candidate_file_is_read_or_refused("GRIDPLAY_REVERSI_PROBCUT", &pc, &s1);

    let w2 = path("w2.bin");
    let mut refit = vec![
        "train",
        "reversi",
        "--games",
        "0",
        "--samples-in",
        &s1,
        "--search-label",
        "50",
        "--out",
        &w2,
    ];
    refit.extend(common);
    let (ok, out, err) = gridplay(&refit);
    assert!(ok, "{err}");
    assert!(out.contains(&format!("{wrote} positions so far")), "{out}");
    gridplay_engine::reversi::pattern::Weights::from_bytes(&std::fs::read(&w2).unwrap()).unwrap();

    let bad = path("bad.bin");
    std::fs::write(&bad, b"gridplay-rev-sm1 and then not whole records").unwrap();
    let mut broken = vec![
        "train",
        "reversi",
        "--games",
        "0",
        "--samples-in",
        &bad,
        "--out",
        &w2,
    ];
    broken.extend(common);
    let (ok, _, err) = gridplay(&broken);
    assert!(!ok);
    assert!(err.contains("bad.bin") && err.contains("cut"), "{err}");
    let (ok, _, err) = gridplay(&["train", "checkers", "--play", "search", "--out", &w2]);
    assert!(!ok);
    assert!(err.contains("are for `reversi`, not `checkers`"), "{err}");
    for penalty in ["-1", "inf", "ten"] {
        let flag = format!("--l2={penalty}");
        let (ok, _, err) = gridplay(&["train", "reversi", &flag, "--out", &w2]);
        assert!(!ok);
        assert!(
            err.contains("--l2") && err.contains(&format!("`{penalty}`")),
            "{err}"
        );
    }

    // A candidate's weights are played by naming them in GRIDPLAY_REVERSI_WEIGHTS; a bad file stops gridplay.
    candidate_file_is_read_or_refused("GRIDPLAY_REVERSI_WEIGHTS", &w2, &bad);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wthor_games_are_labelled_by_their_perfect_play_score_or_as_played() {
    use gridplay_games::reversi::bitboard::Board;
    let dir = std::env::temp_dir().join(format!("gridplay-train-wthor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    // One whole game, each side taking its lowest legal square, recorded with a theoretical score of 40
    // of Black's discs (Black ahead by 16) from 24 empties.
    let mut record = vec![0u8; 68];
    record[7] = 40;
    let mut b = Board::START;
    let mut ply = 0;
    while !b.is_over() {
        if b.moves() == 0 {
            b = b.pass();
            continue;
        }
        let sq = b.moves().trailing_zeros() as u8;
        record[8 + ply] = 10 * (sq / 8 + 1) + sq % 8 + 1;
        ply += 1;
        b = b.play(sq);
    }
    let mut file = vec![0u8; 16];
    file[4] = 1;
    file[12] = 8;
    file[14] = 24;
    file.extend(record);
    let wthor = path("one.wtb");
    std::fs::write(&wthor, file).unwrap();
    let labels = |how: &str| {
        let samples = path(&format!("{how}.sm"));
        let (ok, out, err) = gridplay(&[
            "train",
            "reversi",
            "--games",
            "0",
            "--rounds",
            "1",
            "--wthor",
            &wthor,
            "--wthor-labels",
            how,
            "--solve-at",
            "10",
            "--epochs",
            "1",
            "--check-pairs",
            "0",
            "--threads",
            "1",
            "--samples-out",
            &samples,
            "--out",
            &path(&format!("{how}.bin")),
        ]);
        assert!(ok, "{out}{err}");
        let bytes = std::fs::read(&samples).unwrap();
        // The start position's label: the 17th byte of its 18-byte record after the 16-byte header.
        (bytes.len(), bytes[16 + 16] as i8)
    };
    let (perfect_len, perfect_start) = labels("perfect");
    let (played_len, played_start) = labels("played");
    assert_eq!(perfect_len, played_len);
    assert_eq!(perfect_start, 16);
    assert_ne!(played_start, 16, "the game as played ends otherwise");
    let (ok, _, err) = gridplay(&[
        "train",
        "reversi",
        "--wthor",
        &wthor,
        "--wthor-labels",
        "best",
        "--out",
        &path("x"),
    ]);
    assert!(!ok && err.contains("best"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gridplay train checkers` on a few games of shallow play, one round, with `extra` arguments.
fn train_small_checkers(extra: &[&str]) -> (bool, String, String) {
    let mut args = vec![
        "train", "checkers", "--games", "30", "--depth", "2", "--rounds", "1", "--epochs", "2",
    ];
    args.extend(extra);
    gridplay(&args)
}

#[test]
fn train_checkers_writes_weights_the_engine_can_read() {
    let out_path = std::env::temp_dir().join(format!("gridplay-train-checkers-{}.bin", std::process::id()));
    let out_text = out_path.to_str().unwrap();
    let (ok, out, err) =
        train_small_checkers(&["--check-pairs", "2", "--check-depth", "1", "--out", out_text]);
    assert!(ok, "{err}");
    assert!(
        out.contains("trained vs hand-written at depth 1 from the ballots: +"),
        "{out}"
    );
    let bytes = std::fs::read(&out_path).unwrap();
    let weights = gridplay_engine::checkers::learned::Patterns::from_bytes(&bytes).unwrap();
    assert!(
        weights.regions.iter().flatten().flatten().any(|&w| w != 0),
        "training moved some weights"
    );
    // The file can be measured again on its own.
    let (ok, out, err) = gridplay(&[
        "train",
        "checkers",
        "--check",
        out_text,
        "--check-pairs",
        "1",
        "--check-depth",
        "1",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("+"), "{out}");
    std::fs::remove_file(&out_path).ok();
}

#[test]
fn checkers_training_ends_games_in_the_databases_and_a_candidate_is_played_by_its_variable() {
    let dir = std::env::temp_dir().join(format!("gridplay-train-checkers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (w, bad) = (path("w.bin"), path("bad.bin"));
    let run_with = |egdb: &str, out: &str, extra: &[&str]| {
        let mut args = vec![
            "--check-pairs",
            "0",
            "--threads",
            "1",
            "--seed",
            "3",
            "--egdb",
            egdb,
            "--out",
            out,
        ];
        args.extend(extra);
        train_small_checkers(&args)
    };
    let run = |egdb: &str, out: &str| run_with(egdb, out, &[]);
    let positions = |out: &str| -> usize {
        out.lines()
            .find_map(|l| {
                l.strip_prefix("round 1: ")?
                    .strip_suffix(" positions so far")?
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("no count in {out}"))
    };
    let (ok, plain, err) = run("0", &path("plain.bin"));
    assert!(ok, "{err}");
    let (ok, out, err) = run("4", &w);
    assert!(ok, "{err}");
    assert!(out.contains("databases of up to 4 pieces built"), "{out}");
    // Each game stops where the databases begin: fewer positions to label.
    assert!(positions(&out) < positions(&plain), "{out}\n{plain}");
    std::fs::write(&bad, b"GPCHK01\nnot whole").unwrap();
    for (args, expected) in [
        (
            vec!["train", "checkers", "--egdb", "1", "--out", &bad],
            "start at 2 pieces",
        ),
        (vec!["train", "checkers", "--egdb", "7", "--out", &bad], "--egdb"),
        (
            vec!["train", "reversi", "--egdb", "4", "--out", &bad],
            "--egdb is for `checkers`",
        ),
        (
            vec!["train", "checkers", "--init", &bad, "--out", &bad],
            "bad.bin",
        ),
        (
            vec!["train", "reversi", "--init", &w, "--out", &bad],
            "--init is for `checkers`",
        ),
    ] {
        let (ok, _, err) = gridplay(&args);
        assert!(!ok && err.contains(expected), "{args:?}: {err}");
    }
    // The 6-piece databases are read from where `gridplay egdb` saved them, not built: none there, a refusal.
    let empty = path("no-egdb");
    std::fs::create_dir_all(&empty).unwrap();
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_gridplay"))
        .args(["train", "checkers", "--egdb", "6", "--out", &bad])
        .env("GRIDPLAY_EGDB", &empty)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && err.contains("gridplay egdb --pieces 6"),
        "{err}"
    );
    candidate_file_is_read_or_refused("GRIDPLAY_CHECKERS_WEIGHTS", &w, &bad);
    // Round 1 played with trained weights rather than the hand-written evaluation: other games, other weights.
    let again = path("again.bin");
    let (ok, _, err) = run_with("4", &again, &["--init", &w]);
    assert!(ok, "{err}");
    assert_ne!(std::fs::read(&again).unwrap(), std::fs::read(&w).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checkers_network_training_keeps_positions_out_refits_from_samples_and_plays_by_its_variable() {
    let dir = std::env::temp_dir().join(format!("gridplay-train-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (net, samples, again, tables) = (path("net.bin"), path("s.bin"), path("again.bin"), path("t.bin"));
    let (ok, out, err) = train_small_checkers(&[
        "--model",
        "net",
        "--check-pairs",
        "1",
        "--check-depth",
        "1",
        "--threads",
        "1",
        "--samples-out",
        &samples,
        "--out",
        &net,
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("network epoch 2: cross-entropy"), "{out}");
    assert!(
        out.contains("pattern tables fitted to the same positions"),
        "{out}"
    );
    assert!(out.contains("trained vs hand-written at depth 1"), "{out}");
    let written = std::fs::read(&net).unwrap();
    assert!(gridplay_engine::checkers::net::Net::from_bytes(&written).is_ok());
    // The samples alone, with no games: the same positions, fitted again.
    let (ok, out, err) = gridplay(&[
        "train",
        "checkers",
        "--rounds",
        "0",
        "--samples-in",
        &samples,
        "--model",
        "net",
        "--epochs",
        "1",
        "--check-pairs",
        "0",
        "--out",
        &again,
    ]);
    assert!(ok, "{err}");
    let read: usize = out
        .lines()
        .find_map(|l| l.split(" positions read").next()?.parse().ok())
        .unwrap_or_else(|| panic!("no count in {out}"));
    assert_eq!((read * 17 + 8) as u64, std::fs::metadata(&samples).unwrap().len());
    // A round played by the network, fitted as pattern tables.
    let (ok, _, err) = train_small_checkers(&["--init", &net, "--check-pairs", "0", "--out", &tables]);
    assert!(ok, "{err}");
    assert!(
        gridplay_engine::checkers::learned::Patterns::from_bytes(&std::fs::read(&tables).unwrap()).is_ok()
    );
    // Refusals: no samples for no rounds, a broken samples file (named), `--model` for another game.
    let broken = path("broken.bin");
    std::fs::write(&broken, b"GPCKS01\nnot whole").unwrap();
    for (args, expected) in [
        (
            vec!["train", "checkers", "--rounds", "0", "--out", &again],
            "--samples-in",
        ),
        (
            vec![
                "train",
                "checkers",
                "--rounds",
                "0",
                "--samples-in",
                &broken,
                "--out",
                &again,
            ],
            "broken.bin",
        ),
        (
            vec!["train", "reversi", "--model", "net", "--out", &again],
            "--model is for `checkers`",
        ),
    ] {
        let (ok, _, err) = gridplay(&args);
        assert!(!ok && err.contains(expected), "{args:?}: {err}");
    }
    let bad = path("bad-net.bin");
    std::fs::write(&bad, &written[..written.len() - 3]).unwrap();
    candidate_file_is_read_or_refused("GRIDPLAY_CHECKERS_WEIGHTS", &net, &bad);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_makes_shards_that_resume_and_that_the_reversi_fit_reads() {
    let dir = std::env::temp_dir().join(format!("gridplay-datagen-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_str().unwrap();
    let labels = |n: &str| {
        gridplay(&[
            "datagen", "--dir", dir_text, "--games", "reversi", "--seeds", "1..2", "--labels", n, "--build",
            "test", "--every", "1",
        ])
    };
    let (ok, out, err) = labels("2");
    assert!(ok, "{err}");
    assert!(
        out.contains("reversi shard 000001 (search18-25-44): 2/1000"),
        "{out}"
    );
    // A second job goes on with the same shard.
    let (ok, out, err) = labels("1");
    assert!(ok, "{err}");
    assert!(out.contains("3/1000"), "{out}");
    let weights = dir.join("w.bin");
    let (ok, out, err) = gridplay(&[
        "train",
        "reversi",
        "--games",
        "0",
        "--rounds",
        "1",
        "--fit",
        "cg",
        "--epochs",
        "2",
        "--check-pairs",
        "0",
        "--shards",
        &format!("{dir_text}/reversi"),
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("reversi: 3 positions"), "{out}");
    assert!(weights.exists());
    // Refusals say what is wrong.
    let (ok, _, err) = gridplay(&["datagen", "--dir", dir_text, "--seeds", "5..5"]);
    assert!(!ok && err.contains("the range is empty"), "{err}");
    let (ok, _, err) = gridplay(&["datagen", "--dir", dir_text, "--games", "chess"]);
    assert!(!ok && err.contains("unknown game `chess`"), "{err}");
    let (ok, _, err) = gridplay(&["train", "reversi-book", "--shards", dir_text, "--out", "x.bin"]);
    assert!(
        !ok && err.contains("--shards is for `reversi` and `checkers`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
