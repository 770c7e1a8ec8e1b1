//! `POST /v1/video_translate`.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::{Path, State};
use axum::response::Response;
use axum::Json;
use media_gen_api::{
    defaults, predicted_name, validate_video_translate, Context, Envelope, TaskKind,
    TranslationTaskRef, VideoTranslateRequest,
};

use super::languages::LANGUAGES;
use super::{base_url, callback_target, refusal, NewTasks};
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::lifecycle::Outcome;
use crate::state::AppState;
use crate::store::Detail;

/// What a video URL contains to make its tasks fail.
pub const VIDEO_FAIL_TRIGGER: &str = "fail";

/// Validate (languages against the sandbox's list), then make one task per language.
pub async fn submit(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<VideoTranslateRequest>,
) -> Result<Json<Envelope<Vec<TranslationTaskRef>>>, ApiError> {
    let context = Context {
        languages: Some(LANGUAGES.iter().map(|name| (*name).to_owned()).collect()),
        ..Context::default()
    };
    if let Some(message) = refusal(&validate_video_translate(&request, &context)) {
        return Err(ApiError::InvalidParameter(message));
    }
    let tasks = NewTasks {
        callback: callback_target(&app, request.callback_url.as_deref())?,
        base_url: base_url(&app),
        app: &app,
    };
    let outcome = if request.video_url.contains(VIDEO_FAIL_TRIGGER) {
        Outcome::Failure(format!(
            "The source video could not be read: its URL contains \"{VIDEO_FAIL_TRIGGER}\", the sandbox's failure trigger"
        ))
    } else {
        super::with_inputs(&app, &request.media_inputs(), Outcome::Success).await
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or_default();
    let caption = request.enable_caption.unwrap_or(defaults::ENABLE_CAPTION);
    let refs = request
        .target_languages
        .iter()
        .map(|language| {
            let detail = Detail::VideoTranslate {
                language: language.clone(),
                name: predicted_name(language, request.name.as_deref(), now),
                caption,
            };
            TranslationTaskRef {
                task_id: tasks.create(detail, outcome.clone()),
                language: language.clone(),
            }
        })
        .collect();
    Ok(Json(Envelope::success("ok", refs)))
}

/// `GET /v1/video_translate/{task_id}`.
pub async fn status(
    State(app): State<AppState>,
    Path(task_id): Path<String>,
) -> Result<Response, ApiError> {
    super::status(TaskKind::VideoTranslate, &app, &task_id)
}
