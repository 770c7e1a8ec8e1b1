//! The browser's own URL parser for the contract's rules.
//!
//! `URL` implements the WHATWG URL Standard, as the `url` crate does, so
//! the browser builds leave that crate out (`media-gen-api` without its
//! `url` feature) and read URLs with what the browser already has.

use media_gen_api::url_parts::{use_url_parser, UrlParts};

/// Read every URL the rules check with the browser's `URL`. Each browser
/// program calls it once as it starts (the app, the JavaScript modules);
/// later calls change nothing.
pub fn use_browser_urls() {
    use_url_parser(browser_url_parts);
}

/// `text` as the browser's `URL` reads it.
fn browser_url_parts(text: &str) -> Option<UrlParts> {
    let url = web_sys::Url::new(text).ok()?;
    let protocol = url.protocol();
    Some(UrlParts {
        scheme: protocol.strip_suffix(':').unwrap_or(&protocol).to_owned(),
        host: url.hostname(),
        path: url.pathname(),
    })
}
