//! `GET /sandbox/demo`: lets the app served by the sandbox find its token.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;

/// What the app needs to talk to this sandbox with no set-up.
#[derive(Debug, Clone, Serialize)]
pub struct DemoSettings {
    /// A token the sandbox accepts.
    pub token: String,
}

/// Handler: the demo settings, or 404 when the sandbox runs with `--private`.
pub async fn demo_settings(
    State(settings): State<Option<DemoSettings>>,
) -> Result<Json<DemoSettings>, StatusCode> {
    settings.map(Json).ok_or(StatusCode::NOT_FOUND)
}
