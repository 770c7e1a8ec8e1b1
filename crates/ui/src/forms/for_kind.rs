//! Each kind's form as both hosts open it: one kind's own function draws
//! only that form (the app's pages and the submit widget, each kind a chunk
//! of its own in a split build).

use leptos::prelude::*;
use media_gen_api::Request;

use super::{FormHost, ImageGenerateForm, ImageToVideoForm, VideoTranslateForm};

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
