//! What each person used: the tasks of the current day (UTC) and their
//! last call. Kept in memory and counted on every submit (a submit waits
//! for no store), or with `--redis` counted in Redis
//! ([`super::shared::usage`]), one count for every gateway; while Redis
//! does not answer, each gateway counts here. What changed is kept every
//! second: wherever a library is kept, in its database
//! ([`crate::database::PeopleDatabase`], read back at start), else in
//! `usage.json` under `--data-dir` (atomically); with `--redis` the last
//! calls go to Redis too, where `keys list` reads the day's counts.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::database::PeopleDatabase;
use super::person_usage::{PersonUsage, DAY};
use super::shared::usage as shared;
use crate::redis_link::RedisLink;

/// Everyone's use.
#[derive(Default)]
pub struct Usage {
    people: Mutex<HashMap<String, PersonUsage>>,
    changed: AtomicBool,
    /// Where it is written, without `--redis`.
    file: Option<PathBuf>,
    /// Where it is counted, with `--redis`.
    redis: Option<Arc<RedisLink>>,
    /// Where it is counted, wherever a library is kept.
    library: Option<Arc<dyn PeopleDatabase>>,
}

/// The use kept in `file` (none when it cannot be read).
pub fn read(file: &Path) -> HashMap<String, PersonUsage> {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

impl Usage {
    /// The use counted in the Redis of `redis` when given, else here and
    /// kept in `file` (when given; read from it now).
    pub fn new(file: Option<PathBuf>, redis: Option<Arc<RedisLink>>) -> Usage {
        let people = match (&file, &redis) {
            (Some(file), None) => read(file),
            _ => HashMap::new(),
        };
        Usage {
            people: Mutex::new(people),
            changed: AtomicBool::new(false),
            file: file.filter(|_| redis.is_none()),
            redis,
            library: None,
        }
    }

    /// The use counted here (or in the Redis of `redis`), kept in
    /// `library`'s database, starting from what it holds.
    pub async fn in_library(
        library: Arc<dyn PeopleDatabase>,
        redis: Option<Arc<RedisLink>>,
    ) -> Usage {
        let people = match library.use_of_everyone().await {
            Ok(people) => people,
            Err(error) => {
                tracing::warn!(%error, "the people's use could not be read; counted from none");
                HashMap::new()
            }
        };
        Usage {
            people: Mutex::new(people),
            library: Some(library),
            redis,
            ..Usage::default()
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

    /// The names whose use is counted here.
    pub fn names(&self) -> Vec<String> {
        self.with(|people| people.keys().cloned().collect())
    }

    /// Drop what is counted here of `name` (forgotten): whether anything was.
    pub fn drop_person(&self, name: &str) -> bool {
        self.with(|people| people.remove(name).is_some())
    }

    /// `name` made a call at `now`.
    pub fn seen(&self, name: &str, now: u64) {
        self.with(|people| people.entry(name.to_owned()).or_default().last_used = now);
        self.changed.store(true, Ordering::Relaxed);
    }

    /// Count `tasks` for `name` at `now` against `per_day`: the tasks left
    /// today after them, or how long until more may be made (the next
    /// day), when they do not fit. In Redis when it answers.
    pub async fn take_tasks(
        &self,
        name: &str,
        tasks: u32,
        per_day: u32,
        now: u64,
    ) -> Result<u32, Duration> {
        if let Some(link) = &self.redis {
            let counted = match link.connection() {
                Ok(mut connection) => {
                    shared::take_tasks(&mut connection, name, tasks, per_day, now).await
                }
                Err(error) => Err(error),
            };
            match counted {
                Ok(taken) => {
                    self.seen(name, now);
                    return taken;
                }
                Err(error) => {
                    tracing::warn!(%error, "tasks of the day counted on this gateway alone")
                }
            }
        }
        self.take_here(name, tasks, per_day, now)
    }

    /// [`Usage::take_tasks`] in this gateway's memory.
    fn take_here(&self, name: &str, tasks: u32, per_day: u32, now: u64) -> Result<u32, Duration> {
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

    /// The tasks `name` made on the day of `now` (in Redis when it answers).
    pub async fn tasks_on(&self, name: &str, now: u64) -> u32 {
        if let Some(Ok(mut connection)) = self.redis.as_ref().map(|link| link.connection()) {
            if let Ok(used) = shared::tasks_on(&mut connection, name, now).await {
                return used;
            }
        }
        self.of(name).tasks_on(now)
    }

    /// `name`'s use as counted here.
    pub fn of(&self, name: &str) -> PersonUsage {
        self.with(|people| people.get(name).copied().unwrap_or_default())
    }

    /// Keep what changed since the last time: in Redis (the last calls)
    /// or in the file.
    pub async fn keep(&self) {
        if !self.changed.swap(false, Ordering::Relaxed) {
            return;
        }
        let last_calls = || -> Vec<(String, u64)> {
            self.with(|people| {
                people
                    .iter()
                    .map(|(name, used)| (name.clone(), used.last_used))
                    .collect()
            })
        };
        if let Some(library) = &self.library {
            let people: Vec<(String, PersonUsage)> = self.with(|people| {
                people
                    .iter()
                    .map(|(name, used)| (name.clone(), *used))
                    .collect()
            });
            if let Err(error) = library.keep_use(&people).await {
                self.changed.store(true, Ordering::Relaxed);
                tracing::warn!(%error, "could not keep the people's use; trying again");
            }
        }
        let kept = match (&self.redis, &self.file) {
            (Some(link), _) => {
                let last_calls = last_calls();
                match link.connection() {
                    Ok(mut connection) => shared::seen(&mut connection, &last_calls)
                        .await
                        .map_err(|error| error.to_string()),
                    Err(error) => Err(error.to_string()),
                }
            }
            (None, Some(file)) if self.library.is_none() => {
                self.write(file).map_err(|error| error.to_string())
            }
            (None, Some(_)) => Ok(()),
            (None, None) => Ok(()),
        };
        if let Err(error) = kept {
            self.changed.store(true, Ordering::Relaxed);
            tracing::warn!(%error, "could not keep the people's use; trying again");
        }
    }

    /// Write it to `file`.
    fn write(&self, file: &Path) -> std::io::Result<()> {
        let text = self.with(|people| serde_json::to_string_pretty(people))?;
        crate::private_files::write_atomically(file, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_of_tasks_is_counted_and_the_next_day_starts_afresh() {
        let usage = Usage::default();
        let take = |name, tasks, per_day, now| {
            futures_util::FutureExt::now_or_never(usage.take_tasks(name, tasks, per_day, now))
                .expect("counted here without waiting")
        };
        let noon = 20_000 * DAY + DAY / 2;
        assert_eq!(take("ada", 3, 5, noon), Ok(2));
        assert_eq!(take("ada", 2, 5, noon + 1), Ok(0));
        // Over: refused until midnight, nothing counted.
        assert_eq!(
            take("ada", 1, 5, noon + 2),
            Err(Duration::from_secs(DAY / 2 - 2))
        );
        assert_eq!(usage.of("ada").tasks_on(noon + 2), 5);
        // Another person has their own.
        assert_eq!(take("grace", 4, 5, noon), Ok(1));
        // The next day.
        assert_eq!(usage.of("ada").tasks_on(noon + DAY), 0);
        assert_eq!(take("ada", 5, 5, noon + DAY), Ok(0));
    }

    #[tokio::test]
    async fn use_is_written_when_it_changed_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = Usage::file(dir.path());
        let usage = Usage::new(Some(file.clone()), None);
        usage.keep().await;
        assert!(!file.exists(), "nothing changed, nothing written");
        usage.seen("ada", 7);
        usage.take_tasks("ada", 2, 10, 8).await.unwrap();
        usage.keep().await;
        let again = Usage::new(Some(file.clone()), None);
        assert_eq!(again.of("ada").last_used, 8);
        assert_eq!(again.tasks_on("ada", 8).await, 2);
        assert_eq!(read(&file)["ada"].tasks_today, 2);
    }

    #[tokio::test]
    async fn the_use_file_is_private() {
        let dir = tempfile::tempdir().unwrap();
        let file = Usage::file(dir.path());
        let usage = Usage::new(Some(file.clone()), None);
        usage.seen("ada", 7);
        usage.keep().await;
        assert_eq!(crate::private_files::mode_of(&file), 0o600);
    }
}
