//! Where uploads are kept: their records ([`Records`]: the folder, or
//! Redis) and their bytes ([`Bytes`]: the folder, or object storage),
//! and what the uploads ask of both together.

use crate::FileId;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use media_gen_api::TaskKey;

use super::bytes::Bytes;
use super::record::Upload;
use super::records::{Records, Writing};
use crate::counts;

/// The uploads' records and bytes.
pub struct Store {
    /// What is known of each upload.
    pub records: Records,
    /// Their bytes.
    pub bytes: Bytes,
    /// Whether this gateway has seen the counts recounted (in a folder,
    /// made from the records at start): until then, records written before
    /// counts were kept may be missing from them, and only a recount
    /// decides.
    recounted: AtomicBool,
}

impl Store {
    /// The store of `records` and `bytes`.
    pub fn new(records: Records, bytes: Bytes) -> Store {
        let recounted = AtomicBool::new(matches!(records, Records::Folder(_)));
        Store {
            records,
            bytes,
            recounted,
        }
    }

    /// The counts of every record's charge ([`counts`]), once they can be
    /// trusted; `None` before.
    pub async fn counts(&self) -> io::Result<Option<counts::Counts>> {
        if !self.recounted.load(Ordering::Relaxed) {
            return Ok(None);
        }
        self.records.counts().await.map(Some)
    }

    /// Recount the counts from the records: each count that drifted, as
    /// it was and as recounted; mended, and trusted from now on.
    pub async fn recount(&self) -> io::Result<Vec<(String, u64, u64)>> {
        let drift = self.records.recount().await?;
        self.recounted.store(true, Ordering::Relaxed);
        Ok(drift)
    }

    /// What is known of `id`.
    pub async fn get(&self, id: &FileId) -> io::Result<Option<Upload>> {
        self.records.get(id).await
    }

    /// Keep `upload` as what is known of `id`.
    pub async fn save(&self, id: &FileId, upload: &Upload) -> io::Result<()> {
        self.records.save(id, upload).await
    }

    /// Keep a new upload `id` (no bytes yet).
    pub async fn create(&self, id: &FileId, mut upload: Upload) -> io::Result<Upload> {
        self.bytes.create(id, &mut upload).await?;
        self.records.save(id, &upload).await?;
        Ok(upload)
    }

    /// How many bytes of `id` are in.
    pub async fn offset(&self, id: &FileId, upload: &Upload) -> io::Result<u64> {
        self.bytes.offset(id, upload).await
    }

    /// The bytes of the quota in use at `now`: what each upload kept
    /// counts ([`Upload::counted_at`], with `idle` seconds of `--upload-idle`).
    pub async fn counted(&self, now: u64, idle: u64) -> io::Result<u64> {
        Ok(self
            .records
            .all()
            .await?
            .iter()
            .filter(|(_, upload)| upload.kept.is_none())
            .map(|(_, upload)| upload.counted_at(now, idle))
            .sum())
    }

    /// The bytes of the quota in use at `now` as far as `adding` more
    /// within `quota` needs to know: the counts when they say it fits
    /// (they are never below a recount), else the recount, which ages
    /// what time has freed.
    pub async fn counted_for(
        &self,
        adding: u64,
        quota: u64,
        now: u64,
        idle: u64,
    ) -> io::Result<u64> {
        if let Some(counts) = self.counts().await? {
            let counted = counts.get(counts::UPLOADS);
            if counted.saturating_add(adding) <= quota {
                return Ok(counted);
            }
        }
        self.counted(now, idle).await
    }

    /// `owner`'s uploads under way at `now` as far as a limit of `limit`
    /// needs to know: the count when it is below, else the recount.
    pub async fn in_flight_for(
        &self,
        owner: &str,
        limit: usize,
        now: u64,
        idle: u64,
    ) -> io::Result<usize> {
        if let Some(counts) = self.counts().await? {
            match usize::try_from(counts.get(&counts::in_flight(owner))) {
                Ok(counted) if counted < limit => return Ok(counted),
                _ => {}
            }
        }
        self.in_flight(owner, now, idle).await
    }

    /// `owner`'s uploads under way at `now`.
    pub async fn in_flight(&self, owner: &str, now: u64, idle: u64) -> io::Result<usize> {
        Ok(self
            .records
            .all()
            .await?
            .iter()
            .filter(|(_, upload)| {
                upload.kept.is_none() && upload.owner == owner && upload.under_way_at(now, idle)
            })
            .count())
    }

    /// The tasks holding an upload at `now`, each once.
    pub async fn held_tasks(&self, now: u64) -> io::Result<Vec<TaskKey>> {
        let mut tasks: Vec<TaskKey> = self
            .records
            .all()
            .await?
            .into_iter()
            .filter(|(_, upload)| upload.held_at(now))
            .flat_map(|(_, upload)| upload.held_by)
            .filter_map(|name| super::record::held_task(&name))
            .collect();
        tasks.sort();
        tasks.dedup();
        Ok(tasks)
    }

    /// The uploads expired at `now` whose bytes are still kept, and those
    /// gone long enough (`forget_after` past their expiry) to forget.
    pub async fn expired(
        &self,
        now: u64,
        forget_after: u64,
    ) -> io::Result<(Vec<(FileId, Upload)>, Vec<(FileId, Upload)>)> {
        let (mut expired, mut forgotten) = (Vec::new(), Vec::new());
        for (id, upload) in self.records.all().await? {
            if upload.gone && upload.expires.saturating_add(forget_after) <= now {
                forgotten.push((id, upload));
            } else if !upload.gone && upload.expired_at(now) {
                expired.push((id, upload));
            }
        }
        Ok((expired, forgotten))
    }

    /// Delete the bytes of `id`, keeping what is known of it, marked gone
    /// once they are deleted (else the next sweep tries again).
    pub async fn expire(&self, id: &FileId, mut upload: Upload) {
        if let Err(error) = self.bytes.delete(id, &upload).await {
            tracing::warn!(error = %crate::observe::Scrubbed(&error), "an expired upload's bytes stay until the next sweep");
            return;
        }
        upload.gone = true;
        if let Err(error) = self.records.save(id, &upload).await {
            tracing::warn!(error = %crate::observe::Scrubbed(&error), "an expired upload could not be marked gone");
        }
    }

    /// Change what is known of `id` with `change`, in one step however
    /// many requests change it at once; the upload as changed, if known.
    pub async fn update(
        &self,
        id: &FileId,
        change: impl Fn(&mut Upload),
    ) -> io::Result<Option<Upload>> {
        self.records.update(id, change).await
    }

    /// Note that `task` (its key as written, `kind:id`) holds upload `id`.
    pub async fn note_hold(&self, task: &str, id: &FileId) -> io::Result<()> {
        self.records.note_hold(task, id).await
    }

    /// The ids of the uploads `task` holds.
    pub async fn held_by(&self, task: &str) -> io::Result<Vec<FileId>> {
        self.records.held_by(task).await
    }

    /// `task` ended and let its uploads go: its note goes.
    pub async fn forget_holds(&self, task: &str) -> io::Result<()> {
        self.records.forget_holds(task).await
    }

    /// The owners of the uploads and kept copies known, each once.
    pub async fn owners(&self) -> io::Result<Vec<String>> {
        let mut owners: Vec<String> = self
            .records
            .all()
            .await?
            .into_iter()
            .map(|(_, upload)| upload.owner)
            .collect();
        owners.sort();
        owners.dedup();
        Ok(owners)
    }

    /// Forget everything of `owner`'s (a person forgotten) at `now`: each
    /// upload's and kept copy's bytes deleted, and its record kept gone
    /// and naming nobody, so its address answers 410 until the sweep
    /// drops it. How many uploads and how many kept copies.
    pub async fn forget_owner(&self, owner: &str, now: u64) -> io::Result<(u64, u64)> {
        let (mut uploads, mut kept) = (0, 0);
        for (id, upload) in self.records.all().await? {
            if upload.owner != owner {
                continue;
            }
            let deleted = upload.gone || self.bytes.delete(&id, &upload).await.is_ok();
            let changed = self
                .records
                .update(&id, |record| {
                    record.owner.clear();
                    record.name = "forgotten".to_owned();
                    record.held_by.clear();
                    record.held_until = 0;
                    record.expires = record.expires.min(now);
                    // Bytes not deleted: the sweep deletes them (expired).
                    record.gone = record.gone || deleted;
                })
                .await?;
            if changed.is_some() {
                match upload.kept {
                    Some(_) => kept += 1,
                    None => uploads += 1,
                }
            }
        }
        Ok((uploads, kept))
    }

    /// Delete `id`: its bytes and what was known of it.
    pub async fn remove(&self, id: &FileId, upload: &Upload) {
        if !upload.gone {
            if let Err(error) = self.bytes.delete(id, upload).await {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "an upload's bytes could not be deleted");
            }
        }
        if let Err(error) = self.records.remove(id).await {
            tracing::warn!(error = %crate::observe::Scrubbed(&error), "an upload's record could not be deleted");
        }
    }

    /// The right to write `id`, unless another request holds it.
    pub async fn start_writing(&self, id: &FileId) -> io::Result<Option<Writing>> {
        self.records.start_writing(id).await
    }
}
