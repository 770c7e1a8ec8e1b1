//! The Media Generation Service as one model: what the service decides,
//! with no clock, no I/O and nothing asynchronous. Time (milliseconds since
//! 1970) and calls go in; answers, and the callbacks that have fallen due,
//! come out. A submit checked by the contract's rules becomes tasks
//! ([`submit`]); each task's status is derived from the time
//! ([`lifecycle`]); how it ends, what it names ([`media`], [`render`]) and
//! the faults injected on purpose ([`faults`]) are decided here, from a
//! seed ([`rng`]), so the same calls and seed give the same tasks.
//!
//! Two drivers carry it out: the sandbox (`crates/sandbox`: axum, tokio's
//! clock, real HTTP) and the test service that runs in a page.

pub mod calls;
pub mod faults;
pub mod lifecycle;
pub mod media;
pub mod refusal;
pub mod render;
pub mod rng;
pub mod store;
pub mod submit;

use crate::envelope::MSG_OK;
use crate::{AnyTask, Callback, Request, TaskKind, SUCCESS_CODE};

pub use calls::{Call, Reply};
pub use faults::{Fault, Faults};
pub use lifecycle::{Outcome, Schedule, Timing};
pub use refusal::Refusal;
pub use store::{Detail, Task};
pub use submit::{Accepted, Created};

/// The languages the service offers: English names, as the real service uses.
pub const TARGET_LANGUAGES: &[&str] = &[
    "English",
    "Chinese",
    "Japanese",
    "Korean",
    "Spanish",
    "French",
    "German",
    "Portuguese",
    "Italian",
    "Russian",
    "Arabic",
    "Hindi",
    "Indonesian",
    "Thai",
    "Vietnamese",
    "Turkish",
    "Dutch",
    "Polish",
];

/// The prefix of a task id of `kind`, as the real service's:
/// `i2v-`, `vt-`, `i2is-`.
pub fn id_prefix(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::ImageToVideo => "i2v-",
        TaskKind::VideoTranslate => "vt-",
        TaskKind::ImageGenerate => "i2is-",
    }
}

/// How the service behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// How long tasks take.
    pub timing: Timing,
    /// Tasks held; past this the oldest finished ones are forgotten.
    pub max_tasks: usize,
    /// The service's address, which result URLs start with.
    pub base_url: String,
    /// Whether callbacks may go to any host, not only loopback.
    pub callbacks_to_any_host: bool,
    /// Result files stop being served this many seconds after their task
    /// ends (none: for as long as the task is held).
    pub media_ttl_secs: Option<u64>,
    /// The faults injected at start.
    pub faults: Faults,
    /// Where its randomness starts.
    pub seed: u64,
}

/// A callback fallen due: where to, and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct DueCallback {
    /// The address the submit gave.
    pub url: String,
    /// The body: the task as it ended.
    pub body: Callback,
}

/// What the faults do to one call: every driver carries it out alike.
#[derive(Debug, Clone, PartialEq)]
pub struct Injected {
    /// Milliseconds the answer is held back.
    pub latency_ms: u64,
    /// The refusal answered instead of carrying the call out (a fault that
    /// means the service did no work).
    pub instead: Option<Refusal>,
    /// What becomes of the answer once the call is carried out (a fault
    /// that means the work was done and the answer lost).
    pub afterwards: Option<Spoilt>,
}

/// An answer spoilt after the work was done.
#[derive(Debug, Clone, PartialEq)]
pub enum Spoilt {
    /// Refused instead (HTTP 500).
    Refused(Refusal),
    /// The connection dropped mid-answer.
    Dropped,
    /// A body cut short: not JSON ([`calls::MALFORMED_BODY`]).
    Malformed,
}

/// Why a result file is not served any more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gone {
    /// The URL names no task the service holds.
    UnknownTask,
    /// The task ended longer than the TTL ago.
    Expired {
        /// The TTL, in seconds.
        ttl_seconds: u64,
    },
}

impl std::fmt::Display for Gone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Gone::UnknownTask => f.write_str("No such media file: its task is not known here"),
            Gone::Expired { ttl_seconds } => write!(
                f,
                "This result was removed {ttl_seconds} s after its task ended (--media-ttl)"
            ),
        }
    }
}

/// The service: its tasks, its faults, its randomness.
#[derive(Debug, Clone)]
pub struct ServiceModel {
    settings: Settings,
    store: store::Store,
    faults: Faults,
    rng: rng::Rng,
    /// Callbacks not sent yet: when each falls due, and for which task.
    pending_callbacks: Vec<(u64, TaskKind, String)>,
    /// How the next tasks made end, whatever their requests say (a test's
    /// choice), first first.
    next_outcomes: std::collections::VecDeque<Outcome>,
}

impl ServiceModel {
    /// A service with `settings`, its faults as given (a driver checks
    /// them with [`Faults::check`] where they come in).
    pub fn new(settings: Settings) -> ServiceModel {
        ServiceModel {
            store: store::Store::new(settings.max_tasks),
            faults: settings.faults.clone(),
            rng: rng::Rng::new(settings.seed),
            pending_callbacks: Vec::new(),
            next_outcomes: std::collections::VecDeque::new(),
            settings,
        }
    }

    /// How it behaves.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The faults injected now.
    pub fn faults(&self) -> &Faults {
        &self.faults
    }

    /// Inject `faults` from now on, or why they cannot be.
    pub fn set_faults(&mut self, faults: Faults) -> Result<(), String> {
        faults.check()?;
        self.faults = faults;
        Ok(())
    }

    /// What the faults do to the next `/v1` call (counted against their limit).
    pub fn inject(&mut self) -> Injected {
        let faults = self.faults.take();
        let (instead, afterwards) = match faults.pick(self.rng.unit()) {
            None => (None, None),
            Some(Fault::RateLimited) => (Some(Refusal::RateLimited(faults.retry_after_secs)), None),
            Some(Fault::Unavailable) => (Some(Refusal::Unavailable), None),
            Some(Fault::Business) => (Some(Refusal::Busy), None),
            Some(Fault::ServerError) => (None, Some(Spoilt::Refused(Refusal::ServerError))),
            Some(Fault::Drop) => (None, Some(Spoilt::Dropped)),
            Some(Fault::Malformed) => (None, Some(Spoilt::Malformed)),
        };
        Injected {
            latency_ms: faults.latency_ms,
            instead,
            afterwards,
        }
    }

    /// Check a submit at `now` by the contract's rules and plan its tasks;
    /// the refusal otherwise, with nothing made.
    pub fn accept(&self, request: Request, now: u64) -> Result<Accepted, Refusal> {
        let unix_seconds = i64::try_from(now / 1_000).unwrap_or(i64::MAX);
        submit::accept(request, unix_seconds, self.settings.callbacks_to_any_host)
    }

    /// Make the tasks `accepted` plans, at `now`: what the submit answers.
    pub fn create(&mut self, accepted: Accepted, now: u64) -> Created {
        let kind = accepted.kind();
        let mut made = Vec::new();
        for detail in accepted.tasks {
            let id = format!("{}{:032x}", id_prefix(detail.kind()), self.rng.next_u128());
            let schedule = Schedule::new(now, self.settings.timing, self.rng.unit());
            if accepted.callback.is_some() {
                self.pending_callbacks
                    .push((schedule.ends, detail.kind(), id.clone()));
            }
            let language = match &detail {
                Detail::VideoTranslate { language, .. } => Some(language.clone()),
                _ => None,
            };
            let outcome = self
                .next_outcomes
                .pop_front()
                .unwrap_or_else(|| accepted.outcome.clone());
            self.store.insert(
                Task {
                    id: id.clone(),
                    schedule,
                    outcome,
                    base_url: self.settings.base_url.clone(),
                    detail,
                    callback_url: accepted.callback.clone(),
                },
                now,
            );
            made.push((id, language));
        }
        match kind {
            TaskKind::VideoTranslate => Created::Translations(
                made.into_iter()
                    .map(|(task_id, language)| crate::TranslationTaskRef {
                        task_id,
                        language: language.unwrap_or_default(),
                    })
                    .collect(),
            ),
            _ => Created::Tasks(crate::TaskIds {
                task_ids: made.into_iter().map(|(id, _)| id).collect(),
            }),
        }
    }

    /// The next task made ends with `outcome`, whatever its request says
    /// (then the one after it, for each call).
    pub fn next_outcome(&mut self, outcome: Outcome) {
        self.next_outcomes.push_back(outcome);
    }

    /// Task `id` of `kind` ends with `outcome`; whether it is held.
    pub fn set_outcome(&mut self, kind: TaskKind, id: &str, outcome: Outcome) -> bool {
        match self.store.get_mut(kind, id) {
            Some(task) => {
                task.outcome = outcome;
                true
            }
            None => false,
        }
    }

    /// A task of `kind` held by the service.
    pub fn task(&self, kind: TaskKind, id: &str) -> Option<&Task> {
        self.store.get(kind, id)
    }

    /// Task `id` of `kind` as a status read finds it at `now`, or the 404.
    pub fn status(&self, kind: TaskKind, id: &str, now: u64) -> Result<AnyTask, Refusal> {
        self.task(kind, id)
            .map(|task| render::render(task, now))
            .ok_or_else(|| Refusal::NotFound(format!("task_id: no {kind} task `{id}`")))
    }

    /// How many tasks are held.
    pub fn task_count(&self) -> usize {
        self.store.len()
    }

    /// Every task held, oldest first.
    pub fn tasks(&self) -> impl Iterator<Item = &Task> {
        self.store.iter()
    }

    /// When the next callback falls due, if one is waiting.
    pub fn next_callback_at(&self) -> Option<u64> {
        self.pending_callbacks.iter().map(|(due, _, _)| *due).min()
    }

    /// The callbacks due by `now`, each once: the task as it ended, to the
    /// address its submit gave.
    pub fn take_due_callbacks(&mut self, now: u64) -> Vec<DueCallback> {
        let (due, waiting): (Vec<_>, Vec<_>) = self
            .pending_callbacks
            .drain(..)
            .partition(|(at, _, _)| *at <= now);
        self.pending_callbacks = waiting;
        due.into_iter()
            .filter_map(|(_, kind, id)| self.store.get(kind, &id))
            .filter_map(|task| {
                Some(DueCallback {
                    url: task.callback_url.clone()?,
                    body: callback_body(task),
                })
            })
            .collect()
    }

    /// Whether a result file of the `kind` task named `task` is still
    /// served at `now`: always without a TTL; with one, while its task is
    /// held and ended less than the TTL ago.
    pub fn media_served(&self, kind: TaskKind, task: Option<&str>, now: u64) -> Result<(), Gone> {
        let Some(ttl_seconds) = self.settings.media_ttl_secs else {
            return Ok(());
        };
        let task = task
            .and_then(|id| self.store.get(kind, id))
            .ok_or(Gone::UnknownTask)?;
        let removed_at = task
            .schedule
            .ends
            .saturating_add(ttl_seconds.saturating_mul(1_000));
        if now >= removed_at {
            return Err(Gone::Expired { ttl_seconds });
        }
        Ok(())
    }

    /// Forget every task and callback, and the faults set since the start.
    pub fn reset(&mut self) {
        self.store.clear();
        self.pending_callbacks.clear();
        self.next_outcomes.clear();
        self.faults = self.settings.faults.clone();
    }
}

/// The callback body for `task` as it ends.
pub fn callback_body(task: &Task) -> Callback {
    Callback {
        code: SUCCESS_CODE,
        msg: MSG_OK.to_owned(),
        task: render::render(task, task.schedule.ends),
    }
}

#[cfg(test)]
mod tests;
