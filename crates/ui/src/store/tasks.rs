//! Task records in `localStorage`, one key per task, so a status change
//! rewrites one small entry and a reload finds every task again.

use web_sys::Storage;

use super::record::{key, TaskRecord, KEY_PREFIX};
use media_gen_api::TaskKind;

/// Why the records could not be stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// No `localStorage` (disabled, or a private window that refuses it).
    #[error(
        "This browser does not allow storing tasks here; they are kept only until the page closes."
    )]
    Unavailable,
    /// The browser refused the write (storage full).
    #[error("The browser's storage is full; new tasks are kept only until the page closes.")]
    Full,
}

fn storage() -> Result<Storage, StoreError> {
    web_sys::window()
        .and_then(|window| window.local_storage().ok().flatten())
        .ok_or(StoreError::Unavailable)
}

/// Every stored record, oldest first, and how many entries could not be read.
pub fn load() -> Result<(Vec<TaskRecord>, usize), StoreError> {
    let storage = storage()?;
    let count = storage.length().unwrap_or(0);
    let mut records = Vec::new();
    let mut unreadable = 0;
    for index in 0..count {
        let Some(name) = storage.key(index).ok().flatten() else {
            continue;
        };
        if !name.starts_with(KEY_PREFIX) {
            continue;
        }
        match storage
            .get_item(&name)
            .ok()
            .flatten()
            .map(|text| TaskRecord::from_stored(&media_gen_client::value_reader::parse(&text)))
        {
            Some(Ok(record)) => records.push(record),
            _ => unreadable += 1,
        }
    }
    records.sort_unstable_by(|a, b| {
        a.submitted_at
            .total_cmp(&b.submitted_at)
            .then_with(|| a.task_id.cmp(&b.task_id))
    });
    Ok((records, unreadable))
}

/// Store `record`, replacing an earlier version.
pub fn save(record: &TaskRecord) -> Result<(), StoreError> {
    let text = serde_json::to_string(record).map_err(|_| StoreError::Full)?;
    storage()?
        .set_item(&record.storage_key(), &text)
        .map_err(|_| StoreError::Full)
}

/// Forget one task.
pub fn remove(kind: TaskKind, task_id: &str) -> Result<(), StoreError> {
    storage()?
        .remove_item(&key(kind, task_id))
        .map_err(|_| StoreError::Unavailable)
}
