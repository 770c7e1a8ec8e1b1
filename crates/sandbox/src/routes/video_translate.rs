//! `POST /v1/video_translate`.

use axum::extract::{Path, State};
use axum::response::Response;
use media_gen_api::{Request, TaskKind, VideoTranslateRequest};

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::state::AppState;

/// One task per language (the languages checked against the model's list).
pub async fn submit(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<VideoTranslateRequest>,
) -> Result<Response, ApiError> {
    super::submit(&app, Request::VideoTranslate(request))
        .await
        .map(super::created)
}

/// `GET /v1/video_translate/{task_id}`.
pub async fn status(
    State(app): State<AppState>,
    Path(task_id): Path<String>,
) -> Result<Response, ApiError> {
    super::status(TaskKind::VideoTranslate, &app, &task_id)
}
