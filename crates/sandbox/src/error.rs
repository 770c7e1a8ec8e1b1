//! Failures the sandbox answers with, as the error envelope `{code, msg}`.
//!
//! The interface document leaves HTTP statuses and codes other than 400 and
//! `100001` open; the choices are listed in this crate's README.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::ErrorEnvelope;

/// A request the sandbox refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// No `Authorization: Bearer` header, or a token the sandbox was not started with.
    Unauthorized,
    /// No endpoint at this path and method.
    NotFound,
}

impl ApiError {
    /// The envelope's `code` for this failure.
    pub fn code(&self) -> i64 {
        match self {
            ApiError::Unauthorized => 100002,
            ApiError::NotFound => 100004,
        }
    }

    /// The HTTP status for this failure.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::NotFound => StatusCode::NOT_FOUND,
        }
    }

    /// The envelope's `msg`, written for a person.
    pub fn message(&self) -> &'static str {
        match self {
            ApiError::Unauthorized => {
                "Authorization: send the header `Authorization: Bearer <token>` with a token this sandbox accepts"
            }
            ApiError::NotFound => "No such endpoint: see the interface document for the paths under /v1",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorEnvelope::new(self.code(), self.message());
        (self.status(), Json(body)).into_response()
    }
}
