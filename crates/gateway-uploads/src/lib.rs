//! Files from people's computers, uploaded to the gateway with tus
//! ([`tus`]) and served to the service at an unguessable address
//! ([`serve`]): the service takes every input only as a public URL. Kept in
//! a folder ([`store`]) until `--upload-ttl` after they are made (or
//! finished), within `--upload-quota` for the folder and each owner's
//! budgets ([`budgets`]); a sweeper deletes the expired ones' bytes.

pub mod budgets;
pub mod held;
pub mod hold_watch;
pub mod metadata;
pub mod refusal;
pub mod serve;
pub mod tus;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;
use axum::routing::{get, options};
use axum::Router;
use media_gen_api::validate::MAX_IMAGE_BYTES;

pub(crate) use media_gen_gateway_access as access;
pub(crate) use media_gen_gateway_base::{body_deadline, observe, redis_link};
pub use media_gen_gateway_store::{bytes, counts, file_id, record, records, store};

use crate::access::admission::Admission;
use crate::access::now_seconds;
use budgets::UploadBudgets;
use bytes::Bytes;
pub use file_id::FileId;
use records::Records;
use store::Store;

pub use media_gen_api::relay::UPLOADS_PATH;

/// How uploads are taken (the flags).
#[derive(Debug, Clone)]
pub struct UploadSettings {
    /// The folder they are kept in (`--upload-dir`): their bytes, unless
    /// `store` is given, and their records, unless Redis keeps them.
    pub dir: Option<PathBuf>,
    /// The object storage their bytes go to (`--upload-store
    /// s3://bucket/prefix`).
    pub store: Option<String>,
    /// Settings of the object storage given here on top of the
    /// environment's `AWS_*` (`("aws_endpoint_url", …)`): for a gateway
    /// run inside another program.
    pub store_options: Vec<(String, String)>,
    /// The gateway's address as the service reaches it (`--public-url`):
    /// where uploads are served from.
    pub public_url: String,
    /// How long one is kept after it is made, and again after it is
    /// finished (`--upload-ttl`).
    pub ttl: Duration,
    /// Bytes the folder may hold in all (`--upload-quota`).
    pub quota: u64,
    /// The largest video (`--upload-max-video`); images are the
    /// contract's 20 MB.
    pub max_video_bytes: u64,
    /// Bytes each owner may upload a day (`--upload-bytes-per-day`).
    pub bytes_per_day: u64,
    /// Uploads each owner may have under way at once (`--uploads-in-flight`).
    pub in_flight: usize,
    /// How long an incomplete upload no byte reached still counts as under
    /// way and keeps its reservation in the quota (`--upload-idle`).
    pub idle: Duration,
    /// The longest a task keeps an upload it was made from (`--upload-hold-max`).
    pub hold_max: Duration,
    /// When the gateway reads a task holding an upload that it hears of no
    /// other way (no one reads it through the gateway, no callback is
    /// relayed): the contract's schedule, with a server's numbers.
    pub hold_reads: media_gen_api::poll::PollSchedule,
    /// Reads of such tasks per second at most, all together.
    pub hold_reads_per_second: std::num::NonZeroU32,
}

impl UploadSettings {
    /// The defaults the flags have, in `dir`, served at `public_url`.
    pub fn new(dir: PathBuf, public_url: String) -> UploadSettings {
        UploadSettings {
            dir: Some(dir),
            store: None,
            store_options: Vec::new(),
            public_url,
            ttl: Duration::from_secs(24 * 3_600),
            quota: 20 << 30,
            max_video_bytes: 2 << 30,
            bytes_per_day: 10 << 30,
            in_flight: 4,
            idle: Duration::from_secs(record::IDLE_SECONDS),
            hold_max: Duration::from_secs(record::DEFAULT_HOLD_SECONDS),
            hold_reads: media_gen_api::poll::PollSchedule::unattended(),
            hold_reads_per_second: std::num::NonZeroU32::new(5)
                .unwrap_or(std::num::NonZeroU32::MIN),
        }
    }

    /// When something kept `--upload-ttl` from now ends (seconds since
    /// 1970), rounded up: a whole-second clock never ends it early.
    pub fn ends_from_now(&self) -> u64 {
        ends_after(self.ttl)
    }
}

/// `wait` from now (seconds since 1970), rounded up: a whole-second clock
/// never ends it early.
pub fn ends_after(wait: Duration) -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (now + wait).as_secs_f64().ceil() as u64
}

/// The uploads of a gateway.
pub struct Uploads {
    settings: UploadSettings,
    /// Their records and bytes (kept results share them).
    pub store: Store,
    budgets: UploadBudgets,
    /// Held while a new upload is checked against the quota and budgets
    /// and made: uploads made at once on this gateway are counted one by
    /// one (across gateways, a lock in Redis does the same).
    admitting: tokio::sync::Mutex<()>,
    /// Which held tasks the gateway reads itself.
    watch: hold_watch::HoldWatch,
}

/// The header every tus message carries.
pub const TUS_RESUMABLE: &str = "tus-resumable";

impl Uploads {
    /// The upload an address names by `id`: one of another shape is
    /// answered as any unknown upload.
    pub(crate) fn known(id: &str) -> Result<FileId, refusal::UploadRefusal> {
        FileId::parse(id).ok_or(refusal::UploadRefusal::Unknown)
    }

    /// What is known of upload `id`, while it lives: the tus calls and the
    /// finished file's address answer alike for one that is not.
    pub(crate) async fn live(&self, id: &FileId) -> Result<record::Upload, refusal::UploadRefusal> {
        use refusal::UploadRefusal;
        let upload = self
            .store
            .get(id)
            .await
            .map_err(UploadRefusal::storage)?
            .ok_or(UploadRefusal::Unknown)?;
        // A kept result shares the store, not the uploads' address.
        if upload.kept.is_some() {
            return Err(UploadRefusal::Unknown);
        }
        if upload.expired_at(now_seconds()) {
            return Err(UploadRefusal::Expired);
        }
        Ok(upload)
    }

    /// Uploads kept as `settings` say: records in `redis` when given,
    /// else in the folder (read now); bytes in the object storage when
    /// given (asked now whether it answers), else in the folder.
    pub async fn open(
        settings: UploadSettings,
        redis: Option<Arc<crate::redis_link::RedisLink>>,
    ) -> std::io::Result<Uploads> {
        let folder = || {
            settings.dir.as_deref().ok_or_else(|| {
                std::io::Error::other("uploads need --upload-dir (or --redis with --upload-store)")
            })
        };
        let budgets = UploadBudgets::new(settings.bytes_per_day, settings.in_flight, redis.clone());
        let records = match redis {
            Some(link) => Records::Redis(records::redis::RedisRecords::new(link)),
            None => Records::Folder(records::folder::FolderRecords::open(folder()?)?),
        };
        let bytes = match &settings.store {
            Some(url) => {
                let s3 = bytes::s3::S3Bytes::open(url, &settings.store_options)
                    .map_err(|error| std::io::Error::other(format!("--upload-store {error}")))?;
                if let Err(error) = s3.check().await {
                    // Started anyway, as without Redis: the storage may come up.
                    tracing::warn!(error = %crate::observe::Scrubbed(&error), "the upload storage does not answer yet");
                }
                Bytes::S3(s3)
            }
            None => Bytes::Folder(bytes::folder::FolderBytes::open(folder()?)?),
        };
        let store = Store::new(records, bytes);
        // Records in Redis may have been written before counts were kept:
        // counted now, or at the first sweep Redis answers.
        if matches!(store.records, Records::Redis(_)) {
            recount(&store).await;
        }
        Ok(Uploads {
            store,
            budgets,
            watch: hold_watch::HoldWatch::new(settings.hold_reads),
            settings,
            admitting: tokio::sync::Mutex::new(()),
        })
    }

    /// The settings they were opened with.
    pub fn settings(&self) -> &UploadSettings {
        &self.settings
    }

    /// The right to admit one new upload: this gateway's own lock, and with
    /// records in Redis every gateway's. Held until dropped.
    pub async fn admit(&self) -> std::io::Result<OneAtATime<'_>> {
        let here = self.admitting.lock().await;
        let shared = self.store.records.start_admitting().await?;
        Ok(OneAtATime {
            _here: here,
            _shared: shared,
        })
    }

    /// The held tasks the gateway should read itself now, at most
    /// `budget` of them ([`hold_watch::HoldWatch::due`]).
    pub async fn due_reads(&self, budget: usize) -> std::io::Result<Vec<media_gen_api::TaskKey>> {
        let held = self.store.held_tasks(now_seconds()).await?;
        Ok(self.watch.due(held, tokio::time::Instant::now(), budget))
    }

    /// `--upload-idle` in whole seconds.
    fn idle_seconds(&self) -> u64 {
        self.settings.idle.as_secs()
    }

    /// The largest file taken: a video's bound, or an image's if larger.
    pub fn largest(&self) -> u64 {
        self.settings.max_video_bytes.max(MAX_IMAGE_BYTES)
    }

    /// The address upload `id` is written and served at.
    pub fn address(&self, id: &FileId) -> String {
        format!(
            "{}{UPLOADS_PATH}{id}",
            self.settings.public_url.trim_end_matches('/')
        )
    }

    /// What `/capabilities` says of them, on a gateway that keeps results
    /// in their store or not (`keeps_results`).
    pub fn info(&self, keeps_results: bool) -> media_gen_api::relay::UploadsInfo {
        media_gen_api::relay::UploadsInfo {
            path: UPLOADS_PATH.to_owned(),
            max_image_bytes: MAX_IMAGE_BYTES,
            max_video_bytes: self.settings.max_video_bytes,
            ttl_seconds: self.settings.ttl.as_secs(),
            keeps_results,
        }
    }
}

/// Held while one new upload is admitted ([`Uploads::admit`]): new
/// uploads are counted against the quota one at a time.
pub struct OneAtATime<'a> {
    _here: tokio::sync::MutexGuard<'a, ()>,
    _shared: Option<records::Writing>,
}

/// The uploads a gateway takes, if any: the routes' state.
#[derive(Clone, Default)]
pub struct TakenUploads(pub Option<Arc<Uploads>>);

impl media_gen_gateway_base::offered::Offered for TakenUploads {
    type Part = Arc<Uploads>;
    type Off = refusal::UploadRefusal;

    /// The uploads, when the gateway takes them; 404 otherwise.
    fn part(self) -> Result<Arc<Uploads>, refusal::UploadRefusal> {
        self.0.ok_or(refusal::UploadRefusal::Off)
    }
}

/// The routes under [`UPLOADS_PATH`], on a state that holds the uploads
/// and lets calls in.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    TakenUploads: FromRef<S>,
    Arc<Admission>: FromRef<S>,
{
    Router::new()
        .route("/uploads", options(tus::options).post(tus::create))
        .route("/uploads/", options(tus::options).post(tus::create))
        .route(
            "/uploads/{id}",
            get(serve::file)
                .head(tus::head)
                .patch(tus::patch)
                .delete(tus::delete)
                .options(tus::options),
        )
        .route("/uploads/{id}/{name}", get(serve::named))
}

/// How long what is known of an expired upload stays (its address
/// answering 410, not 404): a day, or the TTL when longer.
const REMEMBERED: Duration = Duration::from_secs(24 * 3_600);

/// Delete expired uploads' bytes, and forget them [`REMEMBERED`] later,
/// every minute (every TTL when that is shorter) while the gateway runs.
pub async fn sweep(uploads: Arc<Uploads>) {
    let every = uploads
        .settings
        .ttl
        .clamp(Duration::from_secs(1), Duration::from_secs(60));
    let mut ticks = tokio::time::interval(every);
    loop {
        ticks.tick().await;
        let found = uploads
            .store
            .expired(
                now_seconds(),
                uploads.settings.ttl.max(REMEMBERED).as_secs(),
            )
            .await;
        let (expired, forgotten) = match found {
            Ok(found) => found,
            Err(error) => {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "the uploads could not be swept; trying again");
                continue;
            }
        };
        for (id, _) in expired {
            // Not while a request writes it; read again once it is ours.
            let Ok(Some(_writing)) = uploads.store.start_writing(&id).await else {
                continue;
            };
            let now = now_seconds();
            if let Ok(Some(upload)) = uploads.store.get(&id).await {
                if !upload.gone && upload.expired_at(now) {
                    uploads.store.expire(&id, upload).await;
                }
            }
        }
        for (id, upload) in forgotten {
            uploads.store.remove(&id, &upload).await;
        }
        recount(&uploads.store).await;
    }
}

/// Recount the counts from the records, and say in the log and the
/// metrics each count that had drifted (a store changed by hand, records
/// written before counts were kept); mended either way.
pub async fn recount(store: &Store) {
    match store.recount().await {
        Ok(drift) => {
            for (count, was, recounted) in drift {
                let kind = count.split(':').next().unwrap_or_default().to_owned();
                tracing::warn!(%count, was, recounted, "a count of the uploads had drifted; mended");
                metrics::counter!(crate::observe::COUNTS_DRIFTED, "kind" => kind).increment(1);
            }
        }
        Err(error) => {
            tracing::warn!(error = %crate::observe::Scrubbed(&error), "the uploads' counts could not be recounted; trying again");
        }
    }
}
