//! `GET /sandbox/demo`: lets the app served by the sandbox find its token.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;

use crate::state::AppState;

/// What the app needs to talk to this sandbox with no set-up.
#[derive(Debug, Clone, Serialize)]
pub struct DemoSettings {
    /// A token the sandbox accepts.
    pub token: String,
}

/// Handler: the first token, or 404 when the sandbox runs with `--private`.
pub async fn demo_settings(State(app): State<AppState>) -> Result<Json<DemoSettings>, StatusCode> {
    let token = app.config.tokens.first().filter(|_| !app.config.private);
    token
        .map(|token| {
            Json(DemoSettings {
                token: token.clone(),
            })
        })
        .ok_or(StatusCode::NOT_FOUND)
}
