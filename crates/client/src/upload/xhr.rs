//! One `XMLHttpRequest` as a future: the only browser call that reports an
//! upload's progress as its bytes leave (fetch does not), cancellable by an
//! `AbortSignal`.

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::oneshot;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{AbortSignal, Blob, ProgressEvent, XmlHttpRequest};

/// What came back.
pub struct XhrAnswer {
    xhr: XmlHttpRequest,
}

impl XhrAnswer {
    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.xhr.status().unwrap_or(0)
    }

    /// A response header.
    pub fn header(&self, name: &str) -> Option<String> {
        self.xhr.get_response_header(name).ok().flatten()
    }

    /// The body, as text.
    pub fn text(&self) -> String {
        self.xhr.response_text().ok().flatten().unwrap_or_default()
    }
}

/// Why no answer came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XhrFailed {
    /// The network failed (or the connection was cut).
    Network,
    /// The caller cancelled.
    Aborted,
}

/// A request to send.
pub struct Xhr<'a> {
    /// `POST`, `HEAD`, `PATCH`, `DELETE`.
    pub method: &'a str,
    /// The full URL.
    pub url: &'a str,
    /// Headers to send.
    pub headers: Vec<(&'a str, String)>,
    /// The body, if any.
    pub body: Option<Blob>,
}

impl Xhr<'_> {
    /// Send it; `progress` hears the body's bytes sent so far.
    pub async fn send(
        self,
        progress: Rc<dyn Fn(u64)>,
        cancel: Option<&AbortSignal>,
    ) -> Result<XhrAnswer, XhrFailed> {
        let xhr = XmlHttpRequest::new().map_err(|_| XhrFailed::Network)?;
        xhr.open_with_async(self.method, self.url, true)
            .map_err(|_| XhrFailed::Network)?;
        for (name, value) in &self.headers {
            xhr.set_request_header(name, value)
                .map_err(|_| XhrFailed::Network)?;
        }
        let (done, finished) = oneshot::channel::<Result<(), XhrFailed>>();
        let done = Rc::new(RefCell::new(Some(done)));
        let end = |outcome: Result<(), XhrFailed>| {
            let done = Rc::clone(&done);
            Closure::<dyn FnMut()>::new(move || {
                if let Some(done) = done.borrow_mut().take() {
                    let _ = done.send(outcome);
                }
            })
        };
        let (on_load, on_error, on_abort) = (
            end(Ok(())),
            end(Err(XhrFailed::Network)),
            end(Err(XhrFailed::Aborted)),
        );
        xhr.set_onload(Some(on_load.as_ref().unchecked_ref()));
        xhr.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        xhr.set_ontimeout(Some(on_error.as_ref().unchecked_ref()));
        xhr.set_onabort(Some(on_abort.as_ref().unchecked_ref()));
        let on_progress = Closure::<dyn FnMut(ProgressEvent)>::new(move |event: ProgressEvent| {
            progress(event.loaded() as u64);
        });
        if let Ok(upload) = xhr.upload() {
            upload.set_onprogress(Some(on_progress.as_ref().unchecked_ref()));
        }
        let aborting = cancel.map(|signal| {
            let xhr = xhr.clone();
            gloo_events::EventListener::once(signal, "abort", move |_| {
                let _ = xhr.abort();
            })
        });
        if cancel.is_some_and(AbortSignal::aborted) {
            return Err(XhrFailed::Aborted);
        }
        let sent = match &self.body {
            Some(body) => xhr.send_with_opt_blob(Some(body)),
            None => xhr.send(),
        };
        if sent.is_err() {
            return Err(XhrFailed::Network);
        }
        let outcome = finished.await.unwrap_or(Err(XhrFailed::Aborted));
        if let Ok(upload) = xhr.upload() {
            upload.set_onprogress(None);
        }
        drop((on_load, on_error, on_abort, on_progress, aborting));
        outcome.map(|()| XhrAnswer { xhr })
    }
}
