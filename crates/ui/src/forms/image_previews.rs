//! Previews of image URLs with their pixel size, measured by loading them;
//! the sizes feed validation (the end frame's aspect ratio, say).
//!
//! Nothing is loaded while a URL is being typed: a URL is previewed once it
//! looks complete ([`previewable`]) and the field has rested for
//! [`SETTLE_MS`], and a field's previews load one after another, so a field
//! never has more than one load in flight.

use std::collections::{BTreeMap, BTreeSet};

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use media_gen_api::url_parts::url_parts;
use media_gen_api::ImageInfo;
use wasm_bindgen::JsCast;
use web_sys::HtmlImageElement;

/// Images measured so far, by URL: the `images` of a validation `Context`.
pub type Measured = RwSignal<BTreeMap<String, ImageInfo>>;

/// How long a field's URLs must stay unchanged before they are previewed.
pub const SETTLE_MS: u32 = 600;

/// Whether `text` is worth loading as a preview: an absolute http(s) URL
/// whose host is written out as the parser reads it (`http://1` parses as
/// `0.0.0.1`, a host nobody meant) and whose path names something (a last
/// segment that is not empty), as a file's address does.
pub fn previewable(text: &str) -> bool {
    let Some(url) = url_parts(text) else {
        return false;
    };
    let host_as_typed = text.to_ascii_lowercase().contains(&url.host);
    url.is_http() && host_as_typed && !url.last_segment().is_empty()
}

/// Each previewable URL of `urls` once, in order.
fn to_preview(urls: &[String]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    urls.iter()
        .map(|url| url.trim())
        .filter(|url| previewable(url) && seen.insert(*url))
        .map(str::to_owned)
        .collect()
}

/// What loading one image found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Load {
    Loading,
    Loaded(u32, u32),
    Failed,
}

/// One preview: the image, and its pixel size or why it did not load; it
/// reports to `finished` when the load is over either way.
#[component]
fn Preview(url: String, measured: Measured, finished: RwSignal<Vec<String>>) -> impl IntoView {
    let load = RwSignal::new(Load::Loading);
    let done = {
        let url = url.clone();
        move |result: Load| {
            load.set(result);
            finished.update(|finished| finished.push(url.clone()));
        }
    };
    let on_load = {
        let (url, done) = (url.clone(), done.clone());
        move |ev: leptos::ev::Event| {
            let Some(image) = ev
                .target()
                .and_then(|target| target.dyn_into::<HtmlImageElement>().ok())
            else {
                return;
            };
            let (width, height) = (image.natural_width(), image.natural_height());
            measured.update(|images| {
                let info = images.entry(url.clone()).or_default();
                info.width = Some(width);
                info.height = Some(height);
            });
            done(Load::Loaded(width, height));
        }
    };
    let caption = move || match load.get() {
        Load::Loading => "Loading…".to_owned(),
        Load::Loaded(width, height) => format!("{width} × {height} px"),
        Load::Failed => "Could not load this image".to_owned(),
    };
    let failed = move || load.get() == Load::Failed;
    let src = url.clone();
    view! {
        <figure class="image-preview" class:image-preview--failed=failed data-url=url>
            <img
                src=src
                alt=""
                referrerpolicy="no-referrer"
                on:load=on_load
                on:error=move |_| done(Load::Failed)
            />
            <figcaption>{caption}</figcaption>
        </figure>
    }
}

/// A preview for each complete `http(s)` URL in `urls`, once typing has
/// paused; others are left to validation.
#[component]
pub fn ImagePreviews(
    /// The URLs to show.
    #[prop(into)]
    urls: Signal<Vec<String>>,
    /// Where the measured sizes go.
    measured: Measured,
) -> impl IntoView {
    let settled = RwSignal::new(Vec::<String>::new());
    // The effect keeps the pending timer as its value: the next run drops
    // it, which cancels it, and so does the end of the form.
    Effect::new(move |pending: Option<Option<Timeout>>| {
        let wanted = urls.with(|urls| to_preview(urls));
        if pending.is_none() {
            // Values the form starts with ("edit and re-run") show at once.
            settled.set(wanted);
            return None;
        }
        Some(Timeout::new(SETTLE_MS, move || {
            settled.try_set(wanted);
        }))
    });
    // URLs loaded or failed (a list: a signal of `Vec<String>` is already
    // in the app, a set would be another copy of the reactive machinery).
    let finished = RwSignal::new(Vec::<String>::new());
    // The previews drawn: every settled URL up to the first that has not
    // finished loading, so the next one starts when that one is over.
    let shown = move || {
        finished.with(|finished| {
            let mut shown = Vec::new();
            for url in settled.get() {
                let waiting = !finished.contains(&url);
                shown.push(url);
                if waiting {
                    break;
                }
            }
            shown
        })
    };
    view! {
        <div class="image-previews">
            <For each=shown key=|url| url.clone() let:url>
                <Preview url measured finished/>
            </For>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_file_addresses_are_previewed() {
        for url in [
            "https://example.com/frame.png",
            "http://127.0.0.1:8080/sandbox/media/image/1K/16x9.png",
            "https://cdn.example.com/img?id=3",
            "  https://example.com/a/b.jpg  ",
        ] {
            assert!(previewable(url.trim()), "{url}");
        }
    }

    #[test]
    fn addresses_being_typed_are_not() {
        for url in [
            "h",
            "http:",
            "http://",
            "http://1",
            "http://1/x.png",
            "http://127.1/x.png",
            "http://0.0.0.1/",
            "https://example.com",
            "https://example.com/",
            "https://example.com/images/",
            "ftp://example.com/a.png",
            "data:image/png;base64,AAAA",
        ] {
            assert!(!previewable(url), "{url}");
        }
    }

    #[test]
    fn each_url_is_previewed_once_in_order() {
        let urls = [
            "https://x.test/b.png",
            "not a url",
            "https://x.test/a.png",
            "https://x.test/b.png",
        ]
        .map(str::to_owned);
        assert_eq!(
            to_preview(&urls),
            ["https://x.test/b.png", "https://x.test/a.png"]
        );
    }
}
