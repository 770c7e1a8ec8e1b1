//! `POST /v1/video_translate`, `GET /v1/video_translate/{task_id}`, and the
//! naming rule of translated videos.

use serde::{Deserialize, Serialize};

use crate::lenient;
use crate::status::TaskStatus;

/// The submit request body. Unset optional fields are left out of the JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct VideoTranslateRequest {
    /// Language names from the language list; one task per language. Required.
    #[serde(default)]
    pub target_languages: Vec<String>,
    /// The video to translate. Required.
    #[serde(default)]
    pub video_url: String,
    /// Number of speakers, 0 or more; detected by the service when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speaker_num: Option<i64>,
    /// Ignore faces and translate only the voice track. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translate_audio_only: Option<bool>,
    /// Stretch or shrink portions for fluid speech across languages. Default true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable_dynamic_duration: Option<bool>,
    /// Generate subtitles. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable_caption: Option<bool>,
    /// Video name, fewer than 100 characters; see [`predicted_name`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Address that receives the completion notification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callback_url: Option<String>,
}

/// One element of the submit response `data`: the task made for one language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct TranslationTaskRef {
    /// Task identifier.
    pub task_id: String,
    /// The target language of this task.
    pub language: String,
}

/// A video translation task (status response `data`; also the callback's `data`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct VideoTranslateTask {
    /// Task identifier.
    pub task_id: String,
    /// Name of the translated video.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// Target language of this task.
    #[serde(default, deserialize_with = "lenient::string")]
    pub language: String,
    /// Task status.
    pub status: TaskStatus,
    /// The translated video.
    #[serde(default, deserialize_with = "lenient::string")]
    pub video_url: String,
    /// The subtitle file (ASS); relevant when captions were requested.
    #[serde(default, deserialize_with = "lenient::string")]
    pub caption_url: String,
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

/// The separator between language and name (service-facts.md: `English-my clip`).
pub const NAME_SEPARATOR: &str = "-";

/// What the service puts between language and timestamp when no name is given.
pub const UNNAMED_INFIX: &str = "-videoTranslate-";

/// The name the service gives the video translated into `language`.
///
/// Interface document, POST /v1/video_translate, naming rule: the language, a
/// separator (`-`), then `name`; when `name` is empty or left out, the
/// language, `-videoTranslate-`, then a timestamp with second resolution.
/// The document does not show the timestamp's format; we assume Unix seconds
/// (`English-videoTranslate-1732172400`), the usual meaning of a "timestamp
/// with second resolution" as opposed to milliseconds. `submitted_at` is the
/// submission time in Unix seconds.
pub fn predicted_name(language: &str, name: Option<&str>, submitted_at: i64) -> String {
    match name.filter(|name| !name.is_empty()) {
        Some(name) => format!("{language}{NAME_SEPARATOR}{name}"),
        None => format!("{language}{UNNAMED_INFIX}{submitted_at}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naming_rule_with_a_name() {
        assert_eq!(
            predicted_name("English", Some("my clip"), 0),
            "English-my clip"
        );
        assert_eq!(predicted_name("Japanese", Some("a-b"), 5), "Japanese-a-b");
    }

    #[test]
    fn naming_rule_without_a_name() {
        let expected = "English-videoTranslate-1732172400";
        assert_eq!(predicted_name("English", None, 1_732_172_400), expected);
        assert_eq!(predicted_name("English", Some(""), 1_732_172_400), expected);
    }
}
