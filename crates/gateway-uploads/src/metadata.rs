//! tus's `Upload-Metadata`: `key base64,key base64`; of it only the file's
//! name is kept, made safe for a `Content-Disposition` and a URL path.

use base64::Engine;

/// The value of `key` in an `Upload-Metadata` header, decoded (`None` when
/// absent or not base64 or not UTF-8).
pub fn value(header: &str, key: &str) -> Option<String> {
    header.split(',').find_map(|pair| {
        let mut parts = pair.trim().splitn(2, ' ');
        (parts.next()? == key).then_some(())?;
        let encoded = parts.next().unwrap_or("");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .ok()?;
        String::from_utf8(bytes).ok()
    })
}

/// A file name safe anywhere: letters, digits, `-`, `_` and `.`, at most 80
/// characters, no leading dot, its extension replaced by the type's own
/// (`extension`); `upload.<extension>` when nothing is left.
pub fn safe_name(given: Option<&str>, extension: &str) -> String {
    let stem = given.unwrap_or("").rsplit(['/', '\\']).next().unwrap_or("");
    let stem = stem.rsplit_once('.').map_or(stem, |(stem, _)| stem);
    let cleaned: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(80)
        .collect();
    let cleaned = cleaned.trim_matches('-');
    let stem = if cleaned.is_empty() {
        "upload"
    } else {
        cleaned
    };
    format!("{stem}.{extension}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_read_from_tus_metadata() {
        // "filename" is "cat photo.png", "filetype" "image/png".
        let header = "filename Y2F0IHBob3RvLnBuZw==,filetype aW1hZ2UvcG5n,empty";
        assert_eq!(value(header, "filename").as_deref(), Some("cat photo.png"));
        assert_eq!(value(header, "filetype").as_deref(), Some("image/png"));
        assert_eq!(value(header, "empty").as_deref(), Some(""));
        assert_eq!(value(header, "other"), None);
        assert_eq!(value("filename !!!", "filename"), None);
    }

    #[test]
    fn names_are_made_safe_and_take_the_types_extension() {
        assert_eq!(safe_name(Some("cat photo.png"), "jpg"), "cat-photo.jpg");
        assert_eq!(safe_name(Some("../../etc/passwd"), "png"), "passwd.png");
        assert_eq!(safe_name(Some("a\"b;c.html"), "gif"), "a-b-c.gif");
        assert_eq!(safe_name(Some(".hidden"), "png"), "upload.png");
        assert_eq!(safe_name(None, "mp4"), "upload.mp4");
        assert_eq!(safe_name(Some("日本.png"), "png"), "upload.png");
        assert_eq!(safe_name(Some(&"x".repeat(200)), "png").len(), 84);
    }
}
