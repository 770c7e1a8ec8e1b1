//! A submit request of any kind: what a stored task keeps, what a re-run
//! sends, and what a form or widget hands to the client.

use serde_json::Value;

use crate::image_generate::ImageGenerateRequest;
use crate::image_to_video::ImageToVideoRequest;
use crate::kind::TaskKind;
use crate::validate::{
    validate_image_generate, validate_image_to_video, validate_video_translate, Context, Problems,
};
use crate::video_translate::VideoTranslateRequest;

/// The submit request of one of the three kinds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `POST /v1/image_to_video`.
    ImageToVideo(ImageToVideoRequest),
    /// `POST /v1/video_translate`.
    VideoTranslate(VideoTranslateRequest),
    /// `POST /v1/image_generate`.
    ImageGenerate(ImageGenerateRequest),
}

impl Request {
    /// The kind of task it submits.
    pub fn kind(&self) -> TaskKind {
        match self {
            Request::ImageToVideo(_) => TaskKind::ImageToVideo,
            Request::VideoTranslate(_) => TaskKind::VideoTranslate,
            Request::ImageGenerate(_) => TaskKind::ImageGenerate,
        }
    }

    /// Read a request of `kind` from its JSON body (as stored, or from JavaScript).
    pub fn from_json(kind: TaskKind, json: Value) -> Result<Self, serde_json::Error> {
        Ok(match kind {
            TaskKind::ImageToVideo => Request::ImageToVideo(serde_json::from_value(json)?),
            TaskKind::VideoTranslate => Request::VideoTranslate(serde_json::from_value(json)?),
            TaskKind::ImageGenerate => Request::ImageGenerate(serde_json::from_value(json)?),
        })
    }

    /// Read a submit of `kind` from the bytes of its body as the service
    /// reads them, or what is wrong with them, naming the field.
    #[cfg(feature = "server")]
    pub fn read_submit(
        kind: TaskKind,
        body: &[u8],
    ) -> Result<Self, crate::submit_body::BodyProblem> {
        use crate::submit_body::read_json_body;
        Ok(match kind {
            TaskKind::ImageToVideo => Request::ImageToVideo(read_json_body(body)?),
            TaskKind::VideoTranslate => Request::VideoTranslate(read_json_body(body)?),
            TaskKind::ImageGenerate => Request::ImageGenerate(read_json_body(body)?),
        })
    }

    /// Read a request of `kind` from a body of any form
    /// ([`crate::decode::Body`]: a value a browser already parsed, say).
    pub fn from_body(
        kind: TaskKind,
        body: &(impl crate::decode::Body + ?Sized),
    ) -> Result<Self, String> {
        Ok(match kind {
            TaskKind::ImageToVideo => Request::ImageToVideo(body.read_as()?),
            TaskKind::VideoTranslate => Request::VideoTranslate(body.read_as()?),
            TaskKind::ImageGenerate => Request::ImageGenerate(body.read_as()?),
        })
    }

    /// The JSON body sent to the service; unset optional fields left out.
    pub fn to_json(&self) -> Value {
        let json = match self {
            Request::ImageToVideo(request) => serde_json::to_value(request),
            Request::VideoTranslate(request) => serde_json::to_value(request),
            Request::ImageGenerate(request) => serde_json::to_value(request),
        };
        // Plain structs of strings, numbers and lists always serialize.
        json.unwrap_or(Value::Null)
    }

    /// The JSON body sent to the service as text, written straight from
    /// the request ([`Request::to_json`] without the `Value` between: what
    /// a client that only sends it needs).
    pub fn to_json_text(&self) -> String {
        let text = match self {
            Request::ImageToVideo(request) => serde_json::to_string(request),
            Request::VideoTranslate(request) => serde_json::to_string(request),
            Request::ImageGenerate(request) => serde_json::to_string(request),
        };
        text.unwrap_or_else(|_| "null".to_owned())
    }

    /// Every problem of the request (see the kind's `validate_*`).
    pub fn validate(&self, context: &Context) -> Problems {
        match self {
            Request::ImageToVideo(request) => validate_image_to_video(request, context),
            Request::VideoTranslate(request) => validate_video_translate(request, context),
            Request::ImageGenerate(request) => validate_image_generate(request, context),
        }
    }

    /// How many tasks the service makes for this request: `generate_count`
    /// (its published default when absent) for images and videos, one per
    /// target language for translations; never less than one. A budget
    /// counted in tasks uses it, so it reads the request as sent and does
    /// not validate it.
    pub fn tasks_created(&self) -> u64 {
        let count = match self {
            Request::ImageToVideo(request) => request
                .generate_count
                .unwrap_or(crate::defaults::IMAGE_TO_VIDEO_COUNT),
            Request::VideoTranslate(request) => {
                i64::try_from(request.target_languages.len()).unwrap_or(i64::MAX)
            }
            Request::ImageGenerate(request) => request
                .generate_count
                .unwrap_or(crate::defaults::IMAGE_GENERATE_COUNT),
        };
        u64::try_from(count).unwrap_or(0).max(1)
    }

    /// Whether nothing a person types is filled in: no prompt, image or
    /// video address, name or callback URL (choices such as the model,
    /// which always hold a value, do not count). What a form reports as
    /// `empty`.
    pub fn is_blank(&self) -> bool {
        let blank = |text: &str| text.trim().is_empty();
        let unset = |text: &Option<String>| text.as_deref().is_none_or(blank);
        match self {
            Request::ImageToVideo(request) => {
                blank(&request.prompt)
                    && unset(&request.image_url)
                    && unset(&request.end_image_url)
                    && request.reference_images.iter().all(|url| blank(url))
                    && unset(&request.callback_url)
            }
            Request::VideoTranslate(request) => {
                blank(&request.video_url) && unset(&request.name) && unset(&request.callback_url)
            }
            Request::ImageGenerate(request) => {
                blank(&request.prompt)
                    && request.reference_images.iter().all(|url| blank(url))
                    && unset(&request.callback_url)
            }
        }
    }

    /// The prompt, when the kind has one and it is not blank (a
    /// translation has none).
    pub fn prompt(&self) -> Option<&str> {
        match self {
            Request::ImageToVideo(request) => Some(request.prompt.as_str()),
            Request::ImageGenerate(request) => Some(request.prompt.as_str()),
            Request::VideoTranslate(_) => None,
        }
        .filter(|prompt| !prompt.trim().is_empty())
    }

    /// The callback URL, when one is set.
    pub fn callback_url(&self) -> Option<&str> {
        match self {
            Request::ImageToVideo(request) => request.callback_url.as_deref(),
            Request::VideoTranslate(request) => request.callback_url.as_deref(),
            Request::ImageGenerate(request) => request.callback_url.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_is_blank_until_something_is_typed() {
        let mut image = ImageGenerateRequest {
            generate_count: Some(2),
            ..Default::default()
        };
        assert!(
            Request::ImageGenerate(image.clone()).is_blank(),
            "choices do not count"
        );
        image.prompt = "  ".into();
        assert!(
            Request::ImageGenerate(image.clone()).is_blank(),
            "spaces do not count"
        );
        image.prompt = "a fox".into();
        assert!(!Request::ImageGenerate(image).is_blank());
        let translation = VideoTranslateRequest {
            target_languages: vec!["English".into()],
            ..Default::default()
        };
        assert!(Request::VideoTranslate(translation.clone()).is_blank());
        let named = VideoTranslateRequest {
            name: Some("talk".into()),
            ..translation
        };
        assert!(!Request::VideoTranslate(named).is_blank());
        let video = ImageToVideoRequest {
            image_url: Some("https://x.io/a.png".into()),
            ..Default::default()
        };
        assert!(!Request::ImageToVideo(video).is_blank());
    }

    #[test]
    fn tasks_created_per_kind() {
        let count = |kind, json| Request::from_json(kind, json).unwrap().tasks_created();
        assert_eq!(count(TaskKind::ImageGenerate, json!({"prompt": "p"})), 1);
        assert_eq!(
            count(
                TaskKind::ImageGenerate,
                json!({"prompt": "p", "generate_count": 8})
            ),
            8
        );
        assert_eq!(
            count(
                TaskKind::ImageToVideo,
                json!({"prompt": "p", "generate_count": 3})
            ),
            3
        );
        assert_eq!(
            count(
                TaskKind::VideoTranslate,
                json!({"video_url": "https://x.test/a.mp4", "target_languages": ["French", "German"]})
            ),
            2
        );
        // Nonsense counts are still at least one task.
        assert_eq!(
            count(
                TaskKind::ImageGenerate,
                json!({"prompt": "p", "generate_count": -5})
            ),
            1
        );
        assert_eq!(
            count(
                TaskKind::VideoTranslate,
                json!({"video_url": "https://x.test/a.mp4", "target_languages": []})
            ),
            1
        );
    }

    #[test]
    fn json_round_trip_per_kind() {
        let bodies = [
            (
                TaskKind::ImageToVideo,
                json!({"model": "S", "prompt": "p", "aspect_resolution": "720p", "duration": 4,
                       "image_url": "https://x.test/a.png"}),
            ),
            (
                TaskKind::VideoTranslate,
                json!({"target_languages": ["English"], "video_url": "https://x.test/v.mp4"}),
            ),
            (
                TaskKind::ImageGenerate,
                json!({"prompt": "p", "generate_count": 2}),
            ),
        ];
        for (kind, body) in bodies {
            let request = Request::from_json(kind, body.clone()).unwrap();
            assert_eq!(request.kind(), kind);
            assert_eq!(request.to_json(), body);
            assert!(request.validate(&Context::default()).is_empty(), "{kind}");
        }
    }

    #[test]
    fn a_body_of_the_wrong_shape_is_refused() {
        let error = Request::from_json(TaskKind::ImageGenerate, json!({"generate_count": "x"}));
        assert!(error.is_err());
    }

    #[test]
    fn callback_url_per_kind() {
        let request = Request::ImageGenerate(ImageGenerateRequest {
            callback_url: Some("https://hook.test/a".into()),
            ..Default::default()
        });
        assert_eq!(request.callback_url(), Some("https://hook.test/a"));
        let request = Request::VideoTranslate(VideoTranslateRequest::default());
        assert_eq!(request.callback_url(), None);
    }
}
