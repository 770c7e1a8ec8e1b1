//! `POST /v1/image_to_video`.

use axum::extract::{Path, State};
use axum::response::Response;
use axum::Json;
use media_gen_api::{
    defaults, validate_image_to_video, Context, Envelope, ImageToVideoRequest, TaskIds, TaskKind,
};

use super::{base_url, callback_target, prompt_outcome, refusal, with_inputs, NewTasks};
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::render::DEFAULT_ASPECT;
use crate::state::AppState;
use crate::store::Detail;

/// Validate, then make one task per video (`generate_count`, default 1).
pub async fn submit(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<ImageToVideoRequest>,
) -> Result<Json<Envelope<TaskIds>>, ApiError> {
    if let Some(message) = refusal(&validate_image_to_video(&request, &Context::default())) {
        return Err(ApiError::InvalidParameter(message));
    }
    let (Some(resolution), Some(duration)) = (request.aspect_resolution, request.duration) else {
        return Err(ApiError::InvalidParameter(
            "aspect_resolution and duration are required".into(),
        ));
    };
    let tasks = NewTasks {
        callback: callback_target(&app, request.callback_url.as_deref())?,
        base_url: base_url(&app),
        app: &app,
    };
    let detail = Detail::ImageToVideo {
        aspect: request.aspect_ratio.unwrap_or(DEFAULT_ASPECT),
        resolution,
        duration,
    };
    let outcome = with_inputs(
        &app,
        &request.media_inputs(),
        prompt_outcome(&request.prompt, "video"),
    )
    .await;
    let count = request
        .generate_count
        .unwrap_or(defaults::IMAGE_TO_VIDEO_COUNT);
    let task_ids = (0..count)
        .map(|_| tasks.create(detail.clone(), outcome.clone()))
        .collect();
    Ok(Json(Envelope::success("ok", TaskIds { task_ids })))
}

/// `GET /v1/image_to_video/{task_id}`.
pub async fn status(
    State(app): State<AppState>,
    Path(task_id): Path<String>,
) -> Result<Response, ApiError> {
    super::status(TaskKind::ImageToVideo, &app, &task_id)
}
