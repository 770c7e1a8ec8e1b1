//! What a finished task made: a video player, a translated video with its
//! captions, images large in a gallery with a full view; or why it failed.

use leptos::html::Dialog;

use super::safe_url::safe_url;
use super::subtitles::SubtitledVideo;
use leptos::prelude::*;
use media_gen_api::kept::{MediaField, ResultFiles};
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
    let Some(src) = safe_url(task.shown(MediaField::VideoUrl)) else {
        return unsafe_media().into_any();
    };
    let poster = safe_url(task.shown(MediaField::ThumbnailUrl));
    view! {
        <figure class="video-result">
            <video part="video" controls preload="metadata" playsinline poster=poster src=src></video>
            <figcaption>
                <span class="video-facts">{facts}</span>
                {download(task.shown(MediaField::VideoUrl), "Download video")}
            </figcaption>
        </figure>
    }
    .into_any()
}

fn translation(task: VideoTranslateTask) -> impl IntoView {
    let captions = download(task.shown(MediaField::CaptionUrl), "Subtitles (ASS)");
    let Some(src) = safe_url(task.shown(MediaField::VideoUrl)) else {
        return unsafe_media().into_any();
    };
    let caption_url = safe_url(task.shown(MediaField::CaptionUrl));
    view! {
        <figure class="video-result">
            <SubtitledVideo src caption_url language=task.language.clone()/>
            <figcaption>
                <strong class="translation-name">{task.name.clone()}</strong>
                <span class="translation-language">{task.language.clone()}</span>
                {download(task.shown(MediaField::VideoUrl), "Download video")}
                {captions}
            </figcaption>
        </figure>
    }
    .into_any()
}

/// Images as large as the space allows, each in its own shape; each opens
/// a full view (a modal dialog: Escape or "Close" returns) with a download
/// link, where the arrow keys (or Previous and Next) step through the images
/// of the request.
#[component]
pub fn ImageGallery(
    /// The images, finished ones only.
    images: Vec<ImageGenerateTask>,
    /// What the full view offers to do with the image it shows, beside
    /// its download (the app's next jobs), if anything.
    #[prop(optional)]
    actions: Option<Callback<ImageGenerateTask, AnyView>>,
) -> impl IntoView {
    let dialog = NodeRef::<Dialog>::new();
    // Each image shown, with its address and the task it is.
    let shown: Vec<(String, ImageGenerateTask)> = images
        .into_iter()
        .filter_map(|image| Some((safe_url(image.shown(MediaField::ImageUrl))?, image)))
        .collect();
    let total = shown.len();
    let open = RwSignal::new(None::<usize>);
    let show = move |index: usize| {
        open.set(Some(index));
        if let Some(dialog) = dialog.get() {
            let _ = dialog.show_modal();
        }
    };
    let step = move |by: isize| {
        open.update(|open| {
            if let Some(index) = open {
                *index = (*index as isize + by).rem_euclid(total.max(1) as isize) as usize;
            }
        });
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowRight" => {
            ev.prevent_default();
            step(1);
        }
        "ArrowLeft" => {
            ev.prevent_default();
            step(-1);
        }
        _ => {}
    };
    let items = shown
        .iter()
        .cloned()
        .enumerate()
        .map(|(index, (url, image))| {
            let id = image.task_id;
            let label = if total > 1 {
                format!("Open image {} of {total} ({id}) full size", index + 1)
            } else {
                format!("Open image {id} full size")
            };
            view! {
                <li>
                    <button type="button" class="gallery__thumb" aria-label=label
                        on:click=move |_| show(index)>
                        <img src=url.clone() alt="" loading="lazy"/>
                    </button>
                    {download(&url, "Download")}
                </li>
            }
        })
        .collect_view();
    let shown = StoredValue::new(shown);
    let current = move || {
        open.get().and_then(|index| {
            shown.with_value(|s| s.get(index).cloned().map(|image| (index, image)))
        })
    };
    view! {
        <ul class="gallery" class:gallery--single=total == 1 part="gallery">{items}</ul>
        <dialog class="full-view" node_ref=dialog aria-label="Full size image" on:keydown=on_key>
            {move || current().map(|(index, (url, image))| view! {
                <div class="full-view__actions">
                    <button type="button" on:click=move |_| {
                        if let Some(dialog) = dialog.get() { dialog.close(); }
                    }>"Close"</button>
                    {(total > 1).then(|| view! {
                        <span class="full-view__steps">
                            <button type="button" class="secondary" aria-label="Previous image" on:click=move |_| step(-1)>"←"</button>
                            <span class="full-view__count" aria-live="polite">{format!("{} of {total}", index + 1)}</span>
                            <button type="button" class="secondary" aria-label="Next image" on:click=move |_| step(1)>"→"</button>
                        </span>
                    })}
                    {download(&url, "Download")}
                    {actions.map(|actions| actions.run(image.clone()))}
                </div>
                <img src=url.clone() alt=format!("Image {}", image.task_id)/>
            })}
        </dialog>
    }
}

/// Why files of `task` were not kept by the gateway, a line each (nothing
/// when all were, or the gateway keeps none).
pub fn not_kept_notes(task: &impl ResultFiles) -> Option<impl IntoView> {
    let notes = task.not_kept_notes();
    (!notes.is_empty()).then(|| {
        let lines = notes
            .into_iter()
            .map(|note| view! { <li>{note}</li> })
            .collect_view();
        view! { <ul class="not-kept" part="not-kept">{lines}</ul> }
    })
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
        TaskStatus::Succeeded => {
            let notes = not_kept_notes(&task);
            let media = match task {
                AnyTask::ImageToVideo(task) => video(task).into_any(),
                AnyTask::VideoTranslate(task) => translation(task).into_any(),
                AnyTask::ImageGenerate(task) => {
                    view! { <ImageGallery images=vec![task]/> }.into_any()
                }
            };
            view! { {media} {notes} }.into_any()
        }
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
            kept: None,
            not_kept: None,
        };
        assert_eq!(video_facts(&task), "1280 × 720 px · 8 s");
        task.width = None;
        assert_eq!(video_facts(&task), "8 s");
    }
}
