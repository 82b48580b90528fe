//! The `gridplay` binary as a user runs it.

use std::process::Command;

fn gridplay(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gridplay"))
        .args(args)
        .output()
        .expect("gridplay runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn perft_prints_the_count() {
    let (ok, out, _) = gridplay(&["perft", "checkers", "6"]);
    assert!(ok);
    assert!(out.starts_with("perft 6 = 36768\n"), "{out}");
}

#[test]
fn bad_specs_are_explained_with_a_failing_exit() {
    let (ok, _, err) = gridplay(&["perft", "chess", "3"]);
    assert!(!ok);
    assert!(
        err.contains(&format!(
            "unknown game `chess`; the games are: {}",
            gridplay_games::registry()
                .entries()
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", ")
        )),
        "{err}"
    );
}

#[test]
fn a_writer_count_that_the_database_cannot_take_is_refused_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("gridplay-cli-writers-{}", std::process::id()));
    let url = format!("sqlite://{}/db.sqlite", dir.display());
    let (ok, _, err) = gridplay(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--database",
        &url,
        "--db-writers",
        "2",
    ]);
    assert!(!ok);
    assert!(
        err.contains("2 writers of game actions: a SQLite database takes exactly one"),
        "{err}"
    );
    let (ok, _, err) = gridplay(&["serve", "--db-writers", "0"]);
    assert!(!ok);
    assert!(err.contains("--db-writers"), "{err}");
    let (ok, _, err) = gridplay(&[
        "bench",
        "server",
        "--target",
        "http://127.0.0.1:1",
        "--db-writers",
        "2",
    ]);
    assert!(!ok);
    assert!(err.contains("give it to each `gridplay serve`"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_load_benchmark_plays_timed_games_and_finds_every_move_stored_once() {
    let (ok, out, err) = gridplay(&[
        "bench",
        "server",
        "--players",
        "4",
        "--seconds",
        "1",
        "--clock",
        "600",
    ]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("every acknowledged move exactly once: true"),
        "{out}"
    );
    let moves: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("moves"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a count of moves");
    assert!(moves > 0, "{out}");
    let (ok, _, err) = gridplay(&["bench", "server", "--clock", "0"]);
    assert!(!ok);
    assert!(err.contains("--clock"), "{err}");
}

#[test]
fn solve_checks_a_problem_file() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/data/ffo/fforum-1-19.obf"
    );
    let (ok, out, _) = gridplay(&["solve", file, "--problems", "1-3"]);
    assert!(ok, "{out}");
    assert!(out.contains("#1   14 empties  g8   +18  ok"), "{out}");
    assert!(out.contains("3 solved, 0 wrong"), "{out}");
    let (ok, out, _) = gridplay(&["solve", file, "--problems", "1-3", "--wld"]);
    assert!(ok, "{out}");
    // Any winning move will do (#1 lists g8 +18 and h1 +12).
    assert!(
        out.contains("#1   14 empties") && out.contains("win   ok"),
        "{out}"
    );
    assert!(out.contains("3 solved, 0 wrong"), "{out}");
    // A file whose listed score has the wrong sign is caught.
    let wrong = std::env::temp_dir().join(format!("gridplay-wrong-{}.obf", std::process::id()));
    let first = std::fs::read_to_string(file).expect("the FFO file");
    let line = first.lines().next().expect("a first problem");
    let board = line.split(';').next().expect("a position");
    std::fs::write(&wrong, format!("{board}; G8:-18")).expect("written");
    let (ok, out, err) = gridplay(&["solve", wrong.to_str().expect("utf-8"), "--wld"]);
    assert!(!ok, "{out}");
    assert!(out.contains("WRONG"), "{out}");
    assert!(err.contains("different outcome"), "{err}");
    std::fs::remove_file(&wrong).ok();
    let (ok, _, err) = gridplay(&["solve", "/nonexistent.obf"]);
    assert!(!ok && err.contains("reading /nonexistent.obf"), "{err}");
}

#[test]
fn an_external_engine_plays_a_match_over_the_protocol() {
    let me = env!("CARGO_BIN_EXE_gridplay");
    let (ok, out, err) = gridplay(&[
        "match",
        "cornered:size=4",
        &format!("cmd={me} engine"),
        "random",
        "--games",
        "2",
        "--quiet",
        "--move-time",
        "50",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("(2 games)"), "{out}");
}

#[test]
fn an_nboard_engine_plays_a_reversi_match() {
    let me = env!("CARGO_BIN_EXE_gridplay");
    // Our own NBoard engine at depth 3 against random: the games reach their ends through `set game`/`go`.
    let games_out = std::env::temp_dir().join(format!("gridplay-match-games-{}.txt", std::process::id()));
    let (ok, out, err) = gridplay(&[
        "match",
        "reversi",
        &format!("nboard={me} engine --nboard"),
        "random",
        "--games",
        "4",
        "--quiet",
        "--nboard-depth",
        "3",
        "--games-out",
        games_out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("(4 games)"), "{out}");
    // Each game is a line: number, A's side, A's result, the opening, the moves; the results add up to the
    // score, and every game is played to its end (Reversi's 60 squares, less the opening's and the passes).
    let text = std::fs::read_to_string(&games_out).unwrap();
    let _ = std::fs::remove_file(&games_out);
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 4, "{text}");
    let mut tally = [0, 0, 0];
    for (i, f) in lines.iter().enumerate() {
        assert_eq!(f.len(), 5, "{text}");
        assert_eq!(f[0], (i + 1).to_string());
        assert_eq!(f[1], if i % 2 == 0 { "first" } else { "second" });
        tally[["win", "draw", "loss"]
            .iter()
            .position(|r| *r == f[2])
            .expect("a result")] += 1;
        assert!(f[4].split(' ').count() > 30, "{text}");
    }
    assert_eq!(lines[0][3], lines[1][3], "a pair of games shares its opening");
    assert!(
        out.contains(&format!("A +{} ={} -{}", tally[0], tally[1], tally[2])),
        "{out}\n{text}"
    );
    let (ok, _, err) = gridplay(&[
        "match",
        "checkers",
        &format!("nboard={me} engine --nboard"),
        "random",
    ]);
    assert!(!ok && err.contains("Reversi only"), "{err}");
}

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
        (vec!["train", "checkers", "--egdb", "6", "--out", &bad], "--egdb"),
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
    candidate_file_is_read_or_refused("GRIDPLAY_CHECKERS_WEIGHTS", &w, &bad);
    // Round 1 played with trained weights rather than the hand-written evaluation: other games, other weights.
    let again = path("again.bin");
    let (ok, _, err) = run_with("4", &again, &["--init", &w]);
    assert!(ok, "{err}");
    assert_ne!(std::fs::read(&again).unwrap(), std::fs::read(&w).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn egdb_reports_what_the_databases_hold() {
    let (ok, out, err) = gridplay(&["egdb", "--pieces", "2", "--quiet", "--no-save"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("2 pieces: 6976 positions, 1432 won, 804 lost, 4740 drawn"),
        "{out}"
    );
    assert!(!out.contains("saved"), "{out}");
    let dir = std::env::temp_dir().join(format!("gridplay-cli-egdb-{}", std::process::id()));
    let (ok, out, err) = gridplay(&["egdb", "--pieces", "3", "--quiet", "--dir", dir.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("saved in"), "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.join("complete")).unwrap(),
        "pieces 3\n"
    );
    assert!(dir.join("r02w01.wld").exists());
    let (ok, out, err) = gridplay(&["egdb", "--verify", "500", "--dir", dir.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.contains("500 positions of 3 pieces agree with their moves"),
        "{out}"
    );
    std::fs::remove_file(dir.join("complete")).unwrap();
    let (ok, _, err) = gridplay(&["egdb", "--verify", "500", "--dir", dir.to_str().unwrap()]);
    assert!(
        !ok && err.contains("complete") && err.contains("gridplay egdb --pieces"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
    let (ok, _, err) = gridplay(&["egdb", "--pieces", "9"]);
    assert!(!ok && err.contains("2 to 6 pieces"), "{err}");
}

#[test]
fn selfplay_shows_each_game_on_request() {
    let (ok, out, err) = gridplay(&[
        "selfplay", "tactics", "--games", "2", "--policy", "greedy", "--show",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.matches("\n  final: 16 ").count(), 2, "{out}");
    assert!(out.contains("game 1: ") && out.contains("game 2: "), "{out}");
}

/// The test game runs through the same commands as the real games, and only with `--with-test-games`.
#[test]
fn the_test_game_plays_through_every_command() {
    let (ok, _, err) = gridplay(&["perft", "tictactoe", "2"]);
    assert!(!ok && err.contains("unknown game `tictactoe`"), "{err}");
    let (ok, out, _) = gridplay(&["--with-test-games", "games"]);
    assert!(ok && out.contains("tictactoe  Tic-tac-toe"), "{out}");
    let (ok, out, _) = gridplay(&["--with-test-games", "perft", "tictactoe", "9"]);
    assert!(ok && out.starts_with("perft 9 = 127872\n"), "{out}");
    // The top level never loses: against random moves it wins or draws every game.
    let (ok, out, err) = gridplay(&[
        "--with-test-games",
        "match",
        "tictactoe",
        "level=3",
        "random",
        "--games",
        "10",
        "--opening-plies",
        "0",
        "--quiet",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains(" -0 (10 games)"), "level 3 lost a game: {out}");
    let (ok, out, _) = gridplay(&["--with-test-games", "selfplay", "tictactoe", "--games", "3"]);
    assert!(ok, "{out}");
}

#[test]
fn a_ping_stops_an_nboard_search_and_is_answered_at_once() {
    use std::{
        io::{BufRead, BufReader, Write},
        process::Stdio,
        time::{Duration, Instant},
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridplay"))
        .args(["engine", "--nboard"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gridplay runs");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    // Depth 40 from the start would run into the ten-second cap.
    writeln!(input, "nboard 2\nset depth 40\ngo").unwrap();
    let mut line = String::new();
    output.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "set myname gridplay");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    writeln!(input, "ping 5").unwrap();
    line.clear();
    output.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "pong 5", "the stopped search's answer is dropped");
    // Unstopped, the search would answer at its ten-second cap: the pong before it is the stop. The time it
    // took is a report.
    let took = asked.elapsed();
    eprintln!("pong {took:?} after the ping");
    assert!(
        took < Duration::from_secs(10),
        "the pong came at the search's own end, {took:?}"
    );
    writeln!(input, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

/// Every level range comes from the engine table: past a game's top level, `play`, `match` and the protocol's
/// `go` each refuse with the top named, for every game.
#[test]
fn a_level_past_the_games_top_is_refused_by_every_command() {
    for engine in gridplay_engine::ENGINES {
        let game = engine.game;
        let top = engine.levels.len();
        let past = (top + 1).to_string();
        let (ok, _, err) = gridplay(&[
            "--with-test-games",
            "play",
            game,
            "--opponent",
            "engine",
            "--level",
            &past,
        ]);
        assert!(!ok, "{game}");
        assert!(
            err.contains(&format!("engine has levels 1 to {top}, not {past}")),
            "{game}: {err}"
        );
        let (ok, _, err) = gridplay(&[
            "--with-test-games",
            "match",
            game,
            "random",
            &format!("level={past}"),
            "--games",
            "1",
        ]);
        assert!(!ok, "{game}");
        assert!(
            err.contains(&format!("engine has levels 1 to {top}, not {past}")),
            "{game}: {err}"
        );
        // The protocol: the top level answers with a move, the one past it with the top.
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gridplay"))
            .args(["--with-test-games", "engine"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("gridplay engine runs");
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("stdin");
            writeln!(stdin, "game {game}\ngo level={past}\ngo level=1\nquit").expect("write");
        }
        let out = child.wait_with_output().expect("it ends");
        let out = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.contains(&format!(
                "level {past} does not exist: this game's levels are 1 to {top}"
            )),
            "{game}: {out}"
        );
        assert!(out.contains("bestmove "), "{game}: {out}");
    }
}

/// `gridplay openapi` prints the same document a server answers at `/api/openapi.json`.
#[test]
fn openapi_prints_the_servers_document() {
    let (ok, out, err) = gridplay(&["openapi"]);
    assert!(ok, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(out.trim_end(), gridplay_server::openapi_document());
    assert!(doc["paths"]["/api/games/{id}"]["get"].is_object(), "{out}");
}

/// `gridplay admin` makes and unmakes admins on the server's database, records each change on the
/// account's moderation history as the command line's, and names what it cannot find.
#[test]
fn admins_are_made_by_the_command_line_and_recorded() {
    use gridplay_server::db::{Db, User};
    let dir = std::env::temp_dir().join(format!("gridplay-admin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let url = format!("sqlite://{}/gridplay.db", dir.display());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let db = Db::connect(&url, 1, 1).await.expect("database");
        let ann = User {
            id: "u-ann".into(),
            name: "Ann".into(),
            bot: false,
        };
        assert!(db.create_user(&ann, "no-password").await.expect("a user"));
    });
    let (ok, out, err) = gridplay(&["admin", "list", "--database", &url]);
    assert!(ok && out.is_empty(), "no admin to begin with: {out} {err}");
    let (ok, _, err) = gridplay(&["admin", "grant", "ann", "--database", &url]);
    assert!(ok, "{err}");
    assert!(err.contains("Ann is now an admin"), "{err}");
    let (ok, out, _) = gridplay(&["admin", "list", "--database", &url]);
    assert!(ok);
    assert_eq!(out, "Ann\n");
    let (ok, _, err) = gridplay(&["admin", "grant", "nobody", "--database", &url]);
    assert!(!ok && err.contains("there is no account named nobody"), "{err}");
    let (ok, _, err) = gridplay(&[
        "admin",
        "revoke",
        "Ann",
        "--database",
        &url,
        "--reason",
        "stepped down",
    ]);
    assert!(ok && err.contains("Ann is no longer an admin"), "{err}");
    rt.block_on(async {
        let db = Db::connect(&url, 1, 1).await.expect("database");
        let s = db.standing("ann").await.unwrap().expect("Ann");
        assert!(!s.admin);
        let history = db.moderation_history(&s.id).await.unwrap();
        let seen: Vec<(&str, &str, bool)> = history
            .iter()
            .map(|a| (a.kind.as_str(), a.reason.as_str(), a.admin.is_none()))
            .collect();
        assert_eq!(
            seen,
            [
                ("revoke", "stepped down", true),
                ("grant", "made an admin by the server's operator", true)
            ]
        );
    });
    let _ = std::fs::remove_dir_all(&dir);
}
