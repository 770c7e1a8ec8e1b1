//! The rows a file field draws under its control: each upload on its way
//! (preview, name, bar, progress line, Cancel; or why it failed, and
//! Remove), and each file refused (why; "Shrink to fit" for an image only
//! too large).

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::progress_text::progress_text;
use super::shrink;
use super::state::{now_ms, FileField, Refusal, Sending};

/// A refused file's line: why, and for an image only too large, "Shrink
/// to fit", which sends a fitted copy in its place.
pub(super) fn refusal_line(refusal: Refusal, index: usize, target: FileField) -> impl IntoView {
    let FileField { refused, field, .. } = target;
    let Refusal {
        message,
        shrinkable,
    } = refusal;
    let shrinking = RwSignal::new(false);
    let fit = shrinkable.map(|file| {
        let on_click = move |_| {
            let file = (*file).clone();
            shrinking.set(true);
            spawn_local(async move {
                match shrink::shrink(&file).await {
                    Ok(fitted) => {
                        refused.try_update(|all| {
                            if index < all.len() {
                                all.remove(index);
                            }
                        });
                        target.start(fitted, None);
                    }
                    Err(why) => {
                        shrinking.try_set(false);
                        refused.try_update(|all| {
                            all.push(Refusal {
                                message: format!(
                                    "{field}: {}: could not be shrunk: {why}",
                                    file.name()
                                ),
                                shrinkable: None,
                            });
                        });
                    }
                }
            });
        };
        view! {
            <button
                type="button"
                class="secondary"
                id=format!("{field}-shrink")
                disabled=move || shrinking.get()
                on:click=on_click
            >
                {move || if shrinking.get() { "Shrinking…" } else { "Shrink to fit" }}
            </button>
        }
    });
    view! {
        <p class="problem problem--error">{message}</p>
        {fit}
    }
}

/// One upload's row: its preview, name, bar, progress line and Cancel (or
/// why it failed, and Remove).
pub(super) fn sending_row(item: Sending, target: FileField) -> impl IntoView {
    let Sending {
        key,
        name,
        size,
        preview,
        sent,
        started_ms,
        waiting,
        failed,
        cancel,
    } = item;
    let label = format!("Uploading {name}");
    let line = move || {
        let elapsed = (now_ms() - started_ms).max(0.0) as u64;
        let text = progress_text(sent.get(), size, elapsed);
        if waiting.get() {
            format!("{text} · waiting for the network")
        } else {
            text
        }
    };
    let percent = move || {
        (sent.get() * 100)
            .checked_div(size)
            .unwrap_or(100)
            .to_string()
    };
    view! {
        <li class="upload" data-state=move || if failed.get().is_some() { "failed" } else { "sending" }>
            {preview.map(|src| view! { <img class="upload__preview" src=src alt=format!("{name}, picked") /> })}
            <span class="upload__name">{name.clone()}</span>
            <progress max="100" value=percent aria-label=label></progress>
            <span class="upload__progress hint" aria-live="polite">{line}</span>
            {move || match failed.get() {
                Some(message) => view! {
                    <p class="problem problem--error" role="alert">{message}</p>
                    <button type="button" class="link-button" on:click=move |_| target.finish(key)>"Remove"</button>
                }
                .into_any(),
                None => {
                    let cancel = cancel.clone();
                    view! {
                        <button type="button" class="link-button upload__cancel" on:click=move |_| cancel.abort()>
                            "Cancel"
                        </button>
                    }
                    .into_any()
                }
            }}
        </li>
    }
}
