use super::*;

#[test]
fn last_flips_counts_what_flips_makes_on_a_full_board() {
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..20_000 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let sq = (rng >> 58) as usize;
        let p = rng.rotate_left(17) & !(1 << sq);
        let o = !p & !(1 << sq);
        assert_eq!(
            last_flips(sq, p),
            2 * flips(sq as u8, p, o).count_ones() as i32,
            "{sq} {p:x}"
        );
    }
}

/// Plain minimax to the end: the reference.
fn minimax(p: u64, o: u64, passed: bool) -> i32 {
    let moves = get_moves(p, o);
    if moves == 0 {
        if passed || get_moves(o, p) == 0 {
            return final_score(p, o);
        }
        return -minimax(o, p, true);
    }
    let mut best = -65;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let f = flips(sq, p, o);
        best = best.max(-minimax(o ^ f, p ^ f ^ (1 << sq), false));
    }
    best
}

/// The last plies (one to six empties, passes included) under every kind of window: a fail-soft
/// search's value is exact inside the window and a true bound outside it.
#[test]
fn small_searches_are_fail_soft_bounds_of_minimax() {
    use gridplay_core::{Game, Position};
    let mut rng = gridplay_core::playout::seeded(33);
    let solver = Solver::new(1);
    let mut solver = solver.worker(None);
    let mut checked = 0;
    while checked < 3000 {
        let plies = 54 + checked % 8;
        let (pos, _) = gridplay_core::playout::random_playout(
            &gridplay_games::reversi::Reversi::default().start(),
            &mut rng,
            plies,
            |_| {},
        );
        let b = pos.board();
        let truth = minimax(b.player, b.opponent, false);
        let alpha = [-64, -65, truth - 3, truth - 1, truth, truth + 1, 10][checked % 7];
        for beta in [alpha + 1, alpha + 3, 65] {
            let v = solver.search(b.player, b.opponent, alpha, beta, false);
            if v <= alpha {
                assert!(truth <= v, "{} ({alpha}, {beta}): {v} {truth}", pos.to_text());
            } else if v >= beta {
                assert!(truth >= v, "{} ({alpha}, {beta}): {v} {truth}", pos.to_text());
            } else {
                assert_eq!(v, truth, "{} ({alpha}, {beta})", pos.to_text());
            }
        }
        checked += 1;
    }
}

#[test]
fn agrees_with_minimax_on_random_endgames() {
    use gridplay_core::{Game, Position};
    let mut rng = gridplay_core::playout::seeded(21);
    let mut solver = Solver::new(4);
    let mut checked = 0;
    while checked < 60 {
        let (pos, _) = gridplay_core::playout::random_playout(
            &gridplay_games::reversi::Reversi::default().start(),
            &mut rng,
            52,
            |_| {},
        );
        if pos.is_over() {
            continue;
        }
        let b = pos.board();
        let solution = solver.solve(b);
        assert_eq!(
            solution.score,
            minimax(b.player, b.opponent, false),
            "{}",
            pos.to_text()
        );
        if let Some(sq) = solution.best {
            let f = flips(sq, b.player, b.opponent);
            assert_ne!(f, 0, "the best move is legal");
            assert_eq!(
                -minimax(b.opponent ^ f, b.player ^ f ^ (1 << sq), false),
                solution.score
            );
        }
        checked += 1;
    }
}

/// A parallel solve (young-brothers-wait over a shared table) gives the score and outcome of the solve on
/// one thread, and a best move that keeps that score; a bounded one gives up when stopped.
#[test]
fn parallel_solves_agree_with_the_solve_on_one_thread() {
    use gridplay_core::{Game, Position};
    let mut rng = gridplay_core::playout::seeded(77);
    let mut one = Solver::new(4);
    let mut many = Solver::new(4);
    let mut checked = 0;
    while checked < 24 {
        let (pos, _) = gridplay_core::playout::random_playout(
            &gridplay_games::reversi::Reversi::default().start(),
            &mut rng,
            42 + checked % 4,
            |_| {},
        );
        if pos.is_over() {
            continue;
        }
        let b = pos.board();
        let truth = one.solve(b);
        many.set_threads(2 + checked % 3);
        let found = many.solve(b);
        assert_eq!(found.score, truth.score, "{}", pos.to_text());
        if let Some(sq) = found.best {
            let f = flips(sq, b.player, b.opponent);
            assert_ne!(f, 0, "the best move is legal");
            let after = one.solve(Board {
                player: b.opponent ^ f,
                opponent: b.player ^ f ^ (1 << sq),
            });
            assert_eq!(-after.score, truth.score, "{}", pos.to_text());
        }
        assert_eq!(many.solve_wld(b).outcome, one.solve_wld(b).outcome);
        checked += 1;
    }
    let stop = gridplay_search::StopFlag::new();
    stop.stop();
    let (pos, _) = gridplay_core::playout::random_playout(
        &gridplay_games::reversi::Reversi::default().start(),
        &mut rng,
        36,
        |_| {},
    );
    many.set_threads(2);
    assert_eq!(many.solve_within(pos.board(), Bounds::stop(&stop)), None);
}
