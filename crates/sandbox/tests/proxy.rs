//! Proxy mode: `/v1/*` forwarded to an upstream (here a second sandbox) with
//! the server's token, CORS only for listed origins, body and rate limits.

mod common;

use media_gen_sandbox::{Config, DEMO_TOKEN};
use reqwest::Method;
use serde_json::json;

/// An upstream sandbox and a proxy in front of it.
async fn proxy_to_sandbox(rate_limit: u32) -> (common::Running, common::Running) {
    let upstream = common::start_default().await;
    let proxy = common::start(Config {
        proxy_to: Some(upstream.base_url.clone()),
        upstream_token: Some(DEMO_TOKEN.to_owned()),
        allowed_origins: vec!["https://shop.example".to_owned()],
        rate_limit,
        ..Config::for_tests()
    })
    .await;
    (upstream, proxy)
}

#[tokio::test]
async fn requests_without_a_token_go_through_with_the_servers_token() {
    let (upstream, proxy) = proxy_to_sandbox(100).await;
    let client = reqwest::Client::new();
    // No token from the page, or a wrong one: the proxy's is used.
    for authorization in [None, Some("Bearer not-the-token")] {
        let mut request = client
            .post(format!("{}/v1/image_generate", proxy.base_url))
            .json(&json!({"prompt": "through the proxy"}));
        if let Some(value) = authorization {
            request = request.header("authorization", value);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200);
        let body: serde_json::Value = response.json().await.unwrap();
        let id = body["data"]["task_ids"][0].as_str().unwrap().to_owned();
        let status = client
            .get(format!("{}/v1/image_generate/{id}", proxy.base_url))
            .send()
            .await
            .unwrap();
        assert_eq!(status.status(), 200);
    }
    // The upstream itself still wants its token.
    let direct = client
        .post(format!("{}/v1/image_generate", upstream.base_url))
        .json(&json!({"prompt": "direct"}))
        .send()
        .await
        .unwrap();
    assert_eq!(direct.status(), 401);
    // The service's refusals pass through unchanged.
    let bad = json!({"model": "S", "prompt": "", "duration": 5});
    let through = client
        .post(format!("{}/v1/image_to_video", proxy.base_url))
        .json(&bad)
        .send()
        .await
        .unwrap();
    let (status, body) = (
        through.status().as_u16(),
        through.json::<serde_json::Value>().await.unwrap(),
    );
    assert_eq!(
        (status, body),
        upstream.post_json("/v1/image_to_video", &bad).await
    );
}

#[tokio::test]
async fn cors_only_for_the_listed_origins() {
    let (_upstream, proxy) = proxy_to_sandbox(100).await;
    let preflight = |origin: &'static str| {
        reqwest::Client::new()
            .request(
                Method::OPTIONS,
                format!("{}/v1/image_generate", proxy.base_url),
            )
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type")
            .send()
    };
    let allowed = preflight("https://shop.example").await.unwrap();
    assert_eq!(
        allowed
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap()),
        Some("https://shop.example")
    );
    let other = preflight("https://evil.example").await.unwrap();
    assert!(other.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn each_client_is_rate_limited_and_bodies_are_limited() {
    let (_upstream, proxy) = proxy_to_sandbox(3).await;
    let client = reqwest::Client::new();
    let read = || {
        client
            .get(format!(
                "{}/v1/video_translate/target_languages",
                proxy.base_url
            ))
            .send()
    };
    for _ in 0..3 {
        assert_eq!(read().await.unwrap().status(), 200);
    }
    let limited = read().await.unwrap();
    assert_eq!(limited.status(), 429);
    let wait: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait));
    let body: serde_json::Value = limited.json().await.unwrap();
    assert_eq!(body["code"], 100006);

    let (_upstream, proxy) = proxy_to_sandbox(100).await;
    let huge = "x".repeat(2 * 1024 * 1024);
    let response = client
        .post(format!("{}/v1/image_generate", proxy.base_url))
        .header("content-type", "application/json")
        .body(huge)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 413);
}

#[tokio::test]
async fn an_unreachable_upstream_is_a_502_that_says_so() {
    let proxy = common::start(Config {
        proxy_to: Some("http://127.0.0.1:9".to_owned()),
        upstream_token: Some("t".to_owned()),
        ..Config::for_tests()
    })
    .await;
    let response = reqwest::get(format!(
        "{}/v1/video_translate/target_languages",
        proxy.base_url
    ))
    .await
    .unwrap();
    assert_eq!(response.status(), 502);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], 100010);
    assert!(body["msg"].as_str().unwrap().contains("upstream"));
}

#[tokio::test]
async fn proxy_mode_refuses_to_start_without_the_token() {
    let config = Config {
        proxy_to: Some("https://api.example.com".to_owned()),
        upstream_token: None,
        port: 0,
        ..Config::for_tests()
    };
    let error = media_gen_sandbox::run(config).await.unwrap_err();
    assert!(
        error.to_string().contains("MEDIA_GEN_UPSTREAM_TOKEN"),
        "{error}"
    );
}
