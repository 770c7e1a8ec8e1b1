//! What every handler shares.

use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use media_gen_api::TaskKind;

use crate::config::Config;
use crate::counters::Counters;
use crate::error::ApiError;
use crate::faults::SharedFaults;
use crate::fetch_log::FetchLog;
use crate::inbox::boxes::Inbox;
use crate::media::image_cache::ImageCache;
use crate::store::{Store, Task};

/// The sandbox's state, cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// The parts of [`AppState`].
pub struct Inner {
    /// The start-up configuration.
    pub config: Config,
    /// Every task.
    pub store: Mutex<Store>,
    /// Live fault settings.
    pub faults: SharedFaults,
    /// Callbacks received at `/sandbox/inbox/{name}`.
    pub inbox: Inbox,
    /// Generated images, by quality and ratio.
    pub images: ImageCache,
    /// The client that sends callbacks.
    pub http: reqwest::Client,
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

impl AppState {
    /// Fresh state for `config`.
    pub fn new(config: Config) -> Self {
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        AppState(Arc::new(Inner {
            store: Mutex::new(Store::new(config.max_tasks)),
            faults: Arc::new(RwLock::new(config.faults.clone())),
            inbox: Inbox::default(),
            images: ImageCache::default(),
            http,
            counters: Counters::default(),
            fetched: FetchLog::default(),
            config,
        }))
    }

    /// Keep `task`.
    pub fn insert(&self, task: Task) {
        self.counters
            .tasks_created
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Ok(mut store) = self.store.lock() {
            store.insert(task, Instant::now());
        }
    }

    /// The task `id` of `kind`, or the 404 a client gets for it.
    pub fn task(&self, kind: TaskKind, id: &str) -> Result<Task, ApiError> {
        self.store
            .lock()
            .ok()
            .and_then(|store| store.get(kind, id).cloned())
            .ok_or_else(|| ApiError::NotFound(format!("task_id: no {kind} task `{id}`")))
    }

    /// How many tasks are held.
    pub fn task_count(&self) -> usize {
        self.store
            .lock()
            .map(|store| store.len())
            .unwrap_or_default()
    }
}
