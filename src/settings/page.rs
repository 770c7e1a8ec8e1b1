//! Where the user sets the service address and token, checks them, and
//! opts in to notifications.

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::settings::{Connection, Settings};
use crate::shell::notifications::Notifier;
use crate::task::share::SharedLinks;
use media_gen_client::Client;
use media_gen_ui::components::Field;

/// The outcome of "Test connection".
#[derive(Debug, Clone, PartialEq, Eq)]
enum Check {
    Idle,
    Testing,
    Connected(usize),
    Failed(String),
}

/// Read the language list once, quickly: a connection test should answer in
/// seconds, so no retries and a 10 s timeout.
async fn test_connection(settings: Settings) -> Check {
    let mut options = settings.client_options();
    options.retry.max_retries = 0;
    options.attempt_timeout = Duration::from_secs(10);
    match Client::new(options).target_languages(None).await {
        Ok(languages) => Check::Connected(languages.len()),
        Err(error) => Check::Failed(error.to_string()),
    }
}

/// The settings page: base URL, token, where the token is kept, a connection test.
#[component]
pub fn SettingsPage() -> impl IntoView {
    let settings = Settings::expect();
    let kind = settings.connection_kind();
    let token_note = Signal::derive(move || {
        match (kind.get(), settings.remember.get()) {
            (Connection::Gateway, _) => {
                "The service's access token, sent with each call when the base URL is the service's own address. \
                 Through this site's gateway none is needed: it adds the service's token to each call."
            }
            (Connection::NoToken, _) => {
                "Direct to a service, with no token: calls will be refused unless a proxy there adds one."
            }
            (Connection::Direct, false) => {
                "Direct to a service with your token, kept in this tab only; it is gone when the tab closes."
            }
            (Connection::Direct, true) => {
                "Direct to a service with your token, remembered on this device until you untick the box below."
            }
        }
        .to_owned()
    });
    let check = RwSignal::new(Check::Idle);
    let run_check = move |_| {
        check.set(Check::Testing);
        spawn_local(async move { check.set(test_connection(settings).await) });
    };
    let check_text = move || match check.get() {
        Check::Idle => String::new(),
        Check::Testing => "Testing…".to_owned(),
        Check::Connected(count) => {
            format!("Connected: the service offers {count} languages for translation.")
        }
        Check::Failed(message) => message,
    };
    let check_class = move || match check.get() {
        Check::Connected(_) => "check check--ok",
        Check::Failed(_) => "check check--failed",
        _ => "check",
    };
    view! {
        <section class="settings" aria-labelledby="settings-title">
            <h1 id="settings-title">"Settings"</h1>
            <Field
                id="base-url"
                label="Service base URL"
                hint="Requests go to this address followed by /v1/…".to_owned()
            >
                <input
                    id="base-url"
                    type="url"
                    autocomplete="url"
                    aria-describedby="base-url-hint"
                    prop:value=move || settings.base_url.get()
                    on:change=move |ev| settings.set_base_url(&event_target_value(&ev))
                />
            </Field>
            {move || (kind.get() != Connection::Gateway).then(|| view! {
                <p class="actions">
                    <button type="button" class="secondary" id="use-this-site"
                        on:click=move |_| settings.set_base_url(&crate::address::site_url())>
                        "Use this site again"
                    </button>
                    <span class="hint">"Through this site's gateway, which holds the service's token: nothing to set."</span>
                </p>
            })}
            <Field id="token" label="Access token" hint=token_note>
                <input
                    id="token"
                    type="password"
                    autocomplete="off"
                    spellcheck="false"
                    aria-describedby="token-hint"
                    prop:value=move || settings.token.get()
                    on:change=move |ev| settings.set_token(&event_target_value(&ev))
                />
            </Field>
            {move || (kind.get() == Connection::Gateway && !settings.token.with(String::is_empty)).then(|| view! {
                <p class="notice" id="token-unused" role="status">
                    "The token above is not used: this site's gateway sends the service its own token \
                     and drops any other, so it is not sent there. To use your token, enter the \
                     service's own address as the base URL."
                </p>
            })}
            <div class="field field--inline">
                <input
                    id="remember"
                    type="checkbox"
                    prop:checked=move || settings.remember.get()
                    on:change=move |ev| settings.set_remember(event_target_checked(&ev))
                />
                <label for="remember">"Remember on this device"</label>
            </div>
            <p class="hint">
                "A remembered token stays in this browser's local storage. Anyone who can use this \
                 browser can use it; leave the box unticked on shared machines."
            </p>
            <div class="actions">
                <button
                    id="test-connection"
                    type="button"
                    on:click=run_check
                    disabled=move || check.get() == Check::Testing
                >
                    "Test connection"
                </button>
                <p id="check-result" class=check_class role="status" aria-live="polite">{check_text}</p>
            </div>
            <Notifications/>
        </section>
        <SharedLinks/>
    }
}

/// The opt-in for browser notifications when tasks end in a hidden tab.
#[component]
fn Notifications() -> impl IntoView {
    let notifier = Notifier::expect();
    let problem = RwSignal::new(None::<String>);
    let toggle = move |_| {
        if notifier.enabled.get_untracked() {
            notifier.disable();
            problem.set(None);
        } else {
            spawn_local(async move {
                problem.try_set(notifier.enable().await.err());
            });
        }
    };
    view! {
        <h2>"Notifications"</h2>
        <p class="hint">
            "When tasks end while this tab is in the background, the tab's title counts them. \
             The browser can also notify you of each one."
        </p>
        <div class="actions">
            <button id="notifications" type="button" class="secondary" on:click=toggle
                aria-pressed=move || notifier.enabled.get().to_string()>
                {move || if notifier.enabled.get() { "Turn notifications off" } else { "Notify me when tasks end" }}
            </button>
            <p id="notifications-state" class="hint" role="status">
                {move || problem.get().unwrap_or_else(|| {
                    if notifier.enabled.get() { "Notifications are on." } else { "Notifications are off." }.to_owned()
                })}
            </p>
        </div>
    }
}
