//! `--fetch-inputs`: the sandbox fetches what a submission names, as the
//! service does: an image that is one succeeds and is recorded with the
//! hash of its bytes; a missing file, a page named `.png`, a video where an
//! image goes and an image over 20 MB each fail the task, naming the field
//! and why. Without the flag nothing is fetched. Only public addresses are
//! fetched unless `--fetch-private`, so these tests' loopback file host
//! needs it.

use std::net::IpAddr;

use axum::http::{header, StatusCode};
use axum::routing::get;
use media_gen_sandbox::fetch_inputs::check_public;
use media_gen_sandbox::Config;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::common::{image_to_video, start};

/// A PNG's first bytes and filler: `length` bytes in all.
fn png(length: usize) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.resize(length, 7);
    bytes
}

/// A file host on loopback: `/cat.png`, `/page.png` (a page), `/clip.png`
/// (an MP4), `/huge.png` (21 MB); anything else 404. Its base URL.
async fn file_host() -> String {
    let mut mp4 = b"\0\0\0\x20ftypisom".to_vec();
    mp4.resize(1_000, 0);
    let app = axum::Router::new()
        .route(
            "/cat.png",
            get(|| async { ([(header::CONTENT_TYPE, "image/png")], png(5_000)) }),
        )
        .route(
            "/page.png",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "image/png")],
                    "<!DOCTYPE html><p>not a cat</p>",
                )
            }),
        )
        .route("/clip.png", get(move || async move { mp4.clone() }))
        .route("/huge.png", get(|| async { png(21_000_000) }))
        .fallback(|| async { StatusCode::NOT_FOUND });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

/// Submit an image-to-video task starting from `image_url`; its end.
async fn ended(sandbox: &crate::common::Running, image_url: &str) -> Value {
    let mut request = image_to_video();
    request["image_url"] = image_url.into();
    let (status, body) = sandbox.post_json("/v1/image_to_video", &request).await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["task_ids"][0].as_str().unwrap().to_owned();
    sandbox.wait_for_end("image_to_video", &id).await.0
}

#[tokio::test]
async fn inputs_are_fetched_checked_and_recorded_with_their_hash() {
    let host = file_host().await;
    let sandbox = start(Config {
        fetch_inputs: true,
        fetch_private: true,
        ..Config::for_tests()
    })
    .await;

    let good = ended(&sandbox, &format!("{host}/cat.png")).await;
    assert_eq!(good["status"], "SUCCEEDED", "{good}");
    let (_, fetched) = sandbox.get_json("/sandbox/fetched").await;
    let record = &fetched["data"][0];
    assert_eq!(record["url"], format!("{host}/cat.png"));
    assert_eq!(record["bytes"], 5_000);
    assert_eq!(record["mime"], "image/png");
    let hash: String = Sha256::digest(png(5_000))
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    assert_eq!(record["sha256"], hash);

    for (path, why) in [
        ("/missing.png", "could not be fetched (HTTP 404)"),
        ("/page.png", "not an image (JPEG, PNG, BMP, WebP, GIF)"),
        ("/clip.png", "it is video/mp4, where an image is needed"),
        ("/huge.png", "more than 20971520 bytes"),
    ] {
        let failed = ended(&sandbox, &format!("{host}{path}")).await;
        assert_eq!(failed["status"], "FAILED", "{path}");
        let message = failed["error_message"].as_str().unwrap();
        assert!(
            message.starts_with("The input image_url could not be used: ") && message.contains(why),
            "{path}: {message}"
        );
    }
}

#[tokio::test]
async fn without_the_flag_nothing_is_fetched() {
    let sandbox = start(Config::for_tests()).await;
    let task = ended(&sandbox, "http://127.0.0.1:9/nowhere.png").await;
    assert_eq!(task["status"], "SUCCEEDED");
    let (_, fetched) = sandbox.get_json("/sandbox/fetched").await;
    assert_eq!(fetched["data"], serde_json::json!([]));
}

#[tokio::test]
async fn loopback_inputs_are_refused_without_fetch_private() {
    let host = file_host().await;
    let port = host.rsplit(':').next().unwrap();
    let sandbox = start(Config {
        fetch_inputs: true,
        ..Config::for_tests()
    })
    .await;

    for (url, why) in [
        (
            format!("{host}/cat.png"),
            "it could not be fetched (the address 127.0.0.1 is loopback, not public: \
             the sandbox fetches only public addresses unless started with --fetch-private)",
        ),
        // A name is resolved and judged by its addresses.
        (
            format!("http://localhost:{port}/cat.png"),
            "it could not be fetched (localhost resolves to ",
        ),
        (
            format!("http://[::ffff:127.0.0.1]:{port}/cat.png"),
            "the address ::ffff:127.0.0.1 is loopback, not public",
        ),
    ] {
        let failed = ended(&sandbox, &url).await;
        assert_eq!(failed["status"], "FAILED", "{url}");
        let message = failed["error_message"].as_str().unwrap();
        assert!(
            message.starts_with("The input image_url could not be used: ") && message.contains(why),
            "{url}: {message}"
        );
        assert!(message.contains("--fetch-private"), "{url}: {message}");
    }
    let (_, fetched) = sandbox.get_json("/sandbox/fetched").await;
    assert_eq!(fetched["data"], serde_json::json!([]));
}

#[tokio::test]
async fn loopback_inputs_are_fetched_with_fetch_private() {
    let host = file_host().await;
    let port = host.rsplit(':').next().unwrap();
    let sandbox = start(Config {
        fetch_inputs: true,
        fetch_private: true,
        ..Config::for_tests()
    })
    .await;

    let url = format!("http://localhost:{port}/cat.png");
    let task = ended(&sandbox, &url).await;
    assert_eq!(task["status"], "SUCCEEDED", "{task}");
    let (_, fetched) = sandbox.get_json("/sandbox/fetched").await;
    assert_eq!(fetched["data"][0]["url"], url);
}

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

#[test]
fn every_address_a_name_resolves_to_must_be_public() {
    assert_eq!(
        check_public(Some("cdn.example"), &[ip("8.8.8.8"), ip("2606:4700::1111")]),
        Ok(())
    );
    // One private answer among public ones is enough to refuse.
    let refused = check_public(Some("cdn.example"), &[ip("8.8.8.8"), ip("10.0.0.7")]).unwrap_err();
    assert_eq!(
        refused,
        "it could not be fetched (cdn.example resolves to 10.0.0.7, which is private, not public: \
         the sandbox fetches only public addresses unless started with --fetch-private)"
    );
    let none = check_public(Some("cdn.example"), &[]).unwrap_err();
    assert!(
        none.contains("cdn.example resolves to no address"),
        "{none}"
    );
}
