//! The optional callback URL, under "Advanced", with a sandbox's inbox one
//! click away when the form talks to a sandbox.

use super::MakeFormClient;
use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::Problems;

use crate::components::{Field, FieldProblems};

/// The inbox the app's callbacks go to on a sandbox.
pub const INBOX_NAME: &str = "app";

/// The inbox URL at `base_url`, whose sandbox keeps inboxes under `inboxes`
/// (`/sandbox/inbox`).
pub fn inbox_url(base_url: &str, inboxes: &str) -> String {
    format!(
        "{}{}/{INBOX_NAME}",
        base_url.trim_end_matches('/'),
        inboxes.trim_end_matches('/')
    )
}

/// `callback_url`: where the service sends the result when the task ends.
/// Folded under "Advanced" (open when it holds one). "Use the sandbox
/// inbox" shows only when the base URL's server says it is a sandbox
/// (`/capabilities`), asked once the section is opened: the service and a
/// site's gateway have no inbox.
#[component]
pub fn CallbackField(
    /// The URL typed so far (blank: no callback).
    value: RwSignal<String>,
    /// The form's problems.
    problems: Memo<Problems>,
    /// The service's base URL, for the sandbox inbox.
    base_url: Signal<String>,
    /// A client for the base URL, to ask whether it is a sandbox (kept
    /// local: clients are not `Send`).
    client: StoredValue<MakeFormClient, LocalStorage>,
) -> impl IntoView {
    // The inbox URL once the server said it is a sandbox, for the base URL asked.
    let inbox = RwSignal::new(None::<String>);
    let asked = RwSignal::new(None::<String>);
    let ask = move || {
        let base = base_url.get_untracked();
        if asked.with_untracked(|asked| asked.as_deref() == Some(base.as_str())) {
            return;
        }
        asked.set(Some(base.clone()));
        inbox.set(None);
        let client = client.with_value(|make| make());
        spawn_local(async move {
            let offered = client.capabilities().await.sandbox;
            if let Some(sandbox) = offered {
                inbox.set(Some(inbox_url(&base, &sandbox.inbox)));
            }
        });
    };
    let open = value.with_untracked(|value| !value.trim().is_empty());
    if open {
        ask();
    }
    let on_toggle = move |ev: leptos::ev::Event| {
        let opened = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
        if opened {
            ask();
        }
    };
    view! {
        <details class="advanced" open=open on:toggle=on_toggle>
            <summary>"Advanced: callback URL"</summary>
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
                    {move || inbox.get().map(|url| view! {
                        <button
                            type="button"
                            class="secondary"
                            id="use-inbox"
                            on:click=move |_| value.set(url.clone())
                        >
                            "Use the sandbox inbox"
                        </button>
                    })}
                </div>
                <p class="hint" id="callback_url-hint">
                    "The service posts the finished task to this address. Leave it empty unless a \
                     server of yours waits for it: with an address of your own, this page reads the \
                     task's status itself instead of hearing of its end through this site."
                    {move || inbox.get().map(|url| view! {
                        " This server is a sandbox: it keeps what it receives at "
                        <a href=url.clone() target="_blank" rel="noopener">{url.clone()}</a>
                        "."
                    })}
                </p>
                <FieldProblems problems field="callback_url"/>
            </Field>
        </details>
    }
}
