//! What a finished task made: a video player, a translated video with its
//! captions, images in a gallery with a full view; or why it failed.

use leptos::html::Dialog;

use super::safe_url::safe_url;
use super::subtitles::SubtitledVideo;
use leptos::prelude::*;
use media_gen_api::{AnyTask, ImageGenerateTask, ImageToVideoTask, TaskStatus, VideoTranslateTask};

/// A download link for `url`, when it is a safe URL.
fn download(url: &str, label: &'static str) -> Option<impl IntoView> {
    let url = safe_url(url)?;
    Some(
        view! { <a class="download" href=url download="" target="_blank" rel="noopener noreferrer">{label}</a> },
    )
}

/// Said instead of a player or image whose URL is not `http(s)`.
fn unsafe_media() -> impl IntoView {
    view! { <p class="notice" role="alert">"The service sent a media address that is not http or https; it is not shown."</p> }
}

/// `FAILED`, with the service's reason, prominent.
#[component]
pub fn FailureMessage(
    /// The task's `error_message` (may be empty).
    message: String,
) -> impl IntoView {
    let message = if message.trim().is_empty() {
        "The service gave no reason.".to_owned()
    } else {
        message
    };
    view! {
        <div class="failure" part="failure" role="alert">
            <strong>"The task failed"</strong>
            <p class="failure__message">{message}</p>
        </div>
    }
}

/// "1280 × 720 px · 8 s", from what the service reported.
fn video_facts(task: &ImageToVideoTask) -> String {
    let mut facts = Vec::new();
    if let (Some(width), Some(height)) = (task.width, task.height) {
        facts.push(format!("{width} × {height} px"));
    }
    if let Some(duration) = task.duration {
        facts.push(format!("{duration} s"));
    }
    facts.join(" · ")
}

fn video(task: ImageToVideoTask) -> impl IntoView {
    let facts = video_facts(&task);
    let Some(src) = safe_url(&task.video_url) else {
        return unsafe_media().into_any();
    };
    let poster = safe_url(&task.thumbnail_url);
    view! {
        <figure class="video-result">
            <video part="video" controls preload="metadata" playsinline poster=poster src=src></video>
            <figcaption>
                <span class="video-facts">{facts}</span>
                {download(&task.video_url, "Download video")}
            </figcaption>
        </figure>
    }
    .into_any()
}

fn translation(task: VideoTranslateTask) -> impl IntoView {
    let captions = download(&task.caption_url, "Subtitles (ASS)");
    let Some(src) = safe_url(&task.video_url) else {
        return unsafe_media().into_any();
    };
    let caption_url = safe_url(&task.caption_url);
    view! {
        <figure class="video-result">
            <SubtitledVideo src caption_url language=task.language.clone()/>
            <figcaption>
                <strong class="translation-name">{task.name.clone()}</strong>
                <span class="translation-language">{task.language.clone()}</span>
                {download(&task.video_url, "Download video")}
                {captions}
            </figcaption>
        </figure>
    }
    .into_any()
}

/// Images as thumbnails; each opens a full view (a modal dialog: Escape or
/// "Close" returns) with a download link.
#[component]
pub fn ImageGallery(
    /// The images, finished ones only.
    images: Vec<ImageGenerateTask>,
) -> impl IntoView {
    let dialog = NodeRef::<Dialog>::new();
    let open = RwSignal::new(None::<(String, String)>);
    let show = move |image_url: String, task_id: String| {
        open.set(Some((image_url, task_id)));
        if let Some(dialog) = dialog.get() {
            let _ = dialog.show_modal();
        }
    };
    let thumbs = images
        .into_iter()
        .filter_map(|image| {
            let url = safe_url(&image.image_url)?;
            let thumb = safe_url(&image.thumbnail_url).unwrap_or_else(|| url.clone());
            Some((image, url, thumb))
        })
        .map(|(image, url, thumb)| {
            let id = image.task_id.clone();
            let label = format!("Open image {id} full size");
            view! {
                <li>
                    <button type="button" class="gallery__thumb" aria-label=label
                        on:click=move |_| show(url.clone(), id.clone())>
                        <img src=thumb alt="" loading="lazy"/>
                    </button>
                    {download(&image.image_url, "Download")}
                </li>
            }
        })
        .collect_view();
    view! {
        <ul class="gallery" part="gallery">{thumbs}</ul>
        <dialog class="full-view" node_ref=dialog aria-label="Full size image">
            {move || open.get().map(|(url, id)| view! {
                <img src=url.clone() alt=format!("Image {id}")/>
                <p class="full-view__actions">
                    {download(&url, "Download")}
                    <button type="button" on:click=move |_| {
                        if let Some(dialog) = dialog.get() { dialog.close(); }
                    }>"Close"</button>
                </p>
            })}
        </dialog>
    }
}

/// The result of one task: its media when it succeeded, its reason when it
/// failed, nothing while it runs.
#[component]
pub fn TaskResult(
    /// The task as last read.
    task: AnyTask,
) -> impl IntoView {
    match task.status() {
        TaskStatus::Failed => {
            let message = task.error_message().to_owned();
            view! { <FailureMessage message/> }.into_any()
        }
        TaskStatus::Succeeded => match task {
            AnyTask::ImageToVideo(task) => video(task).into_any(),
            AnyTask::VideoTranslate(task) => translation(task).into_any(),
            AnyTask::ImageGenerate(task) => view! { <ImageGallery images=vec![task]/> }.into_any(),
        },
        _ => ().into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn video_facts_show_what_was_reported() {
        let mut task = ImageToVideoTask {
            task_id: "i2v-1".into(),
            status: TaskStatus::Succeeded,
            video_url: String::new(),
            thumbnail_url: String::new(),
            error_message: String::new(),
            duration: Some(8),
            width: Some(1280),
            height: Some(720),
        };
        assert_eq!(video_facts(&task), "1280 × 720 px · 8 s");
        task.width = None;
        assert_eq!(video_facts(&task), "8 s");
    }
}
