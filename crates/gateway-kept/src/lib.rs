//! Results kept: when the gateway learns that a task it forwarded has
//! `SUCCEEDED` (a status read it forwards, or the relay's confirming read),
//! it fetches the task's files ([`fetch`]) into the store it has for
//! uploads (the folder or S3; records in the folder or Redis) and serves
//! them at `/kept/{id}/{name}` ([`serve`]), within `--keep-quota`
//! ([`room`]) and for `--keep-for` after the task's end. The service's
//! interface document does not say how long its own URLs live.
//!
//! A copy's id is derived from the task, the field and a key only the
//! gateways hold ([`IdKey`]): every gateway finds the same copy without an
//! index, nobody else can guess its address, and the store's lock on that
//! id lets exactly one gateway fetch it.

pub mod budgets;
pub mod counted;
pub mod fetch;
pub mod room;
pub mod serve;
pub mod sources;

pub use media_gen_gateway_uploads::record::KeptFile;
use media_gen_gateway_uploads::FileId;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;
use axum::routing::get;
use axum::Router;
use media_gen_api::kept::{result_files, ByMediaField, MediaField};
use media_gen_api::{AnyTask, TaskKey};
use sha2::{Digest, Sha256};

pub(crate) use media_gen_gateway_access as access;
pub(crate) use media_gen_gateway_base::observe;

use crate::access::{now_seconds, Who};
use media_gen_gateway_uploads::{TakenUploads, Uploads};
use sources::{MediaHost, Sources};

/// The path kept copies are served under.
pub use media_gen_api::kept::KEPT_PATH;

/// Results kept: how (the `--keep-*` flags), in the uploads' store.
pub struct Kept {
    /// How results are kept.
    pub settings: KeepSettings,
    /// The store they are kept in, beside the uploads.
    pub uploads: Arc<Uploads>,
    /// Where files are fetched from, and the clients that fetch them.
    pub sources: Sources,
    /// Turns to fetch (`--keep-fetches-at-once`).
    pub fetches: Arc<tokio::sync::Semaphore>,
}

impl Kept {
    /// Results kept as `settings` say in `uploads`' store, fetched from
    /// the service at `upstream` (its base URL), `--keep-from` and public
    /// addresses.
    pub fn new(settings: KeepSettings, uploads: Arc<Uploads>, upstream: Option<&str>) -> Kept {
        let sources = Sources::new(upstream, &settings.from);
        let fetches = Arc::new(tokio::sync::Semaphore::new(settings.fetches_at_once.max(1)));
        Kept {
            settings,
            uploads,
            sources,
            fetches,
        }
    }
}

/// How results are kept (the `--keep-*` flags).
#[derive(Debug, Clone)]
pub struct KeepSettings {
    /// How long a copy is kept after the task's end (`--keep-for`).
    pub keep_for: Duration,
    /// Bytes all copies may take (`--keep-quota`); the oldest go first.
    pub quota: u64,
    /// The largest file kept (`--keep-max-bytes`).
    pub max_bytes: u64,
    /// Bytes of results kept for one person a day, in `keys` and `proxy`
    /// mode (`--keep-bytes-per-day`).
    pub bytes_per_day: u64,
    /// Bytes of results kept for one person at once (`--keep-bytes-per-person`).
    pub bytes_per_person: u64,
    /// The longest one file's fetch may take, whole (`--keep-fetch-timeout`).
    pub fetch_deadline: Duration,
    /// Files fetched at once by this gateway (`--keep-fetches-at-once`).
    pub fetches_at_once: usize,
    /// How long a status read waits for copies being made before it
    /// answers with those made so far (a relayed callback waits half as
    /// long: the service waits on its answer).
    pub wait: Duration,
    /// Hosts results are fetched from whatever their address, besides the
    /// service's own (`--keep-from`).
    pub from: Vec<MediaHost>,
    /// What the copies' ids are derived with.
    pub ids: IdKey,
}

/// Files fetched at once by one gateway unless `--keep-fetches-at-once`
/// says: enough to keep a task's video and thumbnail and a few more
/// coming, few enough that many tasks ending together do not take every
/// connection and disk write of the machine.
pub const FETCHES_AT_ONCE: usize = 8;

/// The share of `quota` one person's kept results may take at once unless
/// `--keep-bytes-per-person` says: a fifth, so one person's copies never
/// push out everyone else's.
pub fn per_person_share(quota: u64) -> u64 {
    quota / 5
}

impl KeepSettings {
    /// The defaults the flags have, with ids derived from `secret`.
    pub fn new(secret: &[u8]) -> KeepSettings {
        let quota = 50 << 30;
        KeepSettings {
            keep_for: Duration::from_secs(30 * 24 * 3_600),
            quota,
            max_bytes: 2 << 30,
            bytes_per_day: 20 << 30,
            bytes_per_person: per_person_share(quota),
            fetch_deadline: Duration::from_secs(10 * 60),
            fetches_at_once: FETCHES_AT_ONCE,
            wait: Duration::from_secs(20),
            from: Vec::new(),
            ids: IdKey::from_secret(secret),
        }
    }
}

/// The key kept copies' ids are derived with: from the service's token,
/// which every gateway of a deployment holds and nobody else does.
#[derive(Clone)]
pub struct IdKey([u8; 32]);

impl fmt::Debug for IdKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("IdKey(…)")
    }
}

impl IdKey {
    /// The key derived from `secret`.
    pub fn from_secret(secret: &[u8]) -> IdKey {
        let mut hash = Sha256::new();
        hash.update(b"media-gen kept ids\n");
        hash.update(secret);
        IdKey(hash.finalize().into())
    }

    /// The id of `task`'s copy of `field`: 32 hexadecimal digits (128
    /// bits), the shape of an upload's id. The key comes first and has a
    /// fixed length, and the message ends with a field's name: a longer
    /// message made from a known id names no copy.
    pub fn id(&self, task: &TaskKey, field: MediaField) -> FileId {
        let mut hash = Sha256::new();
        hash.update(self.0);
        hash.update(task.kind.as_str().as_bytes());
        hash.update(b"\n");
        hash.update(task.id.as_bytes());
        hash.update(b"\n");
        hash.update(field.name().as_bytes());
        let digest: [u8; 32] = hash.finalize().into();
        let mut bits = [0u8; 16];
        bits.copy_from_slice(&digest[..16]);
        FileId::of_digest(&bits)
    }
}

/// The name a copy of `field` of task `task_id` is served under: the
/// task's id made safe for a path and a download, and `extension`.
pub fn file_name(task_id: &str, field: MediaField, extension: &str) -> String {
    let safe: String = task_id
        .chars()
        .take(80)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let safe = if safe.is_empty() {
        "result".to_owned()
    } else {
        safe
    };
    match field {
        MediaField::ThumbnailUrl => format!("{safe}-thumbnail.{extension}"),
        _ => format!("{safe}.{extension}"),
    }
}

/// The address copy `id` named `name` is served at.
pub fn address(uploads: &Uploads, id: &FileId, name: &str) -> String {
    format!(
        "{}{KEPT_PATH}{id}/{name}",
        uploads.settings().public_url.trim_end_matches('/')
    )
}

/// Keep `task`'s result files that are not kept yet, as the copies of
/// whoever `owner` finds (the person or address that submitted it; none
/// when that is not known: asked only once a file is to be fetched, so a
/// task read again once its copies are settled costs no lookup), waiting
/// up to `wait` for the copies under way (they go on after); then note in
/// `task` what is kept and why anything is not. A task not `SUCCEEDED` is
/// left as it is.
pub async fn keep(
    kept: &Kept,
    task: &mut AnyTask,
    owner: impl AsyncFnOnce() -> Option<Who>,
    wait: Duration,
) {
    let (uploads, settings) = (&kept.uploads, &kept.settings);
    let files: Vec<(MediaField, String)> = result_files(task)
        .into_iter()
        .map(|(field, url)| (field, url.to_owned()))
        .collect();
    if files.is_empty() {
        return;
    }
    let key = TaskKey::new(task.kind(), task.task_id());
    let mut fetching = Vec::new();
    let (mut find_owner, mut found) = (Some(owner), None);
    for (field, url) in &files {
        let id = settings.ids.id(&key, *field);
        if let Ok(Some(record)) = uploads.store.get(&id).await {
            if fetch::settled(&record) {
                continue;
            }
        }
        if let Some(find) = find_owner.take() {
            found = find().await;
        }
        let job = fetch::Job {
            id,
            task: key.clone(),
            field: *field,
            url: url.clone(),
            owner: found.clone(),
        };
        // Spawned: the copy is made even when the read that asked for it
        // stops waiting or its client goes away.
        let (uploads, sources, settings) =
            (uploads.clone(), kept.sources.clone(), settings.clone());
        let turns = Arc::clone(&kept.fetches);
        let handle = tokio::spawn(async move {
            // The semaphore is never closed: a turn always comes.
            let _turn = turns.acquire_owned().await;
            fetch::keep_one(uploads, sources, settings, job).await;
        });
        fetching.push(handle);
    }
    // All run at once; waited for in turn. A fetch that panicked is said
    // so: its record stays unsettled and the next read tries again.
    let all_done = async {
        for handle in fetching {
            if let Err(error) = handle.await {
                tracing::error!(%error, "a result's fetch ended without an outcome");
            }
        }
    };
    let _ = tokio::time::timeout(wait, all_done).await;
    let (kept, not_kept) = known(uploads, settings, &key, files.iter().map(|(f, _)| *f)).await;
    task.set_kept(kept, not_kept);
}

/// What is kept of `task`'s `fields` now, and why any is not.
async fn known(
    uploads: &Uploads,
    settings: &KeepSettings,
    task: &TaskKey,
    fields: impl Iterator<Item = MediaField>,
) -> (ByMediaField, ByMediaField) {
    let (mut kept, mut not_kept) = (ByMediaField::default(), ByMediaField::default());
    let now = now_seconds();
    for field in fields {
        let id = settings.ids.id(task, field);
        let Ok(Some(record)) = uploads.store.get(&id).await else {
            continue;
        };
        match &record.kept {
            Some(KeptFile {
                not_kept: Some(why),
                ..
            }) => not_kept.set(field, why.clone()),
            Some(_) if record.complete && !record.expired_at(now) => {
                kept.set(field, address(uploads, &id, &record.name));
            }
            _ => {}
        }
    }
    (kept, not_kept)
}

/// Add where `task`'s results are kept, and why any is not, to a status
/// read's `json` (the service's, in its envelope) in its `data`; whether
/// anything was added (the service's own fields stay as they came).
pub fn add_to_json(task: &AnyTask, json: &mut serde_json::Value) -> bool {
    use media_gen_api::kept::{ResultFiles, KEPT_FIELD, NOT_KEPT_FIELD};
    let Some(data) = json.get_mut("data").and_then(|data| data.as_object_mut()) else {
        return false;
    };
    let mut added = false;
    for (name, files) in [
        (KEPT_FIELD, task.kept_files()),
        (NOT_KEPT_FIELD, task.not_kept_files()),
    ] {
        if let Some(files) = files.and_then(|files| serde_json::to_value(files).ok()) {
            data.insert(name.to_owned(), files);
            added = true;
        }
    }
    added
}

/// The routes under [`KEPT_PATH`], on a state that holds the uploads'
/// store the copies are kept in.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    TakenUploads: FromRef<S>,
{
    Router::new()
        .route("/kept/{id}", get(serve::file))
        .route("/kept/{id}/{name}", get(serve::named))
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::TaskKind;

    #[test]
    fn a_copys_id_is_the_same_on_every_gateway_and_differs_by_task_field_and_key() {
        let key = IdKey::from_secret(b"Bearer token-a");
        let task = TaskKey::new(TaskKind::ImageToVideo, "t-1");
        let id = key.id(&task, MediaField::VideoUrl);
        assert!(media_gen_api::relay::is_capability(id.as_str()), "{id}");
        assert_eq!(
            IdKey::from_secret(b"Bearer token-a").id(&task, MediaField::VideoUrl),
            id
        );
        let others = [
            key.id(&task, MediaField::ThumbnailUrl),
            key.id(
                &TaskKey::new(TaskKind::ImageToVideo, "t-2"),
                MediaField::VideoUrl,
            ),
            key.id(
                &TaskKey::new(TaskKind::VideoTranslate, "t-1"),
                MediaField::VideoUrl,
            ),
            IdKey::from_secret(b"Bearer token-b").id(&task, MediaField::VideoUrl),
        ];
        assert!(others.iter().all(|other| *other != id), "{others:?}");
        assert_eq!(format!("{key:?}"), "IdKey(…)", "the key never prints");
    }

    #[test]
    fn a_copys_name_is_its_tasks_id_made_safe() {
        assert_eq!(file_name("i2v-7", MediaField::VideoUrl, "mp4"), "i2v-7.mp4");
        assert_eq!(
            file_name("i2v-7", MediaField::ThumbnailUrl, "webp"),
            "i2v-7-thumbnail.webp"
        );
        assert_eq!(
            file_name("a/../\"b c", MediaField::ImageUrl, "png"),
            "a-----b-c.png"
        );
        assert_eq!(file_name("", MediaField::CaptionUrl, "ass"), "result.ass");
    }
}
