use std::{fmt, ops::Not};

use serde::{Deserialize, Serialize};

/// One of the two sides, named by the order of play: `First` moves first in the game's start position.
///
/// Games give the sides their own names and colours (Black and White, Red and White, Warui-ko and Yoi-ko) in
/// [`crate::GameInfo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// 0 for `First`, 1 for `Second`.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    #[must_use]
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// `first` or `second`, as the engine protocol writes it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Player::First => "first",
            Player::Second => "second",
        }
    }
}

impl Not for Player {
    type Output = Player;
    fn not(self) -> Player {
        self.other()
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The two sides' counts as the game scores them (discs, crosses, pieces, health...), first player first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Score {
    pub first: i32,
    pub second: i32,
}

impl Score {
    #[must_use]
    pub const fn new(first: i32, second: i32) -> Score {
        Score { first, second }
    }

    #[must_use]
    pub const fn of(self, player: Player) -> i32 {
        match player {
            Player::First => self.first,
            Player::Second => self.second,
        }
    }

    /// `of(player) - of(!player)`.
    #[must_use]
    pub const fn margin(self, player: Player) -> i32 {
        match player {
            Player::First => self.first - self.second,
            Player::Second => self.second - self.first,
        }
    }
}

impl fmt::Display for Score {
    /// Written `33-31`, first player first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.first, self.second)
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Outcome {
    Win { winner: Player },
    Draw,
}

impl Outcome {
    #[must_use]
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win { winner } => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// Decides by the larger count; an equal count is `tie`.
    #[must_use]
    pub fn by_score(score: Score, tie: Outcome) -> Outcome {
        match score.first.cmp(&score.second) {
            std::cmp::Ordering::Greater => Outcome::Win {
                winner: Player::First,
            },
            std::cmp::Ordering::Less => Outcome::Win {
                winner: Player::Second,
            },
            std::cmp::Ordering::Equal => tie,
        }
    }

    /// +1 for a win of `player`, 0 for a draw, -1 for a loss.
    #[must_use]
    pub fn value_for(self, player: Player) -> i32 {
        match self {
            Outcome::Win { winner } if winner == player => 1,
            Outcome::Win { .. } => -1,
            Outcome::Draw => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_alternate() {
        assert_eq!(!Player::First, Player::Second);
        assert_eq!(Player::Second.other(), Player::First);
        assert_eq!(Player::Second.index(), 1);
    }

    #[test]
    fn score_margin_and_display() {
        let s = Score::new(33, 31);
        assert_eq!(s.margin(Player::First), 2);
        assert_eq!(s.margin(Player::Second), -2);
        assert_eq!(s.to_string(), "33-31");
        assert_eq!(
            Outcome::by_score(s, Outcome::Draw),
            Outcome::Win {
                winner: Player::First
            }
        );
        assert_eq!(Outcome::by_score(Score::new(3, 3), Outcome::Draw), Outcome::Draw);
    }
}
