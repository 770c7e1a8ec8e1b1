//! What confirming callbacks may cost: each callback for a task that has not
//! been announced costs one status read of the service on the owner's
//! token, so reads are bounded twice. A task is read at most once per
//! interval (a callback for it in between is answered 503 with
//! `Retry-After`, so the service tries again later), and all confirming
//! reads together stay within a budget per second of their own.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

/// Tasks remembered before the ones read longer ago than the interval are
/// forgotten.
const REMEMBERED: usize = 10_000;

/// The bounds on confirming reads.
pub struct Confirmations {
    interval: Duration,
    /// When each (capability, task) was last read.
    last: Mutex<HashMap<(String, String), Instant>>,
    budget: RateLimiter<NotKeyed, InMemoryState, DefaultClock>,
    clock: DefaultClock,
}

impl Confirmations {
    /// One read per task per `interval`, `per_second` reads in all.
    pub fn new(interval: Duration, per_second: NonZeroU32) -> Confirmations {
        Confirmations {
            interval,
            last: Mutex::default(),
            budget: RateLimiter::direct(Quota::per_second(per_second)),
            clock: DefaultClock::default(),
        }
    }

    /// May `task_id` of `capability` be read now? `Err(wait)` when it was
    /// read less than an interval ago, or the budget is spent; otherwise the
    /// read is counted.
    pub fn may_read(&self, capability: &str, task_id: &str, now: Instant) -> Result<(), Duration> {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let key = (capability.to_owned(), task_id.to_owned());
        if let Some(read) = last.get(&key) {
            let since = now.saturating_duration_since(*read);
            if since < self.interval {
                return Err(self.interval - since);
            }
        }
        self.budget
            .check()
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))?;
        if last.len() >= REMEMBERED {
            let interval = self.interval;
            last.retain(|_, read| now.saturating_duration_since(*read) < interval);
        }
        last.insert(key, now);
        Ok(())
    }

    /// How long a task waits between two confirming reads.
    pub fn interval(&self) -> Duration {
        self.interval
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_is_read_at_most_once_per_interval() {
        let confirmations =
            Confirmations::new(Duration::from_secs(10), NonZeroU32::new(100).unwrap());
        let start = Instant::now();
        assert!(confirmations.may_read("c", "t1", start).is_ok());
        let wait = confirmations
            .may_read("c", "t1", start + Duration::from_secs(3))
            .unwrap_err();
        assert_eq!(wait, Duration::from_secs(7));
        // Another task has its own interval.
        assert!(confirmations.may_read("c", "t2", start).is_ok());
        assert!(confirmations
            .may_read("c", "t1", start + Duration::from_secs(10))
            .is_ok());
    }

    #[test]
    fn all_reads_together_stay_within_their_budget() {
        let confirmations =
            Confirmations::new(Duration::from_secs(10), NonZeroU32::new(3).unwrap());
        let now = Instant::now();
        let taken = (0..10)
            .filter(|n| confirmations.may_read("c", &n.to_string(), now).is_ok())
            .count();
        assert_eq!(taken, 3);
    }
}
