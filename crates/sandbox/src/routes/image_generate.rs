//! `POST /v1/image_generate`. As the document says, invalid parameters are
//! answered with HTTP 200 and a non-zero `code` (the model's
//! `InvalidParameterInOk`).

use axum::extract::{Path, State};
use axum::response::Response;
use media_gen_api::{ImageGenerateRequest, Request, TaskKind};

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::state::AppState;

/// One task per image (`generate_count`, default 1).
pub async fn submit(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<ImageGenerateRequest>,
) -> Result<Response, ApiError> {
    super::submit(&app, Request::ImageGenerate(request))
        .await
        .map(super::created)
}

/// `GET /v1/image_generate/{task_id}`.
pub async fn status(
    State(app): State<AppState>,
    Path(task_id): Path<String>,
) -> Result<Response, ApiError> {
    super::status(TaskKind::ImageGenerate, &app, &task_id)
}
