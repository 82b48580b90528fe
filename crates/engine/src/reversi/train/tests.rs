use super::*;

/// [`game_samples`] of a recorded game of these moves.
fn labelled(
    moves: &[u8],
    perfect: Option<crate::reversi::wthor::Perfect>,
    solve_at: u32,
    solver: &mut Solver,
) -> Vec<Sample> {
    let game = crate::reversi::wthor::Game {
        moves: moves.to_vec(),
        perfect,
    };
    game_samples(&game, solve_at, solver)
}

#[test]
fn recorded_games_are_labelled_as_self_play_games_are() {
    // A whole game of random moves, recorded as a WTHOR file records it (no passes).
    let mut rng = SmallRng::seed_from_u64(3);
    let mut b = Board::START;
    let mut moves = Vec::new();
    while !b.is_over() {
        if b.moves() == 0 {
            b = b.pass();
            continue;
        }
        let sq = random_move(b, &mut rng);
        moves.push(sq);
        b = b.play(sq);
    }
    let mut solver = Solver::new(1);
    let solve_at = 10;
    let samples = labelled(&moves, None, solve_at, &mut solver);
    // One sample for each position before the solver's reach, then the solver's line.
    let before = (0..moves.len()).filter(|&i| 60 - i as u32 > solve_at).count();
    assert!(samples.len() > before, "{} samples", samples.len());
    // The positions the solver reached are labelled with their exact scores.
    for s in samples
        .iter()
        .filter(|s| (!(s.player | s.opponent)).count_ones() <= solve_at)
    {
        let b = Board {
            player: s.player,
            opponent: s.opponent,
        };
        assert_eq!(i32::from(s.score), solver.solve(b).score);
    }
    // Each earlier position carries the first solved position's score, from its own side's view: the
    // start's label is the same score as the position after the first move, negated, unless a pass
    // came between (none does in the first plies).
    assert_eq!(samples[0].score, -samples[1].score);
    assert_eq!(samples[0].player, Board::START.player);
    // A game that stops before the solver's reach (a resignation) has no exact result: no samples.
    assert!(labelled(&moves[..20], None, solve_at, &mut solver).is_empty());
}

#[test]
fn a_recorded_perfect_play_score_labels_the_positions_before_it() {
    use crate::reversi::wthor::Perfect;
    // A game whose first moves are random and whose moves from 14 empties on are the worst the solver
    // finds for the side to move: the positions before 14 empties take the perfect-play score there,
    // not the result of the worse play that followed.
    let mut rng = SmallRng::seed_from_u64(5);
    let mut solver = Solver::new(1);
    let mut b = Board::START;
    let mut white = false;
    let mut moves = Vec::new();
    let mut seen = Vec::new();
    let mut perfect = None;
    while !b.is_over() {
        if b.moves() == 0 {
            b = b.pass();
            white = !white;
            continue;
        }
        let empties = b.empty().count_ones();
        if empties == 14 {
            let score = solver.solve(b).score;
            perfect = Some(Perfect {
                empties,
                black: if white { -score } else { score },
            });
        }
        let sq = if empties > 14 {
            random_move(b, &mut rng)
        } else {
            let mut worst = (i32::MIN, 0);
            let mut left = b.moves();
            while left != 0 {
                let sq = left.trailing_zeros() as u8;
                left &= left - 1;
                let after = b.play(sq);
                // The score for the side that replies.
                let score = if after.is_over() {
                    final_discs(after)
                } else if after.moves() == 0 {
                    -solver.solve(after.pass()).score
                } else {
                    solver.solve(after).score
                };
                worst = worst.max((score, sq));
            }
            worst.1
        };
        seen.push((b, white));
        moves.push(sq);
        b = b.play(sq);
        white = !white;
    }
    let perfect = perfect.expect("the game reached 14 empties");
    let solve_at = 8;
    let played = labelled(&moves, None, solve_at, &mut solver);
    let recorded = labelled(&moves, Some(perfect), solve_at, &mut solver);
    assert_eq!(played.len(), recorded.len());
    let empties = |s: &Sample| (!(s.player | s.opponent)).count_ones();
    let mut changed = 0;
    for (i, (p, r)) in played.iter().zip(&recorded).enumerate() {
        assert_eq!((p.player, p.opponent), (r.player, r.opponent));
        if empties(r) >= 14 {
            let (pos, white) = seen[i];
            assert_eq!((pos.player, pos.opponent), (r.player, r.opponent));
            let black = if white { -r.score } else { r.score };
            assert_eq!(i32::from(black), perfect.black, "position {i}");
            changed += usize::from(p.score != r.score);
        } else {
            assert_eq!(p.score, r.score, "position {i}");
        }
    }
    assert!(changed > 0, "the worse play after 14 empties changed no label");
    // Resigned after 14 empties: the positions the perfect-play score labels are kept, the rest dropped.
    let resigned = labelled(&moves[..50], Some(perfect), solve_at, &mut solver);
    assert_eq!(resigned.len(), played.iter().filter(|s| empties(s) >= 14).count());
    assert_eq!(resigned[..], recorded[..resigned.len()]);
}

#[test]
fn games_are_labelled_exactly_from_the_solver_on() {
    let config = GameConfig {
        solve_at: 10,
        ..GameConfig::default()
    };
    let mut solver = Solver::new(4);
    let eval = |b: Board| (b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32) * 100;
    let samples = play_game(
        3,
        &config,
        Players::Negamax(&eval),
        &mut solver,
        &mut Table::new(0),
    );
    assert!(samples.len() > 40, "{}", samples.len());
    for s in samples
        .iter()
        .filter(|s| (!(s.player | s.opponent)).count_ones() <= 10)
    {
        let board = Board {
            player: s.player,
            opponent: s.opponent,
        };
        assert_eq!(i32::from(s.score), Solver::new(4).solve(board).score);
    }
}

#[test]
fn the_search_plays_games_whose_solved_part_is_exact() {
    let config = GameConfig {
        solve_at: 10,
        depth: 3,
        ..GameConfig::default()
    };
    let mut solver = Solver::new(4);
    let samples = play_game(
        5,
        &config,
        Players::Search(Weights::shipped()),
        &mut solver,
        &mut Table::new(1),
    );
    assert!(samples.len() > 40, "{}", samples.len());
    let solved: Vec<&Sample> = samples
        .iter()
        .filter(|s| (!(s.player | s.opponent)).count_ones() <= 10)
        .collect();
    assert!(!solved.is_empty());
    // Before the solver, the positions the search chose from carry its score; it is not the game's
    // result everywhere.
    assert!(
        samples
            .iter()
            .any(|s| (!(s.player | s.opponent)).count_ones() > 10 && s.searched != s.score)
    );
    let s = samples[0];
    assert_eq!(s.target(0), f32::from(s.score));
    assert_eq!(s.target(100), f32::from(s.searched));
    for s in solved {
        assert_eq!(s.searched, s.score);
        let board = Board {
            player: s.player,
            opponent: s.opponent,
        };
        assert_eq!(i32::from(s.score), Solver::new(4).solve(board).score);
    }
}

#[test]
fn samples_files_round_trip_and_bad_ones_are_refused() {
    let samples = vec![
        Sample {
            player: 0x0000_0008_1000_0000,
            opponent: 0x0000_0010_0800_0000,
            score: -12,
            searched: -7,
        },
        Sample {
            player: 1,
            opponent: 2,
            score: 64,
            searched: 64,
        },
    ];
    let bytes = samples_to_bytes(&samples);
    assert_eq!(samples_from_bytes(&bytes).unwrap(), samples);
    // A file of the first format: 17-byte records without the search's score, which reads as the game's.
    let mut v1 = b"gridplay-rev-sm1".to_vec();
    v1.extend_from_slice(&1u64.to_le_bytes());
    v1.extend_from_slice(&2u64.to_le_bytes());
    v1.push(-5i8 as u8);
    let read = samples_from_bytes(&v1).unwrap();
    assert_eq!((read[0].score, read[0].searched), (-5, -5));
    let cut = samples_from_bytes(&bytes[..bytes.len() - 1])
        .unwrap_err()
        .to_string();
    assert!(cut.contains("cut"), "{cut}");
    let header = samples_from_bytes(b"not a samples file at all")
        .unwrap_err()
        .to_string();
    assert!(header.contains("header"), "{header}");
    let mut overlapping = bytes;
    overlapping[16..24].copy_from_slice(&1u64.to_le_bytes());
    overlapping[24..32].copy_from_slice(&1u64.to_le_bytes());
    let e = samples_from_bytes(&overlapping).unwrap_err().to_string();
    assert!(e.contains("record 0"), "{e}");
}

#[test]
fn a_duel_plays_both_colours_and_counts_every_game() {
    let mobility = |b: Board| (b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32) * 100;
    let nothing = |_: Board| 0;
    let d = duel(&mobility, &nothing, 6, 2, 4, 8, 1, 2);
    assert_eq!(d.wins + d.draws + d.losses, 12);
    assert!(d.score() > 0.5, "mobility beats nothing: {d:?}");
}

/// Positions of 60 games labelled by the corner count difference (8 discs a corner): a rule the corner
/// patterns can express exactly.
fn corner_rule_samples() -> Vec<Sample> {
    let config = GameConfig {
        solve_at: 0,
        ..GameConfig::default()
    };
    let mut solver = Solver::new(4);
    let eval = |_: Board| 0;
    let corners = 0x8100_0000_0000_0081u64;
    let mut samples: Vec<Sample> = (0..60)
        .flat_map(|i| {
            play_game(
                i,
                &config,
                Players::Negamax(&eval),
                &mut solver,
                &mut Table::new(0),
            )
        })
        .collect();
    for s in &mut samples {
        s.score = ((s.player & corners).count_ones() as i8 - (s.opponent & corners).count_ones() as i8) * 8;
    }
    samples
}

/// The worst stage's rms error on its own positions, and the weights.
fn fit_worst(samples: &[Sample], epochs: usize, method: Method) -> (f64, Weights) {
    fit_worst_with(samples, epochs, method, Prior::Zero)
}

fn fit_worst_with(samples: &[Sample], epochs: usize, method: Method, prior: Prior) -> (f64, Weights) {
    let config = FitConfig {
        epochs,
        blend: 0,
        l2: 0.0,
        prior,
        method,
    };
    let worst = std::sync::Mutex::new(0f64);
    let weights = fit(samples, config, &|f| {
        let mut w = worst.lock().unwrap();
        *w = w.max(f.rmse);
    });
    let worst = *worst.lock().unwrap();
    (worst, weights)
}

#[test]
fn fitting_learns_a_simple_rule() {
    let samples = corner_rule_samples();
    let (worst, weights) = fit_worst(&samples, 60, Method::Steps);
    assert!(worst < 2.0, "rmse {worst}");
    let s = samples.iter().find(|s| s.score != 0).unwrap();
    let board = Board {
        player: s.player,
        opponent: s.opponent,
    };
    let got = weights.evaluate(board);
    assert!(
        (got - i32::from(s.score) * 100).abs() < 300,
        "{got} vs {}",
        s.score
    );
}

#[test]
fn conjugate_gradients_reach_the_exact_rule_where_the_steps_stop_short() {
    let samples = corner_rule_samples();
    let (steps, _) = fit_worst(&samples, 60, Method::Steps);
    let (cg, weights) = fit_worst(&samples, 60, Method::ConjugateGradient);
    assert!(cg < 0.05, "conjugate gradients: rmse {cg}");
    assert!(cg < steps / 4.0, "conjugate gradients {cg} against steps {steps}");
    // The stored weights (hundredths of a disc) give every position's label.
    let (errors, all) = errors(&weights, &samples, 0);
    assert!(all < 0.1, "{all}");
    let worst = errors.iter().map(|e| e.rmse).fold(0f64, f64::max);
    assert!(worst < 0.1, "{errors:?}");
}

#[test]
fn stages_without_positions_keep_the_later_stages_weights_under_that_prior() {
    // Positions of 30 empty squares or fewer: stages 6-12, and stage 5 fitted on stage 6's positions.
    let samples: Vec<Sample> = corner_rule_samples()
        .into_iter()
        .filter(|s| (!(s.player | s.opponent)).count_ones() <= 30)
        .collect();
    let per = crate::reversi::pattern::Layout::get().per_stage;
    let stage_values = |w: &Weights, st: usize| w.values[st * per..(st + 1) * per].to_vec();
    for method in [Method::Steps, Method::ConjugateGradient] {
        let (worst, later) = fit_worst_with(&samples, 60, method, Prior::LaterStage);
        assert!(worst < 2.0, "{method:?}: rmse {worst}");
        let fitted = stage_values(&later, 5);
        assert!(fitted.iter().any(|&v| v != 0), "{method:?}");
        for st in 0..5 {
            assert_eq!(stage_values(&later, st), fitted, "{method:?}, stage {st}");
        }
        let (_, zero) = fit_worst_with(&samples, 60, method, Prior::Zero);
        assert!(stage_values(&zero, 0).iter().all(|&v| v == 0), "{method:?}");
        assert!(stage_values(&zero, 5).iter().any(|&v| v != 0), "{method:?}");
    }
}

#[test]
fn a_stage_pulled_towards_the_later_one_still_fits_its_own_positions() {
    let samples = corner_rule_samples();
    let (cg, weights) = fit_worst_with(&samples, 60, Method::ConjugateGradient, Prior::LaterStage);
    assert!(cg < 0.05, "rmse {cg}");
    let (_, all) = errors(&weights, &samples, 0);
    assert!(all < 0.1, "{all}");
}
