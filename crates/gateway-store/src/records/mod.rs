//! Where what is known of each upload ([`Upload`]) is kept, and who may
//! write an upload now: in the upload folder and this gateway's memory
//! ([`folder`]), or in Redis with `--redis` ([`redis`]), so an upload
//! begun on one gateway goes on on another behind the same balancer.

pub mod folder;
pub mod redis;
pub mod redis_counts;

use crate::FileId;
use std::io;
use std::sync::Arc;

use super::record::Upload;
use crate::counts::Counts;

/// The records of every upload.
pub enum Records {
    /// In a folder, indexed in memory.
    Folder(folder::FolderRecords),
    /// In Redis, shared by the gateways.
    Redis(redis::RedisRecords),
}

/// Held while one request writes an upload; another gets
/// [`Records::start_writing`]'s `None`. Dropping it lets the upload go.
pub enum Writing {
    /// This gateway's mark.
    Folder(folder::FolderWriting),
    /// A lock in Redis, kept alive while held.
    Redis(redis::RedisWriting),
}

impl Writing {
    /// Whether the right to write is still this request's (a lock in Redis
    /// can be lost; this gateway's mark cannot).
    pub fn held(&self) -> bool {
        match self {
            Writing::Folder(_) => true,
            Writing::Redis(redis) => redis.held(),
        }
    }
}

impl Records {
    /// What is known of `id`, if anything.
    pub async fn get(&self, id: &FileId) -> io::Result<Option<Upload>> {
        match self {
            Records::Folder(folder) => Ok(folder.get(id)),
            Records::Redis(redis) => redis.get(id).await,
        }
    }

    /// Keep `upload` as what is known of `id`.
    pub async fn save(&self, id: &FileId, upload: &Upload) -> io::Result<()> {
        match self {
            Records::Folder(folder) => folder.save(id, upload).await,
            Records::Redis(redis) => redis.save(id, upload).await,
        }
    }

    /// Forget `id`.
    pub async fn remove(&self, id: &FileId) -> io::Result<()> {
        match self {
            Records::Folder(folder) => folder.remove(id).await,
            Records::Redis(redis) => redis.remove(id).await,
        }
    }

    /// Change what is known of `id` with `change` in one step (two
    /// requests changing it at once both count); the upload as changed,
    /// if known.
    pub async fn update(
        &self,
        id: &FileId,
        change: impl Fn(&mut Upload),
    ) -> io::Result<Option<Upload>> {
        match self {
            Records::Folder(folder) => folder.update(id, change).await,
            Records::Redis(redis) => redis.update(id, change).await,
        }
    }

    /// Note that `task` (`kind/task_id`) holds upload `id` (kept apart in
    /// Redis, so a task's end finds its uploads without reading them all).
    pub async fn note_hold(&self, task: &str, id: &FileId) -> io::Result<()> {
        match self {
            Records::Folder(_) => Ok(()),
            Records::Redis(redis) => redis.note_hold(task, id).await,
        }
    }

    /// The ids of the uploads `task` holds.
    pub async fn held_by(&self, task: &str) -> io::Result<Vec<FileId>> {
        match self {
            Records::Folder(folder) => Ok(folder
                .all()
                .into_iter()
                .filter(|(_, upload)| upload.held_by.iter().any(|held| held == task))
                .map(|(id, _)| id)
                .collect()),
            Records::Redis(redis) => redis.held_by(task).await,
        }
    }

    /// `task` ended: its note of the uploads it held goes.
    pub async fn forget_holds(&self, task: &str) -> io::Result<()> {
        match self {
            Records::Folder(_) => Ok(()),
            Records::Redis(redis) => redis.forget_holds(task).await,
        }
    }

    /// Every upload known, with its id.
    pub async fn all(&self) -> io::Result<Vec<(FileId, Upload)>> {
        match self {
            Records::Folder(folder) => Ok(folder.all()),
            Records::Redis(redis) => redis.all().await,
        }
    }

    /// The counts of every record's charge ([`crate::counts`]).
    pub async fn counts(&self) -> io::Result<Counts> {
        match self {
            Records::Folder(folder) => Ok(folder.counts()),
            Records::Redis(redis) => redis.counts().await,
        }
    }

    /// Recount the counts from every record: each count that drifted, as
    /// it was and as recounted; mended.
    pub async fn recount(&self) -> io::Result<Vec<(String, u64, u64)>> {
        match self {
            Records::Folder(folder) => Ok(folder.recount()),
            Records::Redis(redis) => redis.recount().await,
        }
    }

    /// The right to admit a new upload, for a gateway sharing these
    /// records with others (none needed in a folder only this gateway
    /// writes: its own lock serves).
    pub async fn start_admitting(&self) -> io::Result<Option<Writing>> {
        match self {
            Records::Folder(_) => Ok(None),
            Records::Redis(redis) => Ok(Some(Writing::Redis(redis.start_admitting().await?))),
        }
    }

    /// The right to write `id`, unless another request (on any gateway
    /// sharing these records) holds it.
    pub async fn start_writing(&self, id: &FileId) -> io::Result<Option<Writing>> {
        match self {
            Records::Folder(folder) => Ok(folder.start_writing(id).map(Writing::Folder)),
            Records::Redis(redis) => Ok(redis.start_writing(id).await?.map(Writing::Redis)),
        }
    }
}

/// A Redis error as an I/O one (the uploads answer 503 either way).
pub(super) fn io_error(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> io::Error {
    io::Error::other(error)
}

/// The records' link to Redis, when they live there.
pub type Link = Arc<crate::redis_link::RedisLink>;
