//! Browser pages on other origins: CORS preflight with `Authorization`.

use crate::common::*;
use media_gen_sandbox::Config;
use reqwest::Method;

async fn preflight(sandbox: &Running, origin: &str) -> reqwest::Response {
    sandbox
        .client
        .request(
            Method::OPTIONS,
            format!("{}/v1/image_to_video", sandbox.base_url),
        )
        .header("Origin", origin)
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "authorization, content-type",
        )
        .send()
        .await
        .expect("the sandbox answers")
}

fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase()
}

#[tokio::test]
async fn preflight_allows_bearer_calls_from_any_origin_by_default() {
    let sandbox = start_default().await;
    let response = preflight(&sandbox, "http://localhost:8081").await;
    assert!(response.status().is_success(), "{}", response.status());
    assert_eq!(header(&response, "access-control-allow-origin"), "*");
    let allowed = header(&response, "access-control-allow-headers");
    assert!(
        allowed.contains("authorization") && allowed.contains("content-type"),
        "{allowed}"
    );
    assert!(header(&response, "access-control-allow-methods").contains("post"));

    // The real request carries the header too, and exposes Retry-After.
    let response = sandbox
        .client
        .get(format!(
            "{}/v1/video_translate/target_languages",
            sandbox.base_url
        ))
        .header("Origin", "http://localhost:8081")
        .bearer_auth("demo-token")
        .send()
        .await
        .unwrap();
    assert_eq!(header(&response, "access-control-allow-origin"), "*");
    assert!(header(&response, "access-control-expose-headers").contains("retry-after"));
}

#[tokio::test]
async fn allowed_origins_can_be_limited() {
    let config = media_gen_sandbox::Config {
        allowed_origins: vec!["https://app.example.com".into()],
        ..media_gen_sandbox::Config::for_tests()
    };
    let sandbox = start(config).await;
    let allowed = preflight(&sandbox, "https://app.example.com").await;
    assert_eq!(
        header(&allowed, "access-control-allow-origin"),
        "https://app.example.com"
    );
    let other = preflight(&sandbox, "https://evil.example.com").await;
    assert_eq!(header(&other, "access-control-allow-origin"), "");
}

#[tokio::test]
async fn media_may_be_embedded_by_isolated_pages() {
    let sandbox = crate::common::start_default().await;
    for path in [
        "/sandbox/media/image/1K/16x9.png",
        "/sandbox/media/image/1K/16x9/thumbnail.png",
        "/sandbox/media/video/landscape.mp4",
    ] {
        let response = sandbox.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response
                .headers()
                .get("cross-origin-resource-policy")
                .and_then(|value| value.to_str().ok()),
            Some("cross-origin"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn a_star_origin_means_any_and_does_not_stop_the_server() {
    let sandbox = start(Config {
        allowed_origins: vec!["*".to_owned()],
        ..Config::for_tests()
    })
    .await;
    let response = preflight(&sandbox, "https://anywhere.example").await;
    assert!(response.status().is_success(), "{}", response.status());
    assert_eq!(header(&response, "access-control-allow-origin"), "*");
}

#[test]
fn an_origin_that_is_not_one_is_refused_at_start() {
    use clap::Parser;
    let parsed = Config::try_parse_from(["media-gen-sandbox", "--allow-origin", "app.example.com"]);
    let error = parsed.unwrap_err().to_string();
    assert!(error.contains("is not an origin"), "{error}");
}
