//! `GET /sandbox/media/...`: the results tasks point at.
//!
//! Where each lives is the service model's to say
//! (`media_gen_api::service::media`); the bytes are `media-gen-samples`':
//! two short sample videos (16:9 and 9:16) and images drawn at the pixel
//! size the request's quality and ratio call for, each encoded once here.

pub(crate) mod image_cache;
mod retention;

use retention::MediaQuery;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use media_gen_api::{ImageQuality, ImageRatio, TaskKind};

use media_gen_api::service::media::parse_ratio;

use crate::state::AppState;

fn file_response(content_type: &'static str, bytes: impl Into<axum::body::Body>) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        bytes.into(),
    )
        .into_response()
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "No such media file").into_response()
}

fn removed(app: &AppState, kind: TaskKind, query: &MediaQuery) -> Option<Response> {
    retention::removed(app, kind, query)
}

/// `GET /sandbox/media/video/{landscape|portrait}.{mp4|webp}?task=…`
pub async fn video(
    State(app): State<AppState>,
    Path(name): Path<String>,
    Query(query): Query<MediaQuery>,
) -> Response {
    removed(&app, TaskKind::ImageToVideo, &query).unwrap_or_else(|| video_file(&name))
}

fn video_file(name: &str) -> Response {
    media_gen_samples::video(name).map_or_else(not_found, served)
}

/// A sample file, served.
fn served(file: media_gen_samples::File) -> Response {
    file_response(file.mime, file.bytes.into_owned())
}

async fn image_response(
    app: &AppState,
    quality: &str,
    ratio: Option<ImageRatio>,
    thumbnail: bool,
) -> Response {
    let (Ok(quality), Some(ratio)) = (quality.parse::<ImageQuality>(), ratio) else {
        return not_found();
    };
    match app.images.get(quality, ratio, thumbnail).await {
        Some(bytes) => file_response("image/png", bytes.as_ref().clone()),
        None => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "Could not make the image",
        )
            .into_response(),
    }
}

/// `GET /sandbox/media/image/{quality}/{ratio}.png?task=…`: `2K/9x16.png` is 1152×2048.
pub async fn image(
    State(app): State<AppState>,
    Path((quality, name)): Path<(String, String)>,
    Query(query): Query<MediaQuery>,
) -> Response {
    if let Some(removed) = removed(&app, TaskKind::ImageGenerate, &query) {
        return removed;
    }
    let ratio = name.strip_suffix(".png").and_then(parse_ratio);
    image_response(&app, &quality, ratio, false).await
}

/// `GET /sandbox/media/image/{quality}/{ratio}/thumbnail.png?task=…`: 256 pixels on the long side.
pub async fn image_thumbnail(
    State(app): State<AppState>,
    Path((quality, ratio)): Path<(String, String)>,
    Query(query): Query<MediaQuery>,
) -> Response {
    if let Some(removed) = removed(&app, TaskKind::ImageGenerate, &query) {
        return removed;
    }
    image_response(&app, &quality, parse_ratio(&ratio), true).await
}

/// `GET /sandbox/media/translated/{language}/{name}.{mp4|ass}?task=…`: the
/// video named by the naming rule, and its subtitles.
pub async fn translated(
    State(app): State<AppState>,
    Path((language, file_name)): Path<(String, String)>,
    Query(query): Query<MediaQuery>,
) -> Response {
    removed(&app, TaskKind::VideoTranslate, &query)
        .unwrap_or_else(|| translated_file(&language, &file_name))
}

fn translated_file(language: &str, file_name: &str) -> Response {
    media_gen_samples::translated(language, file_name).map_or_else(not_found, served)
}
