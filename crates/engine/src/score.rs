//! A match score and the Elo difference it implies, shared by `gridplay match` and the tuning examples.

/// One side's results in a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl MatchScore {
    #[must_use]
    pub fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The side's share of the points.
    #[must_use]
    pub fn fraction(self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// The side's Elo difference over its opponent with its 95% interval (from the normal approximation of
    /// the score). At 0% or 100% the approximation gives out, and the bounds are clamped to about ±1200.
    #[must_use]
    pub fn elo(self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.fraction();
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let margin = 1.96 * (var / n).sqrt();
        let elo = |p: f64| {
            let p = p.clamp(1e-3, 1.0 - 1e-3);
            -400.0 * (1.0 / p - 1.0).log10()
        };
        (elo(s), elo(s - margin), elo(s + margin))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_an_even_score_is_zero() {
        let (elo, lo, hi) = MatchScore {
            wins: 5,
            draws: 0,
            losses: 5,
        }
        .elo();
        assert!(elo.abs() < 1e-9 && lo < 0.0 && hi > 0.0);
        let (elo, ..) = MatchScore {
            wins: 3,
            draws: 0,
            losses: 1,
        }
        .elo();
        assert!((elo - 190.8).abs() < 1.0, "{elo}");
    }
}
