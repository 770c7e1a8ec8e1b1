//! The optional callback URL, with a one-click sandbox inbox.

use leptos::prelude::*;
use media_gen_api::Problems;

use crate::components::{Field, FieldProblems};

/// The inbox the app's callbacks go to on a sandbox.
pub const INBOX_NAME: &str = "app";

/// The sandbox inbox URL at `base_url`.
pub fn inbox_url(base_url: &str) -> String {
    format!(
        "{}/sandbox/inbox/{INBOX_NAME}",
        base_url.trim_end_matches('/')
    )
}

/// `callback_url`: where the service sends the result when the task ends.
#[component]
pub fn CallbackField(
    /// The URL typed so far (blank: no callback).
    value: RwSignal<String>,
    /// The form's problems.
    problems: Memo<Problems>,
    /// The service's base URL, for the sandbox inbox.
    base_url: Signal<String>,
) -> impl IntoView {
    let inbox = move || inbox_url(&base_url.get());
    view! {
        <Field id="callback_url" label="Callback URL (optional)">
            <div class="input-with-action">
                <input
                    id="callback_url"
                    type="url"
                    placeholder="https://example.com/hooks/media"
                    aria-describedby="callback_url-hint callback_url-problems"
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
                <button
                    type="button"
                    class="secondary"
                    id="use-inbox"
                    on:click=move |_| value.set(inbox())
                >
                    "Use the sandbox inbox"
                </button>
            </div>
            <p class="hint" id="callback_url-hint">
                "The service posts the finished task here. The sandbox keeps what it receives at "
                <a href=inbox target="_blank" rel="noopener">{inbox}</a>
                "."
            </p>
            <FieldProblems problems field="callback_url"/>
        </Field>
    }
}
