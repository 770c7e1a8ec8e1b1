//! URLs from a server reach `src` and `href` only when they are `http(s)`:
//! `javascript:`, `data:` and every other scheme are dropped.

use media_gen_api::validate::is_http_url;

/// `url` when it is an absolute `http` or `https` URL; `None` otherwise.
pub fn safe_url(url: &str) -> Option<String> {
    is_http_url(url).then(|| url.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::safe_url;

    #[test]
    fn only_http_and_https_pass() {
        assert_eq!(
            safe_url("https://cdn.test/a.mp4").as_deref(),
            Some("https://cdn.test/a.mp4")
        );
        assert_eq!(
            safe_url(" http://x.test/a ").as_deref(),
            Some("http://x.test/a")
        );
        for hostile in [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:x",
            "file:///etc/passwd",
            "//evil.test/a.png",
            "",
        ] {
            assert_eq!(safe_url(hostile), None, "{hostile}");
        }
    }
}
