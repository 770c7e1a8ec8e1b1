//! From an HTTP status and body to the payload, or to a typed error.
//!
//! The envelope rules in one place, shared by the browser client, the
//! JavaScript bindings and the tests:
//! - 2xx with `code == 0`: the `data` payload.
//! - 2xx with `code != 0`: a business error (image_generate documents this).
//! - any other status: an HTTP error, with the error envelope when the body is one.
//! - a body that is not the documented JSON: a shape error.

use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::envelope::{Envelope, ErrorEnvelope, SUCCESS_CODE};

/// Why a response did not yield its payload.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResponseError {
    /// A non-2xx status, with the error envelope when the body held one.
    #[error("{}", http_message(*status, envelope.as_ref()))]
    Http {
        /// The HTTP status.
        status: u16,
        /// The `{code, msg}` body, if the body was one.
        envelope: Option<ErrorEnvelope>,
    },
    /// HTTP 2xx, but the envelope's `code` is not 0.
    #[error("the service refused the request (code {code}): {msg}")]
    Business {
        /// The non-zero `code`.
        code: i64,
        /// The service's `msg`.
        msg: String,
    },
    /// HTTP 2xx, but the body is not the documented JSON.
    #[error("the response is not in the documented shape: {detail}")]
    Shape {
        /// What did not match (never the body itself, which may be huge or hostile).
        detail: String,
    },
}

fn http_message(status: u16, envelope: Option<&ErrorEnvelope>) -> String {
    match envelope {
        Some(envelope) => format!("HTTP {status} (code {}): {}", envelope.code, envelope.msg),
        None => format!("HTTP {status} without the documented error body"),
    }
}

impl ResponseError {
    /// The envelope's `code`, when the service sent one.
    pub fn code(&self) -> Option<i64> {
        match self {
            ResponseError::Http { envelope, .. } => envelope.as_ref().map(|e| e.code),
            ResponseError::Business { code, .. } => Some(*code),
            ResponseError::Shape { .. } => None,
        }
    }
}

/// Only the envelope's `code` and `msg`, to tell business errors from success
/// before the payload's shape is checked.
#[derive(Deserialize)]
struct EnvelopeHead {
    code: i64,
    #[serde(default)]
    msg: Option<String>,
}

/// A response body, as a reader can read it as any wire type: its bytes
/// (read by `serde_json`), or what a browser's `JSON.parse` already made
/// of them. The envelope rules below read either alike.
pub trait Body {
    /// The body read as `T`, or what did not match.
    fn read_as<T: DeserializeOwned>(&self) -> Result<T, String>;

    /// The envelope's `data` read as `T` (a form that can reach into the
    /// body reads only that property).
    fn read_data_as<T: DeserializeOwned>(&self) -> Result<T, String> {
        self.read_as::<EnvelopeData<T>>()
            .map(|envelope| envelope.data)
    }
}

impl Body for [u8] {
    fn read_as<T: DeserializeOwned>(&self) -> Result<T, String> {
        serde_json::from_slice(self).map_err(|error| error.to_string())
    }
}

impl Body for serde_json::Value {
    fn read_as<T: DeserializeOwned>(&self) -> Result<T, String> {
        T::deserialize(self).map_err(|error| error.to_string())
    }
}

/// Decode a whole success envelope (`code`, `msg` and `data`).
pub fn decode_envelope<T: DeserializeOwned>(
    status: u16,
    body: &[u8],
) -> Result<Envelope<T>, ResponseError> {
    check_envelope(status, body)?;
    body.read_as().map_err(shape_error)
}

/// Everything [`decode_envelope`] checks before the payload's shape: the
/// status, the error envelope and the `code`. Apart from the payload's type,
/// so the browser's wasm carries it once rather than once per endpoint.
fn check_envelope(status: u16, body: &(impl Body + ?Sized)) -> Result<(), ResponseError> {
    if !(200..300).contains(&status) {
        let envelope = body.read_as::<ErrorEnvelope>().ok();
        return Err(ResponseError::Http { status, envelope });
    }
    let head: EnvelopeHead = body.read_as().map_err(shape_error)?;
    if head.code != SUCCESS_CODE {
        return Err(ResponseError::Business {
            code: head.code,
            msg: head.msg.unwrap_or_default(),
        });
    }
    Ok(())
}

/// A body that is not the documented JSON.
fn shape_error(detail: String) -> ResponseError {
    ResponseError::Shape { detail }
}

/// Only the envelope's `data`, read once [`check_envelope`] has passed.
#[derive(Deserialize)]
#[serde(bound = "T: DeserializeOwned")]
pub struct EnvelopeData<T> {
    /// The payload.
    pub data: T,
}

/// Decode a response to its `data` payload.
pub fn decode_data<T: DeserializeOwned>(status: u16, body: &[u8]) -> Result<T, ResponseError> {
    decode_data_in(status, body)
}

/// [`decode_data`] for a body of any form ([`Body`]).
pub fn decode_data_in<T: DeserializeOwned>(
    status: u16,
    body: &(impl Body + ?Sized),
) -> Result<T, ResponseError> {
    check_envelope(status, body)?;
    // Only `data` per payload type: `code` and `msg` were read by the check.
    body.read_data_as::<T>().map_err(shape_error)
}

/// Decode a status read of a task of `kind` to its task object.
pub fn decode_task(
    kind: crate::TaskKind,
    status: u16,
    body: &[u8],
) -> Result<crate::AnyTask, ResponseError> {
    decode_task_in(kind, status, body)
}

/// [`decode_task`] for a body of any form ([`Body`]: a JSON value already
/// parsed, say, so a server reads an answer's bytes once).
pub fn decode_task_in(
    kind: crate::TaskKind,
    status: u16,
    body: &(impl Body + ?Sized),
) -> Result<crate::AnyTask, ResponseError> {
    use crate::{AnyTask, TaskKind};
    match kind {
        TaskKind::ImageToVideo => decode_data_in(status, body).map(AnyTask::ImageToVideo),
        TaskKind::VideoTranslate => decode_data_in(status, body).map(AnyTask::VideoTranslate),
        TaskKind::ImageGenerate => decode_data_in(status, body).map(AnyTask::ImageGenerate),
    }
}

/// Only a task's status, out of a status read's answer: what a server
/// passing the answer on needs of it, without reading the rest.
#[derive(Deserialize)]
struct StatusOnly {
    status: crate::TaskStatus,
}

/// The status a status read's answer (`status`, `body`) shows, read
/// without decoding the rest of the task.
pub fn decode_status(
    status: u16,
    body: &(impl Body + ?Sized),
) -> Result<crate::TaskStatus, ResponseError> {
    decode_data_in::<StatusOnly>(status, body).map(|task| task.status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_is_read_alone_and_a_refusal_stays_one() {
        let body = br#"{"code":0,"msg":"ok","data":{"task_id":"t","status":"SUCCEEDED","video_url":"https://x"}}"#;
        assert_eq!(
            decode_status(200, &body[..]).unwrap(),
            crate::TaskStatus::Succeeded
        );
        let refused = br#"{"code":100002,"msg":"bad token","data":null}"#;
        assert!(decode_status(200, &refused[..]).is_err());
        assert!(decode_status(200, &b"{}"[..]).is_err());
    }
    use crate::image_to_video::TaskIds;

    #[test]
    fn success_yields_the_data() {
        let ids: TaskIds = decode_data(
            200,
            br#"{"code":0,"msg":"ok","data":{"task_ids":["i2v-1"]}}"#,
        )
        .unwrap();
        assert_eq!(ids.task_ids, ["i2v-1"]);
    }

    #[test]
    fn the_payload_is_kept_when_a_success_lacks_its_msg() {
        // `msg` is informative only; a task id the service returned is never dropped for it.
        let ids: TaskIds =
            decode_data(200, br#"{"code":0,"data":{"task_ids":["i2v-1"]}}"#).unwrap();
        assert_eq!(ids.task_ids, ["i2v-1"]);
        // Without `data` there is nothing to keep: a shape error that names it.
        let error = decode_data::<TaskIds>(200, br#"{"code":0,"msg":"ok"}"#).unwrap_err();
        assert!(
            matches!(&error, ResponseError::Shape { detail } if detail.contains("missing field `data`")),
            "{error:?}"
        );
    }

    #[test]
    fn non_zero_code_in_http_200_is_a_business_error() {
        let error = decode_data::<TaskIds>(200, br#"{"code":100001,"msg":"prompt is required"}"#)
            .unwrap_err();
        assert_eq!(
            error,
            ResponseError::Business {
                code: 100001,
                msg: "prompt is required".into()
            }
        );
        assert_eq!(error.code(), Some(100001));
    }

    #[test]
    fn http_error_keeps_the_error_envelope() {
        let error = decode_data::<Vec<String>>(400, br#"{"code":100001,"msg":"bad"}"#).unwrap_err();
        assert_eq!(error.to_string(), "HTTP 400 (code 100001): bad");
        let error = decode_data::<Vec<String>>(502, b"<html>Bad gateway</html>").unwrap_err();
        assert_eq!(
            error,
            ResponseError::Http {
                status: 502,
                envelope: None
            }
        );
        assert_eq!(error.code(), None);
    }

    #[test]
    fn bodies_not_in_the_documented_shape() {
        for body in [
            &b""[..],
            b"not json",
            b"[1,2]",
            br#"{"code":0,"msg":"ok"}"#,
            br#"{"code":0,"msg":"ok","data":{"task_ids":"i2v-1"}}"#,
            br#"{"code":"0","msg":"ok","data":{}}"#,
        ] {
            let error = decode_data::<TaskIds>(200, body).unwrap_err();
            assert!(
                matches!(error, ResponseError::Shape { .. }),
                "{body:?}: {error:?}"
            );
        }
    }

    #[test]
    fn huge_deep_and_cut_bodies_are_shape_errors() {
        // 8 MiB of an array that never ends, nesting far past serde_json's
        // recursion limit, and a valid answer cut in the middle.
        let huge = format!(
            "{{\"code\":0,\"msg\":\"ok\",\"data\":{{\"task_ids\":[{}",
            "\"i\",".repeat(1 << 20)
        );
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let cut = br#"{"code":0,"msg":"ok","data":{"task_ids":["i2v-1","i2"#;
        for body in [huge.as_bytes(), deep.as_bytes(), &cut[..]] {
            let error = decode_data::<TaskIds>(200, body).unwrap_err();
            assert!(matches!(error, ResponseError::Shape { .. }), "{error:?}");
        }
    }
}
