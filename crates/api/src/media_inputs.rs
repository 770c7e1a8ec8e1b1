//! The media a request names by URL: what the service fetches before it
//! can work (start and end frames, reference images, the video to
//! translate), each with its field's path as the validators name it and
//! whether it must be an image or a video. One list for the sandbox's
//! fetches, the gateway's uploads kept alive by a submit, and the app.

use crate::{ImageGenerateRequest, ImageToVideoRequest, Request, VideoTranslateRequest};

/// What an input must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// An image (JPEG, PNG, BMP, WebP, GIF; at most 20 MB).
    Image,
    /// A video.
    Video,
}

/// One input a request names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaInput<'a> {
    /// The field's path: `image_url`, `reference_images[2]`, `video_url`.
    pub field: String,
    /// Its URL as given.
    pub url: &'a str,
    /// What it must be.
    pub kind: InputKind,
}

fn references(urls: &[String]) -> impl Iterator<Item = MediaInput<'_>> {
    urls.iter().enumerate().map(|(index, url)| MediaInput {
        field: format!("reference_images[{index}]"),
        url,
        kind: InputKind::Image,
    })
}

fn named<'a>(field: &str, url: Option<&'a String>, kind: InputKind) -> Option<MediaInput<'a>> {
    url.filter(|url| !url.is_empty()).map(|url| MediaInput {
        field: field.to_owned(),
        url,
        kind,
    })
}

impl ImageToVideoRequest {
    /// The start and end frames and the reference images it names.
    pub fn media_inputs(&self) -> Vec<MediaInput<'_>> {
        named("image_url", self.image_url.as_ref(), InputKind::Image)
            .into_iter()
            .chain(named(
                "end_image_url",
                self.end_image_url.as_ref(),
                InputKind::Image,
            ))
            .chain(references(&self.reference_images))
            .collect()
    }
}

impl ImageGenerateRequest {
    /// The reference images it names.
    pub fn media_inputs(&self) -> Vec<MediaInput<'_>> {
        references(&self.reference_images).collect()
    }
}

impl VideoTranslateRequest {
    /// The video it names.
    pub fn media_inputs(&self) -> Vec<MediaInput<'_>> {
        named("video_url", Some(&self.video_url), InputKind::Video)
            .into_iter()
            .collect()
    }
}

impl Request {
    /// The media the request names, whatever its kind.
    pub fn media_inputs(&self) -> Vec<MediaInput<'_>> {
        match self {
            Request::ImageToVideo(request) => request.media_inputs(),
            Request::VideoTranslate(request) => request.media_inputs(),
            Request::ImageGenerate(request) => request.media_inputs(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_request_names_its_media_with_the_validators_paths() {
        let request: ImageToVideoRequest = serde_json::from_str(
            r#"{"prompt":"p","image_url":"https://a/1.png","end_image_url":"","reference_images":["https://a/2.png","https://a/3.png"]}"#,
        )
        .unwrap();
        let inputs = request.media_inputs();
        let fields: Vec<&str> = inputs.iter().map(|input| input.field.as_str()).collect();
        assert_eq!(
            fields,
            ["image_url", "reference_images[0]", "reference_images[1]"]
        );
        assert_eq!(inputs[2].url, "https://a/3.png");
        let translate: VideoTranslateRequest =
            serde_json::from_str(r#"{"video_url":"https://a/v.mp4","target_languages":["en"]}"#)
                .unwrap();
        assert_eq!(translate.media_inputs()[0].kind, InputKind::Video);
        let images: ImageGenerateRequest = serde_json::from_str(r#"{"prompt":"p"}"#).unwrap();
        assert!(images.media_inputs().is_empty());
    }
}
