//! The `/v1` endpoints: each reads its call, hands it to the service model
//! and answers what the model decided. What a driver adds is I/O only:
//! fetching a submit's inputs (`--fetch-inputs`) and sending callbacks.

pub mod image_generate;
pub mod image_to_video;
pub mod languages;
pub mod video_translate;

use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::service::Created;
use media_gen_api::{AnyTask, Envelope, Request, TaskKind};

use crate::callbacks;
use crate::error::ApiError;
use crate::state::AppState;

/// Submit `request`: checked and planned by the model, its inputs fetched
/// when `--fetch-inputs` asks (a failure fails its tasks), its tasks made,
/// their callbacks scheduled.
pub async fn submit(app: &AppState, request: Request) -> Result<Created, ApiError> {
    let now = app.clock.now();
    let mut accepted = app.with_model(|model| model.accept(request, now))?;
    if let Err(message) = crate::fetch_inputs::fetch_inputs(app, &accepted.inputs()).await {
        accepted.inputs_failed(message);
    }
    let now = app.clock.now();
    let (created, next_callback) = app.with_model(|model| {
        let created = model.create(accepted, now);
        (created, model.next_callback_at())
    });
    let made = match &created {
        Created::Tasks(ids) => ids.task_ids.len(),
        Created::Translations(refs) => refs.len(),
    };
    app.counters
        .tasks_created
        .fetch_add(made as u64, std::sync::atomic::Ordering::Relaxed);
    if next_callback.is_some() {
        callbacks::send_when_due(app);
    }
    Ok(created)
}

/// A submit's answer in the success envelope.
pub fn created(created: Created) -> Response {
    Json(Envelope::success("ok", created)).into_response()
}

/// `GET /v1/{kind}/{task_id}`: the task as of now, in the success envelope.
pub fn status(kind: TaskKind, app: &AppState, task_id: &str) -> Result<Response, ApiError> {
    app.counters
        .status_reads
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let now = app.clock.now();
    let task = app.with_model(|model| model.status(kind, task_id, now))?;
    let response = match task {
        AnyTask::ImageToVideo(task) => Json(Envelope::success("ok", task)).into_response(),
        AnyTask::VideoTranslate(task) => Json(Envelope::success("ok", task)).into_response(),
        AnyTask::ImageGenerate(task) => Json(Envelope::success("ok", task)).into_response(),
    };
    Ok(response)
}
