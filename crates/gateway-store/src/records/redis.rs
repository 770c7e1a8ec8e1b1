//! Records in Redis (`--redis`): `media-gen:upload:{id}` holds each
//! upload's record as JSON, the set `media-gen:uploads` their ids, and
//! `media-gen:upload-writing:{id}` the lock of the one request writing it,
//! kept alive while that request runs and gone within [`LOCK_LIFETIME`]
//! of a gateway that died holding it. Every write moves the record's
//! charge in the counts in the same step ([`super::redis_counts`]).

use crate::FileId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use redis::AsyncCommands;

use super::super::record::Upload;
use super::redis_counts::{self, CHARGES, COUNTS, IDS, WRITE_SOURCE};
use super::{io_error, Link};
use crate::counts::{Charge, Counts};
use crate::redis_link::REDIS_TIMEOUT;

/// How long a lock outlives its last renewal.
pub const LOCK_LIFETIME: Duration = Duration::from_secs(15);

/// How often a held lock is renewed.
const RENEW_EVERY: Duration = Duration::from_secs(5);

/// Transactions an update tries before giving up (each lost to a change
/// made between its read and its write).
const UPDATE_TRIES: usize = 50;

fn record_key(id: &FileId) -> String {
    format!("media-gen:upload:{id}")
}

fn holds_key(task: &str) -> String {
    format!("media-gen:upload-holds:{task}")
}

/// How long a task's note of its uploads is kept at most: the index that
/// lets a task's end find them. A task never seen to end does not keep
/// them: each hold ends at the upload's own ceiling (`held_until`,
/// `--upload-hold-max`), note or none.
const HOLDS_LIFETIME_SECONDS: u64 = 7 * 24 * 3_600;

/// The lock of admitting a new upload, one gateway at a time.
const ADMITTING: &str = "media-gen:upload-admitting";

/// Tries at [`ADMITTING`] before giving up (about a second in all).
const ADMIT_TRIES: usize = 60;

fn lock_key(id: &FileId) -> String {
    format!("media-gen:upload-writing:{id}")
}

/// `KEYS[1]`: a lock. `ARGV`: its holder's token, and a lifetime in
/// milliseconds (0: let it go). Only the holder renews or ends it.
static HOLDER_ONLY: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '0' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
",
    )
});

/// The records, in the Redis of `link`.
pub struct RedisRecords {
    link: Link,
}

/// A lock in Redis held by this request, renewed in the background until
/// dropped; then let go.
pub struct RedisWriting {
    link: Link,
    key: String,
    token: String,
    renewing: tokio::task::JoinHandle<()>,
    /// Set once the lock is known lost: another holds it, or it could not
    /// be renewed within its lifetime.
    lost: Arc<AtomicBool>,
}

impl RedisWriting {
    /// Whether the lock is still this request's.
    pub fn held(&self) -> bool {
        !self.lost.load(Ordering::Relaxed)
    }
}

impl Drop for RedisWriting {
    fn drop(&mut self) {
        self.renewing.abort();
        let (link, key, token) = (
            self.link.clone(),
            std::mem::take(&mut self.key),
            std::mem::take(&mut self.token),
        );
        tokio::spawn(async move {
            if let Ok(mut connection) = link.connection() {
                let ended: redis::RedisResult<i64> = HOLDER_ONLY
                    .key(&key)
                    .arg(&token)
                    .arg(0)
                    .invoke_async(&mut connection)
                    .await;
                if let Err(error) = ended {
                    tracing::warn!(error = %crate::observe::Scrubbed(&error), "an upload's lock could not be let go (it ends by itself)");
                }
            }
        });
    }
}

impl RedisRecords {
    /// The records in the Redis of `link`.
    pub fn new(link: Link) -> RedisRecords {
        RedisRecords { link }
    }

    fn connection(&self) -> std::io::Result<redis::aio::ConnectionManager> {
        self.link.connection().map_err(io_error)
    }

    /// What is known of `id`.
    pub async fn get(&self, id: &FileId) -> std::io::Result<Option<Upload>> {
        let text: Option<String> = self
            .connection()?
            .get(record_key(id))
            .await
            .map_err(io_error)?;
        read_record(id, text)
    }

    /// Keep `upload` as what is known of `id`.
    pub async fn save(&self, id: &FileId, upload: &Upload) -> std::io::Result<()> {
        let text = serde_json::to_string(upload).map_err(io_error)?;
        let charge = redis_counts::written(&Charge::of(upload));
        self.write(id, &text, &charge).await
    }

    /// Change `id` with `change` in one step across gateways: on a
    /// connection of its own, the record is watched, read, changed and
    /// written in a transaction, again if another wrote it meanwhile.
    pub async fn update(
        &self,
        id: &FileId,
        change: impl Fn(&mut Upload),
    ) -> std::io::Result<Option<Upload>> {
        let key = record_key(id);
        let connecting = self.link.client().get_multiplexed_async_connection();
        let mut connection = tokio::time::timeout(REDIS_TIMEOUT, connecting)
            .await
            .map_err(io_error)?
            .map_err(io_error)?;
        for _ in 0..UPDATE_TRIES {
            redis::cmd("WATCH")
                .arg(&key)
                .query_async::<()>(&mut connection)
                .await
                .map_err(io_error)?;
            let text: Option<String> = connection.get(&key).await.map_err(io_error)?;
            let Some(mut upload) = read_record(id, text)? else {
                redis::cmd("UNWATCH")
                    .query_async::<()>(&mut connection)
                    .await
                    .map_err(io_error)?;
                return Ok(None);
            };
            change(&mut upload);
            let text = serde_json::to_string(&upload).map_err(io_error)?;
            let mut write = redis::cmd("EVAL");
            write
                .arg(WRITE_SOURCE)
                .arg(4)
                .arg(&key)
                .arg(IDS)
                .arg(CHARGES)
                .arg(COUNTS)
                .arg(id.as_str())
                .arg(text)
                .arg(redis_counts::written(&Charge::of(&upload)));
            let written: redis::Value = redis::pipe()
                .atomic()
                .add_command(write)
                .query_async(&mut connection)
                .await
                .map_err(io_error)?;
            if written != redis::Value::Nil {
                return Ok(Some(upload));
            }
            // Another wrote it first: again, after a short wait that keeps
            // several writers from meeting again.
            tokio::time::sleep(Duration::from_millis(fastrand::u64(1..=20))).await;
        }
        Err(io_error(
            "an upload's record kept changing under its update",
        ))
    }

    /// Note that `task` holds upload `id`.
    pub async fn note_hold(&self, task: &str, id: &FileId) -> std::io::Result<()> {
        let key = holds_key(task);
        redis::pipe()
            .atomic()
            .sadd(&key, id.as_str())
            .expire(&key, HOLDS_LIFETIME_SECONDS as i64)
            .query_async::<()>(&mut self.connection()?)
            .await
            .map_err(io_error)
    }

    /// The ids of the uploads `task` holds.
    pub async fn held_by(&self, task: &str) -> std::io::Result<Vec<FileId>> {
        let ids: Vec<String> = self
            .connection()?
            .smembers(holds_key(task))
            .await
            .map_err(io_error)?;
        Ok(ids.iter().filter_map(|id| FileId::parse(id)).collect())
    }

    /// `task` ended: its note goes.
    pub async fn forget_holds(&self, task: &str) -> std::io::Result<()> {
        self.connection()?
            .del::<_, ()>(holds_key(task))
            .await
            .map_err(io_error)
    }

    /// Forget `id`.
    pub async fn remove(&self, id: &FileId) -> std::io::Result<()> {
        self.write(id, "", "").await
    }

    /// Write `id`'s record `text` (empty: remove it) with its `charge`.
    async fn write(&self, id: &FileId, text: &str, charge: &str) -> std::io::Result<()> {
        let key = record_key(id);
        redis_counts::write(
            &mut self.connection()?,
            &key,
            id.as_str(),
            text,
            charge,
            None,
        )
        .await
        .map(drop)
        .map_err(io_error)
    }

    /// The counts, as every gateway keeps them.
    pub async fn counts(&self) -> std::io::Result<Counts> {
        redis_counts::read(&mut self.connection()?)
            .await
            .map_err(io_error)
    }

    /// Recount the counts from every record: the drift found, mended.
    pub async fn recount(&self) -> std::io::Result<Vec<(String, u64, u64)>> {
        let texts = self.texts().await?;
        let records: Vec<(FileId, String, Charge)> = texts
            .into_iter()
            .filter_map(|(id, text)| {
                // A record that does not read is left to `all`'s loud word.
                let upload: Upload = serde_json::from_str(&text).ok()?;
                let charge = Charge::of(&upload);
                Some((id, text, charge))
            })
            .collect();
        redis_counts::recount(&mut self.connection()?, &records, record_key)
            .await
            .map_err(io_error)
    }

    /// Every upload's record as Redis holds it (ids whose record is
    /// missing are dropped from the set).
    async fn texts(&self) -> std::io::Result<Vec<(FileId, String)>> {
        let mut connection = self.connection()?;
        let ids: Vec<String> = connection.smembers(IDS).await.map_err(io_error)?;
        // Only ids of the shape written: nothing else names a record.
        let ids: Vec<FileId> = ids.iter().filter_map(|id| FileId::parse(id)).collect();
        let mut texts = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(500) {
            let keys: Vec<String> = chunk.iter().map(record_key).collect();
            let found: Vec<Option<String>> = redis::cmd("MGET")
                .arg(&keys)
                .query_async(&mut connection)
                .await
                .map_err(io_error)?;
            for (id, text) in chunk.iter().zip(found) {
                match text {
                    Some(text) => texts.push((id.clone(), text)),
                    // Gone (expired, removed): its id leaves the set.
                    None => {
                        if let Err(error) = connection.srem::<_, _, ()>(IDS, id.as_str()).await {
                            tracing::warn!(%error, "a removed record's id stays in the set until the next pass");
                        }
                    }
                }
            }
        }
        Ok(texts)
    }

    /// Every upload known (a record that does not read is said in the
    /// log, and kept).
    pub async fn all(&self) -> std::io::Result<Vec<(FileId, Upload)>> {
        let mut all = Vec::new();
        for (id, text) in self.texts().await? {
            match read_record(&id, Some(text)) {
                Ok(Some(upload)) => all.push((id, upload)),
                Ok(None) => {}
                // Kept for whoever looks, and said loudly: a record
                // this gateway cannot read is not one to delete.
                Err(error) => tracing::error!(
                    upload = %crate::observe::logged_id(id.as_str()),
                    error = %crate::observe::Scrubbed(&error),
                    "a record in Redis does not read; it is left out of every count"
                ),
            }
        }
        Ok(all)
    }

    /// The lock of `id`, unless a request on some gateway holds it.
    pub async fn start_writing(&self, id: &FileId) -> std::io::Result<Option<RedisWriting>> {
        self.lock(lock_key(id)).await
    }

    /// The lock every gateway takes to admit a new upload (the quota and
    /// the uploads under way read and the new one kept in one step),
    /// waited for a while when another holds it.
    pub async fn start_admitting(&self) -> std::io::Result<RedisWriting> {
        for _ in 0..ADMIT_TRIES {
            if let Some(held) = self.lock(ADMITTING.to_owned()).await? {
                return Ok(held);
            }
            tokio::time::sleep(Duration::from_millis(fastrand::u64(5..=25))).await;
        }
        Err(io_error(
            "another gateway held the uploads' admission too long",
        ))
    }

    /// The lock `key`, unless another holds it; renewed until dropped.
    async fn lock(&self, key: String) -> std::io::Result<Option<RedisWriting>> {
        let token =
            media_gen_gateway_base::ids::random_id().ok_or_else(|| io_error("no randomness"))?;
        let taken: Option<String> = redis::cmd("SET")
            .arg(&key)
            .arg(&token)
            .arg("NX")
            .arg("PX")
            .arg(LOCK_LIFETIME.as_millis() as u64)
            .query_async(&mut self.connection()?)
            .await
            .map_err(io_error)?;
        if taken.is_none() {
            return Ok(None);
        }
        let lost = Arc::new(AtomicBool::new(false));
        let renewing = {
            let (link, key, token) = (self.link.clone(), key.clone(), token.clone());
            let lost = Arc::clone(&lost);
            tokio::spawn(async move {
                let mut every = tokio::time::interval(RENEW_EVERY);
                every.tick().await;
                let mut renewed = tokio::time::Instant::now();
                loop {
                    every.tick().await;
                    let renewal = match link.connection() {
                        Ok(mut connection) => HOLDER_ONLY
                            .key(&key)
                            .arg(&token)
                            .arg(LOCK_LIFETIME.as_millis() as u64)
                            .invoke_async::<i64>(&mut connection)
                            .await
                            .ok(),
                        Err(_) => None,
                    };
                    match renewal {
                        Some(1) => renewed = tokio::time::Instant::now(),
                        // Another holds it (a failover lost it, say): stop writing.
                        Some(_) => break lost.store(true, Ordering::Relaxed),
                        None if renewed.elapsed() >= LOCK_LIFETIME => {
                            break lost.store(true, Ordering::Relaxed)
                        }
                        None => {}
                    }
                }
            })
        };
        Ok(Some(RedisWriting {
            link: self.link.clone(),
            key,
            token,
            renewing,
            lost,
        }))
    }
}
/// The record of `id` out of its text in Redis: none when there is none,
/// an error naming it when the text does not read as one (never taken for
/// a missing record, which would be forgotten).
fn read_record(id: &FileId, text: Option<String>) -> std::io::Result<Option<Upload>> {
    let Some(text) = text else {
        return Ok(None);
    };
    serde_json::from_str(&text).map(Some).map_err(|error| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("the record of upload {id} does not read: {error}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_that_does_not_read_is_an_error_not_a_missing_one() {
        let id = FileId::parse("0123456789abcdef0123456789abcdef").unwrap();
        assert!(read_record(&id, None).unwrap().is_none());
        let error = read_record(&id, Some("{not json".to_owned())).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
        assert!(error.to_string().contains("does not read"), "{error}");
        let upload = Upload::new(3, "a.png".to_owned(), "x".to_owned(), 0, 10);
        let text = serde_json::to_string(&upload).unwrap();
        assert_eq!(read_record(&id, Some(text)).unwrap(), Some(upload));
    }
}
