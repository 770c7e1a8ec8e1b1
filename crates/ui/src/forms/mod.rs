//! The three submit forms, hosted by the app's pages and by the widgets.
//!
//! Each kind has a folder: `state.rs` turns signals into a `media-gen-api`
//! request and its problems (a memo), `view.rs` lays out the fields. The
//! names say which part is which: `ImageToVideoForm` is the form a page
//! shows, `ImageToVideoState` its signals, [`FormShell`] what surrounds
//! every form (keyboard submit, request preview, submit button, failure
//! notice), [`FormHost`] what the hosting page gives it, and
//! [`image_to_video_form`] and its siblings open one kind's form. The fields the forms share live beside them.

pub mod callback;
pub mod client;
pub mod controls;
#[cfg(feature = "uploads")]
pub mod file_target;
#[cfg(not(feature = "uploads"))]
#[path = "file_target_off.rs"]
pub mod file_target;
mod for_kind;
pub mod host;
pub mod image_generate;
pub mod image_previews;
pub mod image_to_video;
pub mod prompt;
pub mod references;
pub mod shell;
pub mod video_translate;

pub use client::{FormClient, MakeFormClient};
pub use for_kind::{image_generate_form, image_to_video_form, video_translate_form};
pub use host::{ChangeHandler, FormHost, SubmitHandler};
pub use image_generate::ImageGenerateForm;
pub use image_to_video::ImageToVideoForm;
pub use shell::FormShell;
pub use video_translate::VideoTranslateForm;

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
