//! How the app names and describes each task kind.

use media_gen_api::TaskKind;

/// The app route of the kind's submit form (read back by `app::routes`).
pub fn form_path(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::ImageToVideo => "/new/image-to-video",
        TaskKind::VideoTranslate => "/new/video-translate",
        TaskKind::ImageGenerate => "/new/image-generate",
    }
}

/// The app route of one task's detail page.
pub fn detail_path(kind: TaskKind, task_id: &str) -> String {
    format!(
        "/tasks/{}/{}",
        kind.as_str(),
        media_gen_api::path::segment(task_id)
    )
}

/// The form route filled in from a stored task ("edit and re-run").
pub fn edit_path(kind: TaskKind, task_id: &str) -> String {
    format!(
        "{}?from={}",
        form_path(kind),
        media_gen_api::path::segment(task_id)
    )
}

/// A short title for navigation and headings.
pub fn title(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::ImageToVideo => "Image to video",
        TaskKind::VideoTranslate => "Video translation",
        TaskKind::ImageGenerate => "Image generation",
    }
}

/// One sentence on what the kind makes.
pub fn summary(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::ImageToVideo => {
            "Turn a prompt with a start frame or reference images into a video, with model V, KL or S."
        }
        TaskKind::VideoTranslate => {
            "Translate a video's speech into one or more languages, with optional subtitles."
        }
        TaskKind::ImageGenerate => {
            "Generate up to eight images from a prompt and up to five reference images."
        }
    }
}
