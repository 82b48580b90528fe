use super::*;
use gridplay_core::Game;
use gridplay_games::checkers::Checkers;

/// A search with the hand-written evaluation and a fresh table.
fn hand_search(p: &CheckersPosition, db: Option<&Database>, depth: u32) -> Found {
    search_with(
        &mut Table::new(2),
        &Hand,
        db,
        p,
        &[],
        Limits::depth(depth),
        &StopFlag::new(),
    )
    .expect("the game is not over")
}

fn pos(fen: &str) -> CheckersPosition {
    Checkers.parse_position(fen).unwrap()
}

/// Plain minimax to a fixed depth with the same horizon rule (captures are searched on), for comparison.
fn minimax(b: &Board, turn: Player, depth: i32, ply: i32) -> i32 {
    let mut moves = Moves::new();
    movegen::generate(b, turn, &mut moves);
    if moves.is_empty() {
        return -(WIN - ply);
    }
    if depth <= 0 && !moves[0].is_capture() {
        return super::super::eval::evaluate(b, turn);
    }
    let d = if moves.len() == 1 || depth <= 0 {
        depth.max(0)
    } else {
        depth - 1
    };
    moves
        .iter()
        .map(|&m| -minimax(&movegen::apply(b, turn, m), !turn, d, ply + 1))
        .max()
        .unwrap()
}

#[test]
fn a_search_without_reductions_agrees_with_minimax() {
    // Positions from a few random games; depth 2 has no late-move reductions (they start at depth 3 for
    // moves after the second, whose reduced search is always verified when it would raise alpha).
    let mut rng = gridplay_core::playout::seeded(5);
    let mut checked = 0;
    while checked < 30 {
        let (p, _) = gridplay_core::playout::random_playout(&Checkers.start(), &mut rng, 20, |_| {});
        // A single legal move is played at once, with a score from the captures after it only.
        if p.outcome().is_some() || p.legal_moves().len() == 1 {
            continue;
        }
        let depth = 2;
        let found = hand_search(&p, None, depth);
        let expected = minimax(p.board(), p.turn(), depth as i32, 0);
        if found.score.abs() < PROVEN {
            assert_eq!(found.score, expected, "{}", p.to_text());
        }
        // The move it chose scores the same one ply down.
        let next = movegen::apply(p.board(), p.turn(), found.best);
        assert_eq!(
            -minimax(&next, !p.turn(), depth as i32 - 1, 1),
            expected,
            "{}",
            p.to_text()
        );
        checked += 1;
    }
}

#[test]
fn scoring_every_move_ranks_each_once_and_sees_a_lost_piece() {
    let start = Checkers.start();
    let scores = score_moves(&start, Duration::from_millis(100), &StopFlag::new());
    assert_eq!(scores.len(), 7);
    assert!(scores.windows(2).all(|w| w[0].1 >= w[1].1), "{scores:?}");
    let distinct: std::collections::HashSet<_> = scores.iter().map(|s| s.0).collect();
    assert_eq!(distinct.len(), 7);
    // Red's 14-18 walks into White's capture 23x14 and loses the man; 14-17 loses nothing.
    let p = pos("B:W23,32:B14,1");
    let scores = score_moves(&p, Duration::from_millis(100), &StopFlag::new());
    let of = |text: &str| scores.iter().find(|(m, _)| p.move_text(*m) == text).unwrap().1;
    assert!(of("14-18") < of("14-17") - 50, "{scores:?}");
}

#[test]
fn probcut_reaches_a_depth_with_fewer_nodes_and_keeps_the_tactics() {
    // After the ballot 11-15 23-19 8-11, a 14-ply search with ProbCut (with the shipped evaluation, whose
    // scale its margin is set for) visits fewer nodes than without.
    let mut p = Checkers.start();
    for m in ["11-15", "23-19", "8-11"] {
        p.play_text(m).unwrap();
    }
    let with = |probcut: bool| {
        search_inner(
            &mut Table::new(8),
            super::super::evaluation::shipped(),
            probcut,
            None,
            &p,
            &[],
            Limits::depth(14),
            &StopFlag::new(),
        )
        .unwrap()
    };
    let (cut, full) = (with(true), with(false));
    assert!(
        cut.nodes * 10 < full.nodes * 9,
        "{} nodes with ProbCut, {} without",
        cut.nodes,
        full.nodes
    );
    // A man lost to a capture is still seen: 14-18 walks into 23x14.
    let p = pos("B:W23,32:B14,1");
    let found = hand_search(&p, None, 12);
    assert_eq!(p.move_text(found.best), "14-17");
}

#[test]
fn takes_the_last_piece() {
    let found = search(&pos("B:W18:B14,1"), &[], Limits::depth(5), &StopFlag::new()).unwrap();
    assert_eq!(found.best.to(), 22);
    assert!(found.score >= PROVEN);
}

#[test]
fn wins_two_kings_against_one() {
    const DEPTH: u32 = 40;
    // Two kings beat one in the open: the search proves the win within its depth.
    let p = pos("B:WK14:BK1,K3");
    let found = hand_search(&p, None, DEPTH);
    assert!(
        found.score >= PROVEN,
        "score {} at depth {}",
        found.score,
        found.depth
    );
}

#[test]
fn the_database_tells_the_search_what_it_cannot_see() {
    let db = egdb::Database::build(3);
    let p = pos("B:WK14:BK1,K3");
    let blind = hand_search(&p, None, 2).score;
    let sighted = hand_search(&p, Some(&db), 2).score;
    assert!(blind < DB_WIN / 2, "{blind}");
    assert!(sighted > DB_WIN / 2, "{sighted}");
}

#[test]
fn a_position_from_the_history_is_a_draw() {
    // White to move, a king against a king: back and forth. After the same moves the position repeats, and
    // a search given that history sees it.
    let start = pos("W:WK32:BK1");
    let mut history = vec![start];
    let mut p = start;
    for m in ["32-28", "1-5", "28-32", "5-1"] {
        let mv = p.parse_move(m).unwrap();
        p.play_unchecked(mv);
        history.push(p);
    }
    history.pop();
    assert_eq!(p, start);
    let mut s = Searcher {
        eval: &Hand,
        probcut: true,
        db: None,
        table: &mut Table::new(1),
        stop: &StopFlag::new(),
        started: Instant::now(),
        time: None,
        node_limit: None,
        nodes: 0,
        aborted: false,
        killers: [[None; 2]; MAX_PLY],
        history: Box::new([[0; 32]; 32]),
        path: Vec::new(),
        since: Vec::new(),
    };
    s.path.push(key(history[0].board(), history[0].turn()));
    s.since.push(0);
    for h in history[1..].iter().chain(std::iter::once(&p)) {
        s.push(key(h.board(), h.turn()), false);
    }
    assert!(s.repeated());
    assert_eq!(s.quiet_plies(), 4);
    // A man's move in between breaks the chain.
    s.push(1, true);
    s.push(key(p.board(), p.turn()), false);
    assert!(!s.repeated());
    assert_eq!(s.quiet_plies(), 1);
    // 80 plies of king moves draw by the 40-move rule: a search from there scores a draw for any move.
    for i in 0..80 {
        s.push(100 + i, false);
    }
    assert_eq!(s.quiet_plies(), 81);
}

#[test]
fn a_time_limit_is_kept_and_the_table_outlives_the_search() {
    let p = Checkers.start();
    let t = Instant::now();
    let found = search(
        &p,
        &[],
        Limits::time(Duration::from_millis(100)),
        &StopFlag::new(),
    )
    .unwrap();
    assert!(t.elapsed() < Duration::from_millis(1000));
    assert!(found.depth >= 4, "depth {}", found.depth);
    assert!(p.legal_moves().contains(&found.best));
    // The same search again starts from what the table kept: its first iterations are nearly free.
    let again = search(&p, &[], Limits::depth(found.depth), &StopFlag::new()).unwrap();
    assert!(again.nodes < found.nodes, "{} then {}", found.nodes, again.nodes);
}

/// A search that does not use the database never proves the opposite of what it says, and proves many.
#[test]
fn a_search_without_the_database_never_contradicts_it() {
    let done = verify_database(&Database::build(3), 3000, 1, 8).unwrap();
    assert_eq!(done.positions, 3000);
    assert!(done.proven > 100, "{done:?}");
}
