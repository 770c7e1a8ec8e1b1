//! The result files a task names ([`media_gen_api::service::media`]), as
//! bytes: two short sample videos committed here (16:9 and 9:16, made with
//! ffmpeg; the sandbox's README has the command) with their thumbnails,
//! images drawn at the pixel size a quality and a ratio call for
//! ([`png`]), and subtitles ([`captions`]). The sandbox serves them over
//! HTTP, the test service in a page from its worker.

pub mod captions;
pub mod png;

use media_gen_api::{ImageQuality, ImageRatio};

const LANDSCAPE_MP4: &[u8] = include_bytes!("../files/sample-landscape.mp4");
const PORTRAIT_MP4: &[u8] = include_bytes!("../files/sample-portrait.mp4");
const LANDSCAPE_WEBP: &[u8] = include_bytes!("../files/sample-landscape.webp");
const PORTRAIT_WEBP: &[u8] = include_bytes!("../files/sample-portrait.webp");

/// Pixels on the long side of an image thumbnail.
pub const THUMBNAIL_LONG_SIDE: u32 = 256;

/// A file to serve: its type and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Its `Content-Type`.
    pub mime: &'static str,
    /// Its bytes.
    pub bytes: std::borrow::Cow<'static, [u8]>,
}

fn sample(mime: &'static str, bytes: &'static [u8]) -> Option<File> {
    Some(File {
        mime,
        bytes: std::borrow::Cow::Borrowed(bytes),
    })
}

/// A video task's file by its name: `landscape.mp4`, `portrait.webp`, …
pub fn video(name: &str) -> Option<File> {
    match name {
        "landscape.mp4" => sample("video/mp4", LANDSCAPE_MP4),
        "portrait.mp4" => sample("video/mp4", PORTRAIT_MP4),
        "landscape.webp" => sample("image/webp", LANDSCAPE_WEBP),
        "portrait.webp" => sample("image/webp", PORTRAIT_WEBP),
        _ => None,
    }
}

/// A translation's file by its name: the video (`{name}.mp4`) or its
/// subtitles in `language` (`{name}.ass`).
pub fn translated(language: &str, file_name: &str) -> Option<File> {
    if file_name.strip_suffix(".mp4").is_some() {
        sample("video/mp4", LANDSCAPE_MP4)
    } else {
        let name = file_name.strip_suffix(".ass")?;
        Some(File {
            mime: "text/x-ssa; charset=utf-8",
            bytes: std::borrow::Cow::Owned(captions::ass(language, name).into_bytes()),
        })
    }
}

/// The size an image of `quality` and `ratio` is drawn at (its thumbnail,
/// [`THUMBNAIL_LONG_SIDE`] on the long side, when `thumbnail`).
pub fn image_size(quality: ImageQuality, ratio: ImageRatio, thumbnail: bool) -> (u32, u32) {
    let (width, height) = if thumbnail {
        ImageQuality::K1.image_size(ratio)
    } else {
        quality.image_size(ratio)
    };
    let scale = |side: u32| {
        if thumbnail {
            (side * THUMBNAIL_LONG_SIDE / width.max(height)).max(1)
        } else {
            side
        }
    };
    (scale(width), scale(height))
}

/// An image of `quality` and `ratio` (its thumbnail when `thumbnail`), its
/// colours by the ratio; empty when it could not be encoded.
pub fn image(quality: ImageQuality, ratio: ImageRatio, thumbnail: bool) -> Vec<u8> {
    let (width, height) = image_size(quality, ratio, thumbnail);
    let seed = u8::try_from(
        ImageRatio::ALL
            .iter()
            .position(|r| *r == ratio)
            .unwrap_or(0)
            * 23,
    )
    .unwrap_or(0);
    png::grid(width, height, seed)
}
