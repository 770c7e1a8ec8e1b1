//! Validation of submit requests: every problem at once, each with the field
//! path, a stable code and a message that names the rule.
//!
//! Problems are errors (the service would refuse the request, or the document
//! forbids it) or warnings (accepted, but probably not what the user wants).
//! Where the document leaves a value or range "not shown", validation accepts
//! it; the crate README lists those choices.

mod common;
mod image_generate;
mod image_to_video;
mod labels;
mod video_translate;

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::model_rules::Mode;

pub use common::{
    ascii_host_form, char_count, is_http_url, url_extension, MAX_IMAGE_BYTES, MAX_PROMPT_CHARS,
};
#[cfg(feature = "url")]
pub use common::{parse_base_url, parse_origin, parse_url};
pub use image_generate::validate_image_generate;
pub use image_generate::{MAX_IMAGES, MAX_REFERENCE_IMAGES};
pub use image_to_video::validate_image_to_video;
pub use image_to_video::MAX_VIDEOS;
pub use labels::field_label;
pub use video_translate::validate_video_translate;
pub use video_translate::{MAX_TARGET_LANGUAGES, NAME_CHAR_LIMIT};

/// How serious a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The service would refuse the request, or the document forbids it.
    Error,
    /// Accepted, but probably not what the user wants.
    Warning,
}

/// Which rule a problem breaks; serialized as a stable snake_case code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A required field is missing or blank.
    Required,
    /// Text longer than its limit (counted in characters, not bytes).
    TooLong,
    /// A number outside its range or set.
    OutOfRange,
    /// Not an absolute `http` or `https` URL.
    InvalidUrl,
    /// A value the chosen model does not allow (resolution, duration).
    NotAllowedForModel,
    /// A field the chosen model does not take.
    NotSupportedByModel,
    /// More items than the limit.
    TooMany,
    /// Both a start frame and reference images for model `V`.
    ConflictingModes,
    /// The same value twice in a list.
    Duplicate,
    /// A language the service does not offer.
    UnknownLanguage,
    /// A file larger than the limit.
    TooLarge,
    /// Items past the limit that the service drops silently.
    WillBeDropped,
    /// A file type the service does not list.
    UnexpectedFileType,
    /// Images of different aspect ratios: an end frame and its start
    /// frame, or a start frame and the video made from it.
    AspectMismatch,
    /// An end frame without a start frame.
    EndFrameWithoutStart,
}

impl Rule {
    /// The stable machine code: `too_long`, `not_allowed_for_model`, ...
    pub fn code(self) -> &'static str {
        match self {
            Rule::Required => "required",
            Rule::TooLong => "too_long",
            Rule::OutOfRange => "out_of_range",
            Rule::InvalidUrl => "invalid_url",
            Rule::NotAllowedForModel => "not_allowed_for_model",
            Rule::NotSupportedByModel => "not_supported_by_model",
            Rule::TooMany => "too_many",
            Rule::ConflictingModes => "conflicting_modes",
            Rule::Duplicate => "duplicate",
            Rule::UnknownLanguage => "unknown_language",
            Rule::TooLarge => "too_large",
            Rule::WillBeDropped => "will_be_dropped",
            Rule::UnexpectedFileType => "unexpected_file_type",
            Rule::AspectMismatch => "aspect_mismatch",
            Rule::EndFrameWithoutStart => "end_frame_without_start",
        }
    }
}

/// One problem with a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Problem {
    /// Path of the field: `prompt`, `reference_images[3]`.
    pub field: String,
    /// The rule broken; its [`Rule::code`] is stable.
    pub rule: Rule,
    /// Error or warning.
    pub severity: Severity,
    /// A sentence for a person that names the rule: "Model S supports only 720p".
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Every problem found in one request, in field order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Problems(Vec<Problem>);

impl Problems {
    fn push(
        &mut self,
        severity: Severity,
        field: impl Into<String>,
        rule: Rule,
        message: impl Into<String>,
    ) {
        self.0.push(Problem {
            field: field.into(),
            rule,
            severity,
            message: message.into(),
        });
    }

    /// Add an error: for a rule a form knows beyond the request (text in a
    /// number field, say), so it shows with the others.
    pub fn error(&mut self, field: impl Into<String>, rule: Rule, message: impl Into<String>) {
        self.push(Severity::Error, field, rule, message);
    }

    /// Add a warning (see [`Problems::error`]).
    pub fn warning(&mut self, field: impl Into<String>, rule: Rule, message: impl Into<String>) {
        self.push(Severity::Warning, field, rule, message);
    }

    /// Whether any problem is an error: the request should not be sent.
    pub fn has_errors(&self) -> bool {
        self.0
            .iter()
            .any(|problem| problem.severity == Severity::Error)
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.0
            .iter()
            .filter(|problem| problem.severity == Severity::Error)
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Problem> {
        self.0
            .iter()
            .filter(|problem| problem.severity == Severity::Warning)
    }

    /// The problems of one field path (`reference_images[2]`), or of a list and
    /// its items when given the list's name (`reference_images`).
    pub fn for_field<'a>(&'a self, field: &'a str) -> impl Iterator<Item = &'a Problem> {
        self.0.iter().filter(move |problem| {
            problem.field == field
                || problem
                    .field
                    .strip_prefix(field)
                    .is_some_and(|rest| rest.starts_with('['))
        })
    }

    /// Every problem.
    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        self.0.iter()
    }

    /// Whether there is no problem at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many problems.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The problems as a vector.
    pub fn into_vec(self) -> Vec<Problem> {
        self.0
    }
}

/// What the browser knows about an image URL, measured by loading it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImageInfo {
    /// Width in pixels.
    pub width: Option<u32>,
    /// Height in pixels.
    pub height: Option<u32>,
    /// File size in bytes.
    pub bytes: Option<u64>,
}

/// Facts validation can use beyond the request itself. Everything is optional:
/// a rule whose fact is missing is skipped, never guessed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// Measured images, by URL.
    pub images: BTreeMap<String, ImageInfo>,
    /// The language list from the service; without it, languages are not checked against it.
    pub languages: Option<Vec<String>>,
    /// The kind of images a form asked for (model `V`'s start frame or
    /// reference images), so a missing image is named as the form shows
    /// it; without it, either kind is named.
    pub mode: Option<Mode>,
}

impl Context {
    fn image(&self, url: &str) -> Option<ImageInfo> {
        self.images.get(url).copied()
    }
}
