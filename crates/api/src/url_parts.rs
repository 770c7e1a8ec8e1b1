//! URLs as the rules read them: scheme, host and path, parsed by the WHATWG
//! URL Standard.
//!
//! Natively the `url` crate parses them (feature `url`). A browser already
//! has a parser of the same standard (`URL`), so the browser crates build
//! this crate without the feature and hand theirs in with
//! [`use_url_parser`]: the `url` crate was about 24 KB of every gzipped
//! browser module. The rules themselves (which schemes, ASCII host names)
//! stay here, whichever parser reads the URL.

use std::sync::OnceLock;

use percent_encoding::percent_decode_str;

/// What the rules read of a parsed URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlParts {
    /// The scheme, lower-case, without its colon: `https`.
    pub scheme: String,
    /// The host as parsed (lower-case, an IPv6 address in brackets); empty
    /// when the URL has none.
    pub host: String,
    /// The path, percent-encoded as parsed; `/` at least for http(s).
    pub path: String,
}

impl UrlParts {
    /// Whether the URL is `http` or `https` with a host.
    pub fn is_http(&self) -> bool {
        matches!(self.scheme.as_str(), "http" | "https") && !self.host.is_empty()
    }

    /// The last segment of the path (`b.png` of `/a/b.png`).
    pub fn last_segment(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or_default()
    }
}

/// A parser of the WHATWG URL Standard: `None` when `text` is not a URL.
pub type UrlParser = fn(&str) -> Option<UrlParts>;

/// The parser handed in by [`use_url_parser`].
static PARSER: OnceLock<UrlParser> = OnceLock::new();

/// Read every URL with `parser` from now on (a browser's `URL`), instead of
/// the `url` crate. The first parser given stays; returns whether this one
/// was taken.
pub fn use_url_parser(parser: UrlParser) -> bool {
    PARSER.set(parser).is_ok()
}

/// `text` (trimmed) read as a URL, by the parser in use.
///
/// Host names must be written in ASCII (see
/// [`crate::validate::ascii_host_form`]): a host with other letters, typed
/// or percent-encoded, is no URL here, whichever parser is in use.
pub fn url_parts(text: &str) -> Option<UrlParts> {
    let text = text.trim();
    if !host_written_in_ascii(text) {
        return None;
    }
    let parts = match PARSER.get() {
        Some(parser) => parser(text),
        None => default_parser(text),
    }?;
    // The standard refuses an http(s) host with a space or another
    // forbidden character, so a host it accepts never holds `%`; Chromium
    // escapes such characters instead ("a b" → "a%20b").
    if parts.is_http() && parts.host.contains('%') {
        return None;
    }
    Some(parts)
}

/// The `url` crate's reading, when this crate is built with it.
#[cfg(feature = "url")]
fn default_parser(text: &str) -> Option<UrlParts> {
    let url = crate::validate::parse_url(text)?;
    Some(UrlParts {
        scheme: url.scheme().to_owned(),
        host: url.host_str().unwrap_or_default().to_owned(),
        path: url.path().to_owned(),
    })
}

/// Without the `url` crate and before [`use_url_parser`], nothing reads as
/// a URL: every URL field then says so, which no test of a browser build
/// lets pass.
#[cfg(not(feature = "url"))]
fn default_parser(_text: &str) -> Option<UrlParts> {
    None
}

/// The cases every parser handed to [`use_url_parser`] must read as the
/// `url` crate does (`tests/data/url_cases.tsv`): each text with its parts,
/// `None` for text that is no URL. The native tests hold the `url` crate to
/// them, the browser tests the browser's `URL`.
pub fn parity_cases() -> Vec<(&'static str, Option<UrlParts>)> {
    include_str!("../tests/data/url_cases.tsv")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let (text, parts) = line.split_once('\t')?;
            let parts = match parts.split('\t').collect::<Vec<_>>()[..] {
                [scheme, host, path] => Some(UrlParts {
                    scheme: scheme.into(),
                    host: host.into(),
                    path: path.into(),
                }),
                _ => None,
            };
            Some((text, parts))
        })
        .collect()
}

/// The [`parity_cases`] that [`url_parts`], with the parser in use, reads
/// otherwise: each text with the parts expected and the parts read.
pub fn misread_cases() -> Vec<(&'static str, Option<UrlParts>, Option<UrlParts>)> {
    parity_cases()
        .into_iter()
        .map(|(text, expected)| (text, expected, url_parts(text)))
        .filter(|(_, expected, read)| expected != read)
        .collect()
}

/// Whether the host of `text`, as written and percent-decoded, is ASCII.
/// Text with no host to speak of passes: the parser decides about it.
fn host_written_in_ascii(text: &str) -> bool {
    let Some((_, rest)) = text.split_once(':') else {
        return true;
    };
    // Special schemes take any run of slashes and backslashes before the host.
    let rest = rest.trim_start_matches(['/', '\\']);
    let authority = rest.split(['/', '\\', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    percent_decode_str(host).all(|byte| byte.is_ascii())
}

/// `url` without the `user:password@` part of its authority, if any:
/// how a server shows an address it was given (a database's, Redis's, the
/// service's) without its password.
pub fn without_userinfo(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => url.to_owned(),
    }
}

/// `url` with its password, and a `password=` parameter's value, as `…`:
/// how a server's settings show an address (a database's, Redis's) and
/// still say which user it names. Beside [`without_userinfo`], which drops
/// the user too.
#[cfg(feature = "url")]
pub fn without_password(url: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else {
        return without_userinfo(url);
    };
    if parsed.password().is_some() && parsed.set_password(Some("…")).is_err() {
        return without_userinfo(url);
    }
    let pairs: Vec<(String, String)> = parsed
        .query_pairs()
        .map(|(key, value)| {
            let hidden = key.to_ascii_lowercase().contains("password");
            (
                key.into_owned(),
                if hidden {
                    "…".to_owned()
                } else {
                    value.into_owned()
                },
            )
        })
        .collect();
    if pairs
        .iter()
        .any(|(key, _)| key.to_ascii_lowercase().contains("password"))
    {
        parsed.query_pairs_mut().clear().extend_pairs(pairs);
    }
    // The URL writer escapes the placeholder; shown as written.
    parsed.to_string().replace("%E2%80%A6", "…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "url")]
    #[test]
    fn an_address_is_shown_without_its_password() {
        assert_eq!(
            without_password("postgres://gw:s3cret@db.internal/media"),
            "postgres://gw:…@db.internal/media"
        );
        assert_eq!(
            without_password("redis://:s3cret@10.0.0.2:6379/"),
            "redis://:…@10.0.0.2:6379/"
        );
        assert_eq!(
            without_password("postgres://gw@db/media?sslmode=disable&password=s3cret"),
            "postgres://gw@db/media?sslmode=disable&password=…"
        );
        assert_eq!(
            without_password("sqlite:/var/lib/x.sqlite3"),
            "sqlite:/var/lib/x.sqlite3"
        );
        assert_eq!(
            without_password("https://api.example.com/base"),
            "https://api.example.com/base"
        );
    }

    #[test]
    fn the_shown_upstream_has_no_user_or_password() {
        assert_eq!(
            without_userinfo("https://user:secret@api.example.com/base"),
            "https://api.example.com/base"
        );
        assert_eq!(
            without_userinfo("http://127.0.0.1:9000"),
            "http://127.0.0.1:9000"
        );
        assert_eq!(
            without_userinfo("https://api.example.com/a@b"),
            "https://api.example.com/a@b"
        );
    }

    #[test]
    fn hosts_in_other_letters_are_no_urls_typed_or_encoded() {
        for text in [
            "https://bücher.example/a.png",
            "http://A%C3%A4.com/x",
            "https:\\\\bücher.example",
            "http://user@例え.jp/x",
        ] {
            assert!(!host_written_in_ascii(text), "{text}");
            assert_eq!(url_parts(text), None, "{text}");
        }
        for text in [
            "https://example.com/ü.png?q=ä",
            "https://x.io/a#ü",
            "no scheme",
        ] {
            assert!(host_written_in_ascii(text), "{text}");
        }
    }

    #[test]
    #[cfg(feature = "url")]
    fn the_url_crate_reads_the_shared_cases() {
        assert!(parity_cases().len() > 20);
        let misread = misread_cases();
        assert!(misread.is_empty(), "(text, expected, read): {misread:#?}");
    }

    #[test]
    fn the_last_segment_is_the_paths() {
        let parts = UrlParts {
            scheme: "https".into(),
            host: "x.io".into(),
            path: "/a/b.png".into(),
        };
        assert_eq!(parts.last_segment(), "b.png");
        assert!(parts.is_http());
    }
}
