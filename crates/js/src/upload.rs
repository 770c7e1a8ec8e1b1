//! `client.upload(file, { onProgress, signal, resume })`: a file from the
//! person's computer to the site's gateway (tus, resumable, in 4 MiB
//! pieces), judged first by the contract's rules from its first bytes, as
//! the app's file fields do; resolves to `{ url, expiresAt, type }`, the
//! `url` what a request's media field takes.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::Function;
use media_gen_api::media_type::check_media;
use media_gen_client::upload::{first_bytes, UploadError, UploadWatch};
use wasm_bindgen::prelude::*;
use web_sys::{AbortSignal, Blob};

use super::bridge::{client_error, error_with, options_error};
use super::js_client::JsClient;

#[wasm_bindgen]
extern "C" {
    /// `upload`'s options (declared in `types.d.ts`).
    #[wasm_bindgen(typescript_type = "UploadOptions")]
    pub type UploadOptions;
}

/// The option `name` of `options`, when given.
fn option(options: &JsValue, name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(options, &JsValue::from_str(name))
        .ok()
        .filter(|value| !value.is_undefined() && !value.is_null())
}

/// An upload that ended without its address, as an `Error` with `kind`.
fn upload_error(error: &UploadError) -> JsValue {
    let (kind, retryable) = match error {
        UploadError::Refused(_) => ("http", false),
        UploadError::Network => ("network", true),
        UploadError::Aborted => ("aborted", false),
    };
    error_with(
        &error.to_string(),
        &[
            ("kind", JsValue::from_str(kind)),
            ("retryable", JsValue::from_bool(retryable)),
        ],
    )
}

#[wasm_bindgen(js_class = MediaGenClient)]
impl JsClient {
    /// Upload `file` to the site's gateway. Rejects with `kind: "options"`
    /// naming `file` when the service would not take it (its type from its
    /// first bytes, its size), or `baseUrl` when the site takes no uploads.
    #[wasm_bindgen(unchecked_return_type = "Promise<Uploaded>")]
    pub fn upload(&self, file: Blob, options: Option<UploadOptions>) -> js_sys::Promise {
        let options: JsValue = options.map_or(JsValue::UNDEFINED, Into::into);
        let on_progress =
            option(&options, "onProgress").and_then(|f| f.dyn_into::<Function>().ok());
        let signal = option(&options, "signal").and_then(|s| s.dyn_into::<AbortSignal>().ok());
        let resume = option(&options, "resume").and_then(|url| url.as_string());
        let client = self.client.clone();
        // Boxed as every method's call is: one copy of the Promise plumbing.
        let call: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>> = Box::pin(async move {
            let offered = client
                .capabilities(signal.as_ref())
                .await
                .map_err(|error| client_error(&error))?
                .uploads
                .ok_or_else(|| {
                    options_error(
                        "baseUrl",
                        "this site takes no uploads (its /capabilities names none)",
                    )
                })?;
            // Whole bytes as integers: no float is formatted on the way.
            let size = file.size() as u64;
            let media = check_media(&first_bytes(&file).await, size, offered.max_video_bytes)
                .map_err(|refusal| {
                    let rule = refusal.to_string();
                    options_error("file", rule.trim_start_matches("file: "))
                })?;
            let name = file.dyn_ref::<web_sys::File>().map_or_else(
                || format!("file.{}", media.extension()),
                web_sys::File::name,
            );
            let total = JsValue::from_f64(size as f64);
            let watch = UploadWatch {
                created: Rc::new(|_| {}),
                progress: Rc::new(move |sent| {
                    if let Some(report) = &on_progress {
                        let _ =
                            report.call2(&JsValue::NULL, &JsValue::from_f64(sent as f64), &total);
                    }
                }),
                waiting: Rc::new(|_| {}),
            };
            let uploaded = client
                .upload(&offered.path, &file, &name, resume, &watch, signal.as_ref())
                .await
                .map_err(|error| upload_error(&error))?;
            let result = js_sys::Object::new();
            let set = |key: &str, value: JsValue| {
                let _ = js_sys::Reflect::set(&result, &JsValue::from_str(key), &value);
            };
            set("url", JsValue::from_str(&uploaded.url));
            set(
                "expiresAt",
                uploaded.expires.map_or(JsValue::NULL, |date| {
                    js_sys::Date::new(&JsValue::from_str(&date)).into()
                }),
            );
            set("type", JsValue::from_str(media.mime()));
            Ok(result.into())
        });
        wasm_bindgen_futures::future_to_promise(call)
    }
}
