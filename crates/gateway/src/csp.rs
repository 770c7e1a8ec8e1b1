//! The Content-Security-Policy of the pages the gateway serves (the app, a
//! page embedding the widgets): scripts only from this origin plus the
//! exact inline scripts of the page (by hash: the loader Trunk writes),
//! WebAssembly compilation, requests only to this origin and the configured
//! services, media over http(s), no plugins, no framing, a `<base>` only of this origin (the app's page names its base path in one).

use base64::Engine;
use sha2::{Digest, Sha256};

/// `'sha256-...'` for each inline `<script>` (one without `src`) of `html`.
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    let mut hashes = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(open_end) = after.find('>') else {
            break;
        };
        let tag = &after[..open_end];
        let body_start = open_end + 1;
        let Some(close) = after[body_start..].find("</script>") else {
            break;
        };
        let body = &after[body_start..body_start + close];
        if !tag.contains(" src=") {
            let digest = Sha256::digest(body.as_bytes());
            let encoded = base64::engine::general_purpose::STANDARD.encode(digest);
            hashes.push(format!("'sha256-{encoded}'"));
        }
        rest = &after[body_start + close..];
    }
    hashes
}

/// The policy for a page with these inline script hashes, allowing requests
/// to `connect` (origins) besides this one.
pub fn policy(hashes: &[String], connect: &[String]) -> String {
    let scripts = std::iter::once("'self' 'wasm-unsafe-eval'".to_owned())
        .chain(hashes.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let connect = std::iter::once("'self'".to_owned())
        .chain(connect.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "default-src 'self'; script-src {scripts}; connect-src {connect}; \
         img-src 'self' https: http: data: blob:; media-src 'self' https: http: blob:; \
         style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; \
         frame-ancestors 'none'; form-action 'self'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_scripts_are_hashed_and_external_ones_are_not() {
        let html = "<script type=\"module\">alert(1)</script><script src=\"/a.js\"></script>";
        let hashes = inline_script_hashes(html);
        // echo -n 'alert(1)' | openssl sha256 -binary | base64
        assert_eq!(
            hashes,
            ["'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='"]
        );
    }

    #[test]
    fn the_policy_allows_wasm_the_hashes_and_the_services() {
        let policy = policy(
            &["'sha256-x'".to_owned()],
            &["https://api.example.com".to_owned()],
        );
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval' 'sha256-x';"));
        assert!(policy.contains("connect-src 'self' https://api.example.com;"));
        assert!(policy.contains("object-src 'none'"));
        assert!(
            !policy.contains("'unsafe-eval'"),
            "no eval beyond WebAssembly"
        );
    }
}
