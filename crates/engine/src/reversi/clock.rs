//! How the Reversi engine spends a game clock ([`crate::Clock`]): a share of the time left by the stage of the
//! game, and how late the exact solver takes over on a short clock.

use std::time::Duration;

use crate::Clock;

/// At most this many empty squares, the exact solver plays with `clock` left: all of
/// [`super::SOLVE_EMPTIES`] with two seconds or more, fewer on a short clock (the solver does not watch the
/// time; the search does).
#[must_use]
pub fn solve_empties(clock: Clock) -> u32 {
    match clock.usable().as_millis() {
        2000.. => super::SOLVE_EMPTIES,
        500..2000 => 14,
        _ => 10,
    }
}

/// On a game clock, the end of the game: from this many empty squares down a win/loss/draw solve decides
/// the game, and a won or drawn position thrown away there is not won back.
pub const END_EMPTIES: u32 = 22;

/// The share of the usable clock (in percent) kept for the end while the game is before it, and the most it
/// keeps: on a short clock the solve at the end needs a large share of it, on a long one an eighth is plenty.
const END_SHARE: u32 = 35;
const END_MOST: Duration = Duration::from_secs(3);

/// The most a win/loss/draw solve at the end may take of the usable clock, in percent.
const WLD_SHARE: u32 = 40;

/// The most a win/loss/draw solve may take on `clock` at [`END_EMPTIES`] or fewer.
#[must_use]
pub fn wld_budget(clock: Clock) -> Duration {
    clock.usable() * WLD_SHARE / 100
}

/// How much of the clock a move at `empties` deserves, in tenths: the midgame (30 to 48 empties), where the
/// game is decided, most; the opening least.
fn stage_weight(empties: u32) -> u32 {
    match empties {
        49.. => 6,
        30..=48 => 17,
        _ => 10,
    }
}

/// The time a move should take and the most it may take, from the clock of the side to move and the empty
/// squares: what is left, less what is kept for the end, shared among this side's moves until then by
/// [`stage_weight`], with nine tenths of the increment added; at most three times that when the move is
/// unclear, and never more than a third of what is left. Before [`END_EMPTIES`] a move leaves 35% of what is
/// left (at most 3 s, at least an eighth) out of its share for the end; from there on an eighth, for the exact
/// solve.
#[must_use]
pub fn allot(clock: Clock, empties: u32) -> (Duration, Duration) {
    let usable = clock.usable();
    // Before the end, what the end needs is kept for it; at the end, an eighth for the exact solve.
    let (kept, last) = if empties > END_EMPTIES {
        let end = (usable * END_SHARE / 100).min(END_MOST);
        (end.max(usable / 8), END_EMPTIES)
    } else {
        (usable / 8, super::SOLVE_EMPTIES)
    };
    let for_moves = usable - kept;
    let weights: u32 = (last + 1..=empties.max(last + 1))
        .rev()
        .step_by(2)
        .map(stage_weight)
        .sum();
    let soft = for_moves * stage_weight(empties) / weights + clock.increment * 9 / 10;
    let hard = (soft * 3).min(usable / 3);
    (soft.min(hard), hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_spent_by_stage_and_never_run_out() {
        let clock = |ms| Clock {
            left: Duration::from_millis(ms),
            increment: Duration::ZERO,
        };
        // Five minutes: the midgame gets more than the opening, and the hard stop is a third at most.
        let (open_soft, open_hard) = allot(clock(300_000), 56);
        let (mid_soft, mid_hard) = allot(clock(300_000), 40);
        assert!(mid_soft > open_soft * 2, "{open_soft:?} {mid_soft:?}");
        assert!(open_hard >= open_soft && mid_hard >= mid_soft);
        assert!(mid_hard <= Duration::from_millis(100_000));
        // A whole game, each move taking its share (the side to move at 59, 57, .. empties): most of the clock
        // is used, some is left for the solve, and the midgame moves take the most.
        let mut left = Duration::from_secs(300);
        let mut spent = Vec::new();
        for empties in (19..=59).rev().step_by(2) {
            let (soft, _) = allot(
                Clock {
                    left,
                    increment: Duration::ZERO,
                },
                empties,
            );
            spent.push((empties, soft));
            left -= soft;
        }
        assert!(
            (Duration::from_secs(5)..Duration::from_secs(45)).contains(&left),
            "{left:?}"
        );
        let most = spent.iter().max_by_key(|s| s.1).unwrap();
        assert!((30..=48).contains(&most.0), "{spent:?}");
        // On a short clock the hard stop stays within a third, and nothing is spent below the margin.
        assert!(allot(clock(300), 40).1 <= Duration::from_millis(84));
        assert_eq!(allot(clock(40), 40), (Duration::ZERO, Duration::ZERO));
        assert_eq!(solve_empties(clock(10_000)), 18);
        assert_eq!(solve_empties(clock(1_000)), 14);
        assert_eq!(solve_empties(clock(100)), 10);
        // The increment is spent too, within the third of what is left.
        let inc = Clock {
            left: Duration::from_secs(10),
            increment: Duration::from_secs(2),
        };
        assert!(allot(inc, 40).0 > allot(clock(10_000), 40).0 + Duration::from_secs(1));
        assert!(allot(inc, 40).1 <= Duration::from_millis(3317));
    }

    #[test]
    fn a_short_clock_keeps_a_share_for_the_end_and_its_solve_cannot_flag() {
        let clock = |left| Clock {
            left,
            increment: Duration::ZERO,
        };
        // 1.3 s for a game: each move before the end leaves 35% of what is left out of its share, so that, each move taking its whole share, 0.17 s are still there at the end.
        let mut left = Duration::from_millis(1300);
        for empties in (23..=59).rev().step_by(2) {
            let (soft, hard) = allot(clock(left), empties);
            assert!(
                soft <= hard && hard <= clock(left).usable() * 65 / 100,
                "{soft:?} {hard:?}"
            );
            left -= soft;
        }
        assert!(left >= Duration::from_millis(150), "{left:?}");
        // A clock a hundred times longer gives a midgame move more than 120 times the time: it keeps only
        // an eighth (3 s at most) for the end, where the short one keeps 35%.
        let (long, _) = allot(clock(Duration::from_secs(300)), 40);
        let (short, _) = allot(clock(Duration::from_secs(3)), 40);
        assert!(long > short * 120, "{long:?} {short:?}");
        // At the end the solve may take 40% of what is left, and the search after a solve that gave up at
        // most the hard stop: together less than what is left.
        for empties in (19..=22).rev() {
            let (_, hard) = allot(clock(left), empties);
            let budget = wld_budget(clock(left));
            assert!(budget >= clock(left).usable() * 2 / 5 - Duration::from_millis(1));
            assert!(budget + hard < left, "{budget:?} + {hard:?} at {left:?}");
            left -= budget / 2;
        }
    }
}
