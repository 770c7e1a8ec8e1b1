//! `POST /v1/image_to_video`.

use axum::extract::{Path, State};
use axum::response::Response;
use media_gen_api::{ImageToVideoRequest, Request, TaskKind};

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::state::AppState;

/// One task per video (`generate_count`, default 1).
pub async fn submit(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<ImageToVideoRequest>,
) -> Result<Response, ApiError> {
    super::submit(&app, Request::ImageToVideo(request))
        .await
        .map(super::created)
}

/// `GET /v1/image_to_video/{task_id}`.
pub async fn status(
    State(app): State<AppState>,
    Path(task_id): Path<String>,
) -> Result<Response, ApiError> {
    super::status(TaskKind::ImageToVideo, &app, &task_id)
}
