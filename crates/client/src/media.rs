//! Result files read from this page: a caption file as text, a result as a
//! `blob:` URL of this page (so a download keeps its name), text handed to
//! the player as a `blob:` URL. The service's media hosts are other
//! origins: what they refuse to share (no CORS headers, or a page policy
//! that does not list them) comes back as [`MediaError::Unreachable`].

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Why a result file could not be read from this page. The caller says it
/// in its own words (which file, what is still possible).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaError {
    /// No answer this page may read: the host sends no CORS headers, the
    /// page's policy does not list it, or the network failed.
    Unreachable,
    /// The host answered with this HTTP status.
    Status(u16),
    /// The answer arrived but its body could not be read.
    Unreadable,
    /// The browser could not make a `blob:` URL.
    NoBlob,
}

/// `GET url`, refusing answers that are not 2xx. The browser's own fetch:
/// a result file needs none of the service client's envelope or retries.
async fn get(url: &str) -> Result<web_sys::Response, MediaError> {
    let window = web_sys::window().ok_or(MediaError::Unreachable)?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .and_then(JsValue::dyn_into)
        .map_err(|_| MediaError::Unreachable)?;
    if response.ok() {
        Ok(response)
    } else {
        Err(MediaError::Status(response.status()))
    }
}

/// The body `read` (`text()` or `blob()`) promises.
async fn body(read: Result<js_sys::Promise, JsValue>) -> Result<JsValue, MediaError> {
    let promise = read.map_err(|_| MediaError::Unreadable)?;
    JsFuture::from(promise)
        .await
        .map_err(|_| MediaError::Unreadable)
}

/// The file at `url` as text.
pub async fn fetch_text(url: &str) -> Result<String, MediaError> {
    let response = get(url).await?;
    body(response.text())
        .await?
        .as_string()
        .ok_or(MediaError::Unreadable)
}

/// The file at `url` as a `blob:` URL of this page. Free it with
/// [`revoke_blob_url`] once used.
pub async fn fetch_blob_url(url: &str) -> Result<String, MediaError> {
    let blob = fetch_blob(url).await?;
    web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| MediaError::NoBlob)
}

/// The file at `url` as a `Blob` (the browser keeps its bytes, not this
/// page's memory).
pub async fn fetch_blob(url: &str) -> Result<web_sys::Blob, MediaError> {
    let response = get(url).await?;
    body(response.blob())
        .await?
        .dyn_into()
        .map_err(|_| MediaError::Unreadable)
}

/// A `blob:` URL holding `text` as `mime` (WebVTT for a player's track).
pub fn text_blob_url(text: &str, mime: &str) -> Result<String, MediaError> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| MediaError::NoBlob)?;
    web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| MediaError::NoBlob)
}

/// Free a `blob:` URL made here.
pub fn revoke_blob_url(url: &str) {
    let _ = web_sys::Url::revoke_object_url(url);
}
