//! Every route that spends the owner's service lets its call in first.
//! The routes are read from the gateway crates' sources (each
//! `.route(path, methods)`), so a route added anywhere is in this test;
//! each one not named below as open by design is called, in `keys` mode
//! with every feature on and no key, past its own checks (a documented
//! call, tus's version), and must be refused for want of a person (401):
//! the sign that it takes the `Admitted` extractor before it does
//! anything. One that forwarded, uploaded or kept without it would answer
//! otherwise.

use std::path::{Path, PathBuf};

use media_gen_gateway::access::AccessMode;
use media_gen_gateway::relay::RelaySettings;
use media_gen_gateway::uploads::UploadSettings;
use reqwest::{Method, StatusCode};

use crate::support::{settings, start_gateway_at, start_service};

/// Routes open to calls no person makes, by design, and why.
const OPEN: &[(&str, &str, &str)] = &[
    ("GET", "/healthz", "health, for the balancer"),
    ("GET", "/readyz", "health, for the balancer"),
    ("GET", "/metrics", "the operator's scraper"),
    (
        "GET",
        "/capabilities",
        "a page learns here that it must sign in",
    ),
    (
        "POST",
        "/callbacks/{capability}",
        "the service calls back, with the secret it was given",
    ),
    (
        "POST",
        "/session",
        "signing in: the key is in the body, counted by address",
    ),
    ("DELETE", "/session", "signing out, counted by address"),
    (
        "POST",
        "/tokens",
        "a host site's server trades a key for a page token",
    ),
    (
        "GET",
        "/uploads/{id}",
        "the service fetches an upload at its unguessable address",
    ),
    (
        "HEAD",
        "/uploads/{id}",
        "the service (or tus, where the upload stands) at its unguessable address",
    ),
    (
        "GET",
        "/uploads/{id}/{name}",
        "the service fetches an upload at its unguessable address",
    ),
    (
        "OPTIONS",
        "/uploads",
        "tus's discovery: what the server speaks",
    ),
    (
        "OPTIONS",
        "/uploads/",
        "tus's discovery: what the server speaks",
    ),
    (
        "OPTIONS",
        "/uploads/{id}",
        "tus's discovery: what the server speaks",
    ),
    (
        "GET",
        "/kept/{id}",
        "a kept copy at its unguessable address",
    ),
    (
        "GET",
        "/kept/{id}/{name}",
        "a kept copy at its unguessable address",
    ),
    (
        "GET",
        "/s/{token}",
        "a shared page: whoever holds the link, counted by address (a team link lets a person in)",
    ),
    (
        "GET",
        "/s/{token}/{file}/{name}",
        "a shared page's file, as its page",
    ),
];

/// What the routing's constants name.
const NAMED_PATHS: &[(&str, &str)] = &[
    ("media_gen_api::relay::CAPABILITIES_PATH", "/capabilities"),
    ("media_gen_api::relay::EVENTS_PATH", "/events"),
    ("media_gen_api::relay::SESSION_PATH", "/session"),
];

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            found.push(path);
        }
    }
}

/// The text of a call's arguments from `text`'s start (just after its
/// opening parenthesis) to the matching close.
fn arguments(text: &str) -> &str {
    let mut depth = 1;
    for (at, character) in text.char_indices() {
        match character {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &text[..at];
                }
            }
            _ => {}
        }
    }
    text
}

/// The methods a route's method router names (`any`: every one a test sends).
fn methods(router: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    for (name, methods) in [
        ("any(", &["GET", "POST"][..]),
        ("get(", &["GET"]),
        ("post(", &["POST"]),
        ("patch(", &["PATCH"]),
        ("delete(", &["DELETE"]),
        ("head(", &["HEAD"]),
        ("options(", &["OPTIONS"]),
        ("put(", &["PUT"]),
    ] {
        let named = router.match_indices(name).any(|(at, _)| {
            at == 0 || !router[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
        });
        if named {
            found.extend_from_slice(methods);
        }
    }
    found
}

/// Every (method, path) the gateway crates route, with the file it is in.
fn routes() -> Vec<(&'static str, String, String)> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if name == "gateway" || name.starts_with("gateway-") {
            sources(&dir.join("src"), &mut files);
        }
    }
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (at, _) in text.match_indices(".route(") {
            let call = arguments(&text[at + ".route(".len()..]);
            // A route has a path and its methods; `endpoint.route()` is no route.
            let Some((path, router)) = call.split_once(',') else {
                continue;
            };
            let path = path.trim();
            let path = match path
                .strip_prefix('"')
                .and_then(|path| path.strip_suffix('"'))
            {
                Some(path) => path.to_owned(),
                None => NAMED_PATHS
                    .iter()
                    .find(|(name, _)| *name == path)
                    .unwrap_or_else(|| {
                        panic!("{}: name the path {path} in NAMED_PATHS", file.display())
                    })
                    .1
                    .to_owned(),
            };
            let methods = methods(router);
            assert!(
                !methods.is_empty(),
                "{}: no method for {path}",
                file.display()
            );
            for method in methods {
                found.push((method, path.clone(), file.display().to_string()));
            }
        }
    }
    found
}

/// A path of `template` a call can take, past the route's own checks.
fn filled(method: &str, template: &str) -> String {
    let rest = match method {
        "POST" => "image_generate",
        _ => "image_generate/t-1",
    };
    template
        .replace("{*rest}", rest)
        .replace("{id}", "0123456789abcdef0123456789abcdef")
        .replace("{request}", "r-1")
        .replace("{name}", "a.png")
        .replace("{token}", "0123456789abcdef0123456789abcdef")
}

#[tokio::test]
async fn every_route_that_spends_the_service_lets_its_call_in_first() {
    let routes = routes();
    // The scan reads what it should: the forwarded calls, uploads and the
    // library are all found.
    for expected in [
        "/v1/{*rest}",
        "/uploads/",
        "/library/{request}",
        "/events",
        "/shares",
    ] {
        assert!(
            routes.iter().any(|(_, path, _)| path == expected),
            "{expected}: {routes:?}"
        );
    }
    let (service, seen) = start_service().await;
    let dir = tempfile::tempdir().unwrap();
    let base = start_gateway_at(settings(Some(&service)), |settings, base| {
        settings.access = AccessMode::Keys;
        settings.data_dir = Some(dir.path().join("data"));
        settings.uploads = Some(UploadSettings::new(
            dir.path().join("uploads"),
            base.to_owned(),
        ));
        settings.relay = Some(RelaySettings::new(base.to_owned(), 64));
        // Results kept, with the library: sharing is offered.
        settings.keep = Some(media_gen_gateway::kept::KeepSettings::new(b"admission"));
    })
    .await;
    let client = reqwest::Client::new();
    let mut checked = 0;
    for (method, template, file) in &routes {
        if OPEN
            .iter()
            .any(|(open, path, _)| open == method && path == template)
        {
            continue;
        }
        // `/v1` alone is no documented call: it is refused (404) before
        // anything, and the same handler serves `/v1/{*rest}`, checked.
        if template == "/v1" {
            continue;
        }
        let url = format!("{base}{}", filled(method, template));
        let answer = client
            .request(Method::from_bytes(method.as_bytes()).unwrap(), &url)
            .header("tus-resumable", "1.0.0")
            .header("upload-length", "10")
            .header("content-type", "application/json")
            .body(r#"{"prompt":"A lighthouse"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(
            answer.status(),
            StatusCode::UNAUTHORIZED,
            "{method} {template} ({file}) answered without letting its call in; \
             take the Admitted extractor, or name it in OPEN with why"
        );
        checked += 1;
    }
    assert!(checked >= 12, "{checked} routes checked");
    assert!(seen.seen().is_empty(), "nothing reached the service");
}

#[test]
fn every_open_route_is_still_routed() {
    let routes = routes();
    for (method, path, why) in OPEN {
        assert!(
            routes.iter().any(|(m, p, _)| m == method && p == path),
            "{method} {path} ({why}) is no longer routed: take it out of OPEN"
        );
    }
}
