//! Uploading a file from the person's computer to a gateway that takes
//! uploads (its `/capabilities` names the tus path): tus 1.0, the file sent
//! in pieces of [`CHUNK_BYTES`], each `PATCH` reporting its bytes as they
//! leave. A dropped connection costs at most the piece in flight: the
//! upload waits (longer each time, up to [`MAX_WAIT`]), asks the gateway
//! where it stands (`HEAD`) and goes on from there; given an upload's
//! address from before (a reload), it resumes that one. The gateway's
//! refusals come back with its message, which names the rule.

mod xhr;

use std::rc::Rc;

use media_gen_api::tus::{self, AfterHead, AfterPatch};
use media_gen_api::ErrorEnvelope;
use web_sys::{AbortSignal, Blob};

use crate::abort::sleep;
use crate::Client;
use xhr::{Xhr, XhrAnswer, XhrFailed};

pub use media_gen_api::tus::{CHUNK_BYTES, MAX_WAIT};

/// Why an upload ended without its address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    /// The gateway refused it: its message, which names the rule.
    #[error("{0}")]
    Refused(String),
    /// The network stayed down through every try.
    #[error("the network stayed down; try again when it is back")]
    Network,
    /// Cancelled.
    #[error("cancelled")]
    Aborted,
}

/// A finished upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uploaded {
    /// Its address, which the service fetches.
    pub url: String,
    /// When the gateway deletes it unless a task holds it (its
    /// `Upload-Expires`, an HTTP date), when it says.
    pub expires: Option<String>,
}

/// The first [`SNIFF_BYTES`](media_gen_api::media_type::SNIFF_BYTES) of
/// `file`, which decide its type (none when it cannot be read).
pub async fn first_bytes(file: &Blob) -> Vec<u8> {
    use wasm_bindgen::JsCast;
    let count = media_gen_api::media_type::SNIFF_BYTES as i32;
    let Ok(start) = file.slice_with_i32_and_i32(0, count) else {
        return Vec::new();
    };
    match wasm_bindgen_futures::JsFuture::from(start.array_buffer()).await {
        Ok(buffer) => buffer
            .dyn_into::<js_sys::ArrayBuffer>()
            .map(|buffer| js_sys::Uint8Array::new(&buffer).to_vec())
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

/// What an upload tells as it goes.
#[derive(Clone)]
pub struct UploadWatch {
    /// The upload's address, as soon as the gateway made it (keep it to
    /// resume after a reload).
    pub created: Rc<dyn Fn(&str)>,
    /// Bytes the gateway has, or that are on their way.
    pub progress: Rc<dyn Fn(u64)>,
    /// `true` while waiting for the network to come back, `false` once
    /// bytes flow again.
    pub waiting: Rc<dyn Fn(bool)>,
}

/// Where an upload stands, as `HEAD` says.
enum Stands {
    At(u64),
    Gone,
}

/// The refusal's message out of a gateway's error envelope.
fn refusal(answer: &XhrAnswer) -> UploadError {
    // Read by the browser, as every answer is: no JSON reader in the wasm.
    let message =
        crate::value_reader::read::<ErrorEnvelope>(&crate::value_reader::parse(&answer.text()))
            .map(|envelope| envelope.msg)
            .unwrap_or_else(|_| format!("the gateway answered HTTP {}", answer.status()));
    UploadError::Refused(message)
}

/// `name` as tus's `Upload-Metadata` carries it: base64 (the browser's
/// `btoa`) of the contract's safe form of the name.
fn metadata_name(name: &str) -> Option<String> {
    web_sys::window()?.btoa(&tus::metadata_name(name)).ok()
}

impl Client {
    /// The headers every tus request carries: the version, and the token.
    async fn tus_headers(&self) -> Vec<(&'static str, String)> {
        let mut headers = vec![("Tus-Resumable", "1.0.0".to_owned())];
        if let Some(token) = self.token().await {
            headers.push(("Authorization", format!("Bearer {token}")));
        }
        headers
    }

    /// A new upload of `size` bytes named `name` at `{base}{path}`: its address.
    async fn create(
        &self,
        path: &str,
        size: u64,
        name: &str,
        cancel: Option<&AbortSignal>,
    ) -> Result<String, UploadError> {
        let mut headers = self.tus_headers().await;
        headers.push(("Upload-Length", size.to_string()));
        if let Some(name) = metadata_name(name) {
            headers.push(("Upload-Metadata", format!("filename {name}")));
        }
        let url = format!("{}{path}", self.base_url());
        let made = Xhr {
            method: "POST",
            url: &url,
            headers,
            body: None,
        }
        .send(Rc::new(|_| {}), cancel)
        .await
        .map_err(failed)?;
        if made.status() != tus::CREATED {
            return Err(refusal(&made));
        }
        made.header("Location")
            .ok_or_else(|| UploadError::Refused("the gateway named no upload address".to_owned()))
    }

    /// Where the upload at `url` stands.
    async fn stands(&self, url: &str, cancel: Option<&AbortSignal>) -> Result<Stands, UploadError> {
        let answer = Xhr {
            method: "HEAD",
            url,
            headers: self.tus_headers().await,
            body: None,
        }
        .send(Rc::new(|_| {}), cancel)
        .await
        .map_err(failed)?;
        match tus::after_head(answer.status()) {
            AfterHead::Stands => Ok(Stands::At(offset_of(&answer).unwrap_or(0))),
            AfterHead::Gone => Ok(Stands::Gone),
            AfterHead::Passing => Err(UploadError::Network),
            AfterHead::Refused => Err(refusal(&answer)),
        }
    }

    /// Whether the upload at `url` is gone from its gateway (expired, or
    /// never there): a re-run naming it would fail at the service. `false`
    /// when the gateway cannot be asked (the service will say).
    pub async fn upload_gone(&self, url: &str) -> bool {
        let asked = Xhr {
            method: "HEAD",
            url,
            headers: Vec::new(),
            body: None,
        }
        .send(Rc::new(|_| {}), None)
        .await;
        asked.is_ok_and(|answer| matches!(answer.status(), 404 | 410))
    }

    /// Upload `file` as `name` to the gateway's tus `path` (`/uploads/`),
    /// or go on with the upload at `resume` (one made before a reload): the
    /// finished upload.
    pub async fn upload(
        &self,
        path: &str,
        file: &Blob,
        name: &str,
        resume: Option<String>,
        watch: &UploadWatch,
        cancel: Option<&AbortSignal>,
    ) -> Result<Uploaded, UploadError> {
        // Sizes are whole bytes: no float is formatted or parsed here.
        let size = file.size() as u64;
        let (mut url, mut offset) = match resume {
            Some(url) => match self.stands(&url, cancel).await? {
                Stands::At(offset) => (url, offset),
                Stands::Gone => (self.create(path, size, name, cancel).await?, 0),
            },
            None => (self.create(path, size, name, cancel).await?, 0),
        };
        (watch.created)(&url);
        (watch.progress)(offset);
        let mut failures = 0;
        let mut expires = None;
        while offset < size {
            let end = (offset + CHUNK_BYTES).min(size);
            let piece = file
                .slice_with_f64_and_f64(offset as f64, end as f64)
                .map_err(|_| UploadError::Refused("the file could not be read".to_owned()))?;
            let mut headers = self.tus_headers().await;
            headers.push(("Upload-Offset", offset.to_string()));
            headers.push(("Content-Type", "application/offset+octet-stream".to_owned()));
            let from = offset;
            let progress = Rc::clone(&watch.progress);
            let sent = Xhr {
                method: "PATCH",
                url: &url,
                headers,
                body: Some(piece),
            }
            .send(Rc::new(move |bytes| progress(from + bytes)), cancel)
            .await;
            let after = match &sent {
                Ok(answer) => tus::after_patch(answer.status()),
                Err(XhrFailed::Aborted) => return Err(UploadError::Aborted),
                Err(XhrFailed::Network) => AfterPatch::WaitThenAsk,
            };
            match (after, sent) {
                (AfterPatch::Kept, Ok(answer)) => {
                    offset = offset_of(&answer).unwrap_or(end);
                    expires = answer.header("Upload-Expires");
                    if failures > 0 {
                        (watch.waiting)(false);
                    }
                    failures = 0;
                    continue;
                }
                (AfterPatch::Refused, Ok(answer)) => return Err(refusal(&answer)),
                (AfterPatch::WaitThenAsk, _) => {
                    failures += 1;
                    let wait = tus::wait_before(failures).ok_or(UploadError::Network)?;
                    (watch.waiting)(true);
                    sleep(wait, cancel)
                        .await
                        .map_err(|()| UploadError::Aborted)?;
                }
                // Another offset, or gone from under it: what the gateway
                // says now decides, at once.
                _ => {}
            }
            // Where the gateway stands decides where to go on from.
            match self.stands(&url, cancel).await {
                Ok(Stands::At(at)) => offset = at,
                Ok(Stands::Gone) => {
                    url = self.create(path, size, name, cancel).await?;
                    (watch.created)(&url);
                    offset = 0;
                }
                Err(UploadError::Network) => {}
                Err(other) => return Err(other),
            }
            (watch.progress)(offset);
        }
        (watch.waiting)(false);
        Ok(Uploaded { url, expires })
    }
}

/// `Upload-Offset`, read.
fn offset_of(answer: &XhrAnswer) -> Option<u64> {
    answer.header("Upload-Offset")?.trim().parse().ok()
}

/// An XHR that got no answer, as an upload's error.
fn failed(why: XhrFailed) -> UploadError {
    match why {
        XhrFailed::Aborted => UploadError::Aborted,
        XhrFailed::Network => UploadError::Network,
    }
}
