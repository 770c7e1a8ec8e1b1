//! When to read a task's status next. The browser crate runs the timers;
//! the arithmetic lives here, where it is tested natively.
//!
//! Without knowing how long tasks of a kind take: a first read soon after
//! submit, then waits growing by 1.5 from 1 s up to a 15 s cap. Once the
//! typical length of a kind is known ([`DurationEstimate`]), reads before the
//! expected end are spaced at the cap (a failure still shows within 15 s), the
//! read at the expected end is timed to it, and an overdue task is read every
//! tenth of its expected length (1 to 15 s).

use std::collections::VecDeque;
use std::time::Duration;

/// The numbers of the polling schedule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PollSchedule {
    /// Wait before the first read after submit.
    pub first: Duration,
    /// Growth of the wait from one read to the next.
    pub factor: f64,
    /// The longest wait between two reads.
    pub cap: Duration,
    /// The shortest wait between two reads after the first.
    pub floor: Duration,
}

impl Default for PollSchedule {
    /// First read after 1 s, then ×1.5 up to 15 s, never more often than every second.
    fn default() -> Self {
        PollSchedule {
            first: Duration::from_secs(1),
            factor: 1.5,
            cap: Duration::from_secs(15),
            floor: Duration::from_secs(1),
        }
    }
}

impl PollSchedule {
    /// The schedule of a server reading a task nobody else follows (a
    /// gateway keeping an upload for it): first after 30 s, then ×1.5 up
    /// to every 10 minutes, never more often than every 5 s. Reading a
    /// two-day task so costs about 300 reads, not the 11,500 of the
    /// browser's 15 s cap.
    pub fn unattended() -> PollSchedule {
        PollSchedule {
            first: Duration::from_secs(30),
            factor: 1.5,
            cap: Duration::from_secs(600),
            floor: Duration::from_secs(5),
        }
    }

    /// The wait before the next read, after `reads` reads (0: none yet),
    /// `elapsed` since submit, for a kind whose tasks usually take `expected`.
    pub fn next_delay(
        &self,
        reads: u32,
        elapsed: Duration,
        expected: Option<Duration>,
    ) -> Duration {
        if reads == 0 {
            return self.first;
        }
        match expected {
            Some(expected) if elapsed < expected => {
                (expected - elapsed).clamp(self.floor, self.cap)
            }
            Some(expected) => (expected / 10).clamp(self.floor, self.cap),
            None => {
                let exponent = i32::try_from(reads - 1).unwrap_or(i32::MAX);
                let grown = self.first.as_secs_f64() * self.factor.powi(exponent);
                Duration::from_secs_f64(grown.min(self.cap.as_secs_f64()))
                    .clamp(self.floor, self.cap)
            }
        }
    }
}

/// The wait before the one safety read of a task the gateway's relay
/// follows (its end arrives as an event, not by reading): twice the usual
/// length of its kind, or [`RELAYED_UNKNOWN_WAIT`] before one is known,
/// counted from submit. Should the read find it still running, it is
/// polled from then on as an overdue task.
pub fn relayed_delay(elapsed: Duration, expected: Option<Duration>) -> Duration {
    let safety = expected.map_or(RELAYED_UNKNOWN_WAIT, |expected| expected * 2);
    safety.saturating_sub(elapsed)
}

/// The safety read's wait when no task of the kind was seen to end yet.
pub const RELAYED_UNKNOWN_WAIT: Duration = Duration::from_secs(10 * 60);

/// After the browser gives a relay's stream up, the wait before its tasks
/// are read: a page being left closes its streams as it goes, and must not
/// read every task on its way out.
pub const RELAY_FAILED_WAIT: Duration = Duration::from_secs(3);

/// The longest wait before opening a relay's stream again.
pub const RELAY_REOPEN_CAP: Duration = Duration::from_secs(60);

/// The wait before opening a relay's stream again after the browser gave
/// it up `failures` times in a row (1 for the first): from half a second to
/// a second at first, doubling up to [`RELAY_REOPEN_CAP`]. A gateway that
/// answered one stream with an error (restarting behind its balancer, say)
/// is tried again before [`RELAY_FAILED_WAIT`], so a short outage costs no
/// reads. `unit` is a uniform random number in `[0, 1)`: half of each wait
/// is spread by it, so pages a gateway dropped together do not all come
/// back in the same instant.
pub fn relay_reopen_delay(failures: u32, unit: f64) -> Duration {
    let doublings = failures.saturating_sub(1).min(16);
    let ceiling = Duration::from_secs(1)
        .saturating_mul(1 << doublings)
        .min(RELAY_REOPEN_CAP);
    ceiling.mul_f64(0.5 + 0.5 * crate::retry::unit_interval(unit))
}

/// The typical length of a kind's tasks: the median of the last 20 seen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DurationEstimate {
    samples: VecDeque<Duration>,
}

impl DurationEstimate {
    /// How many recent lengths are kept.
    pub const WINDOW: usize = 20;

    /// Record the length of a task that ended.
    pub fn record(&mut self, length: Duration) {
        self.samples.push_back(length);
        if self.samples.len() > Self::WINDOW {
            self.samples.pop_front();
        }
    }

    /// The median length, or `None` before any task ended: an honest
    /// "estimating" rather than a guess.
    pub fn median(&self) -> Option<Duration> {
        // The sample at index len/2 once sorted: the one with at most len/2
        // samples below it and more than len/2 at or below it. The window is
        // small, so counting costs less code than a sort in the browser's wasm.
        let middle = self.samples.len() / 2;
        let count = |keep: &dyn Fn(Duration) -> bool| {
            self.samples.iter().filter(|&&sample| keep(sample)).count()
        };
        self.samples.iter().copied().find(|&candidate| {
            count(&|sample| sample < candidate) <= middle
                && count(&|sample| sample <= candidate) > middle
        })
    }
}

/// What polling one task costs and how late it sees the end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Simulation {
    /// Status reads until the end was seen.
    pub reads: u32,
    /// Time from the task's end to the read that saw it.
    pub detection_delay: Duration,
}

/// Poll a task that ends `length` after submit, following `next_delay`.
pub fn simulate(
    length: Duration,
    mut next_delay: impl FnMut(u32, Duration) -> Duration,
) -> Simulation {
    let mut elapsed = Duration::ZERO;
    let mut reads = 0;
    loop {
        elapsed += next_delay(reads, elapsed);
        reads += 1;
        if elapsed >= length {
            return Simulation {
                reads,
                detection_delay: elapsed - length,
            };
        }
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn an_unattended_task_is_read_a_few_hundred_times_in_two_days() {
        let schedule = PollSchedule::unattended();
        let two_days = Duration::from_secs(48 * 3_600);
        let (mut reads, mut elapsed) = (0u32, Duration::ZERO);
        while elapsed < two_days {
            elapsed += schedule.next_delay(reads, elapsed, None);
            reads += 1;
        }
        assert!((280..=300).contains(&reads), "{reads}");
        assert_eq!(
            schedule.next_delay(0, Duration::ZERO, None),
            Duration::from_secs(30)
        );
        assert_eq!(
            schedule.next_delay(50, two_days, None),
            Duration::from_secs(600)
        );
    }

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn a_given_up_stream_is_opened_again_soon_then_less_often() {
        let earliest: Vec<f64> = (1..=8)
            .map(|failures| relay_reopen_delay(failures, 0.0).as_secs_f64())
            .collect();
        assert_eq!(earliest, [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]);
        assert_eq!(relay_reopen_delay(1, 0.999_999).as_secs_f64().ceil(), 1.0);
        assert_eq!(relay_reopen_delay(u32::MAX, 1.0), RELAY_REOPEN_CAP);
        assert!(
            relay_reopen_delay(1, 1.0) < RELAY_FAILED_WAIT,
            "the first try comes before any read"
        );
        assert_eq!(relay_reopen_delay(0, 0.0), relay_reopen_delay(1, 0.0));
        assert_eq!(relay_reopen_delay(1, f64::NAN), Duration::from_millis(500));
    }

    #[test]
    fn without_an_estimate_waits_grow_by_half_up_to_15_s() {
        let schedule = PollSchedule::default();
        let waits: Vec<f64> = (0..10)
            .map(|n| schedule.next_delay(n, Duration::ZERO, None).as_secs_f64())
            .collect();
        assert_eq!(waits[..6], [1.0, 1.0, 1.5, 2.25, 3.375, 5.0625]);
        assert_eq!(waits[9], 15.0);
    }

    #[test]
    fn with_an_estimate_reads_at_the_expected_end_and_then_often() {
        let schedule = PollSchedule::default();
        let expected = Some(secs(60.0));
        assert_eq!(schedule.next_delay(0, Duration::ZERO, expected), secs(1.0));
        assert_eq!(
            schedule.next_delay(1, secs(1.0), expected),
            secs(15.0),
            "capped: failures show within 15 s"
        );
        assert_eq!(
            schedule.next_delay(4, secs(46.0), expected),
            secs(14.0),
            "timed to the expected end"
        );
        assert_eq!(
            schedule.next_delay(5, secs(60.0), expected),
            secs(6.0),
            "overdue: a tenth of the length"
        );
        assert_eq!(
            schedule.next_delay(5, secs(10.0), Some(secs(9.5))),
            secs(1.0),
            "never below the floor"
        );
    }

    #[test]
    fn the_estimate_is_the_median_of_recent_lengths() {
        let mut estimate = DurationEstimate::default();
        assert_eq!(estimate.median(), None);
        for s in [10.0, 200.0, 12.0] {
            estimate.record(secs(s));
        }
        assert_eq!(estimate.median(), Some(secs(12.0)));
        for _ in 0..DurationEstimate::WINDOW {
            estimate.record(secs(30.0));
        }
        assert_eq!(estimate.median(), Some(secs(30.0)), "old samples age out");
    }

    /// The goals: at most a tenth of a fixed 500 ms poll's reads, and the end
    /// seen within 15 s and within a fifth of the task's length.
    #[test]
    fn with_an_estimate_the_schedule_meets_the_goals() {
        let schedule = PollSchedule::default();
        for length in [10.0, 60.0, 300.0] {
            let run = simulate(secs(length), |reads, elapsed| {
                schedule.next_delay(reads, elapsed, Some(secs(length)))
            });
            let fixed = simulate(secs(length), |_, _| secs(0.5));
            assert!(
                run.reads * 10 <= fixed.reads,
                "{length} s: {} reads against {}",
                run.reads,
                fixed.reads
            );
            assert!(
                run.detection_delay <= secs(15.0).min(secs(length / 5.0)),
                "{length} s: {:?}",
                run.detection_delay
            );
        }
    }

    #[test]
    fn without_an_estimate_the_end_is_still_seen_within_15_s() {
        let schedule = PollSchedule::default();
        for length in [0.5, 10.0, 60.0, 300.0, 3600.0] {
            let run = simulate(secs(length), |reads, elapsed| {
                schedule.next_delay(reads, elapsed, None)
            });
            assert!(
                run.detection_delay <= secs(15.0),
                "{length} s: {:?}",
                run.detection_delay
            );
        }
        let long = simulate(secs(300.0), |reads, elapsed| {
            schedule.next_delay(reads, elapsed, None)
        });
        let fixed = simulate(secs(300.0), |_, _| secs(0.5));
        assert!(
            long.reads * 10 <= fixed.reads,
            "{} against {}",
            long.reads,
            fixed.reads
        );
    }
}
