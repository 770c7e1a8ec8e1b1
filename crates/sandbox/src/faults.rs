//! Fault injection for `/v1/*`, carried out: what each call suffers is
//! the service model's decision ([`media_gen_api::service::Faults`], set by
//! flags at start, read and changed at run time through `GET`/`PUT
//! /sandbox/faults`); holding the answer back, refusing it, or spoiling it
//! after the work is done is this middleware's.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::service::calls::MALFORMED_BODY;
use media_gen_api::service::{Faults, Spoilt};
use media_gen_api::Envelope;

use crate::error::{ApiError, Refusal};
use crate::state::AppState;

pub use media_gen_api::service::faults::{MAX_LATENCY_MS, MAX_RETRY_AFTER_SECS};

/// Middleware: apply the current faults to one `/v1` request.
pub async fn inject(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let injected = app.with_model(|model| model.inject());
    if injected.latency_ms > 0 {
        tokio::time::sleep(Duration::from_millis(injected.latency_ms)).await;
    }
    if let Some(refusal) = injected.instead {
        return ApiError(refusal).into_response();
    }
    let answer = next.run(request).await;
    match injected.afterwards {
        None => answer,
        // The work happened; only the answer is lost.
        Some(Spoilt::Refused(refusal)) => ApiError(refusal).into_response(),
        Some(Spoilt::Malformed) => (
            axum::http::StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            MALFORMED_BODY,
        )
            .into_response(),
        Some(Spoilt::Dropped) => dropped_connection(),
    }
}

/// A response cut off mid-body: the status line, headers and a few bytes go
/// out, then the connection is closed. (A connection closed before any byte
/// of the answer is retried silently by browsers on reused connections, so it
/// would not show as a failure.)
fn dropped_connection() -> Response {
    // The pause lets the first bytes go out before the connection is cut;
    // sent together, they would be discarded with it.
    let chunks = futures_util::stream::unfold(0u8, |step| async move {
        match step {
            0 => Some((Ok(Bytes::from_static(br#"{"code":0,"msg":"#)), 1)),
            1 => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Some((
                    Err(std::io::Error::other(
                        "connection dropped by fault injection",
                    )),
                    2,
                ))
            }
            _ => None,
        }
    });
    let mut response = Response::new(Body::from_stream(chunks));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response.headers_mut().insert(
        header::CONTENT_LENGTH,
        header::HeaderValue::from_static("64"),
    );
    response
}

/// `GET /sandbox/faults`: the current settings.
pub async fn get_faults(State(app): State<AppState>) -> Json<Envelope<Faults>> {
    Json(Envelope::success(
        "ok",
        app.with_model(|model| model.faults().clone()),
    ))
}

/// `PUT /sandbox/faults`: replace the settings (fields left out are reset to none).
pub async fn put_faults(
    State(app): State<AppState>,
    crate::body::JsonBody(faults): crate::body::JsonBody<Faults>,
) -> Result<Json<Envelope<Faults>>, ApiError> {
    app.with_model(|model| model.set_faults(faults.clone()))
        .map_err(|message| ApiError(Refusal::InvalidParameter(message)))?;
    Ok(Json(Envelope::success("ok", faults)))
}
