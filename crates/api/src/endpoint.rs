//! The seven calls of the interface document, read strictly from a request
//! line: what a gateway may forward, and nothing else.

use crate::kind::TaskKind;
use crate::languages::TARGET_LANGUAGES_PATH;
use crate::path::segment;

/// One documented call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /v1/{kind}`: submit a task.
    Submit(TaskKind),
    /// `GET /v1/{kind}/{task_id}`: read a task; the id decoded.
    Status(TaskKind, String),
    /// `GET /v1/video_translate/target_languages`.
    TargetLanguages,
}

/// Why a request line names no documented call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotDocumented {
    /// The path is not one of the documented paths.
    Path,
    /// The path is documented, the method is not.
    Method,
}

/// A task id segment as it may appear in a path: not empty, no dot segment
/// (plain or percent-encoded), no slash or backslash (plain or
/// percent-encoded), no broken escape, and UTF-8 once decoded. Returns the
/// decoded id.
fn task_id(raw: &str) -> Option<String> {
    if raw.is_empty() || raw.contains(['\\', '/']) {
        return None;
    }
    let bytes = raw.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if byte == b'%' {
            let hex = raw.get(index + 1..index + 3)?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else if byte.is_ascii_graphic() {
            decoded.push(byte);
            index += 1;
        } else {
            return None;
        }
    }
    let id = String::from_utf8(decoded).ok()?;
    let refused =
        id == "." || id == ".." || id.contains(['/', '\\']) || id.chars().any(char::is_control);
    (!refused).then_some(id)
}

impl Endpoint {
    /// The call a request with `method` and origin-form `path` (the path of
    /// the request target, as received, before any decoding) makes. Paths
    /// must match exactly: no extra, empty or dot segments, no encoded
    /// slashes or backslashes, no other spelling of a kind.
    pub fn parse(method: &str, path: &str) -> Result<Endpoint, NotDocumented> {
        let endpoint = Self::parse_path(path).ok_or(NotDocumented::Path)?;
        let expected = match endpoint {
            Endpoint::Submit(_) => "POST",
            Endpoint::Status(..) | Endpoint::TargetLanguages => "GET",
        };
        if method == expected {
            Ok(endpoint)
        } else {
            Err(NotDocumented::Method)
        }
    }

    fn parse_path(path: &str) -> Option<Endpoint> {
        if path == TARGET_LANGUAGES_PATH {
            return Some(Endpoint::TargetLanguages);
        }
        let rest = path.strip_prefix("/v1/")?;
        let (kind, id) = match rest.split_once('/') {
            Some((kind, id)) => (kind, Some(id)),
            None => (rest, None),
        };
        let kind = TaskKind::ALL
            .iter()
            .copied()
            .find(|candidate| candidate.as_str() == kind)?;
        match id {
            None => Some(Endpoint::Submit(kind)),
            Some(id) => task_id(id).map(|id| Endpoint::Status(kind, id)),
        }
    }

    /// The method the call takes.
    pub fn method(&self) -> &'static str {
        match self {
            Endpoint::Submit(_) => "POST",
            Endpoint::Status(..) | Endpoint::TargetLanguages => "GET",
        }
    }

    /// The call's path as the document writes it, the task id
    /// percent-encoded as one segment.
    pub fn path(&self) -> String {
        match self {
            Endpoint::Submit(kind) => kind.submit_path(),
            Endpoint::Status(kind, id) => format!("/v1/{kind}/{}", segment(id)),
            Endpoint::TargetLanguages => TARGET_LANGUAGES_PATH.to_owned(),
        }
    }

    /// A short name for metrics and logs: `submit`, `status`, `languages`.
    pub fn route(&self) -> &'static str {
        match self {
            Endpoint::Submit(_) => "submit",
            Endpoint::Status(..) => "status",
            Endpoint::TargetLanguages => "target_languages",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_seven_documented_calls() {
        let calls = [
            (
                "POST",
                "/v1/image_to_video",
                Endpoint::Submit(TaskKind::ImageToVideo),
            ),
            (
                "POST",
                "/v1/video_translate",
                Endpoint::Submit(TaskKind::VideoTranslate),
            ),
            (
                "POST",
                "/v1/image_generate",
                Endpoint::Submit(TaskKind::ImageGenerate),
            ),
            (
                "GET",
                "/v1/image_to_video/i2v-1",
                Endpoint::Status(TaskKind::ImageToVideo, "i2v-1".into()),
            ),
            (
                "GET",
                "/v1/video_translate/vt-1",
                Endpoint::Status(TaskKind::VideoTranslate, "vt-1".into()),
            ),
            (
                "GET",
                "/v1/image_generate/ig-1",
                Endpoint::Status(TaskKind::ImageGenerate, "ig-1".into()),
            ),
            (
                "GET",
                "/v1/video_translate/target_languages",
                Endpoint::TargetLanguages,
            ),
        ];
        for (method, path, endpoint) in calls {
            assert_eq!(
                Endpoint::parse(method, path),
                Ok(endpoint.clone()),
                "{path}"
            );
            assert_eq!(endpoint.path(), path);
            assert_eq!(endpoint.method(), method);
        }
    }

    #[test]
    fn other_methods_are_refused() {
        for method in ["PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "get", "TRACE"] {
            assert_eq!(
                Endpoint::parse(method, "/v1/image_to_video/i2v-1"),
                Err(NotDocumented::Method)
            );
        }
        assert_eq!(
            Endpoint::parse("GET", "/v1/image_to_video"),
            Err(NotDocumented::Method)
        );
        assert_eq!(
            Endpoint::parse("POST", "/v1/video_translate/target_languages"),
            Err(NotDocumented::Method)
        );
    }

    #[test]
    fn other_paths_are_refused() {
        for path in [
            "/v1",
            "/v1/",
            "/v1/image_to_video/",
            "/v1//image_to_video",
            "/v1/image_to_video//x",
            "/v1/image_to_video/a/b",
            "/v1/image-to-video",
            "/V1/image_to_video",
            "/v1/movie",
            "/v1/../sandbox/faults",
            "/v1/%2e%2e/sandbox/faults",
            "/v1/%2E%2E/%2e%2e/tenant-b/admin/keys",
            "/v1/image_to_video/..",
            "/v1/image_to_video/.",
            "/v1/image_to_video/%2e%2e",
            "/v1/image_to_video/%2E",
            "/v1/image_to_video/a%2fb",
            "/v1/image_to_video/a%2Fb",
            "/v1/image_to_video/a\\b",
            "/v1/image_to_video/a%5cb",
            "/v1/image_to_video/%",
            "/v1/image_to_video/%zz",
            "/v1/image_to_video/%ff",
            "/v1/image_to_video/a%00b",
            "/v1/image_to_video/a b",
            "/v1/image_to_video\\x",
            "/v1\\image_to_video",
            "/sandbox/faults",
            "",
            "*",
            "http://evil.example/v1/image_to_video",
        ] {
            assert_eq!(
                Endpoint::parse("GET", path),
                Err(NotDocumented::Path),
                "{path}"
            );
            assert_eq!(
                Endpoint::parse("POST", path),
                Err(NotDocumented::Path),
                "{path}"
            );
        }
    }

    #[test]
    fn ids_are_decoded_and_encoded_again_as_one_segment() {
        let parsed = Endpoint::parse("GET", "/v1/video_translate/English-my%20clip%3F");
        let expected = Endpoint::Status(TaskKind::VideoTranslate, "English-my clip?".into());
        assert_eq!(parsed, Ok(expected.clone()));
        assert_eq!(expected.path(), "/v1/video_translate/English-my%20clip%3F");
        // A dotted name that is not a dot segment is an id like any other.
        assert_eq!(
            Endpoint::parse("GET", "/v1/image_generate/...").map(|e| e.path()),
            Ok("/v1/image_generate/...".to_owned())
        );
    }

    proptest! {
        #[test]
        fn the_path_of_a_status_read_reads_back(id in "[^/\\\\\\x00-\\x1f\\x7f]{1,40}") {
            prop_assume!(id != "." && id != ".." && !id.chars().any(char::is_control));
            let endpoint = Endpoint::Status(TaskKind::ImageGenerate, id);
            prop_assert_eq!(Endpoint::parse("GET", &endpoint.path()), Ok(endpoint.clone()));
        }

        #[test]
        fn a_parsed_path_never_leaves_its_segment(path in "/v1/[a-z_]{5,16}/[ -~]{0,30}") {
            if let Ok(endpoint) = Endpoint::parse("GET", &path) {
                let out = endpoint.path();
                let segments: Vec<&str> = out.split('/').collect();
                prop_assert!(segments.len() == 4, "{}", out);
                prop_assert!(segments[3] != "." && segments[3] != "..", "{}", out);
                prop_assert!(!segments[3].contains('\\'), "{}", out);
            }
        }
    }
}
