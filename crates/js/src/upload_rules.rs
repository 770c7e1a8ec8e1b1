//! What `client.upload` decides, for the package's JavaScript that sends
//! the bytes: whether the service would take the file (its type from its
//! first bytes, its size), and each step of the upload (the contract's
//! machine, [`media_gen_api::upload`], which the app's uploader drives too).

use media_gen_api::media_type::{check_media, SNIFF_BYTES};
use media_gen_api::tus;
use media_gen_api::upload::{Answer, Event, News, Step, Upload, UploadFailure};
use wasm_bindgen::prelude::*;

use super::bridge::{error_with, options_error};
use super::object::set_property;

/// A file of `size` bytes opening with `head`, judged for a site taking
/// videos up to `maxVideoBytes`: `[mime, extension]`, or throws naming
/// `file` with the rule.
#[wasm_bindgen(js_name = judgeFile)]
pub fn judge_file(head: &[u8], size: f64, max_video_bytes: f64) -> Result<Vec<String>, JsValue> {
    // Whole bytes as integers: no float is formatted on the way.
    let media = check_media(head, size as u64, max_video_bytes as u64).map_err(|refusal| {
        let rule = refusal.to_string();
        options_error("file", rule.strip_prefix("file: ").unwrap_or(&rule))
    })?;
    Ok(vec![media.mime().to_owned(), media.extension().to_owned()])
}

/// How many first bytes decide a file's type.
#[wasm_bindgen(js_name = sniffBytes)]
pub fn sniff_bytes() -> u32 {
    SNIFF_BYTES as u32
}

/// One file's upload as the contract's machine ([`Upload`]) decides it,
/// for the package's JavaScript that carries each step out. Every step is
/// an object: `{ kind: "create" }`, `{ kind: "ask", url }`, `{ kind:
/// "send", url, from, to }`, `{ kind: "wait", ms }`, `{ kind: "done", url,
/// expires }` or `{ kind: "fail", why }` (`"refused"`, `"no-address"`,
/// `"network"`), with `news`: what the page hears since the last step,
/// `[what, value]` pairs (`"created"` with the address, `"progress"` with
/// the bytes the gateway has, `"waiting"` with whether it waits for the
/// network).
#[wasm_bindgen(js_name = UploadPlan)]
pub struct UploadPlan {
    upload: Upload,
    first: Option<Step>,
}

#[wasm_bindgen(js_class = UploadPlan)]
impl UploadPlan {
    /// An upload of `size` bytes: a new one, or the one at `resume`.
    #[wasm_bindgen(constructor)]
    pub fn new(size: f64, resume: Option<String>) -> UploadPlan {
        // Whole bytes as integers: no float is formatted on the way.
        let (upload, first) = Upload::start(size.max(0.0) as u64, resume);
        UploadPlan {
            upload,
            first: Some(first),
        }
    }

    /// The next step after `happened`: `undefined` for the first; `null`
    /// when the last step got no answer (the network failed); `"waited"`
    /// once the wait asked for is over; else the answer, `{ status,
    /// offset, location, expires }` (its `Upload-Offset` as read, its
    /// `Location`, its `Upload-Expires`).
    pub fn next(&mut self, happened: JsValue) -> JsValue {
        let step = match self.first.take() {
            Some(first) => first,
            None => self.upload.on(event_of(&happened)),
        };
        let news: js_sys::Array = self
            .upload
            .take_news()
            .into_iter()
            .map(|news| {
                let (what, value) = match news {
                    News::Created(url) => ("created", JsValue::from(url)),
                    News::Progress(offset) => ("progress", JsValue::from_f64(offset as f64)),
                    News::Waiting(waiting) => ("waiting", JsValue::from_bool(waiting)),
                };
                js_sys::Array::of2(&JsValue::from_str(what), &value)
            })
            .collect();
        let step = step_object(step);
        set_property(&step, "news", &news);
        step
    }
}

/// What the JavaScript says happened, as the machine's event.
fn event_of(happened: &JsValue) -> Event {
    if happened.is_null() || happened.is_undefined() {
        return Event::NoAnswer;
    }
    if happened.is_string() {
        return Event::Waited;
    }
    let get = |name: &str| js_sys::Reflect::get(happened, &JsValue::from_str(name)).ok();
    Event::Answered(Answer {
        status: get("status")
            .and_then(|status| status.as_f64())
            .map_or(0, |status| status as u16),
        offset: get("offset")
            .and_then(|offset| offset.as_f64())
            .filter(|offset| *offset >= 0.0)
            .map(|offset| offset as u64),
        location: get("location").and_then(|location| location.as_string()),
        expires: get("expires").and_then(|expires| expires.as_string()),
    })
}

/// `step` as the JavaScript reads it.
fn step_object(step: Step) -> JsValue {
    let object: JsValue = js_sys::Object::new().into();
    let set = |name: &str, value: JsValue| set_property(&object, name, &value);
    let kind = match step {
        Step::Create => "create",
        Step::Ask { url } => {
            set("url", url.into());
            "ask"
        }
        Step::Send { url, from, to } => {
            set("url", url.into());
            set("from", JsValue::from_f64(from as f64));
            set("to", JsValue::from_f64(to as f64));
            "send"
        }
        Step::Wait(wait) => {
            set("ms", JsValue::from_f64(wait.as_millis() as f64));
            "wait"
        }
        Step::Done { url, expires } => {
            set("url", url.into());
            set("expires", expires.map_or(JsValue::NULL, JsValue::from));
            "done"
        }
        Step::Fail(why) => {
            let why = match why {
                UploadFailure::Refused => "refused",
                UploadFailure::NoAddress => "no-address",
                UploadFailure::Network => "network",
            };
            set("why", why.into());
            "fail"
        }
    };
    set("kind", kind.into());
    object
}

/// `name` as the upload's metadata carries it, before base64.
#[wasm_bindgen(js_name = uploadName)]
pub fn upload_name(name: &str) -> String {
    tus::metadata_name(name)
}

/// An upload that ended without its address: `kind` `"http"` (refused:
/// the gateway's `msg`, which names the rule, or its `status`),
/// `"network"` or `"aborted"`, as an `Error` with `kind` and `retryable`.
#[wasm_bindgen(js_name = uploadError)]
pub fn upload_error(kind: &str, status: Option<u16>, msg: Option<String>) -> JsValue {
    use media_gen_client::upload::UploadError;
    let error = match kind {
        "network" => UploadError::Network,
        "aborted" => UploadError::Aborted,
        _ => UploadError::Refused(msg.unwrap_or_else(|| {
            format!("the gateway answered HTTP {}", status.unwrap_or_default())
        })),
    };
    error_with(
        &error.to_string(),
        &[
            ("kind", JsValue::from_str(kind)),
            ("retryable", JsValue::from_bool(kind == "network")),
        ],
    )
}
