//! Records in the upload folder: `{id}.json` beside the upload's bytes,
//! written atomically, and an index of them all in memory, read from the
//! folder at start.

use crate::FileId;
use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::super::record::Upload;
use crate::counts::{Charge, Counts};
use crate::private_files::{self, write_atomically};

/// The records of one folder, and their counts.
pub struct FolderRecords {
    dir: PathBuf,
    index: Mutex<Index>,
    writing: Arc<Mutex<HashSet<FileId>>>,
    /// Held by each change read, made and written (see [`FolderRecords::update`]).
    changing: tokio::sync::Mutex<()>,
}

/// This gateway's mark that a request writes an upload.
pub struct FolderWriting {
    id: FileId,
    writing: Arc<Mutex<HashSet<FileId>>>,
}

impl Drop for FolderWriting {
    fn drop(&mut self) {
        self.writing
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

/// Every record, and the counts of their charges, changed together.
#[derive(Default)]
struct Index {
    records: HashMap<FileId, Upload>,
    counts: Counts,
}

impl Index {
    /// Keep `upload` as `id`'s record (none: forget it), its charge
    /// moved in the counts.
    fn put(&mut self, id: &FileId, upload: Option<Upload>) {
        let after = upload.as_ref().map(Charge::of).unwrap_or_default();
        let before = match upload {
            Some(upload) => self.records.insert(id.clone(), upload),
            None => self.records.remove(id),
        };
        let before = before.as_ref().map(Charge::of).unwrap_or_default();
        self.counts.change(&before, &after);
    }
}

impl FolderRecords {
    /// The records under `dir` (made if missing, private: see
    /// [`crate::private_files`]), as the folder holds them.
    pub fn open(dir: &Path) -> io::Result<FolderRecords> {
        private_files::create_dir_all(dir)?;
        let mut index = Index::default();
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            let Some(id) = path
                .file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.strip_suffix(".json"))
                .and_then(FileId::parse)
            else {
                continue;
            };
            let upload = std::fs::read_to_string(&path)
                .ok()
                .and_then(|text| serde_json::from_str::<Upload>(&text).ok());
            if let Some(upload) = upload {
                index.put(&id, Some(upload));
            }
        }
        Ok(FolderRecords {
            dir: dir.to_owned(),
            index: Mutex::new(index),
            writing: Arc::default(),
            changing: tokio::sync::Mutex::new(()),
        })
    }

    fn with<T>(&self, look: impl FnOnce(&mut Index) -> T) -> T {
        look(&mut self.index.lock().unwrap_or_else(PoisonError::into_inner))
    }

    fn path(&self, id: &FileId) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// What is known of `id`.
    pub fn get(&self, id: &FileId) -> Option<Upload> {
        self.with(|index| index.records.get(id).cloned())
    }

    /// Every upload known.
    pub fn all(&self) -> Vec<(FileId, Upload)> {
        self.with(|index| {
            index
                .records
                .iter()
                .map(|(id, upload)| (id.clone(), upload.clone()))
                .collect()
        })
    }

    /// Write what is known of `id`.
    pub async fn save(&self, id: &FileId, upload: &Upload) -> io::Result<()> {
        let text = serde_json::to_vec(upload).map_err(io::Error::other)?;
        let path = self.path(id);
        tokio::task::spawn_blocking(move || write_atomically(&path, &text))
            .await
            .map_err(io::Error::other)??;
        self.with(|index| index.put(id, Some(upload.clone())));
        Ok(())
    }

    /// Change `id` with `change`: read, changed and written while no other
    /// change runs, so none is lost.
    pub async fn update(
        &self,
        id: &FileId,
        change: impl Fn(&mut Upload),
    ) -> io::Result<Option<Upload>> {
        let _one_at_a_time = self.changing.lock().await;
        let Some(mut upload) = self.get(id) else {
            return Ok(None);
        };
        change(&mut upload);
        self.save(id, &upload).await?;
        Ok(Some(upload))
    }

    /// Forget `id`.
    pub async fn remove(&self, id: &FileId) -> io::Result<()> {
        self.with(|index| index.put(id, None));
        match tokio::fs::remove_file(self.path(id)).await {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }

    /// The counts of the records' charges.
    pub fn counts(&self) -> Counts {
        self.with(|index| index.counts.clone())
    }

    /// Recount the counts from the records: the drift found, mended.
    pub fn recount(&self) -> Vec<(String, u64, u64)> {
        self.with(|index| {
            let recount = Counts::of(index.records.values());
            let drift = index.counts.drift(&recount);
            index.counts = recount;
            drift
        })
    }

    /// The right to write `id`, unless another request holds it.
    pub fn start_writing(&self, id: &FileId) -> Option<FolderWriting> {
        let mut writing = self.writing.lock().unwrap_or_else(PoisonError::into_inner);
        writing.insert(id.clone()).then(|| FolderWriting {
            id: id.clone(),
            writing: Arc::clone(&self.writing),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn changes_made_at_once_are_all_kept() {
        let dir = tempfile::tempdir().unwrap();
        let records = Arc::new(FolderRecords::open(dir.path()).unwrap());
        let id = FileId::parse("0123456789abcdef0123456789abcdef").unwrap();
        let upload = Upload {
            complete: true,
            ..Upload::new(1, "a.png".to_owned(), "ada".to_owned(), 0, 10)
        };
        records.save(&id, &upload).await.unwrap();
        let changes: Vec<_> = (0..20)
            .map(|n| {
                let records = Arc::clone(&records);
                let id = id.clone();
                tokio::spawn(async move {
                    records
                        .update(&id, |upload| upload.held_by.push(format!("task-{n}")))
                        .await
                        .unwrap()
                })
            })
            .collect();
        for change in changes {
            change.await.unwrap();
        }
        assert_eq!(records.get(&id).unwrap().held_by.len(), 20);
        // As written: read again from the folder.
        let again = FolderRecords::open(dir.path()).unwrap();
        assert_eq!(again.get(&id).unwrap().held_by.len(), 20);
    }

    #[tokio::test]
    async fn the_counts_follow_every_change_are_read_back_and_drift_is_mended() {
        let dir = tempfile::tempdir().unwrap();
        let records = FolderRecords::open(dir.path()).unwrap();
        let (a, b) = (
            FileId::parse("0123456789abcdef0123456789abcdef").unwrap(),
            FileId::parse("fedcba9876543210fedcba9876543210").unwrap(),
        );
        let upload = |length| Upload::new(length, "a.png".to_owned(), "ada".to_owned(), 0, 10);
        records.save(&a, &upload(300)).await.unwrap();
        records.save(&b, &upload(500)).await.unwrap();
        records
            .update(&a, |upload| upload.complete = true)
            .await
            .unwrap();
        records.remove(&b).await.unwrap();
        let recount = || {
            Counts::of(
                records
                    .all()
                    .iter()
                    .map(|(_, upload)| upload.clone())
                    .collect::<Vec<_>>()
                    .iter(),
            )
        };
        assert_eq!(records.counts(), recount());
        assert_eq!(records.counts().get(crate::counts::UPLOADS), 300);
        assert_eq!(records.counts().get(&crate::counts::in_flight("ada")), 0);
        // Read back from the folder at start.
        assert_eq!(FolderRecords::open(dir.path()).unwrap().counts(), recount());
        // Counts that drifted are said and mended.
        records.with(|index| index.counts = Counts::default());
        assert_eq!(
            records.recount(),
            vec![(crate::counts::UPLOADS.to_owned(), 0, 300)]
        );
        assert_eq!(records.recount(), Vec::new());
    }

    #[tokio::test]
    async fn the_folder_made_and_the_records_are_private() {
        let mode = crate::private_files::mode_of;
        let dir = tempfile::tempdir().unwrap();
        let uploads = dir.path().join("uploads");
        let records = FolderRecords::open(&uploads).unwrap();
        let id = FileId::parse("0123456789abcdef0123456789abcdef").unwrap();
        let upload = Upload::new(1, "a.png".to_owned(), "ada".to_owned(), 0, 10);
        records.save(&id, &upload).await.unwrap();
        records
            .update(&id, |upload| upload.complete = true)
            .await
            .unwrap();
        assert_eq!(mode(&uploads), 0o700);
        assert_eq!(mode(&records.path(&id)), 0o600);
    }
}
