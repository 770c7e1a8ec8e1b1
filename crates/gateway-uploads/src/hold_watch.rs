//! A task holding an upload must be seen to end for the upload to be let
//! go. Most are: a page reads them through the gateway, or the relay hears
//! their callback. A submit with a `callback_url` of its own is not
//! relayed, and a program may never read its tasks; so while a task holds
//! an upload and the gateway hears of it no other way, the gateway reads it
//! itself, on the contract's schedule for a task nobody follows
//! ([`media_gen_api::poll::PollSchedule::unattended`]), within a budget of
//! reads a second. [`HoldWatch`] decides which task to read when (time in,
//! tasks out, no I/O); the gateway carries its decisions out, reading each
//! task as [`crate::Uploads::due_reads`] says. Every hold also
//! has a ceiling (`--upload-hold-max`, [`super::record::Upload::held_until`]),
//! so a task never seen to end (the service forgot it, a status the
//! contract does not know) keeps nothing for ever.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use media_gen_api::poll::PollSchedule;
use media_gen_api::TaskKey;
use tokio::time::Instant;

/// What is known of one held task's reads.
#[derive(Debug, Clone, Copy)]
struct Watched {
    /// When the gateway first knew it held an upload.
    since: Instant,
    /// Reads of it so far, the gateway's own and others'.
    reads: u32,
    /// When the gateway reads it itself, unless heard of before.
    next: Instant,
}

/// Which held tasks the gateway reads itself, and when.
pub struct HoldWatch {
    schedule: PollSchedule,
    tasks: Mutex<HashMap<TaskKey, Watched>>,
}

impl HoldWatch {
    /// A watch reading on `schedule`.
    pub fn new(schedule: PollSchedule) -> HoldWatch {
        HoldWatch {
            schedule,
            tasks: Mutex::new(HashMap::new()),
        }
    }

    fn with<T>(&self, change: impl FnOnce(&mut HashMap<TaskKey, Watched>) -> T) -> T {
        let mut tasks = self
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        change(&mut tasks)
    }

    /// The wait after a read of `watched` at `now`.
    fn after_read(&self, watched: &mut Watched, now: Instant) {
        watched.reads = watched.reads.saturating_add(1);
        let delay =
            self.schedule
                .next_delay(watched.reads, now.duration_since(watched.since), None);
        watched.next = now + delay;
    }

    /// `task` was heard of at `now` (read through the gateway, or its
    /// callback relayed): the gateway's own read waits.
    pub fn heard(&self, task: &TaskKey, now: Instant) {
        self.with(|tasks| {
            if let Some(watched) = tasks.get_mut(task) {
                self.after_read(watched, now);
            }
        });
    }

    /// The tasks holding uploads at `now` are `held`: the ones to read now,
    /// at most `budget`, those due longest first. A task no longer held is
    /// forgotten; one newly held is first read after the schedule's first
    /// wait.
    pub fn due(&self, held: Vec<TaskKey>, now: Instant, budget: usize) -> Vec<TaskKey> {
        self.with(|tasks| {
            let mut still: HashMap<TaskKey, Watched> = HashMap::with_capacity(held.len());
            for task in held {
                let watched = tasks.remove(&task).unwrap_or(Watched {
                    since: now,
                    reads: 0,
                    next: now + self.schedule.first,
                });
                still.insert(task, watched);
            }
            *tasks = still;
            let mut due: Vec<(Instant, TaskKey)> = tasks
                .iter()
                .filter(|(_, watched)| watched.next <= now)
                .map(|(task, watched)| (watched.next, task.clone()))
                .collect();
            due.sort();
            due.truncate(budget);
            for (_, task) in &due {
                if let Some(watched) = tasks.get_mut(task) {
                    self.after_read(watched, now);
                }
            }
            due.into_iter().map(|(_, task)| task).collect()
        })
    }
}

/// How often the gateway looks at what is held: the schedule's shortest
/// wait, within 100 ms and 5 s.
pub fn tick(schedule: &PollSchedule) -> Duration {
    schedule
        .floor
        .clamp(Duration::from_millis(100), Duration::from_secs(5))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule() -> PollSchedule {
        PollSchedule {
            first: Duration::from_secs(30),
            factor: 2.0,
            cap: Duration::from_secs(120),
            floor: Duration::from_secs(5),
        }
    }

    fn held(names: &[&str]) -> Vec<TaskKey> {
        names.iter().map(|name| name.parse().unwrap()).collect()
    }

    #[test]
    fn a_held_task_is_read_on_the_schedule_from_when_it_was_first_held() {
        let watch = HoldWatch::new(schedule());
        let start = Instant::now();
        let at = |seconds: u64| start + Duration::from_secs(seconds);
        assert!(watch.due(held(&["image_generate:a"]), at(0), 10).is_empty());
        assert!(watch
            .due(held(&["image_generate:a"]), at(29), 10)
            .is_empty());
        assert_eq!(
            watch.due(held(&["image_generate:a"]), at(30), 10),
            held(&["image_generate:a"])
        );
        // Then after 30 s, 60 s (×2), 120 s, and 120 s from then on.
        for (not_yet, due) in [(59, 60), (119, 120), (239, 240), (359, 360)] {
            assert!(
                watch
                    .due(held(&["image_generate:a"]), at(not_yet), 10)
                    .is_empty(),
                "not at {not_yet} s"
            );
            assert_eq!(
                watch.due(held(&["image_generate:a"]), at(due), 10).len(),
                1,
                "at {due} s"
            );
        }
    }

    #[test]
    fn a_task_heard_of_otherwise_is_not_read_by_the_gateway() {
        let watch = HoldWatch::new(schedule());
        let start = Instant::now();
        let at = |seconds: u64| start + Duration::from_secs(seconds);
        let task = held(&["image_to_video:b"]);
        watch.due(task.clone(), at(0), 10);
        // A page reads it every 10 s through the gateway.
        for second in (10..300).step_by(10) {
            watch.heard(&held(&["image_to_video:b"])[0], at(second));
            assert!(
                watch.due(task.clone(), at(second), 10).is_empty(),
                "at {second} s"
            );
        }
        // The page closed: the gateway's own reads start again.
        let mut reads = 0;
        for second in 300..600 {
            reads += watch.due(task.clone(), at(second), 10).len();
        }
        assert!((2..=4).contains(&reads), "{reads}");
        // A task the gateway does not hold is not tracked at all.
        watch.heard(&held(&["image_to_video:other"])[0], at(600));
        assert!(watch.due(Vec::new(), at(10_000), 10).is_empty());
    }

    #[test]
    fn reads_stay_within_the_budget_longest_due_first_and_none_is_starved() {
        let watch = HoldWatch::new(schedule());
        let start = Instant::now();
        let tasks: Vec<TaskKey> = (0..10)
            .map(|n| format!("image_generate:{n}").parse().unwrap())
            .collect();
        // Held at one second apart: due at 30 s .. 39 s.
        for n in 0..10 {
            watch.due(
                tasks[..=n].to_vec(),
                start + Duration::from_secs(n as u64),
                10,
            );
        }
        let first = watch.due(tasks.clone(), start + Duration::from_secs(40), 3);
        assert_eq!(
            first,
            held(&["image_generate:0", "image_generate:1", "image_generate:2"])
        );
        let mut read: Vec<TaskKey> = first;
        for second in 41..45 {
            read.extend(watch.due(tasks.clone(), start + Duration::from_secs(second), 3));
        }
        read.sort();
        read.dedup();
        assert_eq!(
            read.len(),
            10,
            "every task read within a few budgets: {read:?}"
        );
    }

    #[test]
    fn a_task_no_longer_held_is_forgotten() {
        let watch = HoldWatch::new(schedule());
        let start = Instant::now();
        watch.due(held(&["image_generate:a", "image_generate:b"]), start, 10);
        let later = start + Duration::from_secs(30);
        assert_eq!(
            watch.due(held(&["image_generate:b"]), later, 10),
            held(&["image_generate:b"])
        );
        // Held again later: a new watch, from its first wait.
        assert_eq!(
            watch.due(held(&["image_generate:a", "image_generate:b"]), later, 10),
            Vec::<TaskKey>::new()
        );
    }
}
