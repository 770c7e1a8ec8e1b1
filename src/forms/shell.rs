//! The frame every form shares: the `<form>` with Ctrl/Cmd+Enter, the
//! request preview, the submit button and the failure notice.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::{Problems, Request};

use super::host::SubmitHandler;
use crate::components::curl_copy::absolute_url;
use crate::components::{marks, CurlCopy};

/// The request as the service will receive it: method, path and JSON body.
fn preview(request: &Request) -> String {
    let body = serde_json::to_string_pretty(&request.to_json()).unwrap_or_default();
    format!("POST {}\n\n{body}", request.kind().submit_path())
}

/// "Fix 2 problems to submit", or nothing when the request is valid.
fn blocking_text(problems: &Problems) -> Option<String> {
    match problems.errors().count() {
        0 => None,
        1 => Some("Fix 1 problem to submit".to_owned()),
        n => Some(format!("Fix {n} problems to submit")),
    }
}

/// A task form around `children` (the fields). Submit is disabled while the
/// request has errors or a submit is out; Ctrl+Enter (⌘+Enter) submits from
/// any field; the request that will be sent is shown on demand.
#[component]
pub fn TaskForm(
    /// Sends the request.
    submit: SubmitHandler,
    /// The request the fields make.
    #[prop(into)]
    request: Signal<Request>,
    /// Its problems, as the user types.
    problems: Memo<Problems>,
    /// The submit button's text: "Generate", "Translate".
    action: &'static str,
    /// The service's base URL, for "copy as cURL".
    base_url: Signal<String>,
    /// The token for "copy as cURL".
    token: Signal<Option<String>>,
    /// The fields.
    children: Children,
) -> impl IntoView {
    let curl_url = Signal::derive(move || {
        absolute_url(&base_url.get(), &request.with(|r| r.kind().submit_path()))
    });
    let curl_body = Signal::derive(move || {
        serde_json::to_string(&request.with(Request::to_json)).unwrap_or_default()
    });
    let submitting = RwSignal::new(false);
    let failure = RwSignal::new(None::<String>);
    let handler = StoredValue::new_local(submit);
    let blocked = move || submitting.get() || problems.with(Problems::has_errors);

    let send = move || {
        if submitting.get_untracked() || problems.with_untracked(Problems::has_errors) {
            return;
        }
        submitting.set(true);
        failure.set(None);
        let sent = handler.with_value(|submit| submit(request.get_untracked()));
        spawn_local(async move {
            let result = sent.await;
            // On success the host usually navigates away and this form is gone.
            if let Err(message) = result {
                failure.try_set(Some(message));
            }
            submitting.try_set(false);
        });
    };
    // The first form on the page is ready for input now: a Performance mark
    // the load benchmark reads (navigation start → interactive form).
    Effect::new(|_| marks::mark_once(marks::FORM_INTERACTIVE));
    let send_on_key = move |ev: KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            send();
        }
    };

    view! {
        <form
            class="task-form"
            part="form"
            novalidate
            on:submit=move |ev| {
                ev.prevent_default();
                send();
            }
            on:keydown=send_on_key
        >
            {children()}
            <details class="request-preview">
                <summary>"Show the request"</summary>
                <pre id="request-json"><code>{move || request.with(preview)}</code></pre>
            </details>
            <p class="request-copy">
                <CurlCopy method="POST" url=curl_url body=curl_body token label="Copy the request as cURL".to_owned()/>
            </p>
            <div class="actions">
                <button id="submit" part="submit" type="submit" disabled=blocked>
                    {move || if submitting.get() { "Submitting…" } else { action }}
                </button>
                <span class="hint" id="submit-state">
                    {move || problems.with(blocking_text).unwrap_or_else(|| "Ctrl+Enter or ⌘+Enter".to_owned())}
                </span>
            </div>
            {move || failure.get().map(|message| view! { <p class="notice" id="submit-failure" role="alert">{message}</p> })}
        </form>
    }
}
