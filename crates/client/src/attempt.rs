//! One HTTP attempt: fetch with a timeout, cancellable by the caller.

use std::time::Duration;

use gloo_net::http::{Method, RequestBuilder};
use web_sys::AbortSignal;

/// What came back from one attempt that got an answer.
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The `Retry-After` header, as sent.
    pub retry_after: Option<String>,
    /// The whole body as the browser's `JSON.parse` read it (`undefined`
    /// when it is not JSON).
    pub body: wasm_bindgen::JsValue,
    /// What a gateway said of a submit beside its answer.
    pub heard: Heard,
}

/// What a gateway says of a submit in its answer's headers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Heard {
    /// The relay's capability, when it relays this submit's callbacks
    /// (`media-gen-relay`).
    pub relay: Option<String>,
    /// The request's id in the person's library, when it keeps one
    /// (`media-gen-library-request`).
    pub library: Option<String>,
}

/// Why an attempt got no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoAnswer {
    /// fetch failed: network, DNS, refused connection, CORS.
    Network,
    /// The per-attempt timeout fired.
    Timeout,
    /// The caller's signal aborted.
    Aborted,
}

/// One request.
pub struct Attempt<'a> {
    /// GET or POST.
    pub method: Method,
    /// The full URL.
    pub url: &'a str,
    /// A JSON body, for POST.
    pub body: Option<&'a str>,
    /// The bearer token, if any.
    pub token: Option<&'a str>,
    /// The per-attempt timeout.
    pub timeout: Duration,
}

impl Attempt<'_> {
    /// Send it. The fetch (body included) is cancelled when the timeout fires
    /// or `cancel` aborts; both are tied to one combined signal, so nothing
    /// keeps running afterwards.
    pub async fn send(&self, cancel: Option<&AbortSignal>) -> Result<Answer, NoAnswer> {
        let millis = u32::try_from(self.timeout.as_millis()).unwrap_or(u32::MAX);
        let timeout = AbortSignal::timeout_with_u32(millis);
        let signal = match cancel {
            Some(cancel) => AbortSignal::any(&js_sys::Array::of2(cancel, &timeout)),
            None => timeout.clone(),
        };
        let why = || {
            if cancel.is_some_and(AbortSignal::aborted) {
                NoAnswer::Aborted
            } else if timeout.aborted() {
                NoAnswer::Timeout
            } else {
                NoAnswer::Network
            }
        };
        let mut builder = RequestBuilder::new(self.url)
            .method(self.method.clone())
            .header("Accept", "application/json")
            .abort_signal(Some(&signal));
        if let Some(token) = self.token {
            builder = builder.header("Authorization", &format!("Bearer {token}"));
        }
        let request = match self.body {
            Some(body) => builder
                .header("Content-Type", "application/json")
                .body(body),
            None => builder.build(),
        }
        .map_err(|_| NoAnswer::Network)?;
        let response = request.send().await.map_err(|_| why())?;
        let retry_after = response.headers().get("retry-after");
        let heard = Heard {
            relay: response.headers().get(media_gen_api::relay::RELAY_HEADER),
            // Only the app's pages sign a person in and keep their library.
            #[cfg(feature = "access")]
            library: response
                .headers()
                .get(media_gen_api::library::LIBRARY_HEADER),
            #[cfg(not(feature = "access"))]
            library: None,
        };
        let body = response.text().await.map_err(|_| why())?;
        let body = crate::value_reader::parse(&body);
        Ok(Answer {
            status: response.status(),
            retry_after,
            body,
            heard,
        })
    }
}
