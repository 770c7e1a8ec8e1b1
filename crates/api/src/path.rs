//! Building URL paths from opaque strings.

/// `text` as one URL path segment: everything but unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`) percent-encoded, so an opaque id or a name with
/// spaces, slashes or question marks stays one segment.
pub fn segment(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_characters_are_encoded() {
        assert_eq!(segment("vt-0123abcd"), "vt-0123abcd");
        assert_eq!(segment("a/b?c#d e"), "a%2Fb%3Fc%23d%20e");
        assert_eq!(segment("English-my clip"), "English-my%20clip");
        assert_eq!(segment("日"), "%E6%97%A5");
    }
}
