//! `POST /v1/image_generate`. As the document says, invalid parameters are
//! answered with HTTP 200 and a non-zero `code`.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::{
    defaults, validate_image_generate, Context, Envelope, ErrorEnvelope, ImageGenerateRequest,
    TaskIds, TaskKind,
};

use super::{base_url, callback_target, prompt_outcome, refusal, with_inputs, NewTasks};
use crate::body::JsonBody;
use crate::error::{codes, ApiError};
use crate::state::AppState;
use crate::store::Detail;

/// Validate, then make one task per image (`generate_count`, default 1).
pub async fn submit(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<ImageGenerateRequest>,
) -> Result<Response, ApiError> {
    let checked = match refusal(&validate_image_generate(&request, &Context::default())) {
        Some(message) => Err(message),
        None => {
            callback_target(&app, request.callback_url.as_deref()).map_err(|error| error.message())
        }
    };
    let callback = match checked {
        Ok(callback) => callback,
        Err(message) => {
            let body = ErrorEnvelope::new(codes::INVALID_PARAMETER, message);
            return Ok((StatusCode::OK, Json(body)).into_response());
        }
    };
    let tasks = NewTasks {
        callback,
        base_url: base_url(&app),
        app: &app,
    };
    let detail = Detail::ImageGenerate {
        quality: request.image_quality.unwrap_or(defaults::IMAGE_QUALITY),
        ratio: request.image_ratio.unwrap_or(defaults::IMAGE_RATIO),
    };
    let outcome = with_inputs(
        &app,
        &request.media_inputs(),
        prompt_outcome(&request.prompt, "image"),
    )
    .await;
    let count = request
        .generate_count
        .unwrap_or(defaults::IMAGE_GENERATE_COUNT);
    let task_ids = (0..count)
        .map(|_| tasks.create(detail.clone(), outcome.clone()))
        .collect();
    Ok(Json(Envelope::success("ok", TaskIds { task_ids })).into_response())
}

/// `GET /v1/image_generate/{task_id}`.
pub async fn status(
    State(app): State<AppState>,
    Path(task_id): Path<String>,
) -> Result<Response, ApiError> {
    super::status(TaskKind::ImageGenerate, &app, &task_id)
}
