//! Rules shared by several requests: prompt, URLs, counts, image files.

use super::{Context, Problems, Rule};
use crate::url_parts::url_parts;

/// The longest prompt, in characters (interface document, Limits).
pub const MAX_PROMPT_CHARS: usize = 1000;

/// The largest image file for image_to_video ("at most 20MB") and the bound
/// image_generate's files must stay under ("under 20MB"). "MB" is read as
/// 2^20 bytes, the larger reading, so a file the service accepts is never refused.
pub const MAX_IMAGE_BYTES: u64 = 20 * 1024 * 1024;

/// Characters as people count them: Unicode scalar values, so one Chinese
/// character or one emoji is one, whatever its UTF-8 length.
pub fn char_count(text: &str) -> usize {
    text.chars().count()
}

/// `prompt`: required (whitespace alone counts as empty), at most 1000 characters.
pub fn check_prompt(problems: &mut Problems, prompt: &str) {
    if prompt.trim().is_empty() {
        problems.error("prompt", Rule::Required, "A prompt is required");
        return;
    }
    let count = char_count(prompt);
    if count > MAX_PROMPT_CHARS {
        problems.error(
            "prompt",
            Rule::TooLong,
            format!("A prompt has at most {MAX_PROMPT_CHARS} characters; this one has {count}"),
        );
    }
}

/// `text` parsed as a URL by the `url` crate, or `None` (native builds:
/// the servers' flags and callbacks; the rules read URLs through
/// [`crate::url_parts::url_parts`]).
///
/// The ASCII-only host handling (see [`ascii_host_form`]) expects host names
/// already lower-cased, and asserts it in debug builds: a host mixing capitals
/// with other letters ("Bücher") would panic there. A lower-cased copy is
/// parsed first; case does not change whether a URL is valid, and when the
/// copy parses, the original's host is ASCII and safe to parse as written.
#[cfg(feature = "url")]
pub fn parse_url(text: &str) -> Option<url::Url> {
    let text = text.trim();
    url::Url::parse(&text.to_ascii_lowercase()).ok()?;
    url::Url::parse(text).ok()
}

/// An origin as a flag gives it (`https://app.example.com`, a port if
/// any), written as browsers send it; `*` stands for any origin. Anything
/// else is refused with a message, not dropped in silence.
#[cfg(feature = "url")]
pub fn parse_origin(text: &str) -> Result<String, String> {
    if text == "*" {
        return Ok(text.to_owned());
    }
    let refused = || {
        format!("`{text}` is not an origin: scheme, host and port only, such as https://app.example.com")
    };
    let url = parse_url(text).ok_or_else(refused)?;
    let bare = matches!(url.scheme(), "http" | "https")
        && url.has_host()
        && url.path() == "/"
        && !text.contains(['?', '#'])
        && url.username().is_empty()
        && url.password().is_none();
    if !bare {
        return Err(refused());
    }
    Ok(url.origin().ascii_serialization())
}

/// A base URL as a flag gives it (a service, a server's public address):
/// http(s) with a host, maybe a path prefix, no query or fragment; written
/// without a trailing slash, so paths like `/v1/…` can be appended.
#[cfg(feature = "url")]
pub fn parse_base_url(text: &str) -> Result<String, String> {
    let url = parse_url(text).ok_or_else(|| format!("`{text}` is not a URL"))?;
    if !matches!(url.scheme(), "http" | "https") || !url.has_host() || text.contains(['?', '#']) {
        return Err(format!(
            "`{text}` is not an http(s) base URL such as https://service.example.com/api"
        ));
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// Whether `text` is an absolute `http` or `https` URL with a host.
pub fn is_http_url(text: &str) -> bool {
    url_parts(text).is_some_and(|url| url.is_http())
}

/// A URL field: absolute `http`/`https` only, host names in ASCII.
pub fn check_url(problems: &mut Problems, field: &str, text: &str) {
    if is_http_url(text) {
        return;
    }
    match ascii_host_form(text) {
        Some(ascii) => problems.error(
            field,
            Rule::InvalidUrl,
            format!(
                "Write the host name in its ASCII form (letters outside ASCII are not \
                 accepted here): {ascii}"
            ),
        ),
        None => problems.error(
            field,
            Rule::InvalidUrl,
            "Must be an absolute http or https URL, such as https://example.com/image.png",
        ),
    }
}

/// `text` with a non-ASCII host name written in its ASCII (punycode) form,
/// when that makes it a valid http(s) URL; `None` otherwise.
///
/// URLs are parsed without the Unicode tables of international domain
/// names (IDNA): they would be the largest single part of the browser app.
/// Each non-ASCII label is lower-cased and punycode-encoded, which is the
/// IDNA result for text typed in the usual composed form; the suggestion
/// is only offered when the result parses, and not for labels with capitals
/// outside ASCII.
pub fn ascii_host_form(text: &str) -> Option<String> {
    let text = text.trim();
    let (scheme, rest) = text.split_once("://")?;
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at_checked(authority_end)?;
    let (user, host_port) = match authority.rsplit_once('@') {
        Some((user, host_port)) => (Some(user), host_port),
        None => (None, authority),
    };
    let (host, port) = match host_port.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => (host, Some(port)),
        _ => (host_port, None),
    };
    if host.is_ascii() {
        return None;
    }
    let labels: Option<Vec<String>> = host
        .split('.')
        .map(|label| {
            let label = label.to_ascii_lowercase();
            if label.is_ascii() {
                Some(label)
            } else if label.chars().any(char::is_uppercase) {
                // A capital outside ASCII ("Ü"): lower-casing it needs the
                // Unicode case tables, too large for the browser's wasm for
                // this one suggestion, so none is offered.
                None
            } else {
                idna::punycode::encode_str(&label).map(|code| format!("xn--{code}"))
            }
        })
        .collect();
    let mut ascii = format!("{scheme}://");
    if let Some(user) = user {
        ascii.push_str(user);
        ascii.push('@');
    }
    ascii.push_str(&labels?.join("."));
    if let Some(port) = port {
        ascii.push(':');
        ascii.push_str(port);
    }
    ascii.push_str(tail);
    is_http_url(&ascii).then_some(ascii)
}

/// An optional URL field: checked when set. An empty string counts as unset.
pub fn check_optional_url(problems: &mut Problems, field: &str, text: Option<&str>) {
    if let Some(text) = text.filter(|text| !text.is_empty()) {
        check_url(problems, field, text);
    }
}

/// `generate_count`: when set, between 1 and `max` inclusive.
pub fn check_count(problems: &mut Problems, count: Option<i64>, max: i64, noun: &str) {
    if let Some(count) = count.filter(|count| !(1..=max).contains(count)) {
        problems.error(
            "generate_count",
            Rule::OutOfRange,
            format!("Make 1 to {max} {noun} at a time (not {count})"),
        );
    }
}

/// An image's file size, when the browser measured it. `inclusive`: whether
/// exactly the limit is allowed ("at most") or not ("under").
pub fn check_image_bytes(
    problems: &mut Problems,
    context: &Context,
    field: &str,
    url: &str,
    inclusive: bool,
) {
    let Some(bytes) = context.image(url).and_then(|info| info.bytes) else {
        return;
    };
    let too_large = if inclusive {
        bytes > MAX_IMAGE_BYTES
    } else {
        bytes >= MAX_IMAGE_BYTES
    };
    if too_large {
        let rule = if inclusive { "at most" } else { "under" };
        // Tenths of a megabyte in integers: the float printer is large in wasm.
        let tenths = (bytes.saturating_mul(10) + (1 << 19)) >> 20;
        let megabytes = format!("{}.{}", tenths / 10, tenths % 10);
        problems.error(
            field,
            Rule::TooLarge,
            format!("Images must be {rule} 20 MB; this one is {megabytes} MB"),
        );
    }
}

/// The lower-case extension of the URL's last path segment, if it shows one.
pub fn url_extension(text: &str) -> Option<String> {
    let url = url_parts(text)?;
    let (stem, extension) = url.last_segment().rsplit_once('.')?;
    (!stem.is_empty() && !extension.is_empty()).then(|| extension.to_ascii_lowercase())
}

/// Items past `max` in a list, with their paths: `reference_images[3]`, ...
pub fn items_past<'a>(
    field: &'a str,
    items: &'a [String],
    max: usize,
) -> impl Iterator<Item = String> + 'a {
    (max..items.len()).map(move |index| format!("{field}[{index}]"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "url")]
    fn base_urls_are_http_without_a_trailing_slash() {
        assert_eq!(
            parse_base_url("http://127.0.0.1:9000/"),
            Ok("http://127.0.0.1:9000".into())
        );
        assert_eq!(
            parse_base_url("https://service.example/api/"),
            Ok("https://service.example/api".into())
        );
        for text in [
            "127.0.0.1:9000",
            "http://x.example/?q",
            "ftp://x.example",
            "https://x.example/#a",
        ] {
            assert!(parse_base_url(text).is_err(), "{text}");
        }
    }

    #[test]
    #[cfg(feature = "url")]
    fn origins_are_written_as_browsers_send_them() {
        assert_eq!(
            parse_origin("https://app.example.com"),
            Ok("https://app.example.com".into())
        );
        assert_eq!(
            parse_origin("https://App.Example.com/"),
            Ok("https://app.example.com".into())
        );
        assert_eq!(
            parse_origin("http://127.0.0.1:8080"),
            Ok("http://127.0.0.1:8080".into())
        );
        assert_eq!(parse_origin("*"), Ok("*".into()));
    }

    #[test]
    #[cfg(feature = "url")]
    fn other_text_is_refused_with_a_message() {
        for text in [
            "app.example.com",
            "https://app.example.com/path",
            "ftp://x.example",
            "https://x.example?a",
            "https://u@x.example",
            "",
        ] {
            let error = parse_origin(text).unwrap_err();
            assert!(error.contains("is not an origin"), "{text}: {error}");
        }
    }

    #[test]
    fn http_urls_only() {
        for good in [
            "https://example.com/a.png",
            "http://127.0.0.1:8080/x",
            " https://x.io ",
        ] {
            assert!(is_http_url(good), "{good}");
        }
        for bad in [
            "",
            "example.com/a.png",
            "/a.png",
            "ftp://x.io/a",
            "javascript:alert(1)",
            "data:image/png;base64,AA",
            "https://",
            "file:///etc/passwd",
        ] {
            assert!(!is_http_url(bad), "{bad}");
        }
    }

    #[test]
    fn capitals_beside_other_letters_in_a_host_are_refused_not_a_panic() {
        for text in [
            "ws:A¡",
            "https://Bücher.example/a.png",
            "http://A%C3%A4.com/x",
        ] {
            assert!(!is_http_url(text), "{text}");
            assert!(url_parts(text).is_none(), "{text}");
        }
        let mut problems = Problems::default();
        check_url(&mut problems, "image_url", "https://Bücher.example/a.png");
        let message = &problems
            .for_field("image_url")
            .next()
            .expect("a problem")
            .message;
        assert!(
            message.contains("https://xn--bcher-kva.example/a.png"),
            "{message}"
        );
        assert_eq!(
            url_parts(" https://X.test/Path/A.PNG ").map(|url| url.path),
            Some("/Path/A.PNG".to_owned()),
            "the original case is kept"
        );
    }

    #[test]
    fn international_host_names_are_asked_for_in_ascii() {
        assert_eq!(
            ascii_host_form(" https://Bücher.example:8443/a/ü.png?x=ä ").as_deref(),
            Some("https://xn--bcher-kva.example:8443/a/ü.png?x=ä")
        );
        assert_eq!(
            ascii_host_form("http://user@例え.jp/x").as_deref(),
            Some("http://user@xn--r8jz45g.jp/x")
        );
        assert_eq!(ascii_host_form("https://example.com/ü.png"), None);
        assert_eq!(ascii_host_form("ftp://bücher.example/a"), None);
        assert_eq!(ascii_host_form("bücher.example/a"), None);
        assert_eq!(
            ascii_host_form("https://BÜCHER.example/a"),
            None,
            "no guess at a capital outside ASCII"
        );

        let mut problems = Problems::default();
        check_url(&mut problems, "image_url", "https://bücher.example/a.png");
        let problem = problems.errors().next().expect("an error");
        assert_eq!(problem.field, "image_url");
        assert!(
            problem
                .message
                .ends_with("https://xn--bcher-kva.example/a.png"),
            "{}",
            problem.message
        );
    }

    #[test]
    fn extensions_come_from_the_path_only() {
        assert_eq!(
            url_extension("https://x.io/a/b.PNG?x=1.gif").as_deref(),
            Some("png")
        );
        assert_eq!(url_extension("https://x.io/a/b").as_deref(), None);
        assert_eq!(url_extension("https://x.io/.hidden").as_deref(), None);
        assert_eq!(
            url_extension("https://x.io/photo.tiff#v.jpg").as_deref(),
            Some("tiff")
        );
    }

    #[test]
    fn characters_not_bytes() {
        assert_eq!(char_count("日本語"), 3);
        assert_eq!(char_count("👍"), 1);
        assert_eq!("👍".len(), 4);
    }
}
