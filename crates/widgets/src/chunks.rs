//! The submit widget's forms, a chunk of their own in the npm package's
//! build (the `split` feature): a page that only follows tasks (the status
//! widget, in the first module) loads no form, and the file controls come
//! only where the site takes uploads (`media_gen_ui::forms::file_target`).
//!
//! The forms are one chunk, not one per kind: they share most of their
//! code, and the code shared between per-kind chunks, cut apart, made a
//! page with one form and the status widget no smaller
//! (`docs/performance.md`, "The widgets in chunks").
//!
//! `index.js` loads the forms' chunk ([`preload_submit_widget`]) before a
//! submit widget mounts, so the widget is drawn whole on its first frame
//! and `ready` means what it says. A chunk that does not load rejects
//! `ready`, or shows in the widget that its form could not load.

use leptos::prelude::*;
use media_gen_api::{Request, TaskKind};
use media_gen_ui::chunk::from_chunk;
use media_gen_ui::forms::FormHost;
use media_gen_ui::forms::{image_generate_form, image_to_video_form, video_translate_form};
use media_gen_ui::{chunk, drawn};
use wasm_bindgen::prelude::*;

chunk! {
    /// A submit widget's form of `kind`, filled in from `initial` when that
    /// is a request of the same kind.
    form(kind: TaskKind, host: FormHost, initial: Option<Request>) in widget_submit,
        preload_form => match kind {
            TaskKind::ImageToVideo => image_to_video_form(host, initial),
            TaskKind::VideoTranslate => video_translate_form(host, initial),
            TaskKind::ImageGenerate => image_generate_form(host, initial),
        }
}

/// The form of `kind`, drawn from its chunk: at once where the chunk has
/// loaded (as `index.js` sees to before a widget mounts).
pub fn submit_form(kind: TaskKind, host: FormHost, initial: Option<Request>) -> impl IntoView {
    from_chunk(async move { drawn!(form(kind, host, initial)) }, || {
        view! {
            <p class="notice" role="alert">
                "The form did not load: the network, or a newer version of this site. "
                "Reload the page."
            </p>
        }
        .into_any()
    })
}

/// Load the submit widget's forms without drawing one; `index.js` awaits
/// it before a submit widget mounts. Resolves at once where they have
/// loaded, or where the build is not split; rejects with an `Error` when
/// they did not load (a later call tries again).
#[wasm_bindgen(js_name = preloadSubmitWidget)]
pub async fn preload_submit_widget() -> Result<(), JsValue> {
    preload_form().await.map_err(not_loaded)
}

/// The error `ready` rejects with when the forms did not load (however
/// the build says so: a split build's loader error, or `ChunkMissing`).
fn not_loaded<E>(_: E) -> JsValue {
    js_sys::Error::new(
        "media-gen: the submit widget's form did not load (the network, or a newer version of this site): reload the page",
    )
    .into()
}
