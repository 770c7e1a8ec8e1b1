//! The form of a kind, as both hosts open it.

use leptos::prelude::*;
use media_gen_api::{Request, TaskKind};

use super::{FormHost, ImageGenerateForm, ImageToVideoForm, VideoTranslateForm};

/// The submit form of `kind` for `host`, filled in from `initial` when that
/// is a request of the same kind ("edit and re-run"), empty otherwise.
pub fn form_for(kind: TaskKind, host: FormHost, initial: Option<Request>) -> AnyView {
    match (kind, initial.filter(|request| request.kind() == kind)) {
        (_, Some(Request::ImageToVideo(request))) => {
            view! { <ImageToVideoForm host initial=request/> }.into_any()
        }
        (_, Some(Request::VideoTranslate(request))) => {
            view! { <VideoTranslateForm host initial=request/> }.into_any()
        }
        (_, Some(Request::ImageGenerate(request))) => {
            view! { <ImageGenerateForm host initial=request/> }.into_any()
        }
        (TaskKind::ImageToVideo, None) => view! { <ImageToVideoForm host/> }.into_any(),
        (TaskKind::VideoTranslate, None) => view! { <VideoTranslateForm host/> }.into_any(),
        (TaskKind::ImageGenerate, None) => view! { <ImageGenerateForm host/> }.into_any(),
    }
}
