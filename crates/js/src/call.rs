//! One call's decisions, for the package's JavaScript that sends it: what
//! its answer must hold, whether and when to try again (the contract's
//! retry plan), and the error the caller gets, with the client's words.
//! The JavaScript does the `fetch`, the timer and `JSON.parse`; nothing
//! here waits or touches the network.

use media_gen_api::decode::{decode_data_in, decode_status};
use media_gen_api::relay::{offers_nothing, UploadsInfo, UploadsOffer};
use media_gen_api::retry::{Missed, RequestKind, Retry, RetryPlan};
use media_gen_api::{TaskIds, TaskKind, TranslationTaskRef};
use media_gen_client::value_reader::Parsed;
use media_gen_client::{ClientError, ClientOptions};
use wasm_bindgen::prelude::*;

use super::bridge::{client_error, options_error};
use super::object::set_property;

/// What an answer must hold to be the call's.
enum Expect {
    /// `GET /v1/video_translate/target_languages`: a list of codes.
    Languages,
    /// A status read: a task with a known status.
    Task,
    /// A gateway's `/capabilities` (none at all from a server without it).
    Capabilities,
    /// A submit of this kind: its task ids.
    Submit(TaskKind),
}

/// What the answer gave that the JavaScript asks for afterwards.
#[derive(Default)]
enum Kept {
    #[default]
    Nothing,
    TaskIds(Vec<String>),
    Uploads(Option<UploadsInfo>),
}

/// An HTTP-date as the browser's `Date.parse` reads it (Unix seconds).
fn browser_date(value: &str) -> Option<i64> {
    let millis = js_sys::Date::parse(value);
    millis.is_finite().then(|| (millis / 1000.0) as i64)
}

/// One call to the service, from its first attempt to its last.
#[wasm_bindgen(js_name = Call)]
pub struct Call {
    expect: Expect,
    url: String,
    plan: RetryPlan,
    timeout_seconds: u64,
    kept: Kept,
}

/// The clock as the plans read it: whole milliseconds.
fn millis(now: f64) -> u64 {
    now.max(0.0) as u64
}

/// A wait as the JavaScript's timer takes it.
fn timer_ms(wait: std::time::Duration) -> u32 {
    u32::try_from(wait.as_millis()).unwrap_or(u32::MAX)
}

#[wasm_bindgen(js_class = Call)]
impl Call {
    /// A call to `url` begun at `now` (`Date.now()`); `expect` says what
    /// its answer holds: `"languages"`, `"task"`, `"capabilities"`, or a
    /// kind's name for that kind's submit.
    #[wasm_bindgen(constructor)]
    pub fn new(expect: &str, url: String, now: f64) -> Result<Call, JsValue> {
        let expect = match expect {
            "languages" => Expect::Languages,
            "task" => Expect::Task,
            "capabilities" => Expect::Capabilities,
            kind => Expect::Submit(super::read::parse_kind(&JsValue::from_str(kind), "kind")?),
        };
        let kind = match expect {
            Expect::Submit(_) => RequestKind::Submit,
            _ => RequestKind::Read,
        };
        let options = ClientOptions::new("", media_gen_client::Auth::None);
        Ok(Call {
            expect,
            url,
            plan: RetryPlan::new(kind, options.retry, millis(now), options.deadline),
            timeout_seconds: options.attempt_timeout.as_secs(),
            kept: Kept::Nothing,
        })
    }

    /// How long one attempt may take before it is given up (ms).
    #[wasm_bindgen(getter, js_name = attemptMs)]
    pub fn attempt_ms(&self) -> u32 {
        u32::try_from(self.timeout_seconds * 1000).unwrap_or(u32::MAX)
    }

    /// Whether this is a submit (sent with a body, by `POST`).
    #[wasm_bindgen(getter, js_name = isSubmit)]
    pub fn is_submit(&self) -> bool {
        matches!(self.expect, Expect::Submit(_))
    }

    /// An attempt's answer (`status`, its `Retry-After`, its body as
    /// `JSON.parse` read it) at `now`: `undefined` when it holds what the
    /// call asked for; else the wait before the next attempt (ms); or
    /// throws the error the call ends with. `random` is `Math.random()`,
    /// for the jitter.
    pub fn answered(
        &mut self,
        status: u16,
        #[wasm_bindgen(js_name = retryAfter)] retry_after: Option<String>,
        body: JsValue,
        now: f64,
        random: f64,
    ) -> Result<Option<u32>, JsValue> {
        let body = Parsed(&body);
        let judged = match self.expect {
            Expect::Capabilities if offers_nothing(status) => Ok(Kept::Uploads(None)),
            Expect::Capabilities => decode_data_in::<UploadsOffer>(status, &body)
                .map(|offer| Kept::Uploads(offer.uploads)),
            Expect::Languages => {
                decode_data_in::<Vec<String>>(status, &body).map(|_| Kept::Nothing)
            }
            Expect::Task => decode_status(status, &body).map(|_| Kept::Nothing),
            Expect::Submit(TaskKind::VideoTranslate) => {
                decode_data_in::<Vec<TranslationTaskRef>>(status, &body).map(|tasks| {
                    Kept::TaskIds(tasks.into_iter().map(|task| task.task_id).collect())
                })
            }
            Expect::Submit(_) => {
                decode_data_in::<TaskIds>(status, &body).map(|ids| Kept::TaskIds(ids.task_ids))
            }
        };
        let error = match judged {
            Ok(kept) => {
                self.kept = kept;
                return Ok(None);
            }
            Err(error) => error,
        };
        let missed = Missed::Answer {
            status,
            retry_after,
        };
        self.next(ClientError::from(error), missed, now, random)
            .map(Some)
    }

    /// An attempt that got no answer at `now`: the per-attempt timeout
    /// fired (`timeout`) or `fetch` failed. The wait before the next
    /// attempt (ms), or throws the error the call ends with.
    pub fn failed(&mut self, timeout: bool, now: f64, random: f64) -> Result<u32, JsValue> {
        let (error, missed) = if timeout {
            let seconds = self.timeout_seconds;
            (ClientError::Timeout { seconds }, Missed::TimedOut)
        } else {
            let url = self.url.clone();
            (ClientError::Network { url }, Missed::NoAnswer)
        };
        self.next(error, missed, now, random)
    }

    /// The new tasks' ids, once a submit's answer held them.
    #[wasm_bindgen(js_name = taskIds)]
    pub fn task_ids(&self) -> Vec<String> {
        match &self.kept {
            Kept::TaskIds(ids) => ids.clone(),
            _ => Vec::new(),
        }
    }

    /// Where the site takes uploads (`{ path, maxVideoBytes }`), once a
    /// `/capabilities` answer said; throws naming `baseUrl` when it takes
    /// none.
    pub fn uploads(&self) -> Result<JsValue, JsValue> {
        let offered = match &self.kept {
            Kept::Uploads(offered) => offered.as_ref(),
            _ => None,
        };
        let offered = offered.ok_or_else(|| {
            options_error(
                "baseUrl",
                "this site takes no uploads (its /capabilities names none)",
            )
        })?;
        let object = js_sys::Object::new();
        set_property(&object, "path", &offered.path.as_str().into());
        let max = JsValue::from_f64(offered.max_video_bytes as f64);
        set_property(&object, "maxVideoBytes", &max);
        Ok(object.into())
    }
}

impl Call {
    /// The contract's word on a missed attempt: the wait, or the error to
    /// end with.
    fn next(
        &mut self,
        error: ClientError,
        missed: Missed,
        now: f64,
        random: f64,
    ) -> Result<u32, JsValue> {
        match self.plan.missed(missed, millis(now), random, browser_date) {
            Retry::After(wait) => Ok(timer_ms(wait)),
            Retry::GiveUp => Err(client_error(&error)),
        }
    }
}

/// The error a cancelled call rejects with.
#[wasm_bindgen(js_name = abortedError)]
pub fn aborted_error() -> JsValue {
    client_error(&ClientError::Aborted)
}
