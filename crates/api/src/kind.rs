//! The three kinds of task the service runs.

use crate::wire_enum::wire_enum;

wire_enum! {
    /// A kind of task: the path segment after `/v1/` and the callback's `task_type`.
    pub enum TaskKind for "task_type" {
        /// `image_to_video`: a video from a prompt and images (models `V`, `KL`, `S`).
        ImageToVideo => "image_to_video",
        /// `video_translate`: a video translated into languages, one task per language.
        VideoTranslate => "video_translate",
        /// `image_generate`: images from a prompt, one task per image.
        ImageGenerate => "image_generate",
    }
}

impl TaskKind {
    /// The submit endpoint's path: `/v1/image_to_video`.
    pub fn submit_path(self) -> String {
        format!("/v1/{self}")
    }

    /// The status endpoint's path for `task_id`: `/v1/image_to_video/{task_id}`.
    /// The id is percent-encoded, since it is opaque and could hold any character.
    pub fn status_path(self, task_id: &str) -> String {
        format!("/v1/{self}/{}", crate::path::segment(task_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_document_task_types_and_round_trip() {
        let names: Vec<_> = TaskKind::ALL.iter().map(|kind| kind.to_string()).collect();
        assert_eq!(
            names,
            ["image_to_video", "video_translate", "image_generate"]
        );
        for &kind in TaskKind::ALL {
            assert_eq!(kind.to_string().parse::<TaskKind>(), Ok(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{kind}\""));
            assert_eq!(serde_json::from_str::<TaskKind>(&json).unwrap(), kind);
        }
    }

    #[test]
    fn unknown_names_are_refused_with_the_allowed_values() {
        let error = "image_to_audio".parse::<TaskKind>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "task_type: `image_to_audio` is not one of image_to_video, video_translate, image_generate"
        );
    }

    #[test]
    fn endpoint_paths_follow_the_document() {
        assert_eq!(TaskKind::ImageToVideo.submit_path(), "/v1/image_to_video");
        assert_eq!(
            TaskKind::VideoTranslate.status_path("vt-0123abcd"),
            "/v1/video_translate/vt-0123abcd"
        );
        assert_eq!(
            TaskKind::ImageGenerate.status_path("a/b?c"),
            "/v1/image_generate/a%2Fb%3Fc"
        );
    }
}
