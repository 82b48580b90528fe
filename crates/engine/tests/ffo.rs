//! The FFO endgame problems (FForum, `tests/data/ffo`): the solver must find a move with the listed best
//! score, and the exact score. #1-#44 (6 to 26 empties) run here; #45-#59 are measured with
//! `gridplay solve` and reported in docs/performance.md.

use gridplay_engine::reversi::{endgame::Solver, obf};

fn check(file: &str, first: usize, last: usize) {
    let path = format!("{}/tests/data/ffo/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let start: usize = file.split(['-', '.']).nth(1).unwrap().parse().unwrap();
    let mut solver = Solver::new(64);
    let mut solved = 0;
    for (i, problem) in obf::parse(&text).unwrap().into_iter().enumerate() {
        let number = start + i;
        if !(first..=last).contains(&number) {
            continue;
        }
        solved += 1;
        let solution = solver.solve(problem.position.board());
        let best = problem.best_score().unwrap();
        assert_eq!(solution.score, best, "FFO #{number}: score");
        let mv = solution.best.expect("every FFO problem has a move");
        if let Some(&(_, s)) = problem.moves.iter().find(|(m, _)| *m == mv) {
            assert_eq!(s, best, "FFO #{number}: the file scores our move {s}");
        }
    }
    assert_eq!(
        solved,
        last - first + 1,
        "every problem from #{first} to #{last} is in {file}"
    );
}

#[test]
fn ffo_1_to_19() {
    check("fforum-1-19.obf", 1, 19);
}

#[test]
fn ffo_20_to_39() {
    check("fforum-20-39.obf", 20, 39);
}

/// The benchmark set: about 4 s in a release build (`docs/performance.md`).
#[test]
fn ffo_40_to_44() {
    check("fforum-40-59.obf", 40, 44);
}
