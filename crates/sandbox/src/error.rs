//! Refusals over HTTP: the service model's [`Refusal`] (its status, code
//! and message are the model's) as an axum answer, with `Retry-After` for
//! a 429.

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// The error codes the sandbox uses, shared with the gateway.
pub use media_gen_api::error_codes as codes;
pub use media_gen_api::service::Refusal;

/// A request the sandbox refuses, answered over HTTP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError(pub Refusal);

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        ApiError(refusal)
    }
}

impl ApiError {
    /// The envelope's `msg`, written for a person.
    pub fn message(&self) -> String {
        self.0.message()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, _) = self.0.status_and_code();
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (status, Json(self.0.envelope())).into_response();
        if let Some(seconds) = self.0.retry_after() {
            if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
                response.headers_mut().insert("retry-after", value);
            }
        }
        response
    }
}
