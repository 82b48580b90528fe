use std::time::Duration;

use gridplay_search::RootScore;

/// A playing level: how deep it looks, and how loosely it chooses among the moves it has scored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub depth: u32,
    /// Softmax temperature in hundredths of a game unit; 0 plays the best move found.
    pub temperature: f64,
    /// Time for the full-strength levels, which search by iterative deepening.
    pub time: Option<Duration>,
}

/// Levels 1-8. Each level looks one ply deeper than the one below (as far as its time cap allows) and chooses
/// less loosely: levels 1-5 sometimes prefer a reasonable second-best move;
/// the top levels search deeper and always play their best move. Every level has a time cap per move, so that
/// games with many moves per position (Grid Tactics) stay quick; a level that runs out of time plays from the
/// deepest search it completed.
pub const LEVELS: [Level; 8] = [
    level(1, 400.0, 100),
    level(2, 150.0, 120),
    level(3, 60.0, 150),
    level(4, 25.0, 200),
    level(5, 10.0, 250),
    level(6, 0.0, 300),
    level(8, 0.0, 700),
    level(64, 0.0, 1500),
];

/// A level that searches `depth` plies within `millis` per move and chooses with `temperature`.
const fn level(depth: u32, temperature: f64, millis: u64) -> Level {
    Level {
        depth,
        temperature,
        time: Some(Duration::from_millis(millis)),
    }
}

impl Level {
    /// Level 1-8 (clamped).
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
        if self.temperature <= 0.0 || best >= gridplay_search::WIN_THRESHOLD {
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
        let weights: Vec<f64> = candidates
            .iter()
            .map(|s| (f64::from(s.score - best) / self.temperature).exp())
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
}
