//! Per-visitor budgets, kept by `governor`: requests per minute, and tasks
//! created per hour by submits (each can create up to eight on the owner's
//! bill). Idle visitors are forgotten by [`Budgets::forget_idle`].

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::Who;

type Keyed = RateLimiter<Who, DefaultKeyedStateStore<Who>, DefaultClock>;

/// The two budgets.
#[derive(Debug)]
pub struct Budgets {
    requests: Keyed,
    tasks: Keyed,
    task_period: Duration,
    clock: DefaultClock,
}

impl Budgets {
    /// `requests_per_minute` calls and `tasks_per_hour` tasks per visitor,
    /// each available at once and refilled evenly over its period.
    pub fn new(requests_per_minute: NonZeroU32, tasks_per_hour: NonZeroU32) -> Budgets {
        Budgets {
            requests: RateLimiter::keyed(Quota::per_minute(requests_per_minute)),
            tasks: RateLimiter::keyed(Quota::per_hour(tasks_per_hour)),
            task_period: Duration::from_secs(3_600),
            clock: DefaultClock::default(),
        }
    }

    /// Count one request from `client`; `Err(wait)` when over budget.
    pub fn request(&self, client: &Who) -> Result<(), Duration> {
        self.requests
            .check_key(client)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Count `tasks` tasks a submit from `client` would create; `Err(wait)`
    /// when over budget (a submit larger than the whole budget waits a period).
    pub fn submit(&self, client: &Who, tasks: u64) -> Result<(), Duration> {
        let tasks = NonZeroU32::new(u32::try_from(tasks).unwrap_or(u32::MAX).max(1))
            .unwrap_or(NonZeroU32::MIN);
        match self.tasks.check_key_n(client, tasks) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => Err(not_until.wait_time_from(self.clock.now())),
            Err(_) => Err(self.task_period),
        }
    }

    /// Drop the visitors whose budgets are full again, so memory follows
    /// the visitors of the last period, not all visitors ever.
    pub fn forget_idle(&self) {
        self.requests.retain_recent();
        self.tasks.retain_recent();
        self.requests.shrink_to_fit();
        self.tasks.shrink_to_fit();
    }

    /// Visitors remembered now (both budgets).
    pub fn visitors(&self) -> usize {
        self.requests.len() + self.tasks.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(value: u32) -> NonZeroU32 {
        NonZeroU32::new(value).unwrap()
    }

    #[test]
    fn each_visitor_has_a_budget_of_their_own() {
        let budgets = Budgets::new(n(3), n(10));
        let a = Who::Address("192.0.2.1".parse().unwrap());
        let b = Who::Person("192.0.2.1".into());
        for _ in 0..3 {
            assert!(budgets.request(&a).is_ok());
        }
        let wait = budgets.request(&a).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(20),
            "{wait:?}"
        );
        assert!(budgets.request(&b).is_ok(), "a person is not an address");
    }

    #[test]
    fn submits_count_the_tasks_they_create() {
        let budgets = Budgets::new(n(100), n(10));
        let client = Who::Address("192.0.2.1".parse().unwrap());
        assert!(budgets.submit(&client, 8).is_ok());
        assert!(budgets.submit(&client, 2).is_ok());
        assert!(budgets.submit(&client, 1).is_err());
        let other = Who::Person("ada".into());
        assert_eq!(budgets.submit(&other, 11), Err(Duration::from_secs(3_600)));
        assert!(budgets.submit(&other, 10).is_ok());
    }
}
