//! When a task waits, generates and ends, and how. Its status is derived
//! from the time on every read, so nothing runs per task: the model is
//! told the time, in milliseconds.

use crate::TaskStatus;

/// Share of a task's time spent waiting (`PENDING`) before `GENERATING`.
const WAITING_SHARE: f64 = 0.2;

/// How long tasks take: `typical_ms`, varied by up to `spread` either way
/// (0.5: between half and one and a half times `typical_ms`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// The typical time from submit to the end, in milliseconds.
    pub typical_ms: u64,
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

/// The moments of one task's life, in milliseconds on the model's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// When it leaves `PENDING` for `GENERATING`.
    pub starts: u64,
    /// When it reaches `SUCCEEDED` or `FAILED`.
    pub ends: u64,
}

impl Schedule {
    /// A schedule from `now`; `unit` (0 to 1) picks where in the spread it falls.
    pub fn new(now: u64, timing: Timing, unit: f64) -> Self {
        let spread = timing.spread.clamp(0.0, 1.0);
        let factor = 1.0 - spread + 2.0 * spread * unit.clamp(0.0, 1.0);
        // Whole milliseconds, rounded: at most a day and a half of a
        // typical time a flag or an option may give.
        let total = (timing.typical_ms as f64 * factor).round() as u64;
        let waiting = (total as f64 * WAITING_SHARE).round() as u64;
        Schedule {
            starts: now.saturating_add(waiting),
            ends: now.saturating_add(total),
        }
    }

    /// The status at `now` for a task that ends with `outcome`.
    pub fn status_at(&self, now: u64, outcome: &Outcome) -> TaskStatus {
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
    pub fn has_ended(&self, now: u64) -> bool {
        now >= self.ends
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMING: Timing = Timing {
        typical_ms: 10_000,
        spread: 0.5,
    };

    #[test]
    fn a_task_waits_generates_then_ends() {
        let now = 1_000;
        let schedule = Schedule::new(now, TIMING, 0.5);
        assert_eq!(schedule.ends - now, 10_000);
        assert_eq!(schedule.starts - now, 2_000);
        let at = |seconds: f64| now + (seconds * 1_000.0) as u64;
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
        let shortest = Schedule::new(0, TIMING, 0.0);
        let longest = Schedule::new(0, TIMING, 1.0);
        assert_eq!(shortest.ends, 5_000);
        assert_eq!(longest.ends, 15_000);
        let fixed = Schedule::new(
            0,
            Timing {
                spread: 0.0,
                ..TIMING
            },
            1.0,
        );
        assert_eq!(fixed.ends, 10_000);
    }
}
