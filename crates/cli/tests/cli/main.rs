//! The `gridplay` binary as a user runs it.

use std::process::Command;

mod train;

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
    // A range that selects none of the file's problems, or a file with none, is an error, not "0 solved".
    for range in ["60-64", "3-1"] {
        let (ok, out, err) = gridplay(&["solve", file, "--problems", range]);
        assert!(!ok, "{range}: {out}");
        assert!(
            err.contains("selects none") && err.contains("numbered 1-19"),
            "{range}: {err}"
        );
    }
    let empty = std::env::temp_dir().join(format!("gridplay-empty-{}.obf", std::process::id()));
    std::fs::write(&empty, "").expect("written");
    let (ok, _, err) = gridplay(&["solve", empty.to_str().expect("utf-8")]);
    assert!(!ok && err.contains("holds no problem"), "{err}");
    std::fs::remove_file(&empty).ok();
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
