//! What each person used: the tasks of the current day (UTC) and their
//! last call. Kept in memory, counted on every submit, and written to
//! `usage.json` under `--data-dir` (atomically, when it changed) every
//! second, where `keys list` reads it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Seconds in a day.
const DAY: u64 = 86_400;

/// One person's use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonUsage {
    /// Their last call (seconds since 1970, UTC).
    pub last_used: u64,
    /// The day `tasks_today` counts (days since 1970, UTC).
    pub day: u64,
    /// Tasks created on that day.
    pub tasks_today: u32,
}

impl PersonUsage {
    /// Tasks created today, as of `now`.
    pub fn tasks_on(&self, now: u64) -> u32 {
        if self.day == now / DAY {
            self.tasks_today
        } else {
            0
        }
    }
}

/// Everyone's use.
#[derive(Debug, Default)]
pub struct Usage {
    people: Mutex<HashMap<String, PersonUsage>>,
    changed: AtomicBool,
}

impl Usage {
    /// The use kept in `file` (none when it cannot be read).
    pub fn load(file: &Path) -> Usage {
        let people = std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        Usage {
            people: Mutex::new(people),
            changed: AtomicBool::new(false),
        }
    }

    /// Where a data folder keeps it.
    pub fn file(dir: &Path) -> PathBuf {
        dir.join("usage.json")
    }

    fn with<T>(&self, change: impl FnOnce(&mut HashMap<String, PersonUsage>) -> T) -> T {
        let mut people = self
            .people
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        change(&mut people)
    }

    /// `name` made a call at `now`.
    pub fn seen(&self, name: &str, now: u64) {
        self.with(|people| people.entry(name.to_owned()).or_default().last_used = now);
        self.changed.store(true, Ordering::Relaxed);
    }

    /// Count `tasks` for `name` at `now` against `per_day`: the tasks left
    /// today after them, or how long until more may be made (the next
    /// day), when they do not fit.
    pub fn take_tasks(
        &self,
        name: &str,
        tasks: u32,
        per_day: u32,
        now: u64,
    ) -> Result<u32, Duration> {
        let taken = self.with(|people| {
            let person = people.entry(name.to_owned()).or_default();
            let used = person.tasks_on(now);
            let after = used.saturating_add(tasks);
            if after > per_day {
                return Err(Duration::from_secs(DAY - now % DAY));
            }
            *person = PersonUsage {
                last_used: now,
                day: now / DAY,
                tasks_today: after,
            };
            Ok(per_day - after)
        });
        if taken.is_ok() {
            self.changed.store(true, Ordering::Relaxed);
        }
        taken
    }

    /// `name`'s use as of now.
    pub fn of(&self, name: &str) -> PersonUsage {
        self.with(|people| people.get(name).copied().unwrap_or_default())
    }

    /// Write it to `file` when it changed since the last write.
    pub fn save_if_changed(&self, file: &Path) -> std::io::Result<()> {
        if !self.changed.swap(false, Ordering::Relaxed) {
            return Ok(());
        }
        let text = self.with(|people| serde_json::to_string_pretty(people))?;
        super::key_file::write_atomically(file, text.as_bytes()).inspect_err(|_| {
            self.changed.store(true, Ordering::Relaxed);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_of_tasks_is_counted_and_the_next_day_starts_afresh() {
        let usage = Usage::default();
        let noon = 20_000 * DAY + DAY / 2;
        assert_eq!(usage.take_tasks("ada", 3, 5, noon), Ok(2));
        assert_eq!(usage.take_tasks("ada", 2, 5, noon + 1), Ok(0));
        // Over: refused until midnight, nothing counted.
        assert_eq!(
            usage.take_tasks("ada", 1, 5, noon + 2),
            Err(Duration::from_secs(DAY / 2 - 2))
        );
        assert_eq!(usage.of("ada").tasks_on(noon + 2), 5);
        // Another person has their own.
        assert_eq!(usage.take_tasks("grace", 4, 5, noon), Ok(1));
        // The next day.
        assert_eq!(usage.of("ada").tasks_on(noon + DAY), 0);
        assert_eq!(usage.take_tasks("ada", 5, 5, noon + DAY), Ok(0));
    }

    #[test]
    fn use_is_written_when_it_changed_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = Usage::file(dir.path());
        let usage = Usage::default();
        usage.save_if_changed(&file).unwrap();
        assert!(!file.exists(), "nothing changed, nothing written");
        usage.seen("ada", 7);
        usage.take_tasks("ada", 2, 10, 8).unwrap();
        usage.save_if_changed(&file).unwrap();
        let again = Usage::load(&file);
        assert_eq!(again.of("ada").last_used, 8);
        assert_eq!(again.of("ada").tasks_on(8), 2);
    }
}
