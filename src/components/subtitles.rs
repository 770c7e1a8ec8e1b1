//! Inline subtitles for a translated video: the service's `.ass` caption
//! file, fetched, converted to WebVTT by the contract (`ass_to_vtt`) and
//! given to the player as a `<track>`. When the file cannot be read from
//! this page (its host sends no CORS headers, or the page's
//! Content-Security-Policy does not list it) the download link stays and a
//! note says why there are no inline subtitles.

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::ass_to_vtt;
use wasm_bindgen::JsValue;

/// The captions' state.
#[derive(Debug, Clone, PartialEq)]
enum Captions {
    Loading,
    /// A `blob:` URL of the WebVTT text.
    Ready(String),
    /// Why there are no inline subtitles.
    Unavailable(String),
}

/// Read the caption file at `url` as text.
async fn fetch_text(url: &str) -> Result<String, String> {
    let response = gloo_net::http::Request::get(url)
        .send()
        .await
        .map_err(|_| {
            "the caption file could not be read from this page (its host may not allow it)"
                .to_owned()
        })?;
    if !response.ok() {
        return Err(format!(
            "the caption file answered HTTP {}",
            response.status()
        ));
    }
    response
        .text()
        .await
        .map_err(|_| "the caption file could not be read".to_owned())
}

/// A `blob:` URL holding `vtt`.
fn vtt_blob_url(vtt: &str) -> Result<String, JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(vtt));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/vtt");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    web_sys::Url::create_object_url_with_blob(&blob)
}

async fn load(url: &str) -> Captions {
    let text = match fetch_text(url).await {
        Ok(text) => text,
        Err(why) => return Captions::Unavailable(why),
    };
    let vtt = ass_to_vtt(&text);
    if vtt.cues == 0 {
        return Captions::Unavailable("the caption file has no lines a player can show".to_owned());
    }
    match vtt_blob_url(&vtt.text) {
        Ok(blob) => Captions::Ready(blob),
        Err(_) => Captions::Unavailable("the browser could not hold the subtitles".to_owned()),
    }
}

/// A player for `src` with the captions at `caption_url` as a subtitle
/// track labelled `language`.
#[component]
pub fn SubtitledVideo(
    /// The video (a safe http(s) URL).
    src: String,
    /// The `.ass` caption file (a safe http(s) URL), if any.
    caption_url: Option<String>,
    /// The captions' language, as the service names it.
    language: String,
) -> impl IntoView {
    let captions = RwSignal::new(if caption_url.is_some() {
        Captions::Loading
    } else {
        Captions::Unavailable("the service sent no caption file".to_owned())
    });
    if let Some(url) = caption_url {
        spawn_local(async move {
            let loaded = load(&url).await;
            if let Captions::Ready(blob) = &loaded {
                // The page may be gone by now: then nothing holds the blob.
                if captions.try_set(loaded.clone()).is_some() {
                    let _ = web_sys::Url::revoke_object_url(blob);
                }
            } else {
                captions.try_set(loaded);
            }
        });
    }
    on_cleanup(move || {
        if let Some(Captions::Ready(blob)) = captions.try_get_untracked() {
            let _ = web_sys::Url::revoke_object_url(&blob);
        }
    });
    let track = move || match captions.get() {
        Captions::Ready(blob) => Some(view! {
            <track kind="subtitles" label=language.clone() srclang=language.clone() src=blob default=true/>
        }),
        _ => None,
    };
    let note = move || match captions.get() {
        Captions::Unavailable(why) => Some(view! {
            <p class="hint subtitles-note">{format!("No inline subtitles: {why}. The caption file is linked below.")}</p>
        }),
        _ => None,
    };
    view! {
        <video part="video" controls preload="metadata" playsinline src=src>{track}</video>
        {note}
    }
}
