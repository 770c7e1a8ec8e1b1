//! The test service: the contract's service model
//! ([`media_gen_api::service`]) run where a page or Node runs, so
//! `@media-gen/widgets/testing` answers the package's calls with no server
//! and no network. It answers what a site offers the widgets: the
//! documented `/v1` calls (as the sandbox answers them, faults included),
//! `/capabilities`, and the result files the tasks name. What a test
//! controls (how fast tasks run, how the next one ends, the faults, the
//! submissions it received) is here too; the package's JavaScript only
//! carries requests in and answers out.

mod files;
mod options;
mod uploads;

use std::collections::HashMap;

use media_gen_api::relay::Capabilities;
use media_gen_api::service::{Call, Faults, Outcome, Reply, ServiceModel};
use media_gen_api::TaskKind;
use wasm_bindgen::prelude::*;

pub use options::Options;

/// How one request is answered.
#[wasm_bindgen]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    status: u16,
    mime: String,
    retry_after: Option<u32>,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    dropped: bool,
    latency_ms: u32,
}

#[wasm_bindgen]
impl Answer {
    /// The HTTP status.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The `Content-Type`.
    #[wasm_bindgen(getter)]
    pub fn mime(&self) -> String {
        self.mime.clone()
    }

    /// `Retry-After` in seconds, for a 429.
    #[wasm_bindgen(getter, js_name = retryAfter)]
    pub fn retry_after(&self) -> Option<u32> {
        self.retry_after
    }

    /// Its other headers (tus's), as a JSON object.
    #[wasm_bindgen(getter)]
    pub fn headers(&self) -> String {
        let headers: serde_json::Map<String, serde_json::Value> = self
            .headers
            .iter()
            .map(|(name, value)| (name.clone(), serde_json::Value::String(value.clone())))
            .collect();
        serde_json::Value::Object(headers).to_string()
    }

    /// The body's bytes.
    #[wasm_bindgen(getter)]
    pub fn body(&self) -> Vec<u8> {
        self.body.clone()
    }

    /// Whether the connection is to be dropped instead (the work was done).
    #[wasm_bindgen(getter)]
    pub fn dropped(&self) -> bool {
        self.dropped
    }

    /// How long the answer is held back, in milliseconds.
    #[wasm_bindgen(getter, js_name = latencyMs)]
    pub fn latency_ms(&self) -> u32 {
        self.latency_ms
    }
}

impl Answer {
    /// An answer with no body.
    fn empty(status: u16) -> Answer {
        Answer {
            status,
            mime: "text/plain; charset=utf-8".to_owned(),
            retry_after: None,
            headers: Vec::new(),
            body: Vec::new(),
            dropped: false,
            latency_ms: 0,
        }
    }

    /// A JSON answer.
    fn json(status: u16, body: &serde_json::Value) -> Answer {
        Answer {
            mime: "application/json".to_owned(),
            body: body.to_string().into_bytes(),
            ..Answer::empty(status)
        }
    }
}

/// One submit as the service received it.
#[derive(Debug, Clone, serde::Serialize)]
struct Submission {
    kind: String,
    body: serde_json::Value,
}

/// The service a test talks to: the model, what it received, the images
/// drawn so far.
#[wasm_bindgen]
pub struct TestService {
    model: ServiceModel,
    submissions: Vec<Submission>,
    images: HashMap<String, Vec<u8>>,
    uploads: uploads::Uploads,
}

#[wasm_bindgen]
impl TestService {
    /// A service at `base_url` (its result files' addresses start there)
    /// with `options` (JSON: `speed`, `faults`, `seed`), its randomness
    /// from `seed` when the options give none.
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str, base_url: &str, seed: f64) -> Result<TestService, JsError> {
        TestService::start(options, base_url, seed as u64).map_err(|error| JsError::new(&error))
    }

    /// Answer `method path` (the path under the base URL, with its query)
    /// with `headers` (a JSON object, names in lower case) and `body`, at
    /// `now` (milliseconds since 1970).
    pub fn answer(
        &mut self,
        method: &str,
        path: &str,
        headers: &str,
        body: &[u8],
        now: f64,
    ) -> Answer {
        let headers: uploads::Headers = serde_json::from_str(headers).unwrap_or_default();
        self.respond(method, path, &headers, body, now as u64)
    }

    /// The next task made fails with `fail`, or succeeds when it is none.
    #[wasm_bindgen(js_name = nextOutcome)]
    pub fn next_outcome(&mut self, fail: Option<String>) {
        self.model.next_outcome(outcome(fail));
    }

    /// Task `id` of `kind` fails with `fail`, or succeeds; whether it is held.
    #[wasm_bindgen(js_name = setOutcome)]
    pub fn set_outcome(
        &mut self,
        kind: &str,
        id: &str,
        fail: Option<String>,
    ) -> Result<bool, JsError> {
        let kind: TaskKind = kind
            .parse()
            .map_err(|_| JsError::new(&format!("kind: no task kind `{kind}`")))?;
        Ok(self.model.set_outcome(kind, id, outcome(fail)))
    }

    /// Inject `faults` (JSON, the sandbox's `/sandbox/faults` fields) from now on.
    #[wasm_bindgen(js_name = setFaults)]
    pub fn set_faults(&mut self, faults: &str) -> Result<(), JsError> {
        self.change_faults(faults)
            .map_err(|error| JsError::new(&error))
    }

    /// Every submit received, oldest first, as JSON: `[{ kind, body }]`.
    pub fn submissions(&self) -> String {
        serde_json::to_string(&self.submissions).unwrap_or_else(|_| "[]".to_owned())
    }

    /// Forget every task, submission and fault set since the start.
    pub fn reset(&mut self) {
        self.model.reset();
        self.submissions.clear();
    }
}

/// `fail`'s outcome.
fn outcome(fail: Option<String>) -> Outcome {
    match fail {
        Some(message) => Outcome::Failure(message),
        None => Outcome::Success,
    }
}

impl TestService {
    /// The service of [`TestService::new`], its errors as text.
    pub fn start(options: &str, base_url: &str, seed: u64) -> Result<TestService, String> {
        let options = Options::read(options)?;
        Ok(TestService {
            model: ServiceModel::new(options.settings(base_url, seed)),
            submissions: Vec::new(),
            images: HashMap::new(),
            uploads: uploads::Uploads::default(),
        })
    }

    /// Replace the faults, or why they cannot be.
    pub fn change_faults(&mut self, faults: &str) -> Result<(), String> {
        let faults: Faults =
            serde_json::from_str(faults).map_err(|error| format!("faults: {error}"))?;
        self.model.set_faults(faults)
    }

    /// The model, for what a test reads of it.
    pub fn model(&self) -> &ServiceModel {
        &self.model
    }

    /// See [`TestService::answer`].
    pub fn respond(
        &mut self,
        method: &str,
        path: &str,
        headers: &uploads::Headers,
        body: &[u8],
        now: u64,
    ) -> Answer {
        if path == media_gen_api::relay::CAPABILITIES_PATH && method == "GET" {
            let offered = Capabilities {
                uploads: Some(uploads::offered()),
                ..Capabilities::default()
            };
            let envelope =
                media_gen_api::Envelope::success(media_gen_api::envelope::MSG_OK, offered);
            return Answer::json(200, &serde_json::to_value(envelope).unwrap_or_default());
        }
        if let Some(rest) = path.strip_prefix(media_gen_api::relay::UPLOADS_PATH) {
            let base = self.model.settings().base_url.clone();
            return self.uploads.answer(method, rest, headers, body, &base);
        }
        let content_type = headers.get("content-type").map(String::as_str);
        if let Some(file) = path.strip_prefix(files::MEDIA_PATH) {
            return self.file(file, now);
        }
        // The documented calls take no query.
        let path = path.split_once('?').map_or(path, |(path, _)| path);
        if method == "POST" {
            if let Some(kind) = path.strip_prefix("/v1/") {
                let body = serde_json::from_slice(body).unwrap_or_else(|_| {
                    serde_json::Value::String(String::from_utf8_lossy(body).into_owned())
                });
                self.submissions.push(Submission {
                    kind: kind.to_owned(),
                    body,
                });
            }
        }
        let call = Call {
            method,
            path,
            content_type,
            body,
        };
        let (reply, latency) = self.model.answer(call, now);
        let mut answer = match reply {
            Reply::Json {
                status,
                body,
                retry_after,
            } => Answer {
                retry_after: retry_after.map(|seconds| u32::try_from(seconds).unwrap_or(u32::MAX)),
                ..Answer::json(status, &body)
            },
            Reply::Dropped => Answer {
                dropped: true,
                ..Answer::json(200, &serde_json::Value::Null)
            },
            Reply::Malformed => Answer {
                body: media_gen_api::service::calls::MALFORMED_BODY
                    .as_bytes()
                    .to_vec(),
                ..Answer::json(200, &serde_json::Value::Null)
            },
        };
        answer.latency_ms = u32::try_from(latency).unwrap_or(u32::MAX);
        answer
    }
}

#[cfg(test)]
mod tests;
