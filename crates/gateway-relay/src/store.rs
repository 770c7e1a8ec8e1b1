//! Where the relay keeps what it knows: in this process (one gateway), or
//! in Redis (`--redis`), shared by every gateway behind a balancer, so a
//! callback any of them takes reaches a stream open on any other.

use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use media_gen_api::{AnyTask, TaskKind};

use super::capability::Capability;
use super::log::{Channel, EventId, Log, Subscription};
use super::redis_store::RedisStore;
use super::submissions::{Arrival, Submissions};
use crate::access::Who;
use crate::redis_link::StoreError;

/// The relay's store.
pub enum Store {
    /// This process alone.
    Memory {
        /// The submissions followed.
        submissions: Mutex<Submissions>,
        /// The announcements.
        log: Mutex<Log>,
    },
    /// Shared through Redis.
    Redis(RedisStore),
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Store {
    /// A store in this process.
    pub fn memory() -> Store {
        Store::Memory {
            submissions: Mutex::default(),
            log: Mutex::default(),
        }
    }

    /// Follow a submission of `kind` under `capability`.
    pub async fn open(
        &self,
        capability: &Capability,
        kind: TaskKind,
        owner: &Who,
    ) -> Result<(), StoreError> {
        match self {
            Store::Memory { submissions, .. } => {
                locked(submissions).open(capability.as_str(), kind, owner.clone(), Instant::now());
                Ok(())
            }
            Store::Redis(redis) => redis.open(capability.as_str(), kind, owner).await,
        }
    }

    /// The submit under `capability` created `ids` (none: it is closed).
    pub async fn created(
        &self,
        capability: &Capability,
        ids: Vec<String>,
    ) -> Result<(), StoreError> {
        match self {
            Store::Memory { submissions, .. } => {
                locked(submissions).created(capability.as_str(), ids);
                Ok(())
            }
            Store::Redis(redis) => redis.created(capability.as_str(), ids).await,
        }
    }

    /// The kind and submitter of the open submission under `capability`
    /// (the submitter unknown for one opened before it was kept).
    pub async fn opened(
        &self,
        capability: &Capability,
    ) -> Result<Option<(TaskKind, Option<Who>)>, StoreError> {
        match self {
            Store::Memory { submissions, .. } => {
                Ok(locked(submissions).opened(capability.as_str()))
            }
            Store::Redis(redis) => redis.opened(capability.as_str()).await,
        }
    }

    /// What a callback about task `task_id` of `kind` to `capability` is.
    pub async fn arrival(
        &self,
        capability: &Capability,
        kind: TaskKind,
        task_id: &str,
    ) -> Result<Arrival, StoreError> {
        match self {
            Store::Memory { submissions, .. } => {
                Ok(locked(submissions).arrival(capability.as_str(), kind, task_id))
            }
            Store::Redis(redis) => redis.arrival(capability.as_str(), kind, task_id).await,
        }
    }

    /// Announce `task` of `capability` to the streams, unless it already
    /// was (by any gateway); returns whether this call announced it.
    pub async fn announce(
        &self,
        capability: &Capability,
        task: AnyTask,
    ) -> Result<bool, StoreError> {
        match self {
            Store::Memory { submissions, log } => {
                if !locked(submissions).announced(capability.as_str(), task.task_id()) {
                    return Ok(false);
                }
                locked(log).announce(Channel::Submission(capability.clone()), task);
                Ok(true)
            }
            Store::Redis(redis) => redis.announce(capability.as_str(), task).await,
        }
    }

    /// Tell the streams listening on `channel` of `task` as it is now,
    /// every time (no once-only check: a person's library tells each
    /// change of a task).
    pub async fn tell(&self, channel: Channel, task: AnyTask) -> Result<(), StoreError> {
        match self {
            Store::Memory { log, .. } => {
                locked(log).announce(channel, task);
                Ok(())
            }
            Store::Redis(redis) => redis.tell(&channel, task).await,
        }
    }

    /// What a stream of `relays` starts from: the kept announcements after
    /// `after` (a reconnection), or for a new stream those of its own
    /// capabilities, and the announcements that follow.
    pub async fn subscribe(
        &self,
        after: Option<EventId>,
        relays: &HashSet<Channel>,
    ) -> Result<Subscription, StoreError> {
        match self {
            Store::Memory { log, .. } => Ok(locked(log).subscribe(after.unwrap_or_default())),
            Store::Redis(redis) => redis.subscribe(after, relays).await,
        }
    }
}
