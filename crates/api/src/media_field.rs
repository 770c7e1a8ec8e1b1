//! The fields of a task object that name its result files
//! ([`MediaField`]), and one text per field ([`ByMediaField`]: the shape of
//! the `kept` and `not_kept` objects). Read by every task type, so they
//! name no task type themselves.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A field of a task object that names one of its result files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MediaField {
    /// `video_url`: an image-to-video task's video, or a translation's.
    VideoUrl,
    /// `thumbnail_url`: a video's cover, or a generated image's thumbnail.
    ThumbnailUrl,
    /// `caption_url`: a translation's subtitles (ASS).
    CaptionUrl,
    /// `image_url`: a generated image.
    ImageUrl,
}

impl MediaField {
    /// Every field, in the order a task object lists them.
    pub const ALL: [MediaField; 4] = [
        MediaField::VideoUrl,
        MediaField::ThumbnailUrl,
        MediaField::CaptionUrl,
        MediaField::ImageUrl,
    ];

    /// The field's name in a task object: `video_url`.
    pub fn name(self) -> &'static str {
        match self {
            MediaField::VideoUrl => "video_url",
            MediaField::ThumbnailUrl => "thumbnail_url",
            MediaField::CaptionUrl => "caption_url",
            MediaField::ImageUrl => "image_url",
        }
    }

    /// The field named `name` (`video_url`), if a task has one so named.
    pub fn from_name(name: &str) -> Option<MediaField> {
        MediaField::ALL
            .into_iter()
            .find(|field| field.name() == name)
    }

    /// The file's name for a person: "Video".
    pub fn label(self) -> &'static str {
        match self {
            MediaField::VideoUrl => "Video",
            MediaField::ThumbnailUrl => "Thumbnail",
            MediaField::CaptionUrl => "Subtitles",
            MediaField::ImageUrl => "Image",
        }
    }
}

impl fmt::Display for MediaField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One text per media field: the `kept` object (the gateway's addresses)
/// and the `not_kept` object (why not) have this shape.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct ByMediaField {
    /// For `video_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub video_url: Option<String>,
    /// For `thumbnail_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thumbnail_url: Option<String>,
    /// For `caption_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption_url: Option<String>,
    /// For `image_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
}

impl ByMediaField {
    fn slot(&mut self, field: MediaField) -> &mut Option<String> {
        match field {
            MediaField::VideoUrl => &mut self.video_url,
            MediaField::ThumbnailUrl => &mut self.thumbnail_url,
            MediaField::CaptionUrl => &mut self.caption_url,
            MediaField::ImageUrl => &mut self.image_url,
        }
    }

    /// The text for `field`, if any.
    pub fn get(&self, field: MediaField) -> Option<&str> {
        match field {
            MediaField::VideoUrl => self.video_url.as_deref(),
            MediaField::ThumbnailUrl => self.thumbnail_url.as_deref(),
            MediaField::CaptionUrl => self.caption_url.as_deref(),
            MediaField::ImageUrl => self.image_url.as_deref(),
        }
    }

    /// Set the text for `field`.
    pub fn set(&mut self, field: MediaField, text: impl Into<String>) {
        *self.slot(field) = Some(text.into());
    }

    /// Whether no field has a text.
    pub fn is_empty(&self) -> bool {
        MediaField::ALL
            .iter()
            .all(|&field| self.get(field).is_none())
    }
}
