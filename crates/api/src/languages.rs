//! `GET /v1/video_translate/target_languages`: the languages video
//! translation can target.

use crate::envelope::Envelope;

/// Path of the language list endpoint, below the base URL.
pub const TARGET_LANGUAGES_PATH: &str = "/v1/video_translate/target_languages";

/// The language list response: `{code, msg: "success", data: [names]}`.
///
/// Names are English words such as `English` or `Japanese`, not ISO codes.
pub type TargetLanguages = Envelope<Vec<String>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::MSG_SUCCESS;

    #[test]
    fn decodes_the_published_example() {
        let json = r#"{"code": 0, "msg": "success", "data": ["English", "Chinese", "Japanese", "Korean"]}"#;
        let list: TargetLanguages = serde_json::from_str(json).unwrap();
        assert!(list.is_success());
        assert_eq!(list.msg, MSG_SUCCESS);
        assert_eq!(list.data, ["English", "Chinese", "Japanese", "Korean"]);
    }
}
