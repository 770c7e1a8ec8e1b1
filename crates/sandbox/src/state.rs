//! What every handler shares: the service model behind a lock, and the
//! clock that tells it the time.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use media_gen_api::service::{ServiceModel, Settings, Task};
use media_gen_api::TaskKind;

use crate::config::Config;
use crate::counters::Counters;
use crate::error::{ApiError, Refusal};
use crate::fetch_log::FetchLog;
use crate::inbox::boxes::Inbox;
use crate::media::image_cache::ImageCache;

/// The model's time: milliseconds since 1970, read as the time at start
/// plus a monotonic clock's progress since, so it never goes back.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    started: Instant,
    started_ms: u64,
}

impl Clock {
    /// A clock reading the time from now on.
    pub fn start() -> Clock {
        let started_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|since| u64::try_from(since.as_millis()).unwrap_or(u64::MAX))
            .unwrap_or_default();
        Clock {
            started: Instant::now(),
            started_ms,
        }
    }

    /// The time now, in the model's milliseconds.
    pub fn now(&self) -> u64 {
        let elapsed = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.started_ms.saturating_add(elapsed)
    }

    /// The moment the model's `millis` fall on.
    pub fn instant_of(&self, millis: u64) -> Instant {
        self.started + Duration::from_millis(millis.saturating_sub(self.started_ms))
    }
}

/// The sandbox's state, cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// The parts of [`AppState`].
pub struct Inner {
    /// The start-up configuration.
    pub config: Config,
    /// The service: every task, the faults.
    pub model: Mutex<ServiceModel>,
    /// The model's clock.
    pub clock: Clock,
    /// Callbacks received at `/sandbox/inbox/{name}`.
    pub inbox: Inbox,
    /// Generated images, by quality and ratio.
    pub images: ImageCache,
    /// The client that sends callbacks.
    pub http: reqwest::Client,
    /// Wakes the callbacks' loop: a task that may fall due sooner was made.
    pub callbacks_wake: tokio::sync::Notify,
    /// Whether the callbacks' loop runs.
    pub callbacks_running: std::sync::atomic::AtomicBool,
    /// Request and task counts.
    pub counters: Counters,
    /// The inputs fetched (`--fetch-inputs`).
    pub fetched: FetchLog,
}

impl std::ops::Deref for AppState {
    type Target = Inner;

    fn deref(&self) -> &Inner {
        &self.0
    }
}

/// The model's settings from the flags.
fn settings(config: &Config) -> Settings {
    Settings {
        timing: config.timing(),
        max_tasks: config.max_tasks,
        // Never the request's `Host`, which a client sets at will.
        base_url: config
            .public_url
            .clone()
            .unwrap_or_else(|| "http://localhost".to_owned()),
        callbacks_to_any_host: config.callbacks_to_any_host,
        media_ttl_secs: config.media_ttl,
        faults: config.faults.clone(),
        seed: fastrand::u64(..),
    }
}

impl AppState {
    /// Fresh state for `config`.
    pub fn new(config: Config) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        let model = ServiceModel::new(settings(&config));
        AppState(Arc::new(Inner {
            model: Mutex::new(model),
            clock: Clock::start(),
            inbox: Inbox::default(),
            images: ImageCache::default(),
            http,
            callbacks_wake: tokio::sync::Notify::new(),
            callbacks_running: std::sync::atomic::AtomicBool::new(false),
            counters: Counters::default(),
            fetched: FetchLog::default(),
            config,
        }))
    }

    /// `work` done on the model, under its lock.
    pub fn with_model<T>(&self, work: impl FnOnce(&mut ServiceModel) -> T) -> T {
        work(&mut self.model.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The task `id` of `kind`, or the 404 a client gets for it.
    pub fn task(&self, kind: TaskKind, id: &str) -> Result<Task, ApiError> {
        self.with_model(|model| model.task(kind, id).cloned())
            .ok_or_else(|| ApiError(Refusal::NotFound(format!("task_id: no {kind} task `{id}`"))))
    }

    /// How many tasks are held.
    pub fn task_count(&self) -> usize {
        self.with_model(|model| model.task_count())
    }
}
