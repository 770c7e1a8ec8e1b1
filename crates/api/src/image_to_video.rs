//! `POST /v1/image_to_video` and `GET /v1/image_to_video/{task_id}`.

use serde::{Deserialize, Serialize};

use crate::lenient;
use crate::status::TaskStatus;
use crate::values::{AspectRatio, Model, Resolution};

/// The submit request body. Unset optional fields are left out of the JSON.
///
/// Integers are `i64` so that an out-of-range value (a negative count, say)
/// reaches validation and gets a message naming the rule, rather than failing
/// to decode.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct ImageToVideoRequest {
    /// `V`, `KL` or `S`. Required here (see the crate README).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Model>,
    /// Required for all models; at most 1000 characters.
    #[serde(default)]
    pub prompt: String,
    /// `16:9` or `9:16`. Optional (see the crate README).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aspect_ratio: Option<AspectRatio>,
    /// `720p`, `1080p` or `4k`; required; the set depends on the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aspect_resolution: Option<Resolution>,
    /// Seconds: 4, 5, 6, 8, 10 or 12; required; the set depends on the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<i64>,
    /// Start frame URL; at most 20MB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    /// End frame URL; model `V` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_image_url: Option<String>,
    /// Reference image URLs; at most 20MB each; the count limit depends on the model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<String>>", optional))]
    pub reference_images: Vec<String>,
    /// Generate a sound track; model `V` only. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate_audio: Option<bool>,
    /// Videos to make, 1 to 4. Default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate_count: Option<i64>,
    /// Address that receives the completion notification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callback_url: Option<String>,
}

/// The submit response `data` of image_to_video and image_generate: one id per task.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct TaskIds {
    /// Task identifiers, opaque strings.
    pub task_ids: Vec<String>,
}

/// An image-to-video task (status response `data`; also the callback's `data`,
/// which leaves out `duration`, `width` and `height`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct ImageToVideoTask {
    /// Task identifier.
    pub task_id: String,
    /// Task status.
    pub status: TaskStatus,
    /// The generated video; meaningful when `SUCCEEDED`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub video_url: String,
    /// A cover image for the video.
    #[serde(default, deserialize_with = "lenient::string")]
    pub thumbnail_url: String,
    /// Error detail; empty when there is no error.
    #[serde(default, deserialize_with = "lenient::string")]
    pub error_message: String,
    /// Video length in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<i64>,
    /// Video width in pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<i64>,
    /// Video height in pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<i64>,
    /// The gateway's copies of its files, by field: a gateway's addition,
    /// absent from the service's own answers; a page shows these first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<crate::media_field::ByMediaField>,
    /// Why a file of it was not kept, by field: a gateway's addition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_kept: Option<crate::media_field::ByMediaField>,
}
