//! The built app as the gateway serves it: compressed copies by
//! `Accept-Encoding`, caching by name, the app's routes, each page's policy.
use std::io::{Read, Write};

use crate::support::{refused_at_start, settings, start_gateway, start_service, Recorder};

const CSS: &str = "body { color: black; } /* enough text to be worth compressing */";
const CSS_NAME: &str = "app-0123456789abcdef.css";

/// A built app: a page with an inline loader, a hashed stylesheet with its
/// brotli and gzip copies, an icon, and a second page in a folder.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    write(
        "index.html",
        b"<!doctype html><base href=\"/\" /><title>app</title><script type=\"module\">import init from './app.js';</script>",
    );
    write(
        "embed/index.html",
        b"<!doctype html><script type=\"module\">alert(1)</script>",
    );
    write(CSS_NAME, CSS.as_bytes());
    let mut br = Vec::new();
    brotli::CompressorWriter::new(&mut br, 4096, 11, 22)
        .write_all(CSS.as_bytes())
        .unwrap();
    write(&format!("{CSS_NAME}.br"), &br);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(CSS.as_bytes()).unwrap();
    write(&format!("{CSS_NAME}.gz"), &gz.finish().unwrap());
    write("favicon.ico", b"\0\0\x01\0");
    dir
}

async fn serving(dir: &tempfile::TempDir) -> String {
    serving_under(dir, "/").await.0
}

/// The gateway serving `dir` under `base_path`: its address, and what the
/// service behind it saw.
async fn serving_under(dir: &tempfile::TempDir, base_path: &str) -> (String, Recorder) {
    let (service, seen) = start_service().await;
    let mut settings = settings(Some(&service));
    settings.static_dir = Some(dir.path().to_owned());
    settings.base_path = base_path.parse().unwrap();
    settings.connect_src = vec!["https://api.example.com".to_owned()];
    (format!("http://{}", start_gateway(settings).await), seen)
}

fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

#[tokio::test]
async fn pages_carry_their_policy_and_are_not_cached() {
    let dir = site();
    let base = serving(&dir).await;
    let client = reqwest::Client::new();
    for path in ["/", "/tasks/image_generate/ig-1", "/new/image-generate"] {
        let page = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(page.status(), 200, "{path}");
        assert!(header(&page, "content-type").starts_with("text/html"));
        let policy = header(&page, "content-security-policy");
        assert!(
            policy.contains("'wasm-unsafe-eval'") && policy.contains("'sha256-"),
            "{policy}"
        );
        assert!(
            policy.contains("connect-src 'self' https://api.example.com;"),
            "{policy}"
        );
        assert!(policy.contains("frame-ancestors 'none'"));
        assert_eq!(header(&page, "cache-control"), "no-cache");
        assert_eq!(header(&page, "x-content-type-options"), "nosniff");
        assert_eq!(header(&page, "x-frame-options"), "DENY");
        assert_eq!(header(&page, "referrer-policy"), "no-referrer");
        assert!(page.text().await.unwrap().contains("import init"));
    }
    // Another page has its own inline script, so its own hash.
    let app = client.get(format!("{base}/")).send().await.unwrap();
    let embed = client.get(format!("{base}/embed/")).send().await.unwrap();
    assert_ne!(
        header(&app, "content-security-policy"),
        header(&embed, "content-security-policy")
    );
    // echo -n 'alert(1)' | openssl sha256 -binary | base64
    assert!(header(&embed, "content-security-policy")
        .contains("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='"));
}

#[tokio::test]
async fn files_travel_compressed_when_the_browser_accepts_it_and_hashed_ones_are_kept() {
    let dir = site();
    let base = serving(&dir).await;
    // No automatic decompression: read the bytes as they travel.
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    let get = |encoding: &'static str| {
        client
            .get(format!("{base}/{CSS_NAME}"))
            .header("accept-encoding", encoding)
            .send()
    };
    let br = get("gzip, deflate, br").await.unwrap();
    assert_eq!(header(&br, "content-encoding"), "br");
    assert_eq!(
        header(&br, "cache-control"),
        "public, max-age=31536000, immutable"
    );
    assert!(header(&br, "vary")
        .to_ascii_lowercase()
        .contains("accept-encoding"));
    assert!(header(&br, "content-type").starts_with("text/css"));
    let mut text = String::new();
    brotli::Decompressor::new(&br.bytes().await.unwrap()[..], 4096)
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, CSS);

    let gz = get("gzip").await.unwrap();
    assert_eq!(header(&gz, "content-encoding"), "gzip");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz.bytes().await.unwrap()[..])
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, CSS);

    let plain = get("identity").await.unwrap();
    assert_eq!(header(&plain, "content-encoding"), "");
    assert_eq!(plain.text().await.unwrap(), CSS);

    // Names without a hash may change: not kept.
    let icon = client
        .get(format!("{base}/favicon.ico"))
        .send()
        .await
        .unwrap();
    assert_eq!(icon.status(), 200);
    assert_eq!(header(&icon, "cache-control"), "no-cache");
}

#[tokio::test]
async fn missing_files_are_404_and_the_api_stays_the_apis() {
    let dir = site();
    let base = serving(&dir).await;
    let client = reqwest::Client::new();
    let missing = client
        .get(format!("{base}/missing.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    let documented = client
        .get(format!("{base}/v1/image_generate/ig-1"))
        .send()
        .await
        .unwrap();
    assert_eq!(documented.status(), 200);
    assert_eq!(header(&documented, "content-type"), "application/json");
    let other = client.get(format!("{base}/v1/nope")).send().await.unwrap();
    assert_eq!(other.status(), 404);
    assert_eq!(header(&other, "content-type"), "application/json");
}

#[tokio::test]
async fn a_folder_without_the_app_is_refused_at_start() {
    let empty = tempfile::tempdir().unwrap();
    let mut settings = settings(None);
    settings.static_dir = Some(empty.path().to_owned());
    let error = refused_at_start(settings).await;
    assert!(error.to_string().contains("no index.html"), "{error}");
}

#[tokio::test]
async fn under_a_base_path_the_app_its_calls_and_its_files_live_there() {
    let dir = site();
    let (gateway, seen) = serving_under(&dir, "/media/").await;
    let client = reqwest::Client::new();
    let get = |path: &str| client.get(format!("{gateway}{path}")).send();
    // The app's page, at its root and on a deep link, names its base.
    for path in [
        "/media/",
        "/media",
        "/media/index.html",
        "/media/tasks/image_generate/ig-1",
    ] {
        let page = get(path).await.unwrap();
        assert_eq!(page.status(), 200, "{path}");
        assert!(header(&page, "content-security-policy").contains("base-uri 'self'"));
        let html = page.text().await.unwrap();
        assert!(html.contains("<base href=\"/media/\" />"), "{path}: {html}");
        assert!(!html.contains("<base href=\"/\" />"), "{path}");
    }
    // Files and the second page, under the base only.
    assert_eq!(
        get(&format!("/media/{CSS_NAME}"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
        CSS
    );
    assert_eq!(get("/media/embed/").await.unwrap().status(), 200);
    assert_eq!(get(&format!("/{CSS_NAME}")).await.unwrap().status(), 404);
    assert_eq!(get("/").await.unwrap().status(), 404);
    // The documented calls under the base reach the service without it.
    let call = get("/media/v1/image_generate/ig-1").await.unwrap();
    assert_eq!(call.status(), 200);
    assert!(seen
        .seen()
        .iter()
        .any(|seen| seen.target == "/v1/image_generate/ig-1"));
    assert_eq!(get("/v1/image_generate/ig-1").await.unwrap().status(), 404);
    // Health and metrics stay at the root, for the operator only.
    assert_eq!(get("/healthz").await.unwrap().status(), 200);
    assert_eq!(get("/metrics").await.unwrap().status(), 200);
    // Under the base they are only app routes (its "nothing here" page).
    for path in ["/media/metrics", "/media/readyz"] {
        let page = get(path).await.unwrap();
        assert!(
            header(&page, "content-type").starts_with("text/html"),
            "{path}"
        );
        assert!(page
            .text()
            .await
            .unwrap()
            .contains("<base href=\"/media/\" />"));
    }
}

#[tokio::test]
async fn the_page_under_a_base_path_travels_compressed() {
    let dir = site();
    let (gateway, _) = serving_under(&dir, "/tools/media").await;
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    let page = client
        .get(format!("{gateway}/tools/media/settings"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(header(&page, "content-encoding"), "gzip");
    assert!(header(&page, "content-type").starts_with("text/html"));
    assert_eq!(header(&page, "cache-control"), "no-cache");
    let mut html = String::new();
    flate2::read::GzDecoder::new(&page.bytes().await.unwrap()[..])
        .read_to_string(&mut html)
        .unwrap();
    assert!(html.contains("<base href=\"/tools/media/\" />"), "{html}");
}

#[tokio::test]
async fn a_page_without_a_base_cannot_be_served_under_a_path() {
    let dir = site();
    std::fs::write(
        dir.path().join("index.html"),
        "<!doctype html><title>old</title>",
    )
    .unwrap();
    let mut settings = settings(None);
    settings.static_dir = Some(dir.path().to_owned());
    settings.base_path = "/media/".parse().unwrap();
    let error = refused_at_start(settings).await;
    assert!(
        error
            .to_string()
            .contains("index.html has no `<base href=\"/\" />`"),
        "{error}"
    );
}
