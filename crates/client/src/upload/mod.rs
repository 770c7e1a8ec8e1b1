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

use media_gen_api::tus;
use media_gen_api::upload::{Answer, Event, News, Step, Upload, UploadFailure};
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
        asked.is_ok_and(|answer| tus::after_head(answer.status()) == tus::AfterHead::Gone)
    }

    /// Upload `file` as `name` to the gateway's tus `path` (`/uploads/`),
    /// or go on with the upload at `resume` (one made before a reload): the
    /// finished upload. The contract's [`Upload`] machine decides each
    /// step; this carries them out.
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
        let (mut upload, mut step) = Upload::start(file.size() as u64, resume);
        // The last answer: a refusal's message is read from it.
        let mut last = None;
        loop {
            let event = match step {
                Step::Done { url, expires } => {
                    tell(watch, upload.take_news());
                    return Ok(Uploaded { url, expires });
                }
                Step::Fail(failure) => {
                    return Err(match (failure, &last) {
                        (UploadFailure::Refused, Some(answer)) => refusal(answer),
                        (UploadFailure::Refused, None) => {
                            UploadError::Refused("the gateway refused the upload".to_owned())
                        }
                        (UploadFailure::NoAddress, _) => {
                            UploadError::Refused("the gateway named no upload address".to_owned())
                        }
                        (UploadFailure::Network, _) => UploadError::Network,
                    })
                }
                Step::Wait(wait) => {
                    tell(watch, upload.take_news());
                    sleep(wait, cancel)
                        .await
                        .map_err(|()| UploadError::Aborted)?;
                    Event::Waited
                }
                Step::Create => {
                    let mut headers = self.tus_headers().await;
                    headers.push(("Upload-Length", upload.size().to_string()));
                    if let Some(name) = metadata_name(name) {
                        headers.push(("Upload-Metadata", format!("filename {name}")));
                    }
                    let url = format!("{}{path}", self.base_url());
                    let create = Xhr {
                        method: "POST",
                        url: &url,
                        headers,
                        body: None,
                    };
                    heard(create.send(Rc::new(|_| {}), cancel).await, &mut last)?
                }
                Step::Ask { url } => {
                    let ask = Xhr {
                        method: "HEAD",
                        url: &url,
                        headers: self.tus_headers().await,
                        body: None,
                    };
                    heard(ask.send(Rc::new(|_| {}), cancel).await, &mut last)?
                }
                Step::Send { url, from, to } => {
                    let piece = file
                        .slice_with_f64_and_f64(from as f64, to as f64)
                        .map_err(|_| {
                            UploadError::Refused("the file could not be read".to_owned())
                        })?;
                    let mut headers = self.tus_headers().await;
                    headers.push(("Upload-Offset", from.to_string()));
                    headers.push(("Content-Type", "application/offset+octet-stream".to_owned()));
                    let progress = Rc::clone(&watch.progress);
                    let piece = Xhr {
                        method: "PATCH",
                        url: &url,
                        headers,
                        body: Some(piece),
                    };
                    let sent = piece
                        .send(Rc::new(move |bytes| progress(from + bytes)), cancel)
                        .await;
                    heard(sent, &mut last)?
                }
            };
            step = upload.on(event);
            tell(watch, upload.take_news());
        }
    }
}

/// What a request of an upload got, as the machine hears of it (`last`
/// keeps the answer, whose message a refusal reads); only a cancel ends the
/// upload here.
fn heard(
    sent: Result<XhrAnswer, XhrFailed>,
    last: &mut Option<XhrAnswer>,
) -> Result<Event, UploadError> {
    match sent {
        Ok(answer) => {
            let event = Event::Answered(Answer {
                status: answer.status(),
                offset: offset_of(&answer),
                location: answer.header("Location"),
                expires: answer.header("Upload-Expires"),
            });
            *last = Some(answer);
            Ok(event)
        }
        Err(XhrFailed::Aborted) => Err(UploadError::Aborted),
        Err(XhrFailed::Network) => Ok(Event::NoAnswer),
    }
}

/// Tell the page the machine's `news`.
fn tell(watch: &UploadWatch, news: Vec<News>) {
    for news in news {
        match news {
            News::Created(url) => (watch.created)(&url),
            News::Progress(offset) => (watch.progress)(offset),
            News::Waiting(waiting) => (watch.waiting)(waiting),
        }
    }
}

/// `Upload-Offset`, read.
fn offset_of(answer: &XhrAnswer) -> Option<u64> {
    answer.header("Upload-Offset")?.trim().parse().ok()
}
