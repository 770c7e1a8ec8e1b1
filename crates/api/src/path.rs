//! Building URL paths and file names from opaque strings.

/// `text` as one URL path segment: everything but unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`) percent-encoded, so an opaque id or a name with
/// spaces, slashes or question marks stays one segment. The dot segments
/// (`.`, `..`) have their dots encoded too, so a server or client that
/// keeps escapes does not read them as "this folder" or "the one above";
/// other dotted names (`...`) are ids like any other.
pub fn segment(text: &str) -> String {
    if text == "." || text == ".." {
        return "%2E".repeat(text.len());
    }
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

/// A path segment read back: `%XX` escapes decoded (the inverse of
/// [`segment`]), bytes that are not UTF-8 replaced with U+FFFD rather than
/// refused, so any address a person types still names something.
pub fn decode_segment(segment: &str) -> String {
    percent_encoding::percent_decode_str(segment)
        .decode_utf8_lossy()
        .into_owned()
}

/// `text` with every character but ASCII letters, digits, `-`, `_` and
/// `.` written as `instead`: a name safe in a file name, a header and a
/// URL path, whatever a person or the service put in it.
pub fn file_safe(text: &str, instead: char) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                instead
            }
        })
        .collect()
}

/// The part of `path` under the base path `prefix` (written without its
/// trailing slash: `/media`, or empty for a site's root): `/media/tasks/x`
/// → `/tasks/x`, `/media` and `/media/` → `/`; `None` when `path` is
/// elsewhere (`/mediax`, `/metrics`). The gateway routes by it, the app
/// reads its pages by it.
pub fn under_base<'a>(prefix: &str, path: &'a str) -> Option<&'a str> {
    let rest = path.strip_prefix(prefix)?;
    match rest {
        "" => Some("/"),
        _ if rest.starts_with('/') => Some(rest),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn paths_under_a_base_lose_it_and_others_are_elsewhere() {
        assert_eq!(under_base("/media", "/media"), Some("/"));
        assert_eq!(under_base("/media", "/media/"), Some("/"));
        assert_eq!(under_base("/media", "/media/tasks/x"), Some("/tasks/x"));
        assert_eq!(under_base("/media", "/mediax"), None);
        assert_eq!(under_base("/media", "/metrics"), None);
        assert_eq!(under_base("", "/v1/x"), Some("/v1/x"));
        assert_eq!(under_base("", "/"), Some("/"));
    }

    #[test]
    fn segments_are_decoded() {
        assert_eq!(decode_segment("vt-0123abcd"), "vt-0123abcd");
        assert_eq!(decode_segment("a%2Fb%3Fc%23d%20e"), "a/b?c#d e");
        assert_eq!(decode_segment("%E6%97%A5"), "日");
        // A lone or broken escape stays as typed; bad UTF-8 is replaced.
        assert_eq!(decode_segment("100%"), "100%");
        assert_eq!(decode_segment("%zz"), "%zz");
        assert_eq!(decode_segment("%FF"), "\u{FFFD}");
    }

    proptest! {
        #[test]
        fn decoding_undoes_encoding(text in any::<String>()) {
            prop_assert_eq!(decode_segment(&segment(&text)), text);
        }
    }

    #[test]
    fn reserved_characters_are_encoded() {
        assert_eq!(segment("vt-0123abcd"), "vt-0123abcd");
        assert_eq!(segment("a/b?c#d e"), "a%2Fb%3Fc%23d%20e");
        assert_eq!(segment("English-my clip"), "English-my%20clip");
        assert_eq!(segment("日"), "%E6%97%A5");
    }

    #[test]
    fn dot_segments_are_encoded() {
        assert_eq!(segment("."), "%2E");
        assert_eq!(segment(".."), "%2E%2E");
        assert_eq!(segment("a.b"), "a.b");
        assert_eq!(segment("..a"), "..a");
        assert_eq!(segment("..."), "...");
        assert_eq!(decode_segment(&segment("..")), "..");
    }
}
