//! The engine's quotas per user: analyses under way (of finished games and on the analysis board), and hints a
//! minute.

use std::{collections::HashMap, num::NonZeroU32, sync::Mutex};

use governor::{DefaultKeyedRateLimiter, Quota};

use super::LiveError;
use crate::config::Limits;

/// Counts each user's analyses under way and hints asked.
#[derive(Debug)]
pub(super) struct Quotas {
    /// Analyses each user has started that are not done yet.
    analysing: Mutex<HashMap<String, u32>>,
    /// Hints asked per user.
    hints: DefaultKeyedRateLimiter<String>,
    analyses_per_user: u32,
    hints_per_minute: u32,
}

impl Quotas {
    pub(super) fn new(limits: &Limits) -> Quotas {
        let per_minute = NonZeroU32::new(limits.hints_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        Quotas {
            analysing: Mutex::new(HashMap::new()),
            hints: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_minute)),
            analyses_per_user: limits.analyses_per_user,
            hints_per_minute: limits.hints_per_minute,
        }
    }

    fn analysing(&self) -> std::sync::MutexGuard<'_, HashMap<String, u32>> {
        self.analysing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts one more analysis under way for `user`, or refuses it past `analyses_per_user`.
    pub(super) fn start_analysis(&self, user: &str) -> Result<(), LiveError> {
        let limit = self.analyses_per_user;
        let mut counts = self.analysing();
        let n = counts.entry(user.to_owned()).or_default();
        if *n >= limit {
            return Err(LiveError::TooMany(format!(
                "you have {limit} analyses under way: wait for one to finish or stop one"
            )));
        }
        *n += 1;
        Ok(())
    }

    /// One of `user`'s analyses under way is over.
    pub(super) fn end_analysis(&self, user: &str) {
        let mut counts = self.analysing();
        if let Some(n) = counts.get_mut(user) {
            *n -= 1;
            if *n == 0 {
                counts.remove(user);
            }
        }
    }

    /// How many of `user`'s analyses are under way.
    pub(super) fn analyses_under_way(&self, user: &str) -> u32 {
        self.analysing().get(user).copied().unwrap_or(0)
    }

    /// Counts a hint against the user's quota, or refuses it.
    pub(super) fn count_hint(&self, user: &str) -> Result<(), LiveError> {
        if self.hints.check_key(&user.to_owned()).is_err() {
            return Err(LiveError::TooMany(format!(
                "at most {} hints a minute: wait a moment",
                self.hints_per_minute
            )));
        }
        Ok(())
    }

    /// Lets the hint limiter forget users it no longer limits.
    pub(super) fn forget(&self) {
        self.hints.retain_recent();
        self.hints.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analyses_are_counted_per_user_up_to_the_limit_and_given_back() {
        let limits = Limits {
            analyses_per_user: 2,
            hints_per_minute: 1,
            ..Limits::default()
        };
        let q = Quotas::new(&limits);
        q.start_analysis("a").unwrap();
        q.start_analysis("a").unwrap();
        assert!(matches!(q.start_analysis("a"), Err(LiveError::TooMany(_))));
        q.start_analysis("b").unwrap();
        q.end_analysis("a");
        assert_eq!(q.analyses_under_way("a"), 1);
        q.start_analysis("a").unwrap();
        q.end_analysis("b");
        assert_eq!(q.analyses_under_way("b"), 0);
        q.count_hint("a").unwrap();
        assert!(matches!(q.count_hint("a"), Err(LiveError::TooMany(_))));
        q.count_hint("b").unwrap();
    }
}
