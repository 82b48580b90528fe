use super::*;

#[test]
fn the_square_classes_hold_every_square_once() {
    let mut seen = 0u64;
    for class in SQUARE_CLASSES {
        assert_eq!(seen & class, 0, "{class:#x} repeats a square");
        seen |= class;
    }
    assert_eq!(seen, u64::MAX);
    // Corners first, X-squares (b2, g2, b7, g7) last.
    assert_eq!(SQUARE_CLASSES[0], CORNERS);
    assert_eq!(SQUARE_CLASSES[4], 1 << 9 | 1 << 14 | 1 << 49 | 1 << 54);
}

fn random_board(seed: u64, plies: u32) -> Board {
    let mut b = Board::START;
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for _ in 0..plies {
        if b.is_over() {
            break;
        }
        let moves = b.moves();
        if moves == 0 {
            b = b.pass();
            continue;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let n = (x % u64::from(moves.count_ones())) as u32;
        let mut m = moves;
        for _ in 0..n {
            m &= m - 1;
        }
        b = b.play(m.trailing_zeros() as u8);
    }
    b
}

fn minimax(b: Board, depth: u32) -> i32 {
    let w = Weights::shipped();
    let moves = b.moves();
    if moves == 0 {
        if b.is_over() {
            return final_score(b.player, b.opponent) * 100;
        }
        return -minimax(b.pass(), depth);
    }
    if depth == 0 {
        return w.evaluate(b).clamp(-EVAL_LIMIT, EVAL_LIMIT);
    }
    let mut best = -INFINITY;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        let child = b.play(sq);
        let s = if depth == 1 && (child.player | child.opponent) != u64::MAX {
            -w.evaluate(child).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        } else {
            -minimax(child, depth - 1)
        };
        best = best.max(s);
    }
    best
}

/// With a margin that no shallow search can meet, nothing is cut and a probable solve is the exact
/// win/loss/draw solve: the same outcome, and a move that keeps it.
#[test]
fn a_probable_solve_without_cuts_is_the_exact_win_loss_draw_solve() {
    use crate::reversi::endgame::{Solver, Wld};
    let mut solver = Solver::new(4);
    let mut outcomes = [0; 3];
    for seed in 0..200 {
        let b = random_board(seed, 47);
        if b.is_over() || b.moves() == 0 {
            continue;
        }
        let truth = solver.solve_wld(b).outcome;
        let mut table = Table::new(1);
        let found = probable_wld_with(b, 100_000, Limits::default(), &StopFlag::new(), &mut table);
        let expected = match truth {
            Wld::Win => Some(200),
            Wld::Draw => Some(0),
            Wld::Loss => None,
        };
        assert_eq!(found.map(|f| f.1), expected, "seed {seed}");
        if let Some((sq, _, _)) = found {
            assert_ne!(b.moves() & (1 << sq), 0, "seed {seed}: an illegal move");
            let after = solver.solve_wld(b.play(sq)).outcome;
            let kept = if truth == Wld::Win { Wld::Loss } else { Wld::Draw };
            assert_eq!(after, kept, "seed {seed}: the move throws the outcome away");
        }
        outcomes[truth as usize] += 1;
    }
    assert!(outcomes.iter().all(|&n| n > 0), "every outcome met: {outcomes:?}");
}

#[test]
fn without_probcut_the_search_equals_minimax() {
    let exact = Options {
        probcut: None,
        ..Options::default()
    };
    for seed in 0..10 {
        let b = random_board(seed, 10 + (seed as u32 * 5 % 48));
        if b.moves() == 0 {
            continue;
        }
        let mut table = Table::new(1);
        for depth in 1..=3 {
            let found = search_with(
                b,
                Limits::depth(depth),
                &StopFlag::new(),
                exact,
                &mut table,
                Instant::now(),
            );
            assert_eq!(found.score, minimax(b, depth), "seed {seed} depth {depth}");
            assert_eq!(-minimax(b.play(found.best.unwrap()), depth - 1), found.score);
        }
    }
}

#[test]
fn aspiration_windows_change_no_score() {
    // From depth 5 each iteration starts with a window around the last score of its parity and searches
    // again when the score falls outside; without cuts every iteration's score is the full window's.
    let windowed = Options {
        probcut: None,
        ..Options::default()
    };
    let full = Options {
        full_window: true,
        ..windowed
    };
    for seed in 0..6 {
        let b = random_board(seed + 20, 14 + (seed as u32 * 7 % 30));
        if b.moves() == 0 {
            continue;
        }
        let run = |options| {
            search_with(
                b,
                Limits::depth(7),
                &StopFlag::new(),
                options,
                &mut Table::new(1),
                Instant::now(),
            )
            .scores
        };
        let scores = run(windowed);
        assert_eq!(scores.len(), 7, "seed {seed}");
        assert_eq!(scores, run(full), "seed {seed}");
    }
}

#[test]
fn the_search_plays_legal_moves_and_stops_on_time() {
    let b = random_board(3, 20);
    let found = search(
        b,
        Limits {
            time: Some(Duration::from_millis(50)),
            ..Limits::default()
        },
        &StopFlag::new(),
        Options::default(),
    );
    assert!(b.moves() & (1 << found.best.unwrap()) != 0);
    assert!(found.depth >= 1);
    assert!(found.elapsed < Duration::from_millis(500));
}

/// A transposition cut-off ends a node by a move whose position the table bounds, deep enough, to at
/// most minus `beta`, with that bound; a bound that is too shallow, not low enough, or a lower bound does not.
#[test]
fn a_child_bounded_in_the_table_cuts_its_parent() {
    let stop = StopFlag::new();
    let b = random_board(3, 20);
    let moves = b.moves();
    let sq = moves.trailing_zeros() as u8;
    let child = b.play(sq);
    let etc = |entry: Option<Entry>, depth: u32, beta: i32| {
        let table = Table::new(1);
        if let Some(e) = entry {
            table.store(e);
        }
        let limits = Limits::default();
        let s = Searcher::new(Weights::shipped(), None, &table, &stop, limits, Instant::now());
        let mut children = Children::new();
        s.children(b.player, b.opponent, moves, depth, &mut children);
        s.etc(&children, depth, beta)
    };
    let bound = |lower: i16, upper: i16, depth: u8| Entry {
        player: child.player,
        opponent: child.opponent,
        lower,
        upper,
        depth,
        best: NO_MOVE,
        age: 0,
    };
    // The child scores at most -300 for its mover at depth 5: this node scores at least 300.
    assert_eq!(etc(Some(bound(-10_000, -300, 5)), 6, 200), Some(300));
    assert_eq!(etc(Some(bound(-10_000, -300, 7)), 6, 300), Some(300));
    assert_eq!(etc(Some(bound(-10_000, -300, 4)), 6, 200), None, "too shallow");
    assert_eq!(etc(Some(bound(-10_000, -300, 5)), 6, 301), None, "short of beta");
    assert_eq!(
        etc(Some(bound(300, 10_000, 5)), 6, -300),
        None,
        "only a lower bound"
    );
    assert_eq!(
        etc(Some(bound(-10_000, -300, 5)), ETC_MIN_DEPTH - 1, 200),
        None,
        "near the horizon"
    );
    assert_eq!(etc(None, 6, 200), None);
}

/// A root that runs out of nodes keeps a move only if it searched that move whole and found it better than
/// the first (which it also searched whole); otherwise it gives no score, and the last finished iteration's
/// move stands.
#[test]
fn a_stopped_root_keeps_only_a_move_it_searched_whole_and_found_better() {
    let stop = StopFlag::new();
    let root = |moves: &mut [u8], b: Board, node_limit: Option<u64>| {
        let table = Table::new(1);
        let limits = Limits {
            depth: None,
            time: None,
            nodes: node_limit,
        };
        let mut s = Searcher::new(Weights::shipped(), None, &table, &stop, limits, Instant::now());
        let (score, sq) = s.root(
            b.player,
            b.opponent,
            &Indices::new(b.player, b.opponent),
            moves,
            7,
            -INFINITY,
            INFINITY,
        );
        (score, sq, s.aborted, s.nodes)
    };
    let mut kept = 0;
    for seed in 1..=6 {
        let b = random_board(seed, 20);
        let all: Vec<u8> = (0..64).filter(|&sq| b.moves() & (1 << sq) != 0).collect();
        if all.len() < 4 {
            continue;
        }
        // Each move alone, searched whole; the worst goes first so that later moves beat it.
        let alone: Vec<i32> = all.iter().map(|&sq| root(&mut [sq], b, None).0).collect();
        let worst = (0..all.len()).min_by_key(|&i| alone[i]).unwrap();
        let mut order = all.clone();
        order.swap(0, worst);
        let (_, _, aborted, total) = root(&mut order.clone(), b, None);
        assert!(!aborted);
        for limit in (1..).map(|k| k * 1024).take_while(|&n| n < total) {
            let (score, sq, aborted, _) = root(&mut order.clone(), b, Some(limit));
            if aborted && score > -INFINITY {
                // The first move was searched whole, exactly as alone: a move kept must beat it.
                assert_ne!(sq, order[0], "seed {seed}, {limit} nodes");
                assert!(
                    score > alone[worst],
                    "seed {seed}, {limit} nodes: {score} <= {}",
                    alone[worst]
                );
                kept += 1;
            }
        }
    }
    assert!(kept > 0, "no stopped root kept a move: the test did not test it");
}

/// A parallel search to a fixed depth, without Multi-ProbCut, finds the minimax score as the search on one
/// thread does (a position is always met at the same depth, so the shared table cannot lend a deeper bound),
/// and a best move that has it; with Multi-ProbCut and a time limit it plays a legal move within the time.
#[test]
fn a_parallel_search_equals_minimax_and_stops_on_time() {
    let exact = Options {
        probcut: None,
        ..Options::default()
    };
    for seed in 0..6 {
        let b = random_board(100 + seed, 16 + (seed as u32 * 7 % 24));
        if b.moves() == 0 {
            continue;
        }
        let truth = minimax(b, 6);
        for threads in [2, 3] {
            let found = search_with(
                b,
                Limits::depth(6),
                &StopFlag::new(),
                Options { threads, ..exact },
                &mut Table::new(1),
                Instant::now(),
            );
            assert_eq!(found.score, truth, "seed {seed}, {threads} threads");
            assert_eq!(-minimax(b.play(found.best.unwrap()), 5), truth);
        }
    }
    let b = random_board(7, 20);
    let started = Instant::now();
    let found = search_with(
        b,
        Limits::time(std::time::Duration::from_millis(150)),
        &StopFlag::new(),
        Options {
            threads: 2,
            ..Options::default()
        },
        &mut Table::new(4),
        started,
    );
    assert!(b.moves() & (1 << found.best.unwrap()) != 0);
    assert!(found.depth >= 1);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}
