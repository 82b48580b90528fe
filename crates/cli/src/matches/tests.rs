use super::*;

fn args(spec: &str, a: &str, b: &str, games: u32) -> MatchArgs {
    MatchArgs {
        spec: spec.into(),
        a: a.into(),
        b: b.into(),
        games,
        opening_plies: 2,
        openings: "random".into(),
        move_time: 50,
        nboard_depth: 3,
        seed: 1,
        quiet: true,
        answer_limit: 60.0,
        games_out: None,
    }
}

/// A player as the match's command line would make it.
fn parse(text: &str, spec: &str) -> anyhow::Result<Side> {
    Side::parse(text, spec, &args(spec, "random", "random", 2).players())
}

#[test]
fn a_match_counts_every_game() {
    let s = play_match(
        &args("cornered:size=4", "depth=2", "random", 6),
        &ProgressBar::hidden(),
    )
    .unwrap()
    .0;
    assert_eq!(s.games(), 6);
}

#[test]
fn a_player_that_fails_forfeits_each_game_and_starts_afresh() {
    let dir = std::env::temp_dir().join(format!("gridplay-forfeit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let starts = dir.join("starts");
    // An "engine" that notes its start and answers `d3` to its first `go`, then exits: from the start
    // position, where it moves first, it makes that move and then forfeits; as the second player `d3` is
    // illegal for it. Each game is forfeited, once with a move made and once without, so the match goes on.
    let b = format!(
        "cmd=echo started >> {}; read l; echo ok; while read l; do case \"$l\" in go*) echo bestmove d3; exit;; *) echo ok;; esac; done",
        starts.display()
    );
    let mut a = args("reversi", "depth=1", &b, 4);
    a.opening_plies = 0;
    let (score, clocks) = play_match(&a, &ProgressBar::hidden()).unwrap();
    assert_eq!((score.wins, score.draws, score.losses), (4, 0, 0));
    assert_eq!(clocks.forfeits, [0, 4]);
    // Started once for the match and once after each forfeit: every game had a process of its own.
    let count = std::fs::read_to_string(&starts).unwrap().lines().count();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(count, 5);
    // A player that plays on is never counted as forfeiting.
    let (_, clocks) = play_match(&args("checkers", "depth=1", "random", 2), &ProgressBar::hidden()).unwrap();
    assert_eq!(clocks.forfeits, [0, 0]);
}

#[test]
fn an_engine_that_cannot_make_a_move_stops_the_match_and_its_last_words_say_why() {
    let dir = std::env::temp_dir().join(format!("gridplay-idle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let starts = dir.join("starts");
    // An "engine" that cannot load what it needs: it says so on its standard error and exits.
    let b = format!(
        "cake=echo started >> {}; echo cannot open cake.db >&2; exit 3",
        starts.display()
    );
    let Err(e) = play_match(&args("checkers", "depth=1", &b, 6), &ProgressBar::hidden()) else {
        panic!("a match against an engine that never moves has no result");
    };
    let e = format!("{e:#}");
    let count = std::fs::read_to_string(&starts).unwrap().lines().count();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        e.starts_with("B (cake=") && e.contains("forfeited 2 games in a row without making a move"),
        "{e}"
    );
    assert!(
        e.contains("exited with status 3") && e.contains("its standard error ended: cannot open cake.db"),
        "{e}"
    );
    // The match's start and the restart after the first forfeit; none after the second.
    assert_eq!(count, 2);
    // A command that cannot be run, for an engine that must answer before the match starts.
    let Err(e) = parse("cmd=./no-such-engine-here", "reversi") else {
        panic!("a missing engine is not a player");
    };
    let e = format!("{e:#}");
    assert!(e.contains("could not be run: exit status 127"), "{e}");
}

#[test]
fn a_hung_engine_forfeits_after_the_answer_limit_and_its_processes_are_killed() {
    let dir = std::env::temp_dir().join(format!("gridplay-hung-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pids = dir.join("pids");
    // An "engine" that starts a child which never answers and stays alive, as `cd dir && ./engine` does.
    let b = format!("cake=sleep 600 & echo $! >> {}; wait", pids.display());
    let mut a = args("checkers", "depth=1", &b, 2);
    a.answer_limit = 0.3;
    let started = Instant::now();
    let Err(e) = play_match(&a, &ProgressBar::hidden()) else {
        panic!("an engine that never answers stops the match");
    };
    let e = format!("{e:#}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert!(
        e.contains("forfeited 2 games in a row") && e.contains("no answer in 0.3 s"),
        "{e}"
    );
    // Two starts (the match's and one after the first forfeit), and every engine gone: the first was
    // killed at its forfeit, and the second was asked to quit as the match stopped, ignored it and was
    // killed.
    let text = std::fs::read_to_string(&pids).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let pids: Vec<&str> = text.lines().collect();
    assert_eq!(pids.len(), 2, "{text}");
    let alive = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit_once(") ")
                .is_some_and(|(_, rest)| !rest.starts_with('Z'))
        })
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.iter().any(|p| alive(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(pids.iter().all(|p| !alive(p)), "still running: {pids:?}");
}

#[test]
fn search_beats_random_at_checkers() {
    let s = play_match(&args("checkers", "depth=3", "random", 4), &ProgressBar::hidden())
        .unwrap()
        .0;
    assert!(s.fraction() > 0.5, "{s:?}");
}

#[test]
fn players_combine_limits() {
    let Ok(Side::Engine { request: r, .. }) = parse("depth=3,temp=100", "tactics") else {
        panic!("depth=3,temp=100 is a player");
    };
    assert_eq!(
        (r.limits.depth, r.temperature, r.mcts),
        (Some(3), Some(100), false)
    );
    let Ok(Side::Engine { request: r, .. }) = parse("level=8,book=1", "reversi") else {
        panic!("level=8,book=1 is a player");
    };
    assert_eq!((r.level, r.book), (Some(8), true));
    assert!(parse("level=8,depth=3", "reversi").is_err());
    assert!(parse("time=100,book=2", "reversi").is_err());
    let Ok(Side::Engine { request: r, .. }) = parse("playouts=500,mcts=20", "cornered") else {
        panic!("playouts=500,mcts=20 is a player");
    };
    assert_eq!(
        (r.limits.nodes, r.limits.time, r.mcts),
        (Some(500), Some(Duration::from_millis(20)), true)
    );
    let s = play_match(
        &args("cornered:size=5", "playouts=300", "depth=1,temp=400", 4),
        &ProgressBar::hidden(),
    )
    .unwrap()
    .0;
    assert_eq!(s.games(), 4);
}

#[test]
fn a_game_clock_player_spends_its_clock_game_by_game() {
    let Ok(Side::Engine { request: r, .. }) = parse("clock=3000,inc=20", "reversi") else {
        panic!("clock=3000,inc=20 is a player");
    };
    assert_eq!(
        r.clock,
        Some(gridplay_engine::Clock {
            left: Duration::from_millis(3000),
            increment: Duration::from_millis(20),
        })
    );
    for bad in [
        "inc=20",
        "clock=0",
        "clock=500,mcts=10",
        "clock=500,depth=2,temp=50",
    ] {
        assert!(parse(bad, "reversi").is_err(), "{bad}");
    }
    // Two games of two seconds each: the clock is set back between games, and the engine spends about
    // what it has (on a busy machine it may run out, which loses that game).
    let (s, clocks) = play_match(
        &args("reversi", "clock=2000", "random", 2),
        &ProgressBar::hidden(),
    )
    .unwrap();
    assert_eq!(s.games(), 2);
    assert!(clocks.spent[0] > Duration::from_millis(400), "{clocks:?}");
    assert!(clocks.spent[0] < Duration::from_millis(5000), "{clocks:?}");
}

#[test]
fn every_ballot_opens_a_legal_game_and_ballots_are_for_checkers() {
    let game = crate::registry().game("checkers").unwrap();
    let mut a = args("checkers", "depth=1", "random", 2);
    a.openings = "ballots".into();
    let all = openings(&a, game.as_ref(), 157).unwrap();
    assert_eq!(all.len(), 157);
    let distinct: std::collections::HashSet<String> = all.iter().map(|p| p.to_text()).collect();
    assert!(distinct.len() > 140, "{} distinct positions", distinct.len());
    let reversi = crate::registry().game("reversi").unwrap();
    let mut r = args("reversi", "depth=1", "random", 2);
    r.openings = "ballots".into();
    assert!(openings(&r, reversi.as_ref(), 1).is_err());
    a.openings = "book".into();
    assert!(openings(&a, game.as_ref(), 1).is_err());
    assert!(parse("cake=true", "reversi").is_err());
}

#[test]
fn a_move_is_found_by_the_position_it_leads_to() {
    let game = crate::registry().game("checkers").unwrap();
    let start = game.start();
    // Cake writes full FENs in its own order; the position is what counts.
    let after = "W:W32,31,30,29,28,27,26,25,24,23,22,21:B1,2,3,4,5,6,7,8,9,10,12,15";
    assert_eq!(
        crate::players::move_to(game.as_ref(), start.as_ref(), after).unwrap(),
        "11-15"
    );
    assert!(crate::players::move_to(game.as_ref(), start.as_ref(), "W:W21-32:B1-11,20").is_err());
}

#[test]
fn bad_players_are_refused() {
    for bad in [
        "level=9",
        "level=0",
        "depth=x",
        "depth=65",
        "time=0",
        "mcts=0",
        "speed=3",
        "human",
        "temp=50",
        "depth=2,temp=x",
        "mcts=10,temp=5",
        "playouts=0",
        "playouts=10,depth=2",
        "level=2,depth=3",
        "depth=2,",
    ] {
        assert!(parse(bad, "reversi").is_err(), "{bad}");
    }
}
