//! Calls that change something (a submit, signing in or out) are taken
//! only from the gateway's own pages or from programs, never from another
//! site's page: a browser says where a request comes from (`Sec-Fetch-Site`,
//! else `Origin`), and a form another site posts here is refused (403)
//! before anything is counted or forwarded. Programs (cURL, servers) send
//! neither and are not browsers' pages.

use axum::http::{header, HeaderMap};

/// Whether the request may change something: not sent by another site's page.
pub fn from_this_site(headers: &HeaderMap) -> bool {
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        return matches!(site, "same-origin" | "none");
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    // A proxy may pass `Host` without the port the page was reached on.
    let without_port = |text: &str| {
        text.rsplit_once(':')
            .map_or(text, |(host, _)| host)
            .to_owned()
    };
    origin_host == host || without_port(origin_host) == without_port(host)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn only_this_sites_pages_and_programs_may_change_things() {
        assert!(from_this_site(&headers(&[])), "a program");
        assert!(from_this_site(&headers(&[(
            "sec-fetch-site",
            "same-origin"
        )])));
        assert!(from_this_site(&headers(&[("sec-fetch-site", "none")])));
        assert!(!from_this_site(&headers(&[(
            "sec-fetch-site",
            "cross-site"
        )])));
        assert!(!from_this_site(&headers(&[(
            "sec-fetch-site",
            "same-site"
        )])));
        assert!(from_this_site(&headers(&[
            ("origin", "https://media.example.com"),
            ("host", "media.example.com")
        ])));
        assert!(from_this_site(&headers(&[
            ("origin", "http://127.0.0.1:8443"),
            ("host", "127.0.0.1")
        ])));
        assert!(!from_this_site(&headers(&[
            ("origin", "https://evil.example"),
            ("host", "media.example.com")
        ])));
        assert!(!from_this_site(&headers(&[
            ("origin", "null"),
            ("host", "media.example.com")
        ])));
    }
}
