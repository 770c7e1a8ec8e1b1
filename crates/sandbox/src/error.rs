//! Refusals as the error envelope `{code, msg}`, with the HTTP status and code
//! chosen where the interface document leaves them open (see the README).

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::ErrorEnvelope;

/// The error codes the sandbox uses, shared with the gateway.
pub use media_gen_api::error_codes as codes;

/// A request the sandbox refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// Invalid parameters; the message lists each field and rule.
    InvalidParameter(String),
    /// No `Authorization: Bearer` header, or a token the sandbox was not started with.
    Unauthorized,
    /// The body is not the JSON the endpoint takes.
    MalformedBody(String),
    /// No such task (of this kind), or no endpoint at this path.
    NotFound(String),
    /// The body is over the limit.
    BodyTooLarge,
    /// The path exists, but not for this method.
    MethodNotAllowed,
    /// Injected: too many requests; come back after this many seconds.
    RateLimited(u64),
    /// Injected: HTTP 500.
    ServerError,
    /// Injected: HTTP 503.
    Unavailable,
}

impl ApiError {
    /// The HTTP status and the envelope's code.
    pub fn status_and_code(&self) -> (StatusCode, i64) {
        match self {
            ApiError::InvalidParameter(_) => (StatusCode::BAD_REQUEST, codes::INVALID_PARAMETER),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, codes::UNAUTHORIZED),
            ApiError::MalformedBody(_) => (StatusCode::BAD_REQUEST, codes::MALFORMED_BODY),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, codes::NOT_FOUND),
            ApiError::BodyTooLarge => (StatusCode::PAYLOAD_TOO_LARGE, codes::BODY_TOO_LARGE),
            ApiError::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, codes::NOT_FOUND),
            ApiError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, codes::RATE_LIMITED),
            ApiError::ServerError => (StatusCode::INTERNAL_SERVER_ERROR, codes::SERVER_ERROR),
            ApiError::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, codes::UNAVAILABLE),
        }
    }

    /// The envelope's `msg`, written for a person.
    pub fn message(&self) -> String {
        match self {
            ApiError::InvalidParameter(detail) | ApiError::MalformedBody(detail) | ApiError::NotFound(detail) => {
                detail.clone()
            }
            ApiError::Unauthorized => {
                "Authorization: send the header `Authorization: Bearer <token>` with a token this sandbox accepts"
                    .to_owned()
            }
            ApiError::BodyTooLarge => "The request body is over the 1 MiB limit".to_owned(),
            ApiError::MethodNotAllowed => {
                "Method not allowed: submits are POST, status reads and the language list are GET".to_owned()
            }
            ApiError::RateLimited(seconds) => format!("Too many requests: try again in {seconds} s"),
            ApiError::ServerError => "Internal error (injected by the sandbox's fault settings)".to_owned(),
            ApiError::Unavailable => {
                "Service unavailable (injected by the sandbox's fault settings)".to_owned()
            }
        }
    }

    /// The error envelope of this refusal.
    pub fn envelope(&self) -> ErrorEnvelope {
        ErrorEnvelope::new(self.status_and_code().1, self.message())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, _) = self.status_and_code();
        let mut response = (status, Json(self.envelope())).into_response();
        if let ApiError::RateLimited(seconds) = self {
            if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
                response.headers_mut().insert("retry-after", value);
            }
        }
        response
    }
}
