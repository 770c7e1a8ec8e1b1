//! "Copy as cURL": the exact request as a command line. The token is
//! written as `$MEDIA_GEN_TOKEN` unless the person asks to include it, so a
//! command pasted into a chat or a ticket gives nothing away.

use leptos::prelude::*;
use media_gen_api::curl::{curl_command, CurlToken, TOKEN_VARIABLE};

use super::CopyButton;

/// An absolute URL for `base_url` + `path`: a base given as a path (a
/// widget behind the site's own proxy) is resolved against this page.
pub fn absolute_url(base_url: &str, path: &str) -> String {
    if base_url.starts_with("http://") || base_url.starts_with("https://") {
        format!("{base_url}{path}")
    } else {
        let origin = window().location().origin().unwrap_or_default();
        format!("{origin}{base_url}{path}")
    }
}

/// The copy button and, when there is a token, "include my token".
#[component]
pub fn CurlCopy(
    /// `GET` or `POST`.
    method: &'static str,
    /// The request's absolute URL.
    #[prop(into)]
    url: Signal<String>,
    /// The JSON body of a `POST`.
    #[prop(optional, into)]
    body: Option<Signal<String>>,
    /// The bearer token in use, if any; `""` when one is used but not known
    /// here (then only the masked form is offered).
    #[prop(into)]
    token: Signal<Option<String>>,
    /// Names the request for screen readers, after the visible "Copy as
    /// cURL": "of the submit".
    detail: String,
) -> impl IntoView {
    let include = RwSignal::new(false);
    let command = Signal::derive(move || {
        let token = token.get();
        let token = match (&token, include.get()) {
            (Some(token), true) if !token.is_empty() => CurlToken::Included(token),
            (Some(_), _) => CurlToken::Masked,
            (None, _) => CurlToken::None,
        };
        let body = body.map(|body| body.get());
        curl_command(method, &url.get(), token, body.as_deref())
    });
    let has_token = move || token.with(|token| token.as_ref().is_some_and(|t| !t.is_empty()));
    view! {
        <span class="curl-copy">
            <CopyButton text=command detail idle="Copy as cURL"/>
            <Show when=has_token>
                <label class="curl-copy__token" title=format!("Otherwise the command reads the token from ${TOKEN_VARIABLE}")>
                    <input type="checkbox" class="curl-include-token" prop:checked=move || include.get()
                        on:change=move |ev| include.set(event_target_checked(&ev))/>
                    "Include my token"
                </label>
            </Show>
        </span>
    }
}
