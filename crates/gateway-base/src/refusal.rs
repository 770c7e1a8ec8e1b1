//! The gateway's own answers: the service's error envelope, with the
//! status and the code the sandbox uses for the same refusal.

use std::borrow::Cow;
use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::{error_codes, ErrorEnvelope};

/// A request the gateway answers itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not one of the documented calls (or not an address the gateway serves).
    NotFound,
    /// The body is over its limit (bytes).
    BodyTooLarge(usize),
    /// The body did not arrive in time.
    BodyTimeout,
    /// Over the visitor's request budget; back after this long.
    TooManyRequests(Duration),
    /// Over the visitor's budget of tasks; back after this long.
    TooManyTasks(Duration),
    /// No service is configured to forward to.
    NoUpstream,
    /// The service could not be reached, or its answer was not usable.
    BadGateway,
    /// The service did not answer in time.
    GatewayTimeout,
    /// Something the gateway itself relies on (the relay's Redis) did not
    /// answer: try again.
    Unavailable,
    /// A request of the gateway's own (a callback, an event stream) that
    /// does not fit: what is wrong, naming the field.
    Invalid(String),
    /// Not now, without it being anyone's fault (a callback for a task
    /// read a moment ago): try again after this long.
    RetryLater(Duration),
    /// This visitor holds as many event streams as one may; back after
    /// this long.
    TooManyStreams(Duration),
    /// The gateway holds as many event streams as it may; back after this
    /// long.
    StreamsFull(Duration),
    /// The gateway needs a person (`--access keys`) and the call names none.
    SignInNeeded,
    /// The call's access key is not one the gateway knows (mistyped or revoked).
    WrongKey,
    /// This address sent too many wrong keys; back after this long.
    TooManyGuesses(Duration),
    /// The person's tasks of the day (this many) are used; more after this long.
    TasksOfTheDayUsed(u32, Duration),
    /// A call that changes something, sent by another site's page.
    CrossSite,
    /// What was asked for is gone for good (what is wrong, said).
    Gone(String),
    /// A submit's body the contract cannot read: not JSON, or a field of
    /// the wrong shape (named).
    Body(media_gen_api::submit_body::BodyProblem),
}

impl Refusal {
    fn status_code_message(&self) -> (StatusCode, i64, Cow<'_, str>) {
        let (status, code, message): (StatusCode, i64, &str) = match self {
            Refusal::BodyTooLarge(limit) => {
                return (
                    StatusCode::PAYLOAD_TOO_LARGE,
                    error_codes::BODY_TOO_LARGE,
                    Cow::Owned(format!("The request body is over {}", size_text(*limit))),
                )
            }
            Refusal::Body(problem) => {
                return (
                    StatusCode::BAD_REQUEST,
                    problem.code(),
                    Cow::Borrowed(problem.message()),
                )
            }
            Refusal::NotFound => (
                StatusCode::NOT_FOUND,
                error_codes::NOT_FOUND,
                "Not found: this gateway forwards only the service's documented calls",
            ),
            Refusal::BodyTimeout => (
                StatusCode::REQUEST_TIMEOUT,
                error_codes::MALFORMED_BODY,
                "The request body did not arrive in time",
            ),
            Refusal::TooManyRequests(_) => (
                StatusCode::TOO_MANY_REQUESTS,
                error_codes::RATE_LIMITED,
                "Too many requests from this address; try again after Retry-After seconds",
            ),
            Refusal::TooManyTasks(_) => (
                StatusCode::TOO_MANY_REQUESTS,
                error_codes::RATE_LIMITED,
                "Too many tasks submitted from this address; try again after Retry-After seconds",
            ),
            Refusal::NoUpstream => (
                StatusCode::SERVICE_UNAVAILABLE,
                error_codes::UNAVAILABLE,
                "This gateway has no service to forward to",
            ),
            Refusal::BadGateway => (
                StatusCode::BAD_GATEWAY,
                error_codes::UPSTREAM,
                "The service could not be reached or gave no usable answer",
            ),
            Refusal::GatewayTimeout => (
                StatusCode::GATEWAY_TIMEOUT,
                error_codes::UPSTREAM,
                "The service did not answer in time",
            ),
            Refusal::Unavailable => (
                StatusCode::SERVICE_UNAVAILABLE,
                error_codes::UNAVAILABLE,
                "This gateway cannot take it now; try again",
            ),
            Refusal::Gone(message) => (
                StatusCode::GONE,
                error_codes::NOT_FOUND,
                message.as_str(),
            ),
            Refusal::Invalid(message) => (
                StatusCode::BAD_REQUEST,
                error_codes::INVALID_PARAMETER,
                message.as_str(),
            ),
            Refusal::RetryLater(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                error_codes::UNAVAILABLE,
                "Not now; try again after Retry-After seconds",
            ),
            Refusal::TooManyStreams(_) => (
                StatusCode::TOO_MANY_REQUESTS,
                error_codes::RATE_LIMITED,
                "Too many event streams from this address (a page needs one); try again after Retry-After seconds",
            ),
            Refusal::CrossSite => (
                StatusCode::FORBIDDEN,
                error_codes::UNAUTHORIZED,
                "Refused: this call came from another site's page",
            ),
            Refusal::SignInNeeded => (
                StatusCode::UNAUTHORIZED,
                error_codes::UNAUTHORIZED,
                "Sign in: this gateway needs an access key (Authorization: Bearer mgk_…)",
            ),
            Refusal::WrongKey => (
                StatusCode::UNAUTHORIZED,
                error_codes::UNAUTHORIZED,
                "This access key is not valid: mistyped, or revoked by the owner",
            ),
            Refusal::TooManyGuesses(_) => (
                StatusCode::TOO_MANY_REQUESTS,
                error_codes::RATE_LIMITED,
                "Too many wrong access keys from this address; try again after Retry-After seconds",
            ),
            Refusal::TasksOfTheDayUsed(per_day, _) => {
                return (
                    StatusCode::TOO_MANY_REQUESTS,
                    error_codes::RATE_LIMITED,
                    Cow::Owned(format!(
                        "Your {per_day} tasks of today are used; more from midnight UTC (after Retry-After seconds)"
                    )),
                )
            }
            Refusal::StreamsFull(_) => (
                StatusCode::TOO_MANY_REQUESTS,
                error_codes::RATE_LIMITED,
                "This gateway holds as many event streams as it can; try again after Retry-After seconds",
            ),
        };
        (status, code, Cow::Borrowed(message))
    }
}

/// A byte limit as a person reads it: "1 MiB", "64 KiB", "100 bytes".
fn size_text(bytes: usize) -> String {
    if bytes >= 1024 * 1024 && bytes.is_multiple_of(1024 * 1024) {
        format!("{} MiB", bytes / (1024 * 1024))
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

/// Whole seconds to wait, at least one: `Retry-After` takes integers.
pub fn retry_after_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (status, code, message) = self.status_code_message();
        let mut response =
            (status, Json(ErrorEnvelope::new(code, message.into_owned()))).into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"media-gen\""),
            );
        }
        if let Refusal::TooManyRequests(wait)
        | Refusal::TooManyTasks(wait)
        | Refusal::RetryLater(wait)
        | Refusal::TooManyStreams(wait)
        | Refusal::StreamsFull(wait)
        | Refusal::TooManyGuesses(wait)
        | Refusal::TasksOfTheDayUsed(_, wait) = self
        {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(retry_after_seconds(wait)),
            );
        }
        response
    }
}

/// Why reading a body of at most `limit` bytes failed: too large, or not
/// in time.
pub fn body_refusal(error: &axum::Error, limit: usize) -> Refusal {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(error) = source {
        if error.is::<http_body_util::LengthLimitError>() {
            return Refusal::BodyTooLarge(limit);
        }
        source = error.source();
    }
    Refusal::BodyTimeout
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_refusal_names_its_own_limit() {
        assert_eq!(size_text(1024 * 1024), "1 MiB");
        assert_eq!(size_text(64 * 1024), "64 KiB");
        assert_eq!(size_text(100), "100 bytes");
        let (_, _, message) = Refusal::BodyTooLarge(64 * 1024).status_code_message();
        assert_eq!(message, "The request body is over 64 KiB");
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(retry_after_seconds(Duration::ZERO), 1);
        assert_eq!(retry_after_seconds(Duration::from_millis(10)), 1);
        assert_eq!(retry_after_seconds(Duration::from_secs(2)), 2);
        assert_eq!(retry_after_seconds(Duration::from_millis(2_500)), 3);
    }
}
