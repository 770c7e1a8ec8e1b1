//! The service's documented calls as one entry point, for a driver that
//! has a request's method, path, content type and body but no router of
//! its own (the test service in a page): each answered as the sandbox
//! answers it, the faults included, from the same decisions and the same
//! words.

use serde::Serialize;

use super::refusal::Refusal;
use super::{ServiceModel, Spoilt, TARGET_LANGUAGES};
use crate::endpoint::{Endpoint, NotDocumented};
use crate::envelope::MSG_SUCCESS;
use crate::submit_body::BodyProblem;
use crate::{Envelope, Request, TargetLanguages};

/// A call as it came: its method, path (no query), `Content-Type` and body.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// `GET`, `POST`, …
    pub method: &'a str,
    /// The path under the service's base, `/v1/…`.
    pub path: &'a str,
    /// The `Content-Type` header, if any.
    pub content_type: Option<&'a str>,
    /// The body.
    pub body: &'a [u8],
}

/// How a call is answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A JSON answer: its status, its body, and `Retry-After` for a 429.
    Json {
        /// The HTTP status.
        status: u16,
        /// The body.
        body: serde_json::Value,
        /// Seconds, for a 429.
        retry_after: Option<u64>,
    },
    /// The work was done and the connection dropped before the answer.
    Dropped,
    /// The work was done and the answer's body cut short: not JSON.
    Malformed,
}

/// A malformed answer's body, as the sandbox sends it.
pub const MALFORMED_BODY: &str = r#"{"code":0,"msg":"ok","data":{"task_ids":["#;

impl From<BodyProblem> for Refusal {
    fn from(problem: BodyProblem) -> Refusal {
        match problem {
            BodyProblem::Malformed(message) => Refusal::MalformedBody(message),
            BodyProblem::Field(message) => Refusal::InvalidParameter(message),
        }
    }
}

impl Refusal {
    /// A path under `/v1` that is no documented call.
    pub fn no_endpoint() -> Refusal {
        Refusal::NotFound(
            "No such endpoint: the interface document lists the paths under /v1".to_owned(),
        )
    }

    /// A submit whose body is not sent as JSON.
    pub fn not_json() -> Refusal {
        Refusal::MalformedBody("Content-Type: send the body as application/json".to_owned())
    }
}

/// Whether `content_type` is `application/json` (parameters allowed).
pub fn is_json(content_type: Option<&str>) -> bool {
    content_type
        .and_then(|value| value.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

/// `data` in the success envelope, as JSON.
fn success(data: impl Serialize) -> Reply {
    Reply::Json {
        status: 200,
        body: serde_json::to_value(Envelope::success("ok", data)).unwrap_or_default(),
        retry_after: None,
    }
}

/// A refusal, as JSON.
fn refused(refusal: &Refusal) -> Reply {
    Reply::Json {
        status: refusal.status_and_code().0,
        body: serde_json::to_value(refusal.envelope()).unwrap_or_default(),
        retry_after: refusal.retry_after(),
    }
}

impl ServiceModel {
    /// Answer `call` at `now`, the faults applied: the reply, and the
    /// milliseconds a fault holds it back. No input is fetched (the
    /// inputs a submit names are taken as they are).
    pub fn answer(&mut self, call: Call<'_>, now: u64) -> (Reply, u64) {
        let endpoint = match Endpoint::parse(call.method, call.path) {
            Ok(endpoint) => endpoint,
            Err(NotDocumented::Path) => return (refused(&Refusal::no_endpoint()), 0),
            Err(NotDocumented::Method) => return (refused(&Refusal::MethodNotAllowed), 0),
        };
        let injected = self.inject();
        let latency = injected.latency_ms;
        if let Some(refusal) = &injected.instead {
            return (refused(refusal), latency);
        }
        let reply = self.carry_out(&endpoint, call, now);
        let reply = match injected.afterwards {
            None => reply,
            Some(Spoilt::Refused(refusal)) => refused(&refusal),
            Some(Spoilt::Dropped) => Reply::Dropped,
            Some(Spoilt::Malformed) => Reply::Malformed,
        };
        (reply, latency)
    }

    /// The documented call `endpoint`, carried out.
    fn carry_out(&mut self, endpoint: &Endpoint, call: Call<'_>, now: u64) -> Reply {
        let answered = match endpoint {
            Endpoint::TargetLanguages => {
                let names = TARGET_LANGUAGES
                    .iter()
                    .map(|name| (*name).to_owned())
                    .collect();
                return Reply::Json {
                    status: 200,
                    body: serde_json::to_value(TargetLanguages::success(MSG_SUCCESS, names))
                        .unwrap_or_default(),
                    retry_after: None,
                };
            }
            Endpoint::Status(kind, id) => self.status(*kind, id, now).map(|task| match task {
                crate::AnyTask::ImageToVideo(task) => success(task),
                crate::AnyTask::VideoTranslate(task) => success(task),
                crate::AnyTask::ImageGenerate(task) => success(task),
            }),
            Endpoint::Submit(kind) => {
                if !is_json(call.content_type) {
                    return refused(&Refusal::not_json());
                }
                Request::read_submit(*kind, call.body)
                    .map_err(Refusal::from)
                    .and_then(|request| self.accept(request, now))
                    .map(|accepted| success(self.create(accepted, now)))
            }
        };
        answered.unwrap_or_else(|refusal| refused(&refusal))
    }
}
