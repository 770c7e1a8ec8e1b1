//! Calls that change something (a submit, signing in or out) are taken
//! only from the gateway's own pages or from programs, never from another
//! site's page: a browser says where a request comes from (`Sec-Fetch-Site`,
//! else `Origin`), and a form another site posts here is refused (403)
//! before anything is counted or forwarded. Programs (cURL, servers) send
//! neither and are not browsers' pages.
//!
//! A browser that sends no `Sec-Fetch-Site` is judged by its `Origin`,
//! which must be this site's own origin: the same scheme, host and port.
//! The scheme is https when `X-Forwarded-Proto` says so (the proxy in
//! front, which terminates TLS), else http. That header is believed from
//! anyone: another site's page cannot add it to a request without a
//! preflight the gateway never grants, and a program that sends it fools
//! only itself. The host and port are `Host`'s; a default port (80 for
//! http, 443 for https) is the same as none. A proxy that passes
//! `Host $host` (nginx, as the guide's blocks do) drops the port the page
//! was reached on, so the gateway cannot know it: an `Origin` with a port
//! other than its scheme's default must then match `Host` port and all,
//! and a site served on such a port behind a proxy passes the port on
//! (nginx: `proxy_set_header Host $http_host;`) for those browsers.

use axum::http::{header, HeaderMap};

/// Whether the request may change something: not sent by another site's page.
pub fn from_this_site(headers: &HeaderMap) -> bool {
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        return matches!(site, "same-origin" | "none");
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let Some(host) = headers.get(header::HOST).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    is_own_origin(origin, host, over_https(headers))
}

/// Whether the page came over https, as the proxy in front says
/// (`X-Forwarded-Proto: https`).
pub fn over_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"))
}

/// Whether `origin` is the origin of the site reached as `host` over
/// https (`https`) or http.
fn is_own_origin(origin: &str, host: &str, https: bool) -> bool {
    let (scheme, default_port) = if https { ("https", 443) } else { ("http", 80) };
    let Some((origin_scheme, origin_authority)) = origin.split_once("://") else {
        return false;
    };
    let (Some((origin_host, origin_port)), Some((site_host, site_port))) =
        (authority(origin_authority), authority(host))
    else {
        return false;
    };
    // Without a port in `Host` (a proxy's `$host`), only the default is
    // known to be the site's.
    let site_port = site_port.unwrap_or(default_port);
    origin_scheme.eq_ignore_ascii_case(scheme)
        && origin_host.eq_ignore_ascii_case(site_host)
        && origin_port.unwrap_or(default_port) == site_port
}

/// The host and port of `host[:port]` (an IPv6 host in brackets); `None`
/// when it is not one (a path, user info, a port that is not a number).
fn authority(text: &str) -> Option<(&str, Option<u16>)> {
    if text.is_empty() || text.contains(['/', '?', '#', '@', ' ']) {
        return None;
    }
    let host_end = if text.starts_with('[') {
        text.find(']')? + 1
    } else {
        text.find(':').unwrap_or(text.len())
    };
    let (host, rest) = text.split_at(host_end);
    let port = match rest.strip_prefix(':') {
        None if rest.is_empty() => None,
        None => return None,
        Some("") => None,
        Some(port) => Some(port.parse().ok()?),
    };
    Some((host, port))
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
            ("host", "media.example.com"),
            ("x-forwarded-proto", "https")
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

    #[test]
    fn an_origin_is_this_sites_only_with_its_scheme_host_and_port() {
        let own = |origin: &'static str, host: &'static str, proto: &'static str| {
            from_this_site(&headers(&[
                ("origin", origin),
                ("host", host),
                ("x-forwarded-proto", proto),
            ]))
        };
        // The gateway reached directly, on its own port.
        assert!(own("http://127.0.0.1:8080", "127.0.0.1:8080", "http"));
        assert!(own("http://[::1]:8080", "[::1]:8080", "http"));
        assert!(!own("http://127.0.0.1:9999", "127.0.0.1:8080", "http"));
        assert!(!own("https://127.0.0.1", "127.0.0.1:8080", "http"));
        assert!(!own("https://127.0.0.1:8080", "127.0.0.1:8080", "http"));
        // Behind the guide's nginx: `Host $host` (no port), the scheme in
        // X-Forwarded-Proto; a default port is no port.
        assert!(own(
            "https://media.example.com",
            "media.example.com",
            "https"
        ));
        assert!(own(
            "https://Media.Example.com",
            "media.example.com",
            "https"
        ));
        assert!(own(
            "https://media.example.com",
            "media.example.com:443",
            "https"
        ));
        assert!(own("http://media.example.com", "media.example.com", "http"));
        assert!(!own(
            "http://media.example.com",
            "media.example.com",
            "https"
        ));
        assert!(!own(
            "https://media.example.com",
            "media.example.com",
            "http"
        ));
        // A port the proxy does not pass on cannot be told from another
        // service on that host: refused unless `Host` names it.
        assert!(!own(
            "https://media.example.com:8443",
            "media.example.com",
            "https"
        ));
        assert!(own(
            "https://media.example.com:8443",
            "media.example.com:8443",
            "https"
        ));
        // Nothing but an origin is one.
        assert!(!own(
            "https://media.example.com/",
            "media.example.com",
            "https"
        ));
        assert!(!own(
            "https://a@media.example.com",
            "media.example.com",
            "https"
        ));
        assert!(!own(
            "https://media.example.com:x",
            "media.example.com",
            "https"
        ));
        assert!(!own("media.example.com", "media.example.com", "https"));
    }

    #[test]
    fn a_port_dropped_by_the_proxy_is_not_taken_for_any_port() {
        // A page on another port of the same host is another site; `Host`
        // without a port says only the scheme's default is this one.
        assert!(!from_this_site(&headers(&[
            ("origin", "http://127.0.0.1:8443"),
            ("host", "127.0.0.1")
        ])));
        assert!(!from_this_site(&headers(&[(
            "origin",
            "http://127.0.0.1:8443"
        )])));
    }
}
