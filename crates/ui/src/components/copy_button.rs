//! A button that copies a text (a task id, a link, a cURL command) to the clipboard.

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_client::clipboard;

/// "Copy id": says "Copied" (or why not) for a moment after a click.
#[component]
pub fn CopyButton(
    /// What to copy, as it is at the moment of the click.
    #[prop(into)]
    text: Signal<String>,
    /// What the button copies, read by screen readers after the visible
    /// text (which starts the accessible name, WCAG 2.5.3): "of task i2v-…".
    detail: String,
    /// The button's text.
    #[prop(default = "Copy id")]
    idle: &'static str,
) -> impl IntoView {
    let said = RwSignal::new(None::<&'static str>);
    let on_click = move |_| {
        let text = text.get_untracked();
        spawn_local(async move {
            let word = match clipboard::write_text(&text).await {
                Ok(()) => "Copied",
                Err(_) => "Copy blocked by the browser",
            };
            said.try_set(Some(word));
            gloo_timers::future::TimeoutFuture::new(2_000).await;
            said.try_set(None);
        });
    };
    let name = move || match said.get() {
        None => format!("{idle} {detail}"),
        Some(word) => word.to_owned(),
    };
    view! {
        <button type="button" class="link-button copy-button" aria-label=name on:click=on_click>
            {move || said.get().unwrap_or(idle)}
        </button>
        <span class="visually-hidden" aria-live="polite">{move || said.get()}</span>
    }
}
