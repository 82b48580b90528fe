//! The fit of the Multi-ProbCut regression ([`super::probcut`]) by `gridplay train reversi-probcut`: the
//! positions ([`fitting_positions`]), their scores at every depth ([`exact_scores`], [`pruned_scores`]) and the
//! regression's text ([`fit`]). Apart from the regression itself, which the search reads, so that the search
//! and its regression do not use each other.

use std::time::Instant;

use gridplay_games::reversi::bitboard::Board;
use gridplay_search::{Limits, StopFlag};

use super::{
    probcut::{BUCKETS, Checks, PROBCUT_MAX_DEPTH, PROBCUT_MIN_DEPTH, bucket},
    search::{Options, Table, search_with},
};

/// Positions for fitting the regression: `count` drawn from games that open with 4-9 random plies and go on
/// by depth-2 searches with a move in six drawn at random, between 20 and 56 empty squares.
#[must_use]
pub fn fitting_positions(count: usize, seed: u64) -> Vec<Board> {
    use rand::{RngExt, SeedableRng, rngs::SmallRng};
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut table = Table::new(4);
    let stop = StopFlag::new();
    let plain = Options {
        probcut: None,
        ..Options::default()
    };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut b = Board::START;
        let opening = rng.random_range(4..10);
        let mut game = Vec::new();
        for ply in 0.. {
            if b.is_over() {
                break;
            }
            let moves = b.moves();
            if moves == 0 {
                b = b.pass();
                continue;
            }
            let empties = b.empty().count_ones();
            if (20..=56).contains(&empties) {
                game.push(b);
            }
            let sq = if ply < opening || rng.random_range(0..6) == 0 {
                let mut m = moves;
                for _ in 0..rng.random_range(0..moves.count_ones()) {
                    m &= m - 1;
                }
                m.trailing_zeros() as u8
            } else {
                search_with(b, Limits::depth(2), &stop, plain, &mut table, Instant::now())
                    .best
                    .expect("a position with moves has a best move")
            };
            b = b.play(sq);
        }
        // A few positions a game, so that the sample spans many games.
        for _ in 0..4 {
            if !game.is_empty() && out.len() < count {
                out.push(game.swap_remove(rng.random_range(0..game.len())));
            }
        }
    }
    out
}

/// `count` positions drawn by `seed` from `boards` (for example the positions of a samples file of self-play
/// games), among those with 20 to 56 empty squares and a move for the side to move: the positions of real
/// play rather than [`fitting_positions`]' games with random moves.
#[must_use]
pub fn positions_from(boards: &[Board], count: usize, seed: u64) -> Vec<Board> {
    use rand::{SeedableRng, rngs::SmallRng, seq::SliceRandom};
    let mut eligible: Vec<Board> = boards
        .iter()
        .copied()
        .filter(|b| (20..=56).contains(&b.empty().count_ones()) && b.moves() != 0)
        .collect();
    eligible.shuffle(&mut SmallRng::seed_from_u64(seed));
    eligible.truncate(count);
    eligible
}

/// The scores of `board` by full-window searches without cuts at depths 1 to `depth`.
#[must_use]
pub fn exact_scores(board: Board, depth: u32, table: &mut Table) -> Vec<i32> {
    scores_by_depth(board, depth, None, table)
}

/// The depths to which [`pruned_scores`] searches without cuts.
pub const UNPRUNED_DEPTH: u32 = 8;

/// The scores of `board` at depths 1 to `depth`: to [`UNPRUNED_DEPTH`] by full-window searches without cuts,
/// deeper by full-window searches with the shipped cuts, as the search will meet them (deep searches without
/// cuts cost too much to fit many positions).
#[must_use]
pub fn pruned_scores(board: Board, depth: u32, table: &mut Table) -> Vec<i32> {
    let mut scores = scores_by_depth(board, depth.min(UNPRUNED_DEPTH), None, table);
    if depth > UNPRUNED_DEPTH {
        let deep = scores_by_depth(board, depth, Some(super::search::PROBCUT_T), table);
        scores.extend(deep.into_iter().skip(UNPRUNED_DEPTH as usize));
    }
    scores
}

fn scores_by_depth(board: Board, depth: u32, probcut: Option<u32>, table: &mut Table) -> Vec<i32> {
    let options = Options {
        probcut,
        full_window: true,
        ..Options::default()
    };
    table.age = table.age.wrapping_add(1);
    search_with(
        board,
        Limits::depth(depth),
        &StopFlag::new(),
        options,
        table,
        Instant::now(),
    )
    .scores
}

/// Positions and their scores at depths 1, 2, .. as text: a line a position, the two bitboards (the side to
/// move's first) in hex, then the scores.
#[must_use]
pub fn scores_text(scored: &[(Board, Vec<i32>)]) -> String {
    let mut text = String::new();
    for (b, scores) in scored {
        text.push_str(&format!("{:016x} {:016x}", b.player, b.opponent));
        for s in scores {
            text.push_str(&format!(" {s}"));
        }
        text.push('\n');
    }
    text
}

/// Reads [`scores_text`]'s text back.
pub fn parse_scores(text: &str) -> Result<Vec<(Board, Vec<i32>)>, crate::DataError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = |why: String| crate::DataError::line("probcut scores", n + 1, why);
        let mut words = line.split_whitespace();
        let mut board = || {
            words
                .next()
                .and_then(|w| u64::from_str_radix(w, 16).ok())
                .ok_or_else(|| bad("two bitboards in hex expected".into()))
        };
        let (player, opponent) = (board()?, board()?);
        if player & opponent != 0 {
            return Err(bad("the two bitboards overlap".into()));
        }
        let scores = words
            .map(str::parse)
            .collect::<Result<Vec<i32>, _>>()
            .map_err(|e| bad(e.to_string()))?;
        out.push((Board { player, opponent }, scores));
    }
    Ok(out)
}

/// The score at `shallow` of a position whose scores at depths 1, 2, ... are `scores`: depth 0 is the
/// evaluation as the search's leaves read it.
fn shallow_score(board: Board, scores: &[i32], shallow: u32) -> i32 {
    match shallow {
        0 => super::pattern::Weights::shipped()
            .evaluate(board)
            .clamp(-super::search::EVAL_LIMIT, super::search::EVAL_LIMIT),
        s => scores[s as usize - 1],
    }
}

/// The regression fitted to `scored` (positions and their scores at depths 1, 2, ..): for each
/// bucket and depth from [`PROBCUT_MIN_DEPTH`], the mean and deviation of the deep score less the score at
/// `checks`' shallow depth, as the text of `probcut.txt`, headed by `header`.
#[must_use]
pub fn fit(scored: &[(Board, Vec<i32>)], checks: Checks, header: &str) -> String {
    let mut text = String::new();
    for line in header.lines() {
        text.push_str(&format!("# {line}\n"));
    }
    text.push_str(
        "# bucket depth shallow mean sigma (hundredths of a disc); bucket = (empties - 19) / 6, at most 6\n",
    );
    for b in 0..BUCKETS {
        for depth in PROBCUT_MIN_DEPTH..=PROBCUT_MAX_DEPTH as u32 {
            let s = checks.shallow(depth);
            let diffs: Vec<f64> = scored
                .iter()
                .filter(|(board, v)| bucket(board.empty().count_ones()) == b && v.len() >= depth as usize)
                .map(|(board, v)| f64::from(v[depth as usize - 1] - shallow_score(*board, v, s)))
                .collect();
            if diffs.len() < 20 {
                continue;
            }
            let n = diffs.len() as f64;
            let mean = diffs.iter().sum::<f64>() / n;
            let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1.0);
            text.push_str(&format!(
                "{b} {depth} {s} {} {}\n",
                mean.round() as i64,
                (var.sqrt().round() as i64).max(1)
            ));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::probcut::ProbCut;

    #[test]
    fn the_fit_measures_the_spread_of_deep_less_shallow_scores() {
        let positions = fitting_positions(6, 1);
        assert_eq!(positions.len(), 6);
        assert!(
            positions
                .iter()
                .all(|b| (20..=56).contains(&b.empty().count_ones()) && b.moves() != 0)
        );
        // Made-up scores: depth 3 is depth 1 plus 100 or minus 100, alternately, in bucket 2; depth 2 is
        // the evaluation plus 70, plus or minus 30.
        let at_33 = Board {
            player: (1u64 << 31) - 1,
            opponent: 0,
        };
        let limit = super::super::search::EVAL_LIMIT;
        let eval = super::super::pattern::Weights::shipped()
            .evaluate(at_33)
            .clamp(-limit, limit);
        let scored: Vec<(Board, Vec<i32>)> = (0..40)
            .map(|i| {
                let sign = if i % 2 == 0 { 1 } else { -1 };
                (at_33, vec![i, eval + 70 + sign * 30, i + sign * 100])
            })
            .collect();
        let text = fit(&scored, Checks::Half, "test");
        let table = ProbCut::parse(&text).unwrap();
        let pair = table.pair(33, 3).unwrap();
        assert_eq!((pair.shallow, pair.mean), (1, 0));
        assert!((100..=103).contains(&pair.sigma), "{pair:?}");
        assert!(table.pair(50, 3).is_none());
        // Depth 2 is predicted by the evaluation itself.
        let pair = table.pair(33, 2).unwrap();
        assert_eq!((pair.shallow, pair.mean), (0, 70));
        assert!((30..=31).contains(&pair.sigma), "{pair:?}");
    }

    #[test]
    fn positions_are_drawn_from_the_midgame_of_the_boards_given() {
        let mut boards = vec![Board::START; 3];
        let mid = fitting_positions(10, 3);
        boards.extend(&mid);
        let drawn = positions_from(&boards, 8, 5);
        assert_eq!(drawn.len(), 8);
        assert!(drawn.iter().all(|b| mid.contains(b)));
        assert_eq!(drawn, positions_from(&boards, 8, 5));
        assert_eq!(positions_from(&boards, 50, 5).len(), 10);
    }

    #[test]
    fn pruned_scores_are_the_plain_ones_to_depth_eight_then_go_deeper() {
        let board = fitting_positions(1, 11)[0];
        let mut table = Table::new(4);
        let plain = exact_scores(board, UNPRUNED_DEPTH, &mut table);
        let pruned = pruned_scores(board, UNPRUNED_DEPTH + 2, &mut Table::new(4));
        assert_eq!(pruned.len(), UNPRUNED_DEPTH as usize + 2);
        assert_eq!(pruned[..UNPRUNED_DEPTH as usize], plain[..]);
    }

    #[test]
    fn scores_files_read_back_and_bad_ones_are_refused() {
        let scored = vec![
            (Board::START, vec![12, -40, 3]),
            (
                Board {
                    player: 0xFF,
                    opponent: 0xFF00,
                },
                vec![],
            ),
        ];
        assert_eq!(parse_scores(&scores_text(&scored)).unwrap(), scored);
        assert!(
            parse_scores("12 zz 1 2")
                .unwrap_err()
                .to_string()
                .contains("line 1")
        );
        assert!(parse_scores("3 1 5").unwrap_err().to_string().contains("overlap"));
        assert!(parse_scores("0 0 1 x").is_err());
    }
}
