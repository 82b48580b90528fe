//! Time controls: live clocks (an initial time plus an increment per turn), correspondence (days per move),
//! or none. The server keeps the clocks and flags a player whose time runs out; browsers only display them.
//!
//! A live clock runs only once both sides have moved, as on lichess: until then the game can be aborted. Time
//! is charged per turn (in a game where a turn is several moves, the turn runs one clock), and the increment is
//! added when the turn passes to the opponent.

use gridplay_core::Player;
use serde::{Deserialize, Serialize};

/// A day in milliseconds.
pub const DAY_MS: i64 = 24 * 3600 * 1000;

/// How long players have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TimeControl {
    /// No clock: only in games against the engine.
    Untimed,
    /// A chess clock: `initial_ms` each, plus `increment_ms` per turn.
    Live { initial_ms: i64, increment_ms: i64 },
    /// `days` for each move; a player who lets them pass can be claimed against.
    Correspondence { days: i64 },
}

/// A time control as a client asks for it, in seconds and days: `"untimed"` (games against the engine only),
/// `{"live": {"initial": 300, "increment": 3}}` or `{"correspondence": {"days": 3}}`.
#[derive(Clone, Copy, Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TimeInput {
    Untimed,
    /// A clock: 2 s to 3 h each, plus an increment of up to 180 s per turn.
    Live {
        initial: u32,
        increment: u32,
    },
    /// 1 to 14 days per move.
    Correspondence {
        days: u32,
    },
}

/// A time control out of bounds, with the value given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeError {
    #[error("a clock's initial time is 2 seconds to 3 hours, not {0} s")]
    Initial(u32),
    #[error("an increment is at most 180 seconds, not {0}")]
    Increment(u32),
    #[error("correspondence games have 1 to 14 days per move, not {0}")]
    Days(u32),
}

impl TimeInput {
    /// Checks the bounds: a live clock of 2 s to 3 h with an increment up to 3 min, or 1 to 14 days per move.
    pub fn check(self) -> Result<TimeControl, TimeError> {
        match self {
            TimeInput::Untimed => Ok(TimeControl::Untimed),
            TimeInput::Live { initial, increment } => {
                if !(2..=10_800).contains(&initial) {
                    return Err(TimeError::Initial(initial));
                }
                if increment > 180 {
                    return Err(TimeError::Increment(increment));
                }
                Ok(TimeControl::Live {
                    initial_ms: i64::from(initial) * 1000,
                    increment_ms: i64::from(increment) * 1000,
                })
            }
            TimeInput::Correspondence { days } => {
                if !(1..=14).contains(&days) {
                    return Err(TimeError::Days(days));
                }
                Ok(TimeControl::Correspondence {
                    days: i64::from(days),
                })
            }
        }
    }
}

impl TimeControl {
    /// Whether the game has a live clock.
    #[must_use]
    pub fn is_live(self) -> bool {
        matches!(self, TimeControl::Live { .. })
    }

    /// How long all of a player's pages must be gone from a live game before the opponent may claim it: a
    /// thirtieth of the initial time and two increments, from `floor_ms` to a minute (a 10+5 game: 30 s).
    #[must_use]
    pub fn claim_after_ms(self, floor_ms: i64) -> Option<i64> {
        match self {
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } => Some((initial_ms / 30 + 2 * increment_ms).clamp(floor_ms, 60_000.max(floor_ms))),
            _ => None,
        }
    }

    /// From the database columns `clock_initial`, `clock_increment` and `days_per_move`.
    #[must_use]
    pub fn from_columns(initial: Option<i64>, increment: Option<i64>, days: Option<i64>) -> TimeControl {
        match (initial, days) {
            (Some(initial_ms), _) => TimeControl::Live {
                initial_ms,
                increment_ms: increment.unwrap_or(0),
            },
            (None, Some(days)) => TimeControl::Correspondence { days },
            (None, None) => TimeControl::Untimed,
        }
    }

    /// The database columns `clock_initial`, `clock_increment` and `days_per_move`.
    #[must_use]
    pub fn columns(self) -> [Option<i64>; 3] {
        match self {
            TimeControl::Untimed => [None, None, None],
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } => [Some(initial_ms), Some(increment_ms), None],
            TimeControl::Correspondence { days } => [None, None, Some(days)],
        }
    }

    /// As players write it: `5+3` (minutes plus seconds), `3 days`, `untimed`.
    #[must_use]
    pub fn label(self) -> String {
        match self {
            TimeControl::Untimed => "untimed".into(),
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } => {
                let secs = initial_ms / 1000;
                let initial = if secs % 60 == 0 {
                    format!("{}", secs / 60)
                } else {
                    format!("{secs}s")
                };
                format!("{initial}+{}", increment_ms / 1000)
            }
            TimeControl::Correspondence { days: 1 } => "1 day".into(),
            TimeControl::Correspondence { days } => format!("{days} days"),
        }
    }
}

/// The clocks of a game in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Clocks {
    /// Each side's time left when its clock last stopped (the running side's at `since`).
    pub remaining: [i64; 2],
    /// The side whose clock runs, if any.
    pub running: Option<Player>,
    /// When the running clock started (the last move), in Unix ms.
    pub since: i64,
}

impl Clocks {
    #[must_use]
    pub fn new(tc: TimeControl, start: i64) -> Clocks {
        let initial = match tc {
            TimeControl::Live { initial_ms, .. } => initial_ms,
            _ => 0,
        };
        Clocks {
            remaining: [initial; 2],
            running: None,
            since: start,
        }
    }

    /// When the running side's time is up.
    #[must_use]
    pub fn deadline(&self) -> Option<i64> {
        self.running.map(|p| self.since + self.remaining[p.index()])
    }

    /// `mover` moved at `now`: its clock is charged, and the increment added if the turn passes. Then the clock
    /// of `next` (the side to move, `None` once the game is over) runs if both sides have moved. Returns the
    /// mover's time left.
    pub fn on_move(
        &mut self,
        tc: TimeControl,
        mover: Player,
        now: i64,
        next: Option<Player>,
        both_moved: bool,
    ) -> i64 {
        let TimeControl::Live { increment_ms, .. } = tc else {
            self.since = now;
            self.running = next;
            return 0;
        };
        let i = mover.index();
        // Only a running clock is charged, and earns the increment when the turn passes.
        if self.running == Some(mover) {
            self.remaining[i] -= now - self.since;
            if next != Some(mover) {
                self.remaining[i] += increment_ms;
            }
        }
        self.since = now;
        self.running = if both_moved { next } else { None };
        self.remaining[i]
    }

    /// Rebuilds the clocks after a stored move: `left` is the mover's time left as stored.
    pub fn replay_move(
        &mut self,
        mover: Player,
        left: Option<i64>,
        at: i64,
        next: Option<Player>,
        both_moved: bool,
    ) {
        if let Some(left) = left {
            self.remaining[mover.index()] = left;
        }
        self.since = at;
        self.running = if both_moved { next } else { None };
    }

    /// The turn changed without a move (a takeback) at `now`: the running side is charged, then `next`'s clock
    /// runs (once both sides have moved), with no increment and no time given back.
    pub fn on_takeback(&mut self, now: i64, next: Player, both_moved: bool) {
        if let Some(p) = self.running {
            self.remaining[p.index()] = (self.remaining[p.index()] - (now - self.since)).max(0);
        }
        self.since = now;
        self.running = both_moved.then_some(next);
    }

    /// Stops the clocks at `now` (the game ended other than by a move), charging the running side.
    pub fn stop(&mut self, now: i64) {
        if let Some(p) = self.running.take() {
            self.remaining[p.index()] = (self.remaining[p.index()] - (now - self.since)).max(0);
            self.since = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIVE_PLUS_THREE: TimeControl = TimeControl::Live {
        initial_ms: 300_000,
        increment_ms: 3_000,
    };

    #[test]
    fn the_clock_waits_for_both_sides_then_charges_and_adds_the_increment() {
        let mut c = Clocks::new(FIVE_PLUS_THREE, 0);
        // First's first move: nothing runs yet.
        assert_eq!(
            c.on_move(
                FIVE_PLUS_THREE,
                Player::First,
                10_000,
                Some(Player::Second),
                false
            ),
            300_000
        );
        assert_eq!(c.deadline(), None);
        // Second's first move: now First's clock runs; Second's did not run, so it earns nothing.
        c.on_move(FIVE_PLUS_THREE, Player::Second, 20_000, Some(Player::First), true);
        assert_eq!(c.remaining[1], 300_000);
        assert_eq!(c.running, Some(Player::First));
        assert_eq!(c.deadline(), Some(20_000 + 300_000));
        // First thinks 7 s: 300 - 7 + 3.
        assert_eq!(
            c.on_move(FIVE_PLUS_THREE, Player::First, 27_000, Some(Player::Second), true),
            296_000
        );
        assert_eq!(c.deadline(), Some(27_000 + c.remaining[1]));
    }

    #[test]
    fn a_turn_of_several_moves_runs_one_clock_and_adds_one_increment() {
        let mut c = Clocks::new(FIVE_PLUS_THREE, 0);
        c.running = Some(Player::First);
        c.on_move(FIVE_PLUS_THREE, Player::First, 1_000, Some(Player::First), true);
        c.on_move(FIVE_PLUS_THREE, Player::First, 3_000, Some(Player::Second), true);
        assert_eq!(c.remaining[0], 300_000 - 3_000 + 3_000);
    }

    #[test]
    fn stopping_charges_the_running_side() {
        let mut c = Clocks::new(FIVE_PLUS_THREE, 0);
        c.running = Some(Player::Second);
        c.stop(400_000);
        assert_eq!(c.remaining[1], 0);
        assert_eq!(c.running, None);
    }

    #[test]
    fn inputs_are_checked_and_labelled() {
        assert_eq!(
            TimeInput::Live {
                initial: 300,
                increment: 3
            }
            .check()
            .map(TimeControl::label),
            Ok("5+3".into())
        );
        assert!(
            TimeInput::Live {
                initial: 1,
                increment: 0
            }
            .check()
            .is_err()
        );
        assert!(TimeInput::Correspondence { days: 15 }.check().is_err());
        let tc = TimeControl::Correspondence { days: 3 };
        let [a, b, c] = tc.columns();
        assert_eq!(TimeControl::from_columns(a, b, c), tc);
        assert_eq!(tc.label(), "3 days");
    }
}
