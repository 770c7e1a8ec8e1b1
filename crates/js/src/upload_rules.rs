//! What `client.upload` decides, for the package's JavaScript that sends
//! the bytes: whether the service would take the file (its type from its
//! first bytes, its size), and what each tus answer means
//! ([`media_gen_api::tus`], the app's uploader's rules too).

use media_gen_api::media_type::{check_media, SNIFF_BYTES};
use media_gen_api::tus::{self, AfterHead, AfterPatch};
use wasm_bindgen::prelude::*;

use super::bridge::{error_with, options_error};

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

/// Bytes per `PATCH`.
#[wasm_bindgen(js_name = chunkBytes)]
pub fn chunk_bytes() -> f64 {
    tus::CHUNK_BYTES as f64
}

/// Whether a creating `POST` answered with `status` made the upload.
#[wasm_bindgen(js_name = uploadMade)]
pub fn upload_made(status: u16) -> bool {
    status == tus::CREATED
}

/// What a `PATCH` answered with `status` means: `"kept"`, `"ask"` (where
/// the upload stands, now), `"wait"` (then ask) or `"refused"`.
#[wasm_bindgen(js_name = afterPatch)]
pub fn after_patch(status: u16) -> String {
    match tus::after_patch(status) {
        AfterPatch::Kept => "kept",
        AfterPatch::AskNow => "ask",
        AfterPatch::WaitThenAsk => "wait",
        AfterPatch::Refused => "refused",
    }
    .to_owned()
}

/// What a `HEAD` answered with `status` means: `"stands"`, `"gone"`,
/// `"passing"` or `"refused"`.
#[wasm_bindgen(js_name = afterHead)]
pub fn after_head(status: u16) -> String {
    match tus::after_head(status) {
        AfterHead::Stands => "stands",
        AfterHead::Gone => "gone",
        AfterHead::Passing => "passing",
        AfterHead::Refused => "refused",
    }
    .to_owned()
}

/// The wait (ms) before try `failures`, or `undefined`: give up.
#[wasm_bindgen(js_name = uploadWait)]
pub fn upload_wait(failures: u32) -> Option<u32> {
    tus::wait_before(failures).map(|wait| wait.as_millis() as u32)
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
