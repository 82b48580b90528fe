use std::time::Duration;

use gridplay_search::RootScore;

/// A playing level: how deep it looks, and how loosely it chooses among the moves it has scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub depth: u32,
    /// Softmax temperature in hundredths of a game unit; 0 plays the best move found.
    pub temperature: u32,
    /// The time cap per move. A level that runs out of time plays from the deepest search it completed.
    pub time: Option<Duration>,
    /// Searches by Monte Carlo tree search with this many playouts (within `time`) instead of alpha-beta.
    pub playouts: Option<u64>,
    /// Percent of moves at which the level plays a legal move drawn uniformly at random instead of its
    /// choice (Grid Tactics' weak levels; see [`TACTICS_LEVELS`]).
    pub random: u32,
}

/// Levels 1-8 of Reversi, checkers and YWF. Each level looks one ply deeper than the one below (as far as its
/// time cap allows) and chooses less loosely: levels 1-5 sometimes prefer a reasonable second-best move; the
/// top levels search deeper and always play their best move.
pub const LEVELS: [Level; 8] = [
    level(1, 400, 100),
    level(2, 150, 120),
    level(3, 60, 150),
    level(4, 25, 200),
    level(5, 10, 250),
    level(6, 0, 300),
    level(8, 0, 700),
    level(64, 0, 1500),
];

/// Cornered Reversi: alpha-beta with softmax at levels 1-5, then Monte Carlo tree search, which beat alpha-beta
/// 19-1 at equal time with this game's evaluation (docs/engines.md, "Cornered Reversi"). The MCTS levels are set by playouts, not
/// by time, so that they play the same on a loaded machine, four times as many at each level.
pub const CORNERED_LEVELS: [Level; 8] = [
    LEVELS[0],
    LEVELS[1],
    LEVELS[2],
    LEVELS[3],
    LEVELS[4],
    mcts(10_000, 1000),
    mcts(40_000, 2000),
    mcts(160_000, 5000),
];

/// Reversi: levels 1-5 as [`LEVELS`]; levels 6-8 run the Reversi search ([`crate::reversi::search`]) to depth
/// 6, to depth 10 and for 1.5 s, and solve exactly from 18 empties. With Multi-ProbCut two plies more than
/// level 6 cost next to nothing and scored under 65% against it (57.5% over 100 games), so level 7 looks four
/// plies further (the ladder: docs/performance.md).
pub const REVERSI_LEVELS: [Level; 8] = [
    LEVELS[0],
    LEVELS[1],
    LEVELS[2],
    LEVELS[3],
    LEVELS[4],
    level(6, 0, 300),
    level(10, 0, 700),
    level(64, 0, 1500),
];

/// Checkers: levels 1-5 as Reversi's (the generic search and the hand-written evaluation); levels 6-8 run the
/// checkers search ([`crate::checkers::search`]) to depth 4, to depth 8 and for 1.5 s. Two nearby depths of
/// that search draw most of their games against each other, so the top levels are spread far apart
/// (the ladder: docs/performance.md).
pub const CHECKERS_LEVELS: [Level; 8] = [
    LEVELS[0],
    LEVELS[1],
    LEVELS[2],
    LEVELS[3],
    LEVELS[4],
    level(4, 0, 300),
    level(8, 0, 700),
    level(64, 0, 1500),
];

/// Grid Tactics: a ply is one unit's activation, with about a hundred choices, and one ply more pays less
/// than in the other games. The weak levels must also keep the armies even (RULINGS: no army composition may
/// score over 60% in self-play at equal strength): depth 1 and a softmax temperature favour some armies,
/// while a random legal move in place of the search's, a share of the time, does not. So levels 1-5 are
/// depth 2 with fewer and fewer random moves and levels 6-8 depths 2-4, with time caps that do not cut those
/// depths on 16x16 (the ladder: docs/performance.md).
pub const TACTICS_LEVELS: [Level; 8] = [
    blunders(2, 60, 2000),
    blunders(2, 45, 2000),
    blunders(2, 30, 2000),
    blunders(2, 20, 2000),
    blunders(2, 10, 2000),
    level(2, 0, 2000),
    level(3, 0, 2000),
    level(4, 0, 4000),
];

/// Tic-tac-toe, the test game: three levels, the last of which never loses.
pub const TICTACTOE_LEVELS: [Level; 3] = [level(1, 300, 100), level(2, 50, 100), level(9, 0, 1000)];

/// A level that searches `depth` plies within `millis` per move and chooses with `temperature`.
const fn level(depth: u32, temperature: u32, millis: u64) -> Level {
    Level {
        depth,
        temperature,
        time: Some(Duration::from_millis(millis)),
        playouts: None,
        random: 0,
    }
}

/// A level that plays its best move at `depth` within `millis`, except that `random` percent of its moves
/// are drawn uniformly at random from the legal ones.
const fn blunders(depth: u32, random: u32, millis: u64) -> Level {
    Level {
        random,
        ..level(depth, 0, millis)
    }
}

/// A level that searches by Monte Carlo tree search with `playouts`, capped at `millis`.
const fn mcts(playouts: u64, millis: u64) -> Level {
    Level {
        depth: 0,
        temperature: 0,
        time: Some(Duration::from_millis(millis)),
        playouts: Some(playouts),
        random: 0,
    }
}

impl Level {
    /// Level 1-8 (clamped) of Reversi, checkers and YWF.
    #[must_use]
    pub fn get(level: u8) -> Level {
        LEVELS[usize::from(level.clamp(1, 8)) - 1]
    }

    /// Chooses among scored moves (best first) with probability proportional to `exp((s - best) / T)`;
    /// `uniform(n)` draws a number in `0..n`. A loss or a win found by search is never given away at random:
    /// moves scored as losses are only chosen when every move loses.
    pub fn choose<M: Copy>(
        &self,
        scores: &[RootScore<M>],
        uniform: &mut dyn FnMut(f64) -> f64,
    ) -> RootScore<M> {
        let best = scores[0].score;
        if self.temperature == 0 || best >= gridplay_search::WIN_THRESHOLD {
            return scores[0];
        }
        let candidates: Vec<RootScore<M>> = scores
            .iter()
            .copied()
            .filter(|s| s.score > -gridplay_search::WIN_THRESHOLD)
            .collect();
        if candidates.is_empty() {
            return scores[0];
        }
        let temperature = f64::from(self.temperature);
        let weights: Vec<f64> = candidates
            .iter()
            .map(|s| (f64::from(s.score - best) / temperature).exp())
            .collect();
        let mut pick = uniform(weights.iter().sum());
        for (s, w) in candidates.iter().zip(&weights) {
            if pick < *w {
                return *s;
            }
            pick -= w;
        }
        candidates[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_levels_prefer_good_moves_but_not_always_the_best() {
        let scores = [
            RootScore { mv: 0, score: 100 },
            RootScore { mv: 1, score: 0 },
            RootScore { mv: 2, score: -900 },
        ];
        let level = Level::get(1);
        let mut counts = [0; 3];
        let mut x = 0.0f64;
        for _ in 0..1000 {
            x = (x + 0.618_033_988_7) % 1.0;
            counts[level.choose(&scores, &mut |n| x * n).mv] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        assert!(counts[1] > 0, "level 1 sometimes errs");
        assert_eq!(Level::get(8).choose(&scores, &mut |n| 0.99 * n).mv, 0);
    }

    #[test]
    fn each_game_has_its_own_table_and_no_level_is_weaker_than_the_one_below() {
        for engine in crate::ENGINES {
            let table = engine.levels;
            for (i, w) in table.windows(2).enumerate() {
                let (lower, upper) = (w[0], w[1]);
                // Checkers' levels 6-8 run its own search, which searches captures past the horizon and
                // counts no depth for a forced move: its depth 4 (level 6) scored 87.5% and 90% against the
                // generic depth 5 (level 5) in two runs of 40 games (docs/lab/2026-11-27-checkers.md). Depths are
                // not compared across that change of search.
                let own_search_begins = engine.game == "checkers" && i == 4;
                // A level searches at least as deep as the one below, and at the same depth chooses more
                // carefully or plays fewer random moves.
                assert!(
                    upper.playouts.is_some()
                        || own_search_begins
                        || upper.depth > lower.depth
                        || (upper.depth == lower.depth
                            && upper.random <= lower.random
                            && upper.temperature <= lower.temperature
                            && (upper.random, upper.temperature) != (lower.random, lower.temperature)),
                    "{lower:?} {upper:?}"
                );
                assert!(upper.random <= lower.random, "{lower:?} {upper:?}");
                assert!(upper.playouts >= lower.playouts, "{lower:?} {upper:?}");
            }
        }
    }
}
