//! How well a game was played, by the win-percentage model lichess publishes: each position's score turned
//! into the mover's chance of winning, each move's accuracy from the chance it gave away, a game's accuracy
//! from its moves', and the moves that gave away much (inaccuracies, mistakes and blunders).
//!
//! lichess's model reads chess centipawns; a game's [`crate::registry::GameEngine::pawn`] says how many
//! hundredths of the game's own unit count as a pawn (docs/engines.md, "Review").

use gridplay_core::Player;

/// The mover's chance of winning, in percent, for a score in hundredths of the game's unit, `pawn` of them
/// a chess pawn: `50 + 50 (2 / (1 + e^(-0.00368208 cp)) - 1)`.
#[must_use]
pub fn win_percent(score: i32, pawn: i32) -> f64 {
    let cp = f64::from(score) * 100.0 / f64::from(pawn.max(1));
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0)
}

/// A move's accuracy, in percent, from the mover's chance of winning before and after it:
/// `103.1668 e^(-0.04354 (before - after)) - 3.1669`, within 0 and 100.
#[must_use]
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    (103.166_8 * (-0.043_54 * (before - after)).exp() - 3.166_9 + 1.0).clamp(0.0, 100.0)
}

/// How bad a move was, by the chance of winning it gave away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// 5 points of percentage or more (lichess: 0.1 of its winning chances, from -1 to 1).
    Inaccuracy,
    /// 10 or more.
    Mistake,
    /// 15 or more.
    Blunder,
}

impl Judgement {
    /// The judgement of a move that took the mover's chance of winning from `before` to `after`.
    #[must_use]
    pub fn of(before: f64, after: f64) -> Option<Judgement> {
        let lost = before - after;
        if lost >= 15.0 {
            Some(Judgement::Blunder)
        } else if lost >= 10.0 {
            Some(Judgement::Mistake)
        } else if lost >= 5.0 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The mark written after the move: `?!`, `?` or `??`.
    #[must_use]
    pub fn mark(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// One side's play in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideReview {
    /// The game's accuracy in percent (`None`: the side made no move).
    pub accuracy: Option<f64>,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

/// A game reviewed: each move's judgement, and each side's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Review {
    /// Per move, in order.
    pub judgements: Vec<Option<Judgement>>,
    pub sides: [SideReview; 2],
}

/// Reviews a game from the score of each of its positions for the first player (`scores[n]` after `n`
/// moves) and the side that made each move (`movers[n]` made move `n + 1`), `pawn` hundredths a pawn.
///
/// A side's accuracy is, as lichess computes it, the mean of two means of its moves' accuracies: one weighted
/// by how much the chance of winning varied in a window of positions around each move (a calm position's move
/// counts less), and the harmonic mean (one bad move weighs much).
#[must_use]
pub fn review(scores: &[i32], movers: &[Player], pawn: i32) -> Review {
    let wins: Vec<f64> = scores.iter().map(|&s| win_percent(s, pawn)).collect();
    let n = movers.len().min(wins.len().saturating_sub(1));
    // The window of positions whose spread weighs each move.
    let size = (wins.len() / 10).clamp(2, 8);
    let weight = |i: usize| {
        let from = i.saturating_sub(size / 2).min(wins.len().saturating_sub(size));
        let window = &wins[from..(from + size).min(wins.len())];
        let mean = window.iter().sum::<f64>() / window.len() as f64;
        let var = window.iter().map(|w| (w - mean).powi(2)).sum::<f64>() / window.len() as f64;
        var.sqrt().clamp(0.5, 12.0)
    };
    let mut out = Review {
        judgements: Vec::with_capacity(n),
        sides: Default::default(),
    };
    let mut per_side: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, &mover) in movers.iter().enumerate().take(n) {
        // The mover's chances, before and after its move.
        let (before, after) = match mover {
            Player::First => (wins[i], wins[i + 1]),
            Player::Second => (100.0 - wins[i], 100.0 - wins[i + 1]),
        };
        let judgement = Judgement::of(before, after);
        let side = &mut out.sides[mover.index()];
        match judgement {
            Some(Judgement::Inaccuracy) => side.inaccuracies += 1,
            Some(Judgement::Mistake) => side.mistakes += 1,
            Some(Judgement::Blunder) => side.blunders += 1,
            None => {}
        }
        out.judgements.push(judgement);
        per_side[mover.index()].push((move_accuracy(before, after), weight(i)));
    }
    for (side, moves) in out.sides.iter_mut().zip(&per_side) {
        if moves.is_empty() {
            continue;
        }
        let weighted =
            moves.iter().map(|(a, w)| a * w).sum::<f64>() / moves.iter().map(|(_, w)| w).sum::<f64>();
        let harmonic = moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        side.accuracy = Some((weighted + harmonic) / 2.0);
    }
    out
}

/// [`review`] with the pawn of the engine of `pos`'s game (100 for a game without an engine).
#[must_use]
pub fn review_game(pos: &dyn gridplay_core::DynPosition, scores: &[i32], movers: &[Player]) -> Review {
    let pawn = crate::registry::engine_of(pos).map_or(100, |e| e.pawn);
    review(scores, movers, pawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Player::{First, Second};

    #[test]
    fn the_model_is_lichess_s() {
        // lichess: +100 cp is about 59.1%, +300 about 75.2%, 0 is 50%.
        assert!((win_percent(0, 100) - 50.0).abs() < 1e-9);
        assert!((win_percent(100, 100) - 59.1).abs() < 0.1);
        assert!((win_percent(300, 100) - 75.2).abs() < 0.1);
        // A game's unit: 4 discs a pawn scores +4 discs as +1 pawn.
        assert!((win_percent(400, 400) - win_percent(100, 100)).abs() < 1e-9);
        assert!((move_accuracy(60.0, 60.0) - 100.0).abs() < 1e-9);
        assert!(move_accuracy(60.0, 40.0) < 45.0 && move_accuracy(60.0, 40.0) > 40.0);
        assert_eq!(Judgement::of(60.0, 56.0), None);
        assert_eq!(Judgement::of(60.0, 54.0), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of(60.0, 49.0), Some(Judgement::Mistake));
        assert_eq!(Judgement::of(60.0, 40.0), Some(Judgement::Blunder));
    }

    #[test]
    fn a_blunder_is_counted_for_its_mover_and_lowers_its_accuracy() {
        // The first player keeps the balance; the second gives away 5 pawns on its second move.
        let scores = [0, 10, 0, 10, 500, 480];
        let movers = [First, Second, First, Second, First];
        let r = review(&scores, &movers, 100);
        assert_eq!(r.judgements[3], Some(Judgement::Blunder));
        assert_eq!(r.sides[1].blunders, 1);
        assert_eq!(
            r.sides[0].blunders + r.sides[0].mistakes + r.sides[0].inaccuracies,
            0
        );
        let (a, b) = (r.sides[0].accuracy.unwrap(), r.sides[1].accuracy.unwrap());
        assert!(a > 90.0 && b < 70.0, "{a} {b}");
        // Moves of one side in a row (a pass, a turn of several actions) are each the mover's.
        let r = review(&[0, 0, 0, -600], &[First, First, Second], 100);
        assert_eq!(r.sides[1].accuracy, Some(100.0));
        assert_eq!(r.sides[0].blunders, 0);
    }
}
