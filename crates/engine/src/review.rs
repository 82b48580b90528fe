//! How well a game was played, by the win-percentage model lichess publishes: each position's score turned
//! into the mover's chance of winning, each move's accuracy from the chance it gave away, a game's accuracy
//! from its moves', and the moves that gave away much (inaccuracies, mistakes and blunders).
//!
//! lichess's model reads chess centipawns; a game's [`crate::registry::GameEngine::pawn`] says how many
//! hundredths of the game's own unit count as a pawn (docs/engines.md, "Review").
//!
//! The engine-use review reads more of each move: whether it was the engine's best (book moves and forced
//! moves left out), and over a player's recent games whether that agreement and accuracy are beyond what
//! people reach ([`Rule`], measured on public human games: docs/engines.md, "Engine-use review").

use std::time::Duration;

use gridplay_core::{DynPosition, Outcome, Player};
use gridplay_search::StopFlag;

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

/// The search time a position of a game gets in its review: the engine-use [`rule`]s were measured on
/// figures from this much (docs/engines.md, "Engine-use review").
pub const PER_POSITION: Duration = Duration::from_millis(40);

/// One side's play in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideReview {
    /// The game's accuracy in percent (`None`: the side made no move).
    pub accuracy: Option<f64>,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The moves that count toward agreement with the engine: neither from the opening book nor the only
    /// move, and scored by the search.
    pub counted: usize,
    /// Of those, the moves that scored as well as the engine's best.
    pub agreed: usize,
}

/// What the engine found in one position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionScore {
    /// Whose turn it was.
    pub turn: Player,
    /// The best move's score for the side to move, in hundredths of a game unit (an ended game: its result).
    pub best: i32,
    /// The score of the move played from here, when one was and the search scored it.
    pub played: Option<i32>,
    /// How many legal moves the side to move had (0 once the game is over).
    pub choices: usize,
    /// Whether the game's opening book holds the position.
    pub book: bool,
}

/// Scores each position of a game for its review: every legal move searched for `per_position` (as
/// [`crate::score_moves`]), scores bounded by `clamp` (a won position scores it), `played[n]` the move
/// played from `positions[n]`. Stops early, with the positions scored so far, when `stop` is set.
#[must_use]
pub fn score_positions(
    positions: &[Box<dyn DynPosition>],
    played: &[String],
    per_position: Duration,
    clamp: i32,
    stop: &StopFlag,
) -> Vec<PositionScore> {
    let mut out = Vec::with_capacity(positions.len());
    for (n, pos) in positions.iter().enumerate() {
        if stop.is_stopped() {
            break;
        }
        if let Some(outcome) = pos.outcome() {
            let best = match outcome {
                Outcome::Win { winner } if winner == pos.turn() => clamp,
                Outcome::Win { .. } => -clamp,
                Outcome::Draw => 0,
            };
            out.push(PositionScore {
                turn: pos.turn(),
                best,
                played: None,
                choices: 0,
                book: false,
            });
            continue;
        }
        let scores = crate::score_moves(pos.as_ref(), per_position, &StopFlag::new()).unwrap_or_default();
        let best = scores.iter().map(|s| s.1).max().unwrap_or(0).clamp(-clamp, clamp);
        let played = played
            .get(n)
            .and_then(|m| scores.iter().find(|s| &s.0 == m))
            .map(|s| s.1.clamp(-clamp, clamp));
        let book = crate::book_moves(pos.as_ref()).is_some_and(|m| !m.is_empty());
        out.push(PositionScore {
            turn: pos.turn(),
            best,
            played,
            choices: scores.len(),
            book,
        });
    }
    out
}

/// Reviews a game from its positions' scores ([`score_positions`]): [`review`]'s judgements and accuracy,
/// and each side's agreement with the engine's best move.
#[must_use]
pub fn review_scored(start: &dyn DynPosition, scored: &[PositionScore]) -> Review {
    let scores: Vec<i32> = scored
        .iter()
        .map(|s| if s.turn == Player::First { s.best } else { -s.best })
        .collect();
    let movers: Vec<Player> = scored
        .iter()
        .take(scored.len().saturating_sub(1))
        .map(|s| s.turn)
        .collect();
    let mut out = review_game(start, &scores, &movers);
    for s in scored.iter().take(movers.len()) {
        if s.book || s.choices < 2 {
            continue;
        }
        let Some(played) = s.played else { continue };
        let side = &mut out.sides[s.turn.index()];
        side.counted += 1;
        if played >= s.best {
            side.agreed += 1;
        }
    }
    out
}

/// One side's figures in one game, as the engine-use review reads a player's recent games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameFigures {
    /// The game's accuracy in percent.
    pub accuracy: f64,
    /// Moves counted toward agreement ([`SideReview::counted`]).
    pub counted: usize,
    /// Of those, the engine's best ([`SideReview::agreed`]).
    pub agreed: usize,
}

/// When a window of a player's games is improbably engine-like: at least `min_games` games, and over them
/// both the share of counted moves that were the engine's best and the mean accuracy at or above the bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    pub min_games: usize,
    /// In percent of the counted moves.
    pub agreement: f64,
    /// In percent, the mean of the games' accuracies.
    pub accuracy: f64,
}

/// The engine-use rule of a game, where one was measured (docs/engines.md, "Engine-use review").
#[must_use]
pub fn rule(game: &str) -> Option<Rule> {
    match game {
        // Set on the windows of WTHOR 2023's players (the highest of them: 79.2% agreement at 85.3%
        // accuracy, 73.1% at 89.9%), before the engine's games and WTHOR 2024 were measured against it.
        "reversi" => Some(Rule {
            min_games: 10,
            agreement: 77.0,
            accuracy: 88.0,
        }),
        _ => None,
    }
}

/// A window of a player's games, summed up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Window {
    pub games: usize,
    pub counted: usize,
    pub agreed: usize,
    /// `agreed / counted` in percent (0 when nothing counted).
    pub agreement: f64,
    /// The mean of the games' accuracies (0 for no game).
    pub accuracy: f64,
}

impl Window {
    /// Sums up `games`.
    #[must_use]
    pub fn of(games: &[GameFigures]) -> Window {
        let counted: usize = games.iter().map(|g| g.counted).sum();
        let agreed: usize = games.iter().map(|g| g.agreed).sum();
        Window {
            games: games.len(),
            counted,
            agreed,
            agreement: if counted == 0 {
                0.0
            } else {
                100.0 * agreed as f64 / counted as f64
            },
            accuracy: if games.is_empty() {
                0.0
            } else {
                games.iter().map(|g| g.accuracy).sum::<f64>() / games.len() as f64
            },
        }
    }

    /// Whether the window is improbably engine-like by `rule`.
    #[must_use]
    pub fn flagged(&self, rule: &Rule) -> bool {
        self.games >= rule.min_games && self.agreement >= rule.agreement && self.accuracy >= rule.accuracy
    }
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

    fn at(turn: Player, best: i32, played: Option<i32>, choices: usize, book: bool) -> PositionScore {
        PositionScore {
            turn,
            best,
            played,
            choices,
            book,
        }
    }

    #[test]
    fn agreement_counts_the_engine_s_best_and_leaves_out_book_and_forced_moves() {
        let game = gridplay_games::registry().game("reversi").unwrap();
        let start = game.start();
        let scored = [
            // A book move of the best, not counted.
            at(First, 0, Some(0), 4, true),
            // The only move, not counted.
            at(Second, 0, Some(0), 1, false),
            // The best: agreed; a tie with the best agrees too.
            at(First, 100, Some(100), 8, false),
            at(Second, -100, Some(-100), 8, false),
            // Not the best.
            at(First, 100, Some(-300), 8, false),
            // A move the search did not score: not counted.
            at(Second, 300, None, 8, false),
            // The end.
            at(First, 0, None, 0, false),
        ];
        let r = review_scored(start.as_ref(), &scored);
        assert_eq!((r.sides[0].counted, r.sides[0].agreed), (2, 1));
        assert_eq!((r.sides[1].counted, r.sides[1].agreed), (1, 1));
        assert_eq!(r.judgements.len(), 6);
    }

    #[test]
    fn a_window_is_flagged_only_with_enough_games_and_both_figures() {
        let rule = Rule {
            min_games: 2,
            agreement: 80.0,
            accuracy: 90.0,
        };
        let g = |accuracy, counted, agreed| GameFigures {
            accuracy,
            counted,
            agreed,
        };
        let w = Window::of(&[g(95.0, 20, 18), g(93.0, 30, 24)]);
        assert_eq!((w.games, w.counted, w.agreed), (2, 50, 42));
        assert!((w.agreement - 84.0).abs() < 1e-9 && (w.accuracy - 94.0).abs() < 1e-9);
        assert!(w.flagged(&rule));
        assert!(
            !Window::of(&[g(95.0, 20, 18)]).flagged(&rule),
            "one game is too few"
        );
        assert!(
            !Window::of(&[g(95.0, 20, 10), g(95.0, 20, 10)]).flagged(&rule),
            "agreement too low"
        );
        assert!(
            !Window::of(&[g(80.0, 20, 20), g(85.0, 20, 20)]).flagged(&rule),
            "accuracy too low"
        );
        assert_eq!(Window::of(&[]), Window::default());
    }
}
