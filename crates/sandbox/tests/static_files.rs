//! Serving the built app, its routes, and the demo settings it reads.

mod common;

use std::fs;

use media_gen_sandbox::{Config, DEMO_TOKEN};
use reqwest::StatusCode;

/// A sandbox serving a small stand-in of the built app from a temporary folder
/// (kept alive by the returned handle).
async fn start_serving_app() -> (tempfile::TempDir, common::Running) {
    let dir = app_folder();
    let config = Config {
        static_dir: Some(dir.path().to_owned()),
        ..Config::for_tests()
    };
    let sandbox = common::start(config).await;
    (dir, sandbox)
}

fn app_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let files: [(&str, &[u8]); 3] = [
        (
            "index.html",
            b"<!doctype html><title>app</title><script type=\"module\">import init from '/app.js';</script>",
        ),
        ("app_bg.wasm", b"\0asm\x01\0\0\0"),
        ("app.js", b"export default 1;"),
    ];
    for (name, content) in files {
        fs::write(dir.path().join(name), content).expect("write a test file");
    }
    dir
}

async fn fetch(url: String) -> (StatusCode, String, Vec<u8>) {
    let response = reqwest::get(url).await.expect("the sandbox answers");
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .unwrap_or_default();
    (
        status,
        content_type,
        response.bytes().await.expect("a body").to_vec(),
    )
}

#[tokio::test]
async fn serves_the_app_with_the_right_content_types() {
    let (_dir, sandbox) = start_serving_app().await;

    let (status, content_type, body) = fetch(format!("{}/", sandbox.base_url)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/html"), "{content_type}");
    assert!(String::from_utf8(body)
        .unwrap()
        .contains("<title>app</title>"));

    let (status, content_type, body) = fetch(format!("{}/app_bg.wasm", sandbox.base_url)).await;
    assert_eq!(
        (status, content_type.as_str()),
        (StatusCode::OK, "application/wasm")
    );
    assert_eq!(&body[..4], b"\0asm");

    let (status, content_type, _) = fetch(format!("{}/app.js", sandbox.base_url)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.contains("javascript"), "{content_type}");
}

/// The app's files travel compressed when the browser accepts it, and
/// decode to the very bytes on disk; without `Accept-Encoding`, as they are.
#[tokio::test]
async fn app_files_are_compressed_for_clients_that_accept_it() {
    let (dir, sandbox) = start_serving_app().await;
    let wasm: Vec<u8> = b"\0asm\x01\0\0\0"
        .iter()
        .copied()
        .chain((0..20_000u32).map(|i| (i % 7) as u8))
        .collect();
    fs::write(dir.path().join("big_bg.wasm"), &wasm).unwrap();
    let url = format!("{}/big_bg.wasm", sandbox.base_url);
    let client = reqwest::Client::new();
    for (accepts, encoding) in [("gzip", "gzip"), ("br", "br"), ("gzip, deflate, br", "br")] {
        let response = client
            .get(&url)
            .header("accept-encoding", accepts)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned()
        };
        assert_eq!(header("content-encoding"), encoding, "{accepts}");
        assert_eq!(header("content-type"), "application/wasm");
        assert!(header("vary")
            .to_ascii_lowercase()
            .contains("accept-encoding"));
        let body = response.bytes().await.unwrap();
        assert!(
            body.len() < wasm.len() / 10,
            "{accepts}: {} bytes",
            body.len()
        );
        let mut decoded = Vec::new();
        if encoding == "gzip" {
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut decoded)
                .unwrap();
        } else {
            brotli::BrotliDecompress(&mut &body[..], &mut decoded).unwrap();
        }
        assert_eq!(decoded, wasm, "{accepts}");
    }
    let plain = client.get(&url).send().await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.bytes().await.unwrap().to_vec(), wasm);
}

#[tokio::test]
async fn app_routes_open_directly_but_missing_files_are_404() {
    let (_dir, sandbox) = start_serving_app().await;

    for route in [
        "/settings",
        "/new/image-to-video",
        "/tasks/image_generate/i2is-0123",
    ] {
        let (status, content_type, _) = fetch(format!("{}{route}", sandbox.base_url)).await;
        assert_eq!(status, StatusCode::OK, "{route}");
        assert!(
            content_type.starts_with("text/html"),
            "{route}: {content_type}"
        );
    }
    let (status, _, _) = fetch(format!("{}/missing.js", sandbox.base_url)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn demo_settings_hand_out_the_first_token_unless_private() {
    let sandbox = common::start(Config::for_tests()).await;
    let (status, _, body) = fetch(format!("{}/sandbox/demo", sandbox.base_url)).await;
    assert_eq!(status, StatusCode::OK);
    let settings: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(settings["token"], DEMO_TOKEN);

    let private = Config {
        private: true,
        ..Config::for_tests()
    };
    let sandbox = common::start(private).await;
    let (status, _, _) = fetch(format!("{}/sandbox/demo", sandbox.base_url)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn pages_carry_a_content_security_policy_with_their_inline_scripts() {
    let (_dir, sandbox) = start_serving_app().await;
    let client = reqwest::Client::new();
    // The policy is the same whether or not the page travels compressed.
    for (path, accepts) in [
        ("/", "identity"),
        ("/tasks/image_generate/x", "identity"),
        ("/", "gzip, br"),
    ] {
        let response = client
            .get(format!("{}{path}", sandbox.base_url))
            .header("accept-encoding", accepts)
            .send()
            .await
            .expect("the sandbox answers");
        let policy = response
            .headers()
            .get("content-security-policy")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_else(|| panic!("{path} has no Content-Security-Policy"))
            .to_owned();
        let inline = "import init from '/app.js';";
        let hash =
            media_gen_sandbox::csp::inline_script_hashes(&format!("<script>{inline}</script>"));
        assert!(
            policy.contains(&format!("script-src 'self' 'wasm-unsafe-eval' {}", hash[0])),
            "{policy}"
        );
        assert!(policy.contains("connect-src 'self';"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    }
    let script = reqwest::get(format!("{}/app.js", sandbox.base_url))
        .await
        .unwrap();
    assert!(
        script.headers().get("content-security-policy").is_none(),
        "only pages"
    );
}
