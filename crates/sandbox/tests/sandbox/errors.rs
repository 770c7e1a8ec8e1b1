//! The error decisions the sandbox README documents.

use crate::common::*;
use media_gen_sandbox::DEMO_TOKEN;
use serde_json::json;

#[tokio::test]
async fn invalid_parameters_are_400_naming_field_and_rule() {
    let sandbox = start_default().await;
    let mut request = image_to_video();
    request["aspect_resolution"] = json!("1080p");
    request["generate_count"] = json!(9);
    let (status, body) = sandbox.post_json("/v1/image_to_video", &request).await;
    assert_eq!((status, body["code"].clone()), (400, json!(100001)));
    let msg = body["msg"].as_str().unwrap();
    assert!(
        msg.contains("aspect_resolution: Model S supports only 720p"),
        "{msg}"
    );
    assert!(msg.contains("generate_count: Make 1 to 4 videos"), "{msg}");

    let (status, body) = sandbox
        .post_json(
            "/v1/video_translate",
            &json!({"target_languages": ["Klingon"], "video_url": "x"}),
        )
        .await;
    assert_eq!(status, 400);
    let msg = body["msg"].as_str().unwrap();
    assert!(
        msg.contains("target_languages[0]: Klingon is not one of the languages"),
        "{msg}"
    );
    assert!(
        msg.contains("video_url: Must be an absolute http or https URL"),
        "{msg}"
    );
}

#[tokio::test]
async fn image_generate_refuses_with_http_200_and_a_code() {
    let sandbox = start_default().await;
    let (status, body) = sandbox
        .post_json(
            "/v1/image_generate",
            &json!({"prompt": " ", "generate_count": 9}),
        )
        .await;
    assert_eq!((status, body["code"].clone()), (200, json!(100001)));
    assert!(body.get("data").is_none());
    let msg = body["msg"].as_str().unwrap();
    assert!(
        msg.contains("prompt: A prompt is required") && msg.contains("generate_count"),
        "{msg}"
    );
}

#[tokio::test]
async fn wrong_types_and_values_name_the_field() {
    let sandbox = start_default().await;
    let (status, body) = sandbox
        .post_json("/v1/image_to_video", &json!({"model": "X", "prompt": "p"}))
        .await;
    assert_eq!(status, 400);
    assert!(
        body["msg"]
            .as_str()
            .unwrap()
            .contains("model: `X` is not one of V, KL, S"),
        "{body}"
    );
    let (status, body) = sandbox
        .post_json(
            "/v1/image_generate",
            &json!({"prompt": "p", "generate_count": "two"}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        body["msg"].as_str().unwrap().starts_with("generate_count:"),
        "{body}"
    );
}

#[tokio::test]
async fn body_not_json_or_not_sent_as_json_is_400() {
    let sandbox = start_default().await;
    let url = format!("{}/v1/image_to_video", sandbox.base_url);
    let cases = [
        ("application/json", "{not json"),
        ("application/json", ""),
        ("text/plain", r#"{"prompt":"p"}"#),
        ("application/x-www-form-urlencoded", "prompt=p"),
    ];
    for (content_type, body) in cases {
        let response = sandbox
            .client
            .post(&url)
            .bearer_auth(DEMO_TOKEN)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{content_type} {body}");
        let envelope: serde_json::Value = response.json().await.unwrap();
        assert_eq!(envelope["code"], 100003, "{envelope}");
    }
}

#[tokio::test]
async fn body_over_1_mib_is_413() {
    let sandbox = start_default().await;
    let big = json!({"prompt": "x".repeat(1024 * 1024 + 1)});
    let (status, body) = sandbox.post_json("/v1/image_generate", &big).await;
    assert_eq!((status, body["code"].clone()), (413, json!(100005)));
}

#[tokio::test]
async fn every_endpoint_needs_the_token() {
    let sandbox = start_default().await;
    let id = "i2v-00000000000000000000000000000000";
    let requests = [
        ("POST", "/v1/image_to_video".to_owned()),
        ("GET", format!("/v1/image_to_video/{id}")),
        ("POST", "/v1/video_translate".to_owned()),
        ("GET", format!("/v1/video_translate/{id}")),
        ("GET", "/v1/video_translate/target_languages".to_owned()),
        ("POST", "/v1/image_generate".to_owned()),
        ("GET", format!("/v1/image_generate/{id}")),
    ];
    for (method, path) in requests {
        let url = format!("{}{path}", sandbox.base_url);
        let request = match method {
            "POST" => sandbox.client.post(url).json(&json!({})),
            _ => sandbox.client.get(url),
        };
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 401, "{method} {path}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["code"], 100002);
    }
}

#[tokio::test]
async fn wrong_method_is_405_with_the_envelope() {
    let sandbox = start_default().await;
    let (status, body) = sandbox.get_json("/v1/image_to_video").await;
    assert_eq!(status, 405);
    assert_ne!(body["code"], 0);
}

#[tokio::test]
async fn unknown_paths_are_404_error_envelopes() {
    let sandbox = start_default().await;
    for path in [
        "/v1/nothing",
        "/v1/image_to_video/a/b",
        "/sandbox/nothing",
        "/",
        "/settings",
    ] {
        let (status, body) = sandbox.get_json(path).await;
        assert_eq!(
            (status, body["code"].clone()),
            (404, json!(100004)),
            "{path}"
        );
    }
}
