//! The service's refusals as the error envelope `{code, msg}`, with the
//! HTTP status and code chosen where the interface document leaves them
//! open. The sandbox answers them over HTTP, the test service in the page.

use crate::error_codes as codes;
use crate::ErrorEnvelope;

/// A call the service refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Invalid parameters; the message lists each field and rule.
    InvalidParameter(String),
    /// Invalid parameters of an image generation, answered as the document
    /// shows for it: HTTP 200 with a non-zero `code`.
    InvalidParameterInOk(String),
    /// No `Authorization: Bearer` header, or a token the service was not started with.
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
    /// Injected: a business error inside HTTP 200.
    Busy,
}

impl Refusal {
    /// The HTTP status and the envelope's code.
    pub fn status_and_code(&self) -> (u16, i64) {
        match self {
            Refusal::InvalidParameter(_) => (400, codes::INVALID_PARAMETER),
            Refusal::InvalidParameterInOk(_) => (200, codes::INVALID_PARAMETER),
            Refusal::Unauthorized => (401, codes::UNAUTHORIZED),
            Refusal::MalformedBody(_) => (400, codes::MALFORMED_BODY),
            Refusal::NotFound(_) => (404, codes::NOT_FOUND),
            Refusal::BodyTooLarge => (413, codes::BODY_TOO_LARGE),
            Refusal::MethodNotAllowed => (405, codes::NOT_FOUND),
            Refusal::RateLimited(_) => (429, codes::RATE_LIMITED),
            Refusal::ServerError => (500, codes::SERVER_ERROR),
            Refusal::Unavailable => (503, codes::UNAVAILABLE),
            Refusal::Busy => (200, codes::BUSY),
        }
    }

    /// The envelope's `msg`, written for a person.
    pub fn message(&self) -> String {
        match self {
            Refusal::InvalidParameter(detail)
            | Refusal::InvalidParameterInOk(detail)
            | Refusal::MalformedBody(detail)
            | Refusal::NotFound(detail) => detail.clone(),
            Refusal::Unauthorized => {
                "Authorization: send the header `Authorization: Bearer <token>` with a token this sandbox accepts"
                    .to_owned()
            }
            Refusal::BodyTooLarge => "The request body is over the 1 MiB limit".to_owned(),
            Refusal::MethodNotAllowed => {
                "Method not allowed: submits are POST, status reads and the language list are GET"
                    .to_owned()
            }
            Refusal::RateLimited(seconds) => format!("Too many requests: try again in {seconds} s"),
            Refusal::ServerError => {
                "Internal error (injected by the sandbox's fault settings)".to_owned()
            }
            Refusal::Unavailable => {
                "Service unavailable (injected by the sandbox's fault settings)".to_owned()
            }
            Refusal::Busy => {
                "The service is busy (injected by the sandbox's fault settings)".to_owned()
            }
        }
    }

    /// The error envelope of this refusal.
    pub fn envelope(&self) -> ErrorEnvelope {
        ErrorEnvelope::new(self.status_and_code().1, self.message())
    }

    /// The seconds to wait before calling again, for a 429.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Refusal::RateLimited(seconds) => Some(*seconds),
            _ => None,
        }
    }
}
