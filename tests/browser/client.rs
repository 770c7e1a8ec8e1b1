//! The browser client against the sandbox, in headless Chromium: every
//! endpoint, every error kind (made with fault injection), retries, abort.

use crate::sandbox;
use std::time::Duration;

use media_gen_api::*;
use media_gen_client::{Auth, Client, ClientError, ClientOptions};
use serde_json::json;
use wasm_bindgen_test::*;
use web_sys::AbortController;

fn image_to_video() -> ImageToVideoRequest {
    ImageToVideoRequest {
        model: Some(Model::S),
        prompt: "A paper boat".into(),
        aspect_resolution: Some(Resolution::P720),
        duration: Some(4),
        image_url: Some("https://example.com/start.png".into()),
        ..Default::default()
    }
}

fn image_generate() -> ImageGenerateRequest {
    ImageGenerateRequest {
        prompt: "A lighthouse".into(),
        image_quality: Some(ImageQuality::K1),
        ..Default::default()
    }
}

#[wasm_bindgen_test]
async fn every_endpoint_returns_typed_results() {
    sandbox::set_faults(json!({})).await;
    let client = sandbox::client();

    let languages = client.target_languages(None).await.unwrap();
    assert!(languages.iter().any(|l| l == "English"));

    let ids = client
        .submit_image_to_video(&image_to_video(), None)
        .await
        .unwrap();
    let task = client.image_to_video(&ids.task_ids[0], None).await.unwrap();
    assert_eq!(task.task_id, ids.task_ids[0]);
    assert_eq!((task.width, task.height), (Some(1280), Some(720)));

    let request = VideoTranslateRequest {
        target_languages: vec!["English".into(), "Korean".into()],
        video_url: "https://example.com/a.mp4".into(),
        ..Default::default()
    };
    let refs = client.submit_video_translate(&request, None).await.unwrap();
    assert_eq!(refs.len(), 2);
    let task = client
        .video_translate(&refs[1].task_id, None)
        .await
        .unwrap();
    assert_eq!(task.language, "Korean");

    let ids = client
        .submit_image_generate(&image_generate(), None)
        .await
        .unwrap();
    let task = client.image_generate(&ids.task_ids[0], None).await.unwrap();
    assert!(!task.status.is_terminal() || task.status == TaskStatus::Succeeded);
    let any = client
        .task(TaskKind::ImageGenerate, &ids.task_ids[0], None)
        .await
        .unwrap();
    assert_eq!(any.task_id(), ids.task_ids[0]);
}

#[wasm_bindgen_test]
async fn a_wrong_token_is_an_http_error_with_the_envelope() {
    sandbox::set_faults(json!({})).await;
    let client = Client::new(ClientOptions::new(
        sandbox::url(),
        Auth::Token("wrong".into()),
    ));
    let error = client.target_languages(None).await.unwrap_err();
    assert_eq!(
        (error.kind(), error.status(), error.code()),
        ("http", Some(401), Some(100002))
    );
    assert!(!error.retryable());
    assert!(
        error.to_string().contains("Check the access token"),
        "{error}"
    );
}

#[wasm_bindgen_test]
async fn an_unknown_task_is_404() {
    sandbox::set_faults(json!({})).await;
    let error = sandbox::client()
        .image_generate("i2is-missing", None)
        .await
        .unwrap_err();
    assert_eq!((error.status(), error.code()), (Some(404), Some(100004)));
}

#[wasm_bindgen_test]
async fn validation_refusals_of_image_generate_are_business_errors() {
    sandbox::set_faults(json!({})).await;
    let request = ImageGenerateRequest {
        prompt: " ".into(),
        ..Default::default()
    };
    let error = sandbox::client()
        .submit_image_generate(&request, None)
        .await
        .unwrap_err();
    assert_eq!((error.kind(), error.code()), ("business", Some(100001)));
    assert!(error.to_string().contains("prompt"), "{error}");
}

#[wasm_bindgen_test]
async fn an_unreachable_server_is_a_network_error_that_mentions_cors() {
    let mut options = ClientOptions::new("http://127.0.0.1:9", Auth::None);
    options.retry.max_retries = 0;
    let error = Client::new(options)
        .target_languages(None)
        .await
        .unwrap_err();
    assert_eq!(error.kind(), "network");
    assert!(error.retryable());
    assert!(error.to_string().contains("CORS"), "{error}");
}

#[wasm_bindgen_test]
async fn a_slow_answer_is_a_timeout() {
    sandbox::set_faults(json!({"latency_ms": 2000, "limit": 1})).await;
    let mut options = sandbox::options();
    options.attempt_timeout = Duration::from_millis(300);
    options.retry.max_retries = 0;
    let started = sandbox::now();
    let error = Client::new(options)
        .target_languages(None)
        .await
        .unwrap_err();
    let took = sandbox::now() - started;
    assert_eq!(error, ClientError::Timeout { seconds: 0 });
    assert!((250.0..1500.0).contains(&took), "gave up after {took} ms");
}

#[wasm_bindgen_test]
async fn business_errors_and_malformed_bodies() {
    sandbox::set_faults(json!({"business_error": 1.0, "limit": 1})).await;
    let error = sandbox::client().target_languages(None).await.unwrap_err();
    assert_eq!((error.kind(), error.code()), ("business", Some(100009)));

    sandbox::set_faults(json!({"malformed_body": 1.0, "limit": 1})).await;
    let error = sandbox::client().target_languages(None).await.unwrap_err();
    assert_eq!(error.kind(), "shape");
    assert!(!error.retryable());
}

#[wasm_bindgen_test]
async fn reads_retry_5xx_and_dropped_connections() {
    for fault in ["http_500", "http_503", "drop_connection"] {
        sandbox::set_faults(json!({ fault: 1.0, "limit": 2 })).await;
        let before = sandbox::counter("v1_requests").await;
        let languages = sandbox::client().target_languages(None).await.unwrap();
        assert!(!languages.is_empty(), "{fault}");
        assert_eq!(
            sandbox::counter("v1_requests").await - before,
            3,
            "{fault}: two failures, then success"
        );
    }
}

#[wasm_bindgen_test]
async fn retry_after_is_honoured() {
    sandbox::set_faults(json!({"http_429": 1.0, "retry_after_secs": 1, "limit": 1})).await;
    let started = sandbox::now();
    sandbox::client().target_languages(None).await.unwrap();
    let waited = sandbox::now() - started;
    assert!(
        waited >= 1000.0,
        "retried after {waited} ms, before Retry-After: 1"
    );
    assert!(waited < 3000.0, "took {waited} ms");
}

#[wasm_bindgen_test]
async fn submits_are_not_retried_after_a_500_or_a_dropped_connection() {
    for (fault, kind) in [("http_500", "http"), ("drop_connection", "network")] {
        sandbox::set_faults(json!({ fault: 1.0, "limit": 1 })).await;
        let (requests, tasks) = (
            sandbox::counter("v1_requests").await,
            sandbox::counter("tasks_created").await,
        );
        let error = sandbox::client()
            .submit_image_generate(&image_generate(), None)
            .await
            .expect_err(fault);
        assert_eq!(error.kind(), kind, "{fault}");
        assert_eq!(
            sandbox::counter("v1_requests").await - requests,
            1,
            "{fault}: no retry"
        );
        assert_eq!(
            sandbox::counter("tasks_created").await - tasks,
            1,
            "{fault}: the task exists, so a retry would duplicate it"
        );
    }
}

#[wasm_bindgen_test]
async fn submits_are_retried_after_429_with_retry_after() {
    sandbox::set_faults(json!({"http_429": 1.0, "retry_after_secs": 1, "limit": 1})).await;
    let tasks = sandbox::counter("tasks_created").await;
    let ids = sandbox::client()
        .submit_image_generate(&image_generate(), None)
        .await
        .unwrap();
    assert_eq!(ids.task_ids.len(), 1);
    assert_eq!(
        sandbox::counter("tasks_created").await - tasks,
        1,
        "exactly one task"
    );
}

#[wasm_bindgen_test]
async fn abort_cancels_the_request_in_flight() {
    sandbox::set_faults(json!({"latency_ms": 3000, "limit": 1})).await;
    let controller = AbortController::new().unwrap();
    let signal = controller.signal();
    let client = sandbox::client();
    let call = client.target_languages(Some(&signal));
    let abort = async {
        gloo_timers::future::TimeoutFuture::new(200).await;
        controller.abort();
    };
    let started = sandbox::now();
    let (result, ()) = futures::join!(call, abort);
    let took = sandbox::now() - started;
    assert_eq!(result.unwrap_err(), ClientError::Aborted);
    assert!(took < 1000.0, "aborted after {took} ms");
}

#[wasm_bindgen_test]
async fn abort_cancels_the_wait_between_retries_and_nothing_follows() {
    sandbox::set_faults(json!({"http_429": 1.0, "retry_after_secs": 1, "limit": 1})).await;
    let controller = AbortController::new().unwrap();
    let signal = controller.signal();
    let before = sandbox::counter("v1_requests").await;
    let client = sandbox::client();
    let call = client.target_languages(Some(&signal));
    let abort = async {
        gloo_timers::future::TimeoutFuture::new(300).await;
        controller.abort();
    };
    let started = sandbox::now();
    let (result, ()) = futures::join!(call, abort);
    assert_eq!(result.unwrap_err(), ClientError::Aborted);
    assert!(
        sandbox::now() - started < 900.0,
        "the 1 s wait was cut short"
    );
    gloo_timers::future::TimeoutFuture::new(1500).await;
    assert_eq!(
        sandbox::counter("v1_requests").await - before,
        1,
        "no retry after abort"
    );
}

#[wasm_bindgen_test]
async fn an_already_aborted_signal_sends_nothing() {
    let controller = AbortController::new().unwrap();
    controller.abort();
    let before = sandbox::counter("v1_requests").await;
    let error = sandbox::client()
        .target_languages(Some(&controller.signal()))
        .await
        .unwrap_err();
    assert_eq!(error, ClientError::Aborted);
    assert_eq!(sandbox::counter("v1_requests").await, before);
}

#[wasm_bindgen_test]
async fn a_token_provider_is_asked_for_each_call() {
    sandbox::set_faults(json!({})).await;
    let provider: media_gen_client::TokenProvider =
        std::rc::Rc::new(|| Box::pin(async { Some(sandbox::TOKEN.to_owned()) }));
    let client = Client::new(ClientOptions::new(sandbox::url(), Auth::Provider(provider)));
    assert!(!client.target_languages(None).await.unwrap().is_empty());
}

#[wasm_bindgen_test]
async fn the_overall_deadline_ends_retries() {
    sandbox::set_faults(json!({"http_503": 1.0, "limit": 20})).await;
    let mut options = sandbox::options();
    options.deadline = Duration::from_millis(1200);
    options.retry.max_retries = 20;
    let started = sandbox::now();
    let error = Client::new(options)
        .target_languages(None)
        .await
        .unwrap_err();
    let took = sandbox::now() - started;
    sandbox::set_faults(json!({})).await;
    assert_eq!(error.status(), Some(503));
    assert!(
        took <= 1300.0,
        "gave up after {took} ms, past the 1.2 s deadline"
    );
}
