//! The three submit forms, hosted by the app's pages and by the widgets.
//!
//! Each kind has a folder: `state.rs` turns signals into a `media-gen-api`
//! request and its problems (a memo), `view.rs` lays out the fields. The
//! shell around every form (keyboard submit, request preview, submit button,
//! failure notice) and the controls they share live beside them.

pub mod callback;
pub mod controls;
mod for_kind;
pub mod host;
pub mod image_generate;
pub mod image_previews;
pub mod image_to_video;
pub mod prompt;
pub mod references;
pub mod shell;
pub mod video_translate;

pub use for_kind::form_for;
pub use host::{FormHost, SubmitHandler};
pub use image_generate::ImageGenerateView;
pub use image_to_video::ImageToVideoView;
pub use shell::TaskForm;
pub use video_translate::VideoTranslateView;

/// The non-blank lines of a list field, trimmed: one URL per line.
pub fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

/// An optional text field: blank means "left out".
pub fn optional(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}
