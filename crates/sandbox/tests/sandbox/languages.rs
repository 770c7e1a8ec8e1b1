//! The language list over HTTP, with bearer authentication.

use media_gen_api::{ErrorEnvelope, TargetLanguages, TARGET_LANGUAGES_PATH};
use media_gen_sandbox::{Config, DEMO_TOKEN};
use reqwest::StatusCode;

async fn get(base_url: &str, authorization: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(format!("{base_url}{TARGET_LANGUAGES_PATH}"));
    if let Some(value) = authorization {
        request = request.header("Authorization", value);
    }
    request.send().await.expect("the sandbox answers")
}

#[tokio::test]
async fn demo_token_reads_the_language_list() {
    let sandbox = crate::common::start(Config::for_tests()).await;
    let response = get(&sandbox.base_url, Some(&format!("Bearer {DEMO_TOKEN}"))).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "application/json"
    );
    let list: TargetLanguages = response.json().await.unwrap();
    assert_eq!((list.code, list.msg.as_str()), (0, "success"));
    for expected in [
        "English", "Chinese", "Japanese", "Korean", "Spanish", "French", "German",
    ] {
        assert!(
            list.data.iter().any(|name| name == expected),
            "{expected} missing"
        );
    }
}

#[tokio::test]
async fn missing_or_wrong_token_gets_401_with_the_error_envelope() {
    let sandbox = crate::common::start(Config::for_tests()).await;
    for authorization in [
        None,
        Some("Bearer wrong"),
        Some(DEMO_TOKEN),
        Some("Basic ZGVtbw=="),
    ] {
        let response = get(&sandbox.base_url, authorization).await;
        assert_eq!(
            response.status(),
            StatusCode::UNAUTHORIZED,
            "{authorization:?}"
        );
        let error: ErrorEnvelope = response.json().await.unwrap();
        assert_ne!(error.code, 0);
        assert!(error.msg.contains("Bearer"), "{}", error.msg);
    }
}

#[tokio::test]
async fn every_configured_token_is_accepted() {
    let config = Config {
        tokens: vec!["first".into(), "second".into()],
        ..Config::for_tests()
    };
    let sandbox = crate::common::start(config).await;
    for token in ["first", "second"] {
        let response = get(&sandbox.base_url, Some(&format!("Bearer {token}"))).await;
        assert_eq!(response.status(), StatusCode::OK, "{token}");
    }
    let response = get(&sandbox.base_url, Some(&format!("Bearer {DEMO_TOKEN}"))).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn unknown_api_path_gets_404_with_the_error_envelope() {
    let sandbox = crate::common::start(Config::for_tests()).await;
    let response = reqwest::get(format!("{}/v1/no_such_endpoint", sandbox.base_url))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let error: ErrorEnvelope = response.json().await.unwrap();
    assert_ne!(error.code, 0);
}
