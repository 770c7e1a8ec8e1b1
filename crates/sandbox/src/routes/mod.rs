//! The `/v1` endpoints, one file per task kind, and what they share.

pub mod image_generate;
pub mod image_to_video;
pub mod languages;
pub mod video_translate;

use std::time::Instant;

use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::{AnyTask, Envelope, Problems, TaskKind};

use crate::callbacks;
use crate::error::ApiError;
use crate::ids::new_task_id;
use crate::lifecycle::{Outcome, Schedule};
use crate::render::render;
use crate::state::AppState;
use crate::store::{Detail, Task};

/// What a prompt contains to make its tasks fail (image_to_video, image_generate).
pub const PROMPT_FAIL_TRIGGER: &str = "[fail]";

/// The sandbox's public address, for result URLs: `--public-url`, or the
/// address it listens on. Never the request's `Host`, which a client sets
/// at will (`Host: evil.example` would point results elsewhere, and a
/// 300 KB one would be stored with every task).
pub fn base_url(app: &AppState) -> String {
    app.config
        .public_url
        .clone()
        .unwrap_or_else(|| "http://localhost".to_owned())
}

/// The errors among `problems`, one `field: message` each, or `None`.
pub fn refusal(problems: &Problems) -> Option<String> {
    let errors: Vec<String> = problems.errors().map(ToString::to_string).collect();
    (!errors.is_empty()).then(|| errors.join("; "))
}

/// The callback URL, if it is one the sandbox may call.
pub fn callback_target(app: &AppState, url: Option<&str>) -> Result<Option<String>, ApiError> {
    match url.filter(|url| !url.is_empty()) {
        None => Ok(None),
        Some(url) => callbacks::allowed(url, app.config.callbacks_to_any_host)
            .map(|()| Some(url.to_owned()))
            .map_err(ApiError::InvalidParameter),
    }
}

/// The outcome for a prompt: failure when it holds the trigger.
pub fn prompt_outcome(prompt: &str, what: &str) -> Outcome {
    if prompt.contains(PROMPT_FAIL_TRIGGER) {
        Outcome::Failure(format!(
            "The {what} could not be generated: the prompt contains {PROMPT_FAIL_TRIGGER}, the sandbox's failure trigger"
        ))
    } else {
        Outcome::Success
    }
}

/// `otherwise`, unless an input cannot be used (`--fetch-inputs`): then
/// the failure that says which and why.
pub async fn with_inputs(
    app: &AppState,
    inputs: &[media_gen_api::media_inputs::MediaInput<'_>],
    otherwise: Outcome,
) -> Outcome {
    match crate::fetch_inputs::fetch_inputs(app, inputs).await {
        Ok(()) => otherwise,
        Err(message) => Outcome::Failure(message),
    }
}

/// Everything a submit needs to make its tasks.
pub struct NewTasks<'a> {
    /// The sandbox's state.
    pub app: &'a AppState,
    /// Result URLs start with this.
    pub base_url: String,
    /// Where to send each task's callback.
    pub callback: Option<String>,
}

impl NewTasks<'_> {
    /// Make and keep one task; schedule its callback; return its id.
    pub fn create(&self, detail: Detail, outcome: Outcome) -> String {
        let id = new_task_id(detail.kind());
        let schedule = Schedule::new(Instant::now(), self.app.config.timing(), fastrand::f64());
        let task = Task {
            id: id.clone(),
            schedule,
            outcome,
            base_url: self.base_url.clone(),
            detail,
            callback_url: self.callback.clone(),
        };
        if let Some(url) = &self.callback {
            callbacks::schedule(self.app, task.clone(), url.clone());
        }
        self.app.insert(task);
        id
    }
}

/// `GET /v1/{kind}/{task_id}`: the task as of now, in the success envelope.
pub fn status(kind: TaskKind, app: &AppState, task_id: &str) -> Result<Response, ApiError> {
    app.counters
        .status_reads
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let task = app.task(kind, task_id)?;
    let response = match render(&task, Instant::now()) {
        AnyTask::ImageToVideo(task) => Json(Envelope::success("ok", task)).into_response(),
        AnyTask::VideoTranslate(task) => Json(Envelope::success("ok", task)).into_response(),
        AnyTask::ImageGenerate(task) => Json(Envelope::success("ok", task)).into_response(),
    };
    Ok(response)
}
