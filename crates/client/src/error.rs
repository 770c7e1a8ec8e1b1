//! What can go wrong with a call, in words a person understands.

use media_gen_api::ResponseError;

/// Why a call to the service failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// No answer at all: fetch itself failed.
    #[error(
        "Could not reach the service at {url}. The server may be down or unreachable; \
         or this page's Content-Security-Policy does not list it (connect-src), or the \
         service does not allow requests from this page (CORS): the browser stops both \
         before any answer, and its console names which."
    )]
    Network {
        /// The URL that could not be fetched.
        url: String,
    },
    /// No answer within the per-attempt timeout, or past the overall deadline.
    #[error("The service did not answer in time ({seconds} s).")]
    Timeout {
        /// The limit that was reached, in seconds.
        seconds: u64,
    },
    /// A non-2xx answer, with the error envelope's `code` and `msg` when it had one.
    #[error("{}", http_message(*status, *code, msg.as_deref()))]
    Http {
        /// The HTTP status.
        status: u16,
        /// The envelope's `code`.
        code: Option<i64>,
        /// The envelope's `msg`.
        msg: Option<String>,
    },
    /// HTTP 2xx with a non-zero `code`: the service refused the request.
    #[error("The service refused the request (code {code}): {msg}")]
    Business {
        /// The non-zero `code`.
        code: i64,
        /// The service's `msg`.
        msg: String,
    },
    /// A 2xx answer that is not the documented JSON.
    #[error("The service's answer is not in the documented shape ({detail}).")]
    Shape {
        /// What did not match.
        detail: String,
    },
    /// The caller cancelled the call.
    #[error("The request was cancelled.")]
    Aborted,
}

fn http_message(status: u16, code: Option<i64>, msg: Option<&str>) -> String {
    let hint = match status {
        401 | 403 => " Check the access token in Settings.",
        404 => " The task or endpoint does not exist at this address.",
        408 | 429 => " The service is busy; try again shortly.",
        500..=599 => " The service had a problem; try again shortly.",
        _ => "",
    };
    match (code, msg) {
        (Some(code), Some(msg)) => format!("HTTP {status} (code {code}): {msg}.{hint}"),
        _ => format!("HTTP {status}.{hint}"),
    }
}

impl ClientError {
    /// Whether trying the same call again later could succeed.
    pub fn retryable(&self) -> bool {
        match self {
            ClientError::Network { .. } | ClientError::Timeout { .. } => true,
            ClientError::Http { status, .. } => *status == 408 || *status == 429 || *status >= 500,
            ClientError::Business { .. } | ClientError::Shape { .. } | ClientError::Aborted => {
                false
            }
        }
    }

    /// A stable name for the kind of error: `network`, `timeout`, `http`,
    /// `business`, `shape` or `aborted`.
    pub fn kind(&self) -> &'static str {
        match self {
            ClientError::Network { .. } => "network",
            ClientError::Timeout { .. } => "timeout",
            ClientError::Http { .. } => "http",
            ClientError::Business { .. } => "business",
            ClientError::Shape { .. } => "shape",
            ClientError::Aborted => "aborted",
        }
    }

    /// The HTTP status, when there was an answer.
    pub fn status(&self) -> Option<u16> {
        match self {
            ClientError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The envelope's `code`, when the service sent one.
    pub fn code(&self) -> Option<i64> {
        match self {
            ClientError::Http { code, .. } => *code,
            ClientError::Business { code, .. } => Some(*code),
            _ => None,
        }
    }
}

impl From<ResponseError> for ClientError {
    fn from(error: ResponseError) -> Self {
        match error {
            ResponseError::Http { status, envelope } => ClientError::Http {
                status,
                code: envelope.as_ref().map(|e| e.code),
                msg: envelope.map(|e| e.msg),
            },
            ResponseError::Business { code, msg } => ClientError::Business { code, msg },
            ResponseError::Shape { detail } => ClientError::Shape { detail },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::ErrorEnvelope;

    #[test]
    fn messages_say_what_happened_and_what_to_do() {
        let network = ClientError::Network {
            url: "http://x/v1".into(),
        };
        let said = network.to_string();
        assert!(
            said.contains("CORS")
                && said.contains("Content-Security-Policy")
                && network.retryable()
        );
        let unauthorized: ClientError = ResponseError::Http {
            status: 401,
            envelope: Some(ErrorEnvelope::new(100002, "bad token")),
        }
        .into();
        assert_eq!(
            unauthorized.to_string(),
            "HTTP 401 (code 100002): bad token. Check the access token in Settings."
        );
        assert!(!unauthorized.retryable());
        assert_eq!(
            (
                unauthorized.status(),
                unauthorized.code(),
                unauthorized.kind()
            ),
            (Some(401), Some(100002), "http")
        );
    }

    #[test]
    fn retryable_kinds() {
        let http = |status| ClientError::Http {
            status,
            code: None,
            msg: None,
        };
        assert!(http(503).retryable() && http(429).retryable() && http(408).retryable());
        assert!(!http(400).retryable() && !http(404).retryable());
        assert!(ClientError::Timeout { seconds: 1 }.retryable());
        assert!(!ClientError::Aborted.retryable());
        assert!(!ClientError::Shape {
            detail: String::new()
        }
        .retryable());
    }
}
