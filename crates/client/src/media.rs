//! Result files read from this page: a caption file as text, a result as a
//! `blob:` URL of this page (so a download keeps its name), text handed to
//! the player as a `blob:` URL. The service's media hosts are other
//! origins: what they refuse to share (no CORS headers, or a page policy
//! that does not list them) comes back as [`MediaError::Unreachable`].

use gloo_net::http::{Request, Response};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Why a result file could not be read from this page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    /// No answer this page may read: the host sends no CORS headers, the
    /// page's policy does not list it, or the network failed.
    #[error("the file could not be read from this page (its host may not allow it)")]
    Unreachable,
    /// The host answered with this HTTP status.
    #[error("the file answered HTTP {0}")]
    Status(u16),
    /// The answer arrived but its body could not be read.
    #[error("the file could not be read")]
    Unreadable,
    /// The browser could not make a `blob:` URL.
    #[error("the browser could not hold the file")]
    NoBlob,
}

/// `GET url`, refusing answers that are not 2xx.
async fn get(url: &str) -> Result<Response, MediaError> {
    let response = Request::get(url)
        .send()
        .await
        .map_err(|_| MediaError::Unreachable)?;
    if response.ok() {
        Ok(response)
    } else {
        Err(MediaError::Status(response.status()))
    }
}

/// The file at `url` as text.
pub async fn fetch_text(url: &str) -> Result<String, MediaError> {
    get(url)
        .await?
        .text()
        .await
        .map_err(|_| MediaError::Unreadable)
}

/// The file at `url` as a `blob:` URL of this page. Free it with
/// [`revoke_blob_url`] once used.
pub async fn fetch_blob_url(url: &str) -> Result<String, MediaError> {
    let response = web_sys::Response::from(get(url).await?);
    let blob = response.blob().map_err(|_| MediaError::Unreadable)?;
    let blob: web_sys::Blob = JsFuture::from(blob)
        .await
        .and_then(JsValue::dyn_into)
        .map_err(|_| MediaError::Unreadable)?;
    web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| MediaError::NoBlob)
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
