//! Inline subtitles for a translated video: the service's `.ass` caption
//! file, fetched, converted to WebVTT by the contract (`ass_to_vtt`) and
//! given to the player as a `<track>`. When the file cannot be read from
//! this page (its host sends no CORS headers, or the page's
//! Content-Security-Policy does not list it) the download link stays and a
//! note says why there are no inline subtitles.

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::ass_to_vtt;
use media_gen_client::media::{self, MediaError};

/// The captions' state.
#[derive(Debug, Clone, PartialEq)]
enum Captions {
    Loading,
    /// A `blob:` URL of the WebVTT text.
    Ready(String),
    /// Why there are no inline subtitles.
    Unavailable(String),
}

/// Why there are no inline subtitles, in words about the caption file.
fn unavailable(error: &MediaError) -> Captions {
    Captions::Unavailable(match error {
        MediaError::Unreachable => {
            "the caption file could not be read from this page (its host may not allow it)"
                .to_owned()
        }
        MediaError::Status(status) => format!("the caption file answered HTTP {status}"),
        MediaError::Unreadable => "the caption file could not be read".to_owned(),
        MediaError::NoBlob => "the browser could not hold the subtitles".to_owned(),
    })
}

async fn load(url: &str) -> Captions {
    let text = match media::fetch_text(url).await {
        Ok(text) => text,
        Err(error) => return unavailable(&error),
    };
    let vtt = ass_to_vtt(&text);
    if vtt.cues == 0 {
        return Captions::Unavailable("the caption file has no lines a player can show".to_owned());
    }
    match media::text_blob_url(&vtt.text, "text/vtt") {
        Ok(blob) => Captions::Ready(blob),
        Err(error) => unavailable(&error),
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
                    media::revoke_blob_url(blob);
                }
            } else {
                captions.try_set(loaded);
            }
        });
    }
    on_cleanup(move || {
        if let Some(Captions::Ready(blob)) = captions.try_get_untracked() {
            media::revoke_blob_url(&blob);
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
