//! Defaults the service publishes for optional fields (service-facts.md).
//! Forms start from these; the sandbox applies them to omitted fields.

use crate::values::{AspectRatio, ImageQuality, ImageRatio, Module};

/// image_generate `module`.
pub const IMAGE_GENERATE_MODULE: Module = Module::Std;
/// image_generate `generate_count`.
pub const IMAGE_GENERATE_COUNT: i64 = 1;
/// image_generate `image_quality`.
pub const IMAGE_QUALITY: ImageQuality = ImageQuality::K2;
/// image_generate `image_ratio`.
pub const IMAGE_RATIO: ImageRatio = ImageRatio::R9x16;
/// image_to_video `aspect_ratio` when a request names none. Not published:
/// the sandbox makes landscape video then, and the forms say so.
pub const ASPECT_RATIO: AspectRatio = AspectRatio::Landscape16x9;
/// image_to_video `generate_audio`.
pub const GENERATE_AUDIO: bool = false;
/// image_to_video `generate_count`.
pub const IMAGE_TO_VIDEO_COUNT: i64 = 1;
/// video_translate `translate_audio_only`.
pub const TRANSLATE_AUDIO_ONLY: bool = false;
/// video_translate `enable_dynamic_duration`.
pub const ENABLE_DYNAMIC_DURATION: bool = true;
/// video_translate `enable_caption`.
pub const ENABLE_CAPTION: bool = false;
