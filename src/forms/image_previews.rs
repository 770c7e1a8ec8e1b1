//! Previews of image URLs with their pixel size, measured by loading them;
//! the sizes feed validation (the end frame's aspect ratio, say).

use std::collections::BTreeMap;

use leptos::prelude::*;
use media_gen_api::validate::is_http_url;
use media_gen_api::ImageInfo;
use wasm_bindgen::JsCast;
use web_sys::HtmlImageElement;

/// Images measured so far, by URL: the `images` of a validation `Context`.
pub type Measured = RwSignal<BTreeMap<String, ImageInfo>>;

/// What loading one image found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Load {
    Loading,
    Loaded(u32, u32),
    Failed,
}

/// One preview: the image, and its pixel size or why it did not load.
#[component]
fn Preview(url: String, measured: Measured) -> impl IntoView {
    let load = RwSignal::new(Load::Loading);
    let on_load = {
        let url = url.clone();
        move |ev: leptos::ev::Event| {
            let Some(image) = ev
                .target()
                .and_then(|target| target.dyn_into::<HtmlImageElement>().ok())
            else {
                return;
            };
            let (width, height) = (image.natural_width(), image.natural_height());
            load.set(Load::Loaded(width, height));
            measured.update(|images| {
                let info = images.entry(url.clone()).or_default();
                info.width = Some(width);
                info.height = Some(height);
            });
        }
    };
    let caption = move || match load.get() {
        Load::Loading => "Loading…".to_owned(),
        Load::Loaded(width, height) => format!("{width} × {height} px"),
        Load::Failed => "Could not load this image".to_owned(),
    };
    let failed = move || load.get() == Load::Failed;
    view! {
        <figure class="image-preview" class:image-preview--failed=failed data-url=url.clone()>
            <img
                src=url.clone()
                alt=""
                referrerpolicy="no-referrer"
                on:load=on_load
                on:error=move |_| load.set(Load::Failed)
            />
            <figcaption>{caption}</figcaption>
        </figure>
    }
}

/// A preview for each `http(s)` URL in `urls`; others are left to validation.
#[component]
pub fn ImagePreviews(
    /// The URLs to show.
    #[prop(into)]
    urls: Signal<Vec<String>>,
    /// Where the measured sizes go.
    measured: Measured,
) -> impl IntoView {
    // Each URL once: the same image twice is one preview (and one key).
    let shown = move || {
        let mut seen = std::collections::BTreeSet::new();
        urls.get()
            .into_iter()
            .filter(|url| is_http_url(url) && seen.insert(url.clone()))
            .collect::<Vec<_>>()
    };
    view! {
        <div class="image-previews">
            <For each=shown key=|url| url.clone() let:url>
                <Preview url measured/>
            </For>
        </div>
    }
}
