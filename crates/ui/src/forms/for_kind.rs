//! The form of a kind, as both hosts open it: [`form_for`] any kind (the
//! submit widget), or one kind's own function, which draws only that form
//! (the app's pages, each a chunk of its own in a split build).

use leptos::prelude::*;
use media_gen_api::{Request, TaskKind};

use super::{FormHost, ImageGenerateForm, ImageToVideoForm, VideoTranslateForm};

/// The submit form of `kind` for `host`, filled in from `initial` when that
/// is a request of the same kind ("edit and re-run"), empty otherwise.
pub fn form_for(kind: TaskKind, host: FormHost, initial: Option<Request>) -> AnyView {
    match kind {
        TaskKind::ImageToVideo => image_to_video_form(host, initial),
        TaskKind::VideoTranslate => video_translate_form(host, initial),
        TaskKind::ImageGenerate => image_generate_form(host, initial),
    }
}

/// The image-to-video form, filled in from `initial` when that is one.
pub fn image_to_video_form(host: FormHost, initial: Option<Request>) -> AnyView {
    match initial {
        Some(Request::ImageToVideo(request)) => {
            view! { <ImageToVideoForm host initial=request/> }.into_any()
        }
        _ => view! { <ImageToVideoForm host/> }.into_any(),
    }
}

/// The video translation form, filled in from `initial` when that is one.
pub fn video_translate_form(host: FormHost, initial: Option<Request>) -> AnyView {
    match initial {
        Some(Request::VideoTranslate(request)) => {
            view! { <VideoTranslateForm host initial=request/> }.into_any()
        }
        _ => view! { <VideoTranslateForm host/> }.into_any(),
    }
}

/// The image generation form, filled in from `initial` when that is one.
pub fn image_generate_form(host: FormHost, initial: Option<Request>) -> AnyView {
    match initial {
        Some(Request::ImageGenerate(request)) => {
            view! { <ImageGenerateForm host initial=request/> }.into_any()
        }
        _ => view! { <ImageGenerateForm host/> }.into_any(),
    }
}
