//! `/healthz`: the process answers. `/readyz`: the service upstream answers
//! too (any HTTP answer to the language list within two seconds), and with
//! `--redis` Redis does, so a balancer sends no visitors to a gateway that
//! cannot reach them; the answer is kept a few seconds.

use std::time::{Duration, Instant};

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

/// How long a readiness answer is reused: `/readyz` asked many times a
/// second costs the service one call every few seconds, not one each.
pub const READY_KEPT: Duration = Duration::from_secs(5);

/// A readiness answer, and when it was found.
pub type Readiness = (Instant, Result<(), &'static str>);

/// `GET /readyz`: ready when the service answers and, with `--redis`,
/// Redis does too (else the budgets are counted here and submits go out
/// unrelayed: serving, but not as the deployment means to).
pub async fn ready(State(gateway): State<Gateway>) -> Response {
    let kept = *gateway.readiness.lock().unwrap_or_else(|e| e.into_inner());
    let verdict = match kept {
        Some((found, verdict)) if found.elapsed() < READY_KEPT => verdict,
        _ => {
            let verdict = check(&gateway).await;
            *gateway.readiness.lock().unwrap_or_else(|e| e.into_inner()) =
                Some((Instant::now(), verdict));
            verdict
        }
    };
    match verdict {
        Ok(()) => Json(serde_json::json!({ "status": "ready" })).into_response(),
        Err(status) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(serde_json::json!({ "status": status })),
        )
            .into_response(),
    }
}

async fn check(gateway: &Gateway) -> Result<(), &'static str> {
    let Some(upstream) = &gateway.upstream else {
        return Err("no upstream configured");
    };
    if let Some(redis) = &gateway.redis {
        if !redis.answers() {
            return Err("redis does not answer");
        }
    }
    gateway
        .http
        .call(
            Method::GET,
            &format!("{}{TARGET_LANGUAGES_PATH}", upstream.base),
            &upstream.authorization,
            None,
            READY_TIMEOUT,
            MAX_ANSWER_BYTES,
        )
        .await
        .map(|_| ())
        .map_err(|_| "the service does not answer")
}
