//! Fault injection: each fault, set at run time through `/sandbox/faults`.

use std::time::{Duration, Instant};

use crate::common::*;
use media_gen_sandbox::Faults;
use serde_json::json;

fn only(fault: impl FnOnce(&mut Faults)) -> Faults {
    let mut faults = Faults::default();
    fault(&mut faults);
    faults
}

#[tokio::test]
async fn http_500_after_the_work_is_done() {
    let sandbox = start_default().await;
    sandbox.set_faults(&only(|f| f.http_500 = 1.0)).await;
    let (status, body) = sandbox
        .post_json("/v1/image_to_video", &image_to_video())
        .await;
    assert_eq!((status, body["code"].clone()), (500, json!(100007)));
    assert_eq!(
        sandbox.stats().await.tasks_created,
        1,
        "the task exists although the answer was lost"
    );
}

#[tokio::test]
async fn http_503_and_429_before_any_work() {
    let sandbox = start_default().await;
    sandbox.set_faults(&only(|f| f.http_503 = 1.0)).await;
    let (status, body) = sandbox
        .post_json("/v1/image_to_video", &image_to_video())
        .await;
    assert_eq!((status, body["code"].clone()), (503, json!(100008)));

    sandbox
        .set_faults(&only(|f| {
            f.http_429 = 1.0;
            f.retry_after_secs = 7;
        }))
        .await;
    let response = sandbox.post("/v1/image_generate", &image_generate()).await;
    assert_eq!(response.status(), 429);
    assert_eq!(response.headers()["retry-after"], "7");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], 100006);
    assert_eq!(sandbox.stats().await.tasks_created, 0);
}

#[tokio::test]
async fn business_error_inside_http_200() {
    let sandbox = start_default().await;
    sandbox.set_faults(&only(|f| f.business_error = 1.0)).await;
    let (status, body) = sandbox
        .get_json("/v1/video_translate/target_languages")
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["code"], 100009);
    let decoded = media_gen_api::decode_data::<Vec<String>>(200, body.to_string().as_bytes());
    assert!(matches!(
        decoded,
        Err(media_gen_api::ResponseError::Business { code: 100009, .. })
    ));
}

#[tokio::test]
async fn malformed_json_body() {
    let sandbox = start_default().await;
    sandbox.set_faults(&only(|f| f.malformed_body = 1.0)).await;
    let response = sandbox.post("/v1/image_generate", &image_generate()).await;
    assert_eq!(response.status(), 200);
    let body = response.bytes().await.unwrap();
    assert!(serde_json::from_slice::<serde_json::Value>(&body).is_err());
    let decoded = media_gen_api::decode_data::<media_gen_api::TaskIds>(200, &body);
    assert!(matches!(
        decoded,
        Err(media_gen_api::ResponseError::Shape { .. })
    ));
    assert_eq!(sandbox.stats().await.tasks_created, 1);
}

#[tokio::test]
async fn dropped_connection() {
    let sandbox = start_default().await;
    sandbox.set_faults(&only(|f| f.drop_connection = 1.0)).await;
    let outcome = sandbox
        .client
        .get(format!(
            "{}/v1/video_translate/target_languages",
            sandbox.base_url
        ))
        .bearer_auth("demo-token")
        .send()
        .await;
    let failed = match outcome {
        Err(_) => true,
        Ok(response) => response.bytes().await.is_err(),
    };
    assert!(failed, "the answer must not arrive whole");
}

#[tokio::test]
async fn added_latency() {
    let sandbox = start_default().await;
    sandbox.set_faults(&only(|f| f.latency_ms = 300)).await;
    let started = Instant::now();
    let (status, _) = sandbox
        .get_json("/v1/video_translate/target_languages")
        .await;
    assert_eq!(status, 200);
    assert!(started.elapsed() >= Duration::from_millis(300));
}

#[tokio::test]
async fn faults_apply_at_their_rate() {
    let sandbox = start_default().await;
    sandbox.set_faults(&only(|f| f.http_503 = 0.5)).await;
    let mut refused = 0;
    for _ in 0..200 {
        if sandbox
            .get("/v1/video_translate/target_languages")
            .await
            .status()
            == 503
        {
            refused += 1;
        }
    }
    assert!(
        (60..=140).contains(&refused),
        "{refused} of 200 at rate 0.5"
    );
}

#[tokio::test]
async fn control_endpoint_reads_checks_and_needs_the_token() {
    let sandbox = start_default().await;
    let (status, body) = sandbox.get_json("/sandbox/faults").await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["http_500"], 0.0);
    let response = sandbox
        .client
        .put(format!("{}/sandbox/faults", sandbox.base_url))
        .bearer_auth("demo-token")
        .json(&json!({"http_500": 0.8, "http_503": 0.8}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let response = sandbox
        .client
        .put(format!("{}/sandbox/faults", sandbox.base_url))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    // The sandbox's own endpoints are never faulted.
    sandbox.set_faults(&only(|f| f.http_500 = 1.0)).await;
    assert_eq!(sandbox.get("/sandbox/stats").await.status(), 200);
}

#[tokio::test]
async fn faults_can_be_set_at_start() {
    let config = media_gen_sandbox::Config {
        faults: only(|f| f.http_503 = 1.0),
        ..media_gen_sandbox::Config::for_tests()
    };
    let sandbox = start(config).await;
    assert_eq!(
        sandbox
            .get("/v1/video_translate/target_languages")
            .await
            .status(),
        503
    );
}
