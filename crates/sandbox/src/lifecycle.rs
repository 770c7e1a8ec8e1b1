//! When a task waits, generates and ends, and how. Status is derived from the
//! clock on every read, so no timer runs per task.

use std::time::{Duration, Instant};

use media_gen_api::TaskStatus;

/// Share of a task's time spent waiting (`PENDING`) before `GENERATING`.
const WAITING_SHARE: f64 = 0.2;

/// How long tasks take: `typical`, varied by up to `spread` either way
/// (0.5: between half and one and a half times `typical`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// The typical time from submit to the end.
    pub typical: Duration,
    /// Relative variation, 0 to 1.
    pub spread: f64,
}

/// How a task ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// `SUCCEEDED`.
    Success,
    /// `FAILED` with this `error_message`.
    Failure(String),
}

/// The moments of one task's life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// When it leaves `PENDING` for `GENERATING`.
    pub starts: Instant,
    /// When it reaches `SUCCEEDED` or `FAILED`.
    pub ends: Instant,
}

impl Schedule {
    /// A schedule from `now`; `unit` (0 to 1) picks where in the spread it falls.
    pub fn new(now: Instant, timing: Timing, unit: f64) -> Self {
        let spread = timing.spread.clamp(0.0, 1.0);
        let factor = 1.0 - spread + 2.0 * spread * unit.clamp(0.0, 1.0);
        let total = timing.typical.mul_f64(factor);
        Schedule {
            starts: now + total.mul_f64(WAITING_SHARE),
            ends: now + total,
        }
    }

    /// The status at `now` for a task that ends with `outcome`.
    pub fn status_at(&self, now: Instant, outcome: &Outcome) -> TaskStatus {
        if now >= self.ends {
            match outcome {
                Outcome::Success => TaskStatus::Succeeded,
                Outcome::Failure(_) => TaskStatus::Failed,
            }
        } else if now >= self.starts {
            TaskStatus::Generating
        } else {
            TaskStatus::Pending
        }
    }

    /// Whether the task has ended by `now`.
    pub fn has_ended(&self, now: Instant) -> bool {
        now >= self.ends
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMING: Timing = Timing {
        typical: Duration::from_secs(10),
        spread: 0.5,
    };

    #[test]
    fn a_task_waits_generates_then_ends() {
        let now = Instant::now();
        let schedule = Schedule::new(now, TIMING, 0.5);
        assert_eq!(schedule.ends - now, Duration::from_secs(10));
        assert_eq!(schedule.starts - now, Duration::from_secs(2));
        let at = |seconds: f64| now + Duration::from_secs_f64(seconds);
        assert_eq!(
            schedule.status_at(at(1.0), &Outcome::Success),
            TaskStatus::Pending
        );
        assert_eq!(
            schedule.status_at(at(5.0), &Outcome::Success),
            TaskStatus::Generating
        );
        assert_eq!(
            schedule.status_at(at(10.0), &Outcome::Success),
            TaskStatus::Succeeded
        );
        let failure = Outcome::Failure("no".into());
        assert_eq!(schedule.status_at(at(10.0), &failure), TaskStatus::Failed);
        assert!(!schedule.has_ended(at(9.9)) && schedule.has_ended(at(10.0)));
    }

    #[test]
    fn spread_varies_the_length_within_bounds() {
        let now = Instant::now();
        let shortest = Schedule::new(now, TIMING, 0.0);
        let longest = Schedule::new(now, TIMING, 1.0);
        assert_eq!(shortest.ends - now, Duration::from_secs(5));
        assert_eq!(longest.ends - now, Duration::from_secs(15));
        let fixed = Schedule::new(
            now,
            Timing {
                spread: 0.0,
                ..TIMING
            },
            1.0,
        );
        assert_eq!(fixed.ends - now, Duration::from_secs(10));
    }
}
