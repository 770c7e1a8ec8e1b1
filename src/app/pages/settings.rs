//! Where the user sets the service address and token.

use leptos::prelude::*;

use crate::app::settings::{Settings, TokenSource};

/// The settings page: base URL and token.
#[component]
pub fn SettingsPage() -> impl IntoView {
    let settings = Settings::expect();
    let token_note = move || match settings.token_source.get() {
        TokenSource::None => "No token: requests will be refused unless a proxy adds one.",
        TokenSource::User => "Kept in this tab only; it is gone when the tab closes.",
        TokenSource::SandboxDemo => "The sandbox that serves this page shared its demo token.",
    };
    view! {
        <section class="settings" aria-labelledby="settings-title">
            <h1 id="settings-title">"Settings"</h1>
            <div class="field">
                <label for="base-url">"Service base URL"</label>
                <input
                    id="base-url"
                    type="url"
                    autocomplete="url"
                    prop:value=move || settings.base_url.get()
                    on:change=move |ev| settings.set_base_url(&event_target_value(&ev))
                />
                <p class="hint">"Requests go to this address followed by /v1/…"</p>
            </div>
            <div class="field">
                <label for="token">"Access token"</label>
                <input
                    id="token"
                    type="password"
                    autocomplete="off"
                    spellcheck="false"
                    prop:value=move || settings.token.get()
                    on:change=move |ev| settings.set_token(&event_target_value(&ev))
                />
                <p class="hint" aria-live="polite">{token_note}</p>
            </div>
        </section>
    }
}
