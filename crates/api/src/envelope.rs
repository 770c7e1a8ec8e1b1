//! The response envelopes every endpoint wraps its payload in.
//!
//! Interface document, "Response envelope" and "Error envelope": a success is
//! `{code, msg, data}` with `code == 0`; a failure is `{code, msg}` with a
//! non-zero code.

use serde::{Deserialize, Serialize};

/// The `code` value that means success.
pub const SUCCESS_CODE: i64 = 0;

/// The `msg` most endpoints send with a success.
pub const MSG_OK: &str = "ok";

/// The `msg` the language list endpoint sends with a success.
pub const MSG_SUCCESS: &str = "success";

/// A successful response: `{code, msg, data}`.
///
/// Unknown fields are ignored so that additions on the service side never
/// break decoding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope<T> {
    /// `0` on success.
    pub code: i64,
    /// Response message, usually `ok` (`success` for the language list).
    pub msg: String,
    /// The endpoint's payload.
    pub data: T,
}

impl<T> Envelope<T> {
    /// A success envelope (`code` 0) around `data` with the given message.
    pub fn success(msg: impl Into<String>, data: T) -> Self {
        Self {
            code: SUCCESS_CODE,
            msg: msg.into(),
            data,
        }
    }

    /// Whether the envelope reports success (`code == 0`).
    pub fn is_success(&self) -> bool {
        self.code == SUCCESS_CODE
    }
}

/// A failure response: `{code, msg}` with a non-zero `code`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorEnvelope {
    /// Non-zero error code (the document shows `100001`).
    pub code: i64,
    /// Error message meant for a person.
    pub msg: String,
}

impl ErrorEnvelope {
    /// An error envelope with the given code and message.
    pub fn new(code: i64, msg: impl Into<String>) -> Self {
        Self {
            code,
            msg: msg.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_envelope_round_trips_the_documented_shape() {
        let json = r#"{"code":0,"msg":"ok","data":{"task_ids":["i2v-1"]}}"#;
        let envelope: Envelope<serde_json::Value> = serde_json::from_str(json).unwrap();
        assert!(envelope.is_success());
        assert_eq!(envelope.msg, MSG_OK);
        assert_eq!(envelope.data["task_ids"][0], "i2v-1");
        assert_eq!(serde_json::to_string(&envelope).unwrap(), json);
    }

    #[test]
    fn unknown_fields_are_ignored() {
        let json = r#"{"code":0,"msg":"ok","data":[],"request_id":"abc"}"#;
        let envelope: Envelope<Vec<String>> = serde_json::from_str(json).unwrap();
        assert!(envelope.data.is_empty());
    }

    #[test]
    fn error_envelope_matches_the_documented_shape() {
        let json = r#"{"code":100001,"msg":"invalid token"}"#;
        let error: ErrorEnvelope = serde_json::from_str(json).unwrap();
        assert_eq!(error, ErrorEnvelope::new(100001, "invalid token"));
        assert_eq!(serde_json::to_string(&error).unwrap(), json);
    }

    #[test]
    fn non_zero_code_is_not_success() {
        let envelope = Envelope {
            code: 100001,
            msg: "failed".into(),
            data: (),
        };
        assert!(!envelope.is_success());
    }
}
