//! `POST /v1/image_generate` and `GET /v1/image_generate/{task_id}`.

use serde::{Deserialize, Serialize};

use crate::lenient;
use crate::status::TaskStatus;
use crate::values::{ImageQuality, ImageRatio, Module};

/// The submit request body. Unset optional fields are left out of the JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct ImageGenerateRequest {
    /// Required; at most 1000 characters.
    #[serde(default)]
    pub prompt: String,
    /// Up to 5 image URLs, each under 20MB; items past the fifth are dropped by the service.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<String>>", optional))]
    pub reference_images: Vec<String>,
    /// `std` (default) or `pro`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<Module>,
    /// Images to make, 1 to 8, each a separate task. Default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate_count: Option<i64>,
    /// `1K`, `2K` (default) or `4K`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_quality: Option<ImageQuality>,
    /// Width:height, `9:16` by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_ratio: Option<ImageRatio>,
    /// Address that receives the completion notification (service-facts.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callback_url: Option<String>,
}

/// One image generation task (status response `data`; also the callback's `data`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ImageGenerateTask {
    /// One element of the submit response's `task_ids`.
    pub task_id: String,
    /// Task status.
    pub status: TaskStatus,
    /// The generated image; empty while generating.
    #[serde(default, deserialize_with = "lenient::string")]
    pub image_url: String,
    /// A thumbnail; empty while generating. The callback may call it `thumbnail`.
    #[serde(default, alias = "thumbnail", deserialize_with = "lenient::string")]
    pub thumbnail_url: String,
    /// Error detail; empty when there is none.
    #[serde(default, deserialize_with = "lenient::string")]
    pub error_message: String,
    /// The gateway's copies of its files, by field: a gateway's addition,
    /// absent from the service's own answers; a page shows these first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<crate::media_field::ByMediaField>,
    /// Why a file of it was not kept, by field: a gateway's addition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_kept: Option<crate::media_field::ByMediaField>,
}
