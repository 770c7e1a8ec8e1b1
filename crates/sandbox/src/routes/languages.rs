//! `GET /v1/video_translate/target_languages`.

use axum::Json;
use media_gen_api::envelope::MSG_SUCCESS;
use media_gen_api::TargetLanguages;

/// The languages the sandbox offers: the model's.
pub use media_gen_api::service::TARGET_LANGUAGES as LANGUAGES;

/// Handler: the language list in the documented envelope (`msg` is `success`).
pub async fn target_languages() -> Json<TargetLanguages> {
    let names = LANGUAGES.iter().map(|name| (*name).to_owned()).collect();
    Json(TargetLanguages::success(MSG_SUCCESS, names))
}
