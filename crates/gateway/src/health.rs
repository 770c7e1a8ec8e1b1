//! `/healthz`: the process answers. `/readyz`: the service upstream answers
//! too (any HTTP answer to the language list within two seconds), so a
//! balancer sends no visitors to a gateway that cannot reach it.

use std::time::Duration;

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::TARGET_LANGUAGES_PATH;

use crate::forward::MAX_ANSWER_BYTES;
use crate::Gateway;

/// How long the service has to answer a readiness check.
const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// `GET /healthz`.
pub async fn alive() -> Response {
    Json(serde_json::json!({ "status": "alive" })).into_response()
}

/// `GET /readyz`.
pub async fn ready(State(gateway): State<Gateway>) -> Response {
    let Some(upstream) = &gateway.upstream else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(serde_json::json!({ "status": "no upstream configured" })),
        )
            .into_response();
    };
    let answer = gateway
        .http
        .call(
            Method::GET,
            &format!("{}{TARGET_LANGUAGES_PATH}", upstream.base),
            &upstream.authorization,
            None,
            READY_TIMEOUT,
            MAX_ANSWER_BYTES,
        )
        .await;
    match answer {
        Ok(_) => Json(serde_json::json!({ "status": "ready" })).into_response(),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(serde_json::json!({ "status": "the service does not answer" })),
        )
            .into_response(),
    }
}
