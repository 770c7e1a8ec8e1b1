//! Rules shared by several requests: prompt, URLs, counts, image files.

use super::{Context, Problems, Rule};

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

/// Whether `text` is an absolute `http` or `https` URL with a host.
pub fn is_http_url(text: &str) -> bool {
    url::Url::parse(text.trim())
        .is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.has_host())
}

/// A URL field: absolute `http`/`https` only.
pub fn check_url(problems: &mut Problems, field: &str, text: &str) {
    if !is_http_url(text) {
        problems.error(
            field,
            Rule::InvalidUrl,
            "Must be an absolute http or https URL, such as https://example.com/image.png",
        );
    }
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
        let megabytes = bytes as f64 / (1024.0 * 1024.0);
        problems.error(
            field,
            Rule::TooLarge,
            format!("Images must be {rule} 20 MB; this one is {megabytes:.1} MB"),
        );
    }
}

/// The lower-case extension of the URL's last path segment, if it shows one.
pub fn url_extension(text: &str) -> Option<String> {
    let url = url::Url::parse(text.trim()).ok()?;
    let segment = url.path_segments()?.next_back()?;
    let (stem, extension) = segment.rsplit_once('.')?;
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
