//! The result files a task names: where under the service's address each
//! lives (`/sandbox/media/…`, with `?task=` naming its task), so every
//! driver serves the same addresses. Videos are two samples (16:9, 9:16);
//! images are drawn at the pixel size their quality and ratio call for.

use crate::path::segment;
use crate::{AspectRatio, ImageQuality, ImageRatio};

/// The sample video's name for an aspect ratio.
pub fn shape(aspect: AspectRatio) -> &'static str {
    match aspect {
        AspectRatio::Landscape16x9 => "landscape",
        AspectRatio::Portrait9x16 => "portrait",
    }
}

/// A ratio as a path segment: `16:9` → `16x9`.
pub fn ratio_segment(ratio: ImageRatio) -> String {
    ratio.as_str().replace(':', "x")
}

/// A ratio back from its path segment.
pub fn parse_ratio(segment: &str) -> Option<ImageRatio> {
    segment.replace('x', ":").parse().ok()
}

/// A video task's file and its thumbnail.
pub fn video_urls(base: &str, aspect: AspectRatio, task: &str) -> (String, String) {
    let shape = shape(aspect);
    (
        format!("{base}/sandbox/media/video/{shape}.mp4?task={task}"),
        format!("{base}/sandbox/media/video/{shape}.webp?task={task}"),
    )
}

/// A translation's video and subtitles, named by the naming rule.
pub fn translation_urls(base: &str, language: &str, name: &str, task: &str) -> (String, String) {
    let folder = format!("{base}/sandbox/media/translated/{}", segment(language));
    (
        format!("{folder}/{}.mp4?task={task}", segment(name)),
        format!("{folder}/{}.ass?task={task}", segment(name)),
    )
}

/// A generated image and its thumbnail.
pub fn image_urls(
    base: &str,
    quality: ImageQuality,
    ratio: ImageRatio,
    task: &str,
) -> (String, String) {
    let image = format!(
        "{base}/sandbox/media/image/{quality}/{}",
        ratio_segment(ratio)
    );
    (
        format!("{image}.png?task={task}"),
        format!("{image}/thumbnail.png?task={task}"),
    )
}
