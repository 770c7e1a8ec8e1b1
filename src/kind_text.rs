//! How the app names and describes each task kind (its addresses are in
//! `address`).

use media_gen_api::TaskKind;

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
