//! The three kinds of task the service runs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A kind of task; serialized as the document's `task_type` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskKind {
    /// `image_to_video`: a video from a prompt and images (models `V`, `KL`, `S`).
    ImageToVideo,
    /// `video_translate`: a video translated into languages, one task per language.
    VideoTranslate,
    /// `image_generate`: images from a prompt, one task per image.
    ImageGenerate,
}

impl TaskKind {
    /// Every kind, in the document's order.
    pub const ALL: [TaskKind; 3] = [
        TaskKind::ImageToVideo,
        TaskKind::VideoTranslate,
        TaskKind::ImageGenerate,
    ];

    /// The kind's name as the document spells it: the path segment after
    /// `/v1/` and the callback's `task_type`.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskKind::ImageToVideo => "image_to_video",
            TaskKind::VideoTranslate => "video_translate",
            TaskKind::ImageGenerate => "image_generate",
        }
    }
}

impl fmt::Display for TaskKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that is not one of the three task kinds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("task kind: `{0}` is not one of image_to_video, video_translate, image_generate")]
pub struct UnknownTaskKind(pub String);

impl FromStr for TaskKind {
    type Err = UnknownTaskKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TaskKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == s)
            .ok_or_else(|| UnknownTaskKind(s.to_owned()))
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
        for kind in TaskKind::ALL {
            assert_eq!(kind.to_string().parse::<TaskKind>(), Ok(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{kind}\""));
            assert_eq!(serde_json::from_str::<TaskKind>(&json).unwrap(), kind);
        }
    }

    #[test]
    fn unknown_names_are_refused_with_the_allowed_values() {
        let error = "image_to_audio".parse::<TaskKind>().unwrap_err();
        assert!(error.to_string().contains("image_to_audio"));
        assert!(error.to_string().contains("video_translate"));
    }
}
