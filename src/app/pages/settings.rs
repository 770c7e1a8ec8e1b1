//! Where the user sets the service address and token.

use leptos::prelude::*;

use crate::app::settings::{Settings, TokenSource};
use crate::components::Field;

/// The settings page: base URL and token.
#[component]
pub fn SettingsPage() -> impl IntoView {
    let settings = Settings::expect();
    let token_note = Signal::derive(move || {
        match settings.token_source.get() {
            TokenSource::None => "No token: requests will be refused unless a proxy adds one.",
            TokenSource::User => "Kept in this tab only; it is gone when the tab closes.",
            TokenSource::SandboxDemo => "The sandbox that serves this page shared its demo token.",
        }
        .to_owned()
    });
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
        </section>
    }
}
