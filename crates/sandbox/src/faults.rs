//! Fault injection for `/v1/*`: set by flags at start, read and changed at
//! run time through `GET`/`PUT /sandbox/faults`.
//!
//! Faults that mean "the service did no work" happen before the endpoint runs:
//! HTTP 429 (with `Retry-After`), HTTP 503 and a business error in HTTP 200.
//! Faults that mean "the work was done but the answer was lost" happen after
//! it: HTTP 500, a dropped connection and a malformed body. The second group is
//! what makes blindly retried submits create duplicate tasks.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::{Envelope, ErrorEnvelope};
use serde::{Deserialize, Serialize};

use crate::error::{codes, ApiError};

/// Which faults to inject, and how often. Rates are shares of `/v1` requests,
/// 0 to 1, and together at most 1.
#[derive(Debug, Clone, PartialEq, clap::Args, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Faults {
    /// Share of `/v1` requests answered HTTP 500 after the work is done.
    #[arg(long = "fault-500", default_value_t = 0.0, value_name = "RATE")]
    pub http_500: f64,
    /// Share answered HTTP 503 before any work.
    #[arg(long = "fault-503", default_value_t = 0.0, value_name = "RATE")]
    pub http_503: f64,
    /// Share answered HTTP 429 with `Retry-After` before any work.
    #[arg(long = "fault-429", default_value_t = 0.0, value_name = "RATE")]
    pub http_429: f64,
    /// The `Retry-After` seconds sent with injected 429s.
    #[arg(
        long = "fault-retry-after",
        default_value_t = 1,
        value_name = "SECONDS"
    )]
    pub retry_after_secs: u64,
    /// Share whose connection is dropped after the work is done.
    #[arg(long = "fault-drop", default_value_t = 0.0, value_name = "RATE")]
    pub drop_connection: f64,
    /// Share answered HTTP 200 with a truncated, malformed JSON body after the work is done.
    #[arg(long = "fault-malformed", default_value_t = 0.0, value_name = "RATE")]
    pub malformed_body: f64,
    /// Share answered HTTP 200 with a non-zero `code` before any work.
    #[arg(long = "fault-business", default_value_t = 0.0, value_name = "RATE")]
    pub business_error: f64,
    /// Delay added to every `/v1` request, in milliseconds.
    #[arg(long = "fault-latency-ms", default_value_t = 0, value_name = "MS")]
    pub latency_ms: u64,
    /// Apply these faults to the next N `/v1` requests only, then stop (none: no limit).
    #[arg(long = "fault-limit", value_name = "N")]
    pub limit: Option<u64>,
}

impl Default for Faults {
    fn default() -> Self {
        Faults {
            http_500: 0.0,
            http_503: 0.0,
            http_429: 0.0,
            retry_after_secs: 1,
            drop_connection: 0.0,
            malformed_body: 0.0,
            business_error: 0.0,
            latency_ms: 0,
            limit: None,
        }
    }
}

/// The longest latency a fault may add to a request.
pub const MAX_LATENCY_MS: u64 = 60_000;
/// The longest `Retry-After` a fault may ask for.
pub const MAX_RETRY_AFTER_SECS: u64 = 86_400;

/// One request's fate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// HTTP 500, after the work.
    ServerError,
    /// HTTP 503, no work.
    Unavailable,
    /// HTTP 429 with `Retry-After`, no work.
    RateLimited,
    /// Connection dropped, after the work.
    Drop,
    /// Malformed HTTP 200 body, after the work.
    Malformed,
    /// `code != 0` in HTTP 200, no work.
    Business,
}

impl Faults {
    fn rates(&self) -> [(Fault, f64); 6] {
        [
            (Fault::ServerError, self.http_500),
            (Fault::Unavailable, self.http_503),
            (Fault::RateLimited, self.http_429),
            (Fault::Drop, self.drop_connection),
            (Fault::Malformed, self.malformed_body),
            (Fault::Business, self.business_error),
        ]
    }

    /// Check the settings: each rate 0 to 1, together at most 1; the
    /// latency at most [`MAX_LATENCY_MS`] (an unbounded one would hold every
    /// request for ever); `Retry-After` at most a day.
    pub fn check(&self) -> Result<(), String> {
        if self.latency_ms > MAX_LATENCY_MS {
            return Err(format!(
                "latency_ms is at most {MAX_LATENCY_MS} (one minute), not {}",
                self.latency_ms
            ));
        }
        if self.retry_after_secs > MAX_RETRY_AFTER_SECS {
            return Err(format!(
                "retry_after_secs is at most {MAX_RETRY_AFTER_SECS} (a day), not {}",
                self.retry_after_secs
            ));
        }
        let rates = self.rates();
        if let Some((fault, rate)) = rates.iter().find(|(_, rate)| !(0.0..=1.0).contains(rate)) {
            return Err(format!("{fault:?}: a rate is between 0 and 1 (got {rate})"));
        }
        let total: f64 = rates.iter().map(|(_, rate)| rate).sum();
        if total > 1.0 + 1e-9 {
            return Err(format!("the fault rates add up to {total}, more than 1"));
        }
        Ok(())
    }

    /// The fault for a request, given a uniform roll in `[0, 1)`.
    pub fn pick(&self, roll: f64) -> Option<Fault> {
        let mut threshold = 0.0;
        for (fault, rate) in self.rates() {
            threshold += rate;
            if roll < threshold {
                return Some(fault);
            }
        }
        None
    }
}

/// The live fault settings, shared by the middleware and the control endpoint.
pub type SharedFaults = Arc<RwLock<Faults>>;

fn read(shared: &SharedFaults) -> Faults {
    shared
        .read()
        .map(|faults| faults.clone())
        .unwrap_or_default()
}

/// The faults for one request, counting it against `limit`.
fn take(shared: &SharedFaults) -> Faults {
    let Ok(mut faults) = shared.write() else {
        return Faults::default();
    };
    match faults.limit {
        Some(0) => Faults::default(),
        Some(remaining) => {
            faults.limit = Some(remaining - 1);
            faults.clone()
        }
        None => faults.clone(),
    }
}

/// Middleware: apply the current faults to one `/v1` request.
pub async fn inject(State(shared): State<SharedFaults>, request: Request, next: Next) -> Response {
    let faults = take(&shared);
    if faults.latency_ms > 0 {
        tokio::time::sleep(Duration::from_millis(faults.latency_ms)).await;
    }
    match faults.pick(fastrand::f64()) {
        None => next.run(request).await,
        Some(Fault::RateLimited) => ApiError::RateLimited(faults.retry_after_secs).into_response(),
        Some(Fault::Unavailable) => ApiError::Unavailable.into_response(),
        Some(Fault::Business) => {
            let body = ErrorEnvelope::new(
                codes::BUSY,
                "The service is busy (injected by the sandbox's fault settings)",
            );
            (StatusCode::OK, Json(body)).into_response()
        }
        Some(after) => {
            // The work happens; only the answer is lost.
            let _ = next.run(request).await;
            match after {
                Fault::ServerError => ApiError::ServerError.into_response(),
                Fault::Malformed => (
                    StatusCode::OK,
                    [(header::CONTENT_TYPE, "application/json")],
                    r#"{"code":0,"msg":"ok","data":{"task_ids":["#,
                )
                    .into_response(),
                _ => dropped_connection(),
            }
        }
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
pub async fn get_faults(State(shared): State<SharedFaults>) -> Json<Envelope<Faults>> {
    Json(Envelope::success("ok", read(&shared)))
}

/// `PUT /sandbox/faults`: replace the settings (fields left out are reset to none).
pub async fn put_faults(
    State(shared): State<SharedFaults>,
    crate::body::JsonBody(faults): crate::body::JsonBody<Faults>,
) -> Result<Json<Envelope<Faults>>, ApiError> {
    faults.check().map_err(ApiError::InvalidParameter)?;
    if let Ok(mut current) = shared.write() {
        *current = faults.clone();
    }
    Ok(Json(Envelope::success("ok", faults)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_faults_by_cumulative_rate() {
        let faults = Faults {
            http_500: 0.1,
            http_429: 0.2,
            ..Faults::default()
        };
        assert_eq!(faults.pick(0.05), Some(Fault::ServerError));
        assert_eq!(faults.pick(0.15), Some(Fault::RateLimited));
        assert_eq!(faults.pick(0.29), Some(Fault::RateLimited));
        assert_eq!(faults.pick(0.31), None);
        assert_eq!(Faults::default().pick(0.0), None);
    }

    #[test]
    fn a_limit_counts_requests_down_then_stops() {
        let shared: SharedFaults = Arc::new(RwLock::new(Faults {
            http_503: 1.0,
            limit: Some(2),
            ..Faults::default()
        }));
        assert_eq!(take(&shared).http_503, 1.0);
        assert_eq!(take(&shared).http_503, 1.0);
        assert_eq!(take(&shared), Faults::default());
        assert_eq!(read(&shared).limit, Some(0));
    }

    #[test]
    fn latency_and_retry_after_are_bounded() {
        let latency = |latency_ms| {
            Faults {
                latency_ms,
                ..Faults::default()
            }
            .check()
        };
        assert!(latency(MAX_LATENCY_MS).is_ok());
        assert_eq!(
            latency(u64::MAX),
            Err(format!(
                "latency_ms is at most 60000 (one minute), not {}",
                u64::MAX
            ))
        );
        assert!(Faults {
            retry_after_secs: u64::MAX,
            ..Faults::default()
        }
        .check()
        .is_err());
    }

    #[test]
    fn rates_are_checked() {
        assert!(Faults::default().check().is_ok());
        assert!(Faults {
            http_500: 1.5,
            ..Faults::default()
        }
        .check()
        .is_err());
        assert!(Faults {
            http_500: -0.1,
            ..Faults::default()
        }
        .check()
        .is_err());
        assert!(Faults {
            http_500: 0.6,
            drop_connection: 0.6,
            ..Faults::default()
        }
        .check()
        .is_err());
        assert!(Faults {
            http_500: 0.5,
            drop_connection: 0.5,
            ..Faults::default()
        }
        .check()
        .is_ok());
    }
}
