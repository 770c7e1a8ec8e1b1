//! Reading a submit's JSON body as the service reads it: a body that is
//! not JSON is malformed (`MALFORMED_BODY`); JSON whose field has the wrong
//! shape names that field (`INVALID_PARAMETER`). The sandbox answers so;
//! the gateway refuses such a body before it reaches the service, so a
//! body it cannot count is never forwarded.

use serde::de::DeserializeOwned;

use crate::error_codes;

/// Why a submit's body cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BodyProblem {
    /// Not JSON at all (or not an object where one is taken).
    #[error("{0}")]
    Malformed(String),
    /// JSON, but a field does not fit: `field: what is wrong`.
    #[error("{0}")]
    Field(String),
}

impl BodyProblem {
    /// The envelope's `code` for it.
    pub fn code(&self) -> i64 {
        match self {
            BodyProblem::Malformed(_) => error_codes::MALFORMED_BODY,
            BodyProblem::Field(_) => error_codes::INVALID_PARAMETER,
        }
    }

    /// The envelope's `msg`: what is wrong, naming the field.
    pub fn message(&self) -> &str {
        match self {
            BodyProblem::Malformed(message) | BodyProblem::Field(message) => message,
        }
    }
}

/// `bytes` read as `T`, or what is wrong with them.
pub fn read_json_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, BodyProblem> {
    // serde reads a struct from an array too (`["p"]` as the first field):
    // a submit is an object, so anything else is not one.
    let first = bytes.iter().find(|byte| !byte.is_ascii_whitespace());
    if first.is_some_and(|byte| *byte != b'{') {
        return Err(BodyProblem::Malformed(
            "The body is not a JSON object: send { \"field\": value, … }".to_owned(),
        ));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        // Syntax errors mean the body is not JSON; type errors name the field.
        if inner.is_syntax() || inner.is_eof() || path == "." {
            not_json(&inner)
        } else {
            BodyProblem::Field(field_message(&path, &inner))
        }
    })?;
    // Nothing but white space may follow the object.
    deserializer.end().map_err(|error| not_json(&error))?;
    Ok(value)
}

fn not_json(error: &serde_json::Error) -> BodyProblem {
    BodyProblem::Malformed(format!("The body is not valid JSON: {error}"))
}

/// `path: what is wrong`, without serde's "at line 1 column 9" and without
/// repeating the field when the message already starts with it.
fn field_message(path: &str, error: &serde_json::Error) -> String {
    let text = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    let text = text.strip_suffix(&position).unwrap_or(&text);
    if text.starts_with(&format!("{path}:")) {
        text.to_owned()
    } else {
        format!("{path}: {text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ImageGenerateRequest, ImageToVideoRequest};

    #[test]
    fn a_body_that_is_not_json_is_malformed() {
        for body in [&b"not json"[..], b"", b"{\"prompt\": \"p\"", b"{} {}"] {
            let problem = read_json_body::<ImageGenerateRequest>(body).unwrap_err();
            assert_eq!(problem.code(), error_codes::MALFORMED_BODY, "{body:?}");
            assert!(problem.message().starts_with("The body is not "));
        }
        for body in [&b"[\"a cat\"]"[..], b" 5", b"\"p\""] {
            let problem = read_json_body::<ImageGenerateRequest>(body).unwrap_err();
            assert_eq!(problem.code(), error_codes::MALFORMED_BODY, "{body:?}");
            assert!(problem
                .message()
                .starts_with("The body is not a JSON object"));
        }
    }

    #[test]
    fn a_field_of_the_wrong_shape_is_named() {
        let problem =
            read_json_body::<ImageGenerateRequest>(br#"{"prompt": "p", "generate_count": "four"}"#)
                .unwrap_err();
        assert_eq!(problem.code(), error_codes::INVALID_PARAMETER);
        assert!(
            problem.message().starts_with("generate_count: "),
            "{}",
            problem.message()
        );
        assert!(!problem.message().contains(" at line "));
        let nested = read_json_body::<ImageToVideoRequest>(
            br#"{"prompt": "p", "reference_images": ["a", 5]}"#,
        )
        .unwrap_err();
        assert_eq!(nested.code(), error_codes::INVALID_PARAMETER, "{nested:?}");
        assert!(
            nested.message().starts_with("reference_images[1]: "),
            "{}",
            nested.message()
        );
    }

    #[test]
    fn a_submit_read_counts_the_tasks_it_would_make() {
        use crate::{Request, TaskKind};
        let count = |kind, body: &[u8]| Request::read_submit(kind, body).unwrap().tasks_created();
        assert_eq!(
            count(
                TaskKind::ImageGenerate,
                br#"{"prompt": "p", "generate_count": 4}"#
            ),
            4
        );
        assert_eq!(
            count(
                TaskKind::VideoTranslate,
                br#"{"video_url": "https://x.test/a.mp4", "target_languages": ["A", "B", "C"]}"#
            ),
            3
        );
        assert!(Request::read_submit(TaskKind::ImageToVideo, b"not json").is_err());
    }

    #[test]
    fn a_readable_body_reads() {
        let read = read_json_body::<ImageGenerateRequest>(
            br#" {"prompt": "a cat", "generate_count": 2} "#,
        )
        .unwrap();
        assert_eq!(read.generate_count, Some(2));
    }
}
