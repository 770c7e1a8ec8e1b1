//! Where uploads are kept: a folder (`--upload-dir`) holding, per upload,
//! its bytes (`{id}.part`, whose length is how far it got: a crash loses
//! nothing written) and what is known of it (`{id}.json`, written
//! atomically). An index of them all lives in memory, read from the folder
//! at start, for the quota, the uploads in flight and the sweeper.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use media_gen_api::media_type::MediaType;
use serde::{Deserialize, Serialize};

use crate::access::key_file::write_atomically;

/// What is known of one upload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// Its declared length (`Upload-Length`).
    pub length: u64,
    /// When it was made (seconds since 1970).
    pub created: u64,
    /// When it expires and is deleted (seconds since 1970).
    pub expires: u64,
    /// Its type, once its first bytes are in.
    pub media: Option<MediaType>,
    /// The name it is served under (safe; the type's extension).
    pub name: String,
    /// Whose it is: a person, or an address in `open` mode.
    pub owner: String,
    /// Whether every byte is in.
    pub complete: bool,
    /// Whether it expired and its bytes are deleted (what is known of it
    /// stays a while longer, so its address answers 410, not 404).
    #[serde(default)]
    pub gone: bool,
    /// Tasks made from it that have not ended (`kind/task_id`): while any
    /// has not, it is kept whatever its expiry, so the service never finds
    /// it gone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_by: Vec<String>,
}

impl Upload {
    /// Whether it is past its time at `now` (and no task holds it).
    pub fn expired_at(&self, now: u64) -> bool {
        self.gone || (self.expires <= now && self.held_by.is_empty())
    }
}

/// The uploads of one folder.
pub struct Store {
    dir: PathBuf,
    index: Mutex<HashMap<String, Upload>>,
    writing: Arc<Mutex<HashSet<String>>>,
}

/// Held while one request writes an upload; another gets
/// [`Store::start_writing`]'s `None`.
pub struct Writing {
    id: String,
    writing: Arc<Mutex<HashSet<String>>>,
}

impl Drop for Writing {
    fn drop(&mut self) {
        self.writing
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

/// Delete `path`, saying so in the log only when it was there and stays.
async fn remove_quietly(path: &Path) {
    if let Err(error) = tokio::fs::remove_file(path).await {
        if error.kind() != io::ErrorKind::NotFound {
            tracing::warn!(%error, path = %path.display(), "an upload's file could not be deleted");
        }
    }
}

impl Store {
    /// The uploads under `dir` (made if missing), as the folder holds them.
    pub fn open(dir: &Path) -> io::Result<Store> {
        std::fs::create_dir_all(dir)?;
        let mut index = HashMap::new();
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            let Some(id) = path
                .file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.strip_suffix(".json"))
                .filter(|id| media_gen_api::relay::is_capability(id))
            else {
                continue;
            };
            let upload = std::fs::read_to_string(&path)
                .ok()
                .and_then(|text| serde_json::from_str::<Upload>(&text).ok());
            if let Some(upload) = upload {
                index.insert(id.to_owned(), upload);
            }
        }
        Ok(Store {
            dir: dir.to_owned(),
            index: Mutex::new(index),
            writing: Arc::default(),
        })
    }

    fn with<T>(&self, look: impl FnOnce(&mut HashMap<String, Upload>) -> T) -> T {
        look(&mut self.index.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Where the bytes of `id` are.
    pub fn data_path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.part"))
    }

    fn meta_path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// What is known of `id`.
    pub fn get(&self, id: &str) -> Option<Upload> {
        self.with(|index| index.get(id).cloned())
    }

    /// The bytes every upload kept may reach: their declared lengths.
    pub fn reserved(&self) -> u64 {
        self.with(|index| {
            index
                .values()
                .filter(|upload| !upload.gone)
                .map(|upload| upload.length)
                .sum()
        })
    }

    /// `owner`'s uploads not yet complete.
    pub fn in_flight(&self, owner: &str) -> usize {
        self.with(|index| {
            index
                .values()
                .filter(|upload| upload.owner == owner && !upload.complete && !upload.gone)
                .count()
        })
    }

    /// The uploads expired at `now` whose bytes are still kept, and those
    /// gone long enough (`forget_after` past their expiry) to forget.
    pub fn expired(&self, now: u64, forget_after: u64) -> (Vec<String>, Vec<String>) {
        self.with(|index| {
            let (mut expired, mut forgotten) = (Vec::new(), Vec::new());
            for (id, upload) in index.iter() {
                if upload.gone && upload.expires.saturating_add(forget_after) <= now {
                    forgotten.push(id.clone());
                } else if !upload.gone && upload.expired_at(now) {
                    expired.push(id.clone());
                }
            }
            (expired, forgotten)
        })
    }

    /// Delete the bytes of `id`, keeping what is known of it, marked gone.
    pub async fn expire(&self, id: &str) {
        let Some(mut upload) = self.get(id) else {
            return;
        };
        upload.gone = true;
        remove_quietly(&self.data_path(id)).await;
        if let Err(error) = self.save(id, upload).await {
            tracing::warn!(%error, "an expired upload could not be marked gone");
        }
    }

    /// Keep a new upload `id` (no bytes yet).
    pub async fn create(&self, id: &str, upload: Upload) -> io::Result<()> {
        tokio::fs::File::create(self.data_path(id)).await?;
        self.save(id, upload).await
    }

    /// Write what is known of `id`.
    pub async fn save(&self, id: &str, upload: Upload) -> io::Result<()> {
        let text = serde_json::to_vec(&upload).map_err(io::Error::other)?;
        let path = self.meta_path(id);
        tokio::task::spawn_blocking(move || write_atomically(&path, &text))
            .await
            .map_err(io::Error::other)??;
        self.with(|index| index.insert(id.to_owned(), upload));
        Ok(())
    }

    /// How many bytes of `id` are in.
    pub async fn offset(&self, id: &str) -> io::Result<u64> {
        Ok(tokio::fs::metadata(self.data_path(id)).await?.len())
    }

    /// The first `count` bytes of `id` (fewer if it has fewer).
    pub async fn head(&self, id: &str, count: usize) -> io::Result<Vec<u8>> {
        use tokio::io::AsyncReadExt;
        let file = tokio::fs::File::open(self.data_path(id)).await?;
        let mut head = Vec::with_capacity(count);
        file.take(count as u64).read_to_end(&mut head).await?;
        Ok(head)
    }

    /// The uploads `task` (`kind/task_id`) holds.
    pub fn held_by(&self, task: &str) -> Vec<String> {
        self.with(|index| {
            index
                .iter()
                .filter(|(_, upload)| upload.held_by.iter().any(|held| held == task))
                .map(|(id, _)| id.clone())
                .collect()
        })
    }

    /// Delete `id`: its bytes and what was known of it.
    pub async fn remove(&self, id: &str) {
        self.with(|index| index.remove(id));
        remove_quietly(&self.data_path(id)).await;
        remove_quietly(&self.meta_path(id)).await;
    }

    /// The right to write `id`, unless another request holds it.
    pub fn start_writing(&self, id: &str) -> Option<Writing> {
        let mut writing = self.writing.lock().unwrap_or_else(PoisonError::into_inner);
        writing.insert(id.to_owned()).then(|| Writing {
            id: id.to_owned(),
            writing: Arc::clone(&self.writing),
        })
    }
}
