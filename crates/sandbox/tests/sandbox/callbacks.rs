//! Completion callbacks: one per task, retried, loopback only; and the inbox.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::*;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};

/// A callback receiver on a free loopback port that refuses the first
/// `failures` deliveries with HTTP 500.
#[derive(Clone, Default)]
struct Receiver {
    received: Arc<Mutex<Vec<Value>>>,
    attempts: Arc<AtomicUsize>,
    failures: usize,
}

impl Receiver {
    async fn start(failures: usize) -> (Receiver, String) {
        let receiver = Receiver {
            failures,
            ..Receiver::default()
        };
        let app = Router::new()
            .route(
                "/hook",
                post(
                    |State(r): State<Receiver>, Json(body): Json<Value>| async move {
                        if r.attempts.fetch_add(1, Ordering::SeqCst) < r.failures {
                            return StatusCode::INTERNAL_SERVER_ERROR;
                        }
                        r.received.lock().expect("receiver lock").push(body);
                        StatusCode::OK
                    },
                ),
            )
            .with_state(receiver.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a free loopback port");
        let url = format!(
            "http://{}/hook",
            listener.local_addr().expect("bound address")
        );
        tokio::spawn(async move { axum::serve(listener, app).await });
        (receiver, url)
    }

    async fn wait_for(&self, count: usize) -> Vec<Value> {
        let started = Instant::now();
        loop {
            let received = self.received.lock().expect("receiver lock").clone();
            if received.len() >= count || started.elapsed() > Duration::from_secs(10) {
                return received;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

#[tokio::test]
async fn one_callback_per_task_in_the_documented_shape() {
    let sandbox = start_default().await;
    let (receiver, url) = Receiver::start(0).await;
    let mut request = image_generate();
    request["generate_count"] = json!(3);
    request["callback_url"] = json!(url);
    let (_, body) = sandbox.post_json("/v1/image_generate", &request).await;
    let mut ids: Vec<String> = body["data"]["task_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();

    let mut received = receiver.wait_for(3).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        receiver.received.lock().unwrap().len(),
        3,
        "exactly one per task"
    );
    let mut called: Vec<String> = received
        .iter()
        .map(|c| c["data"]["task_id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    called.sort();
    assert_eq!(called, ids);
    let callback = received.remove(0);
    assert_eq!(
        (
            callback["code"].clone(),
            callback["msg"].clone(),
            callback["task_type"].clone()
        ),
        (json!(0), json!("ok"), json!("image_generate"))
    );
    assert_eq!(callback["data"]["status"], "SUCCEEDED");
    assert!(
        callback["data"]["image_url"]
            .as_str()
            .unwrap()
            .ends_with(".png")
            || callback["data"]["image_url"]
                .as_str()
                .unwrap()
                .contains(".png?")
    );
    // It decodes as the contract's callback type.
    let typed: media_gen_api::Callback = serde_json::from_value(callback).unwrap();
    assert_eq!(typed.task.kind(), media_gen_api::TaskKind::ImageGenerate);
}

#[tokio::test]
async fn failed_tasks_call_back_with_their_error_message() {
    let sandbox = start_default().await;
    let (receiver, url) = Receiver::start(0).await;
    let request = json!({"target_languages": ["English"], "video_url": "https://example.com/fail.mp4", "callback_url": url});
    sandbox.post_json("/v1/video_translate", &request).await;
    let received = receiver.wait_for(1).await;
    assert_eq!(received[0]["task_type"], "video_translate");
    assert_eq!(received[0]["data"]["status"], "FAILED");
    assert!(!received[0]["data"]["error_message"]
        .as_str()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn a_failing_receiver_gets_three_attempts() {
    let sandbox = start_default().await;
    let (receiver, url) = Receiver::start(2).await;
    let mut request = image_to_video();
    request["callback_url"] = json!(url);
    sandbox.post_json("/v1/image_to_video", &request).await;
    let received = receiver.wait_for(1).await;
    assert_eq!(received.len(), 1, "delivered on the third attempt");
    assert_eq!(receiver.attempts.load(Ordering::SeqCst), 3);
    assert_eq!(received[0]["task_type"], "image_to_video");

    let (receiver, url) = Receiver::start(usize::MAX).await;
    let mut request = image_to_video();
    request["callback_url"] = json!(url);
    sandbox.post_json("/v1/image_to_video", &request).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        receiver.attempts.load(Ordering::SeqCst),
        3,
        "gives up after three"
    );
}

#[tokio::test]
async fn callbacks_go_only_to_loopback_unless_widened() {
    let sandbox = start_default().await;
    let mut request = image_to_video();
    request["callback_url"] = json!("http://example.com/hook");
    let (status, body) = sandbox.post_json("/v1/image_to_video", &request).await;
    assert_eq!(status, 400);
    assert!(body["msg"].as_str().unwrap().contains("loopback"), "{body}");
    assert_eq!(
        sandbox.stats().await.tasks_created,
        0,
        "nothing was created"
    );

    let mut request = image_generate();
    request["callback_url"] = json!("http://10.1.2.3/hook");
    let (status, body) = sandbox.post_json("/v1/image_generate", &request).await;
    assert_eq!((status, body["code"].clone()), (200, json!(100001)));

    let widened = media_gen_sandbox::Config {
        callbacks_to_any_host: true,
        ..media_gen_sandbox::Config::for_tests()
    };
    let sandbox = start(widened).await;
    let mut request = image_to_video();
    request["callback_url"] = json!("http://example.invalid/hook");
    let (status, _) = sandbox.post_json("/v1/image_to_video", &request).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn the_inbox_receives_callbacks() {
    let sandbox = start_default().await;
    let inbox = format!("{}/sandbox/inbox/my-test_1", sandbox.base_url);
    let mut request = video_translate();
    request["callback_url"] = json!(inbox);
    sandbox.post_json("/v1/video_translate", &request).await;
    let started = Instant::now();
    let messages = loop {
        let (status, body) = sandbox.get_json("/sandbox/inbox/my-test_1").await;
        assert_eq!(status, 200);
        let messages = body["data"].as_array().unwrap().clone();
        if messages.len() == 2 || started.elapsed() > Duration::from_secs(10) {
            break messages;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(messages.len(), 2, "one per language");
    assert!(messages[0]["received_at"].as_u64().unwrap() > 0);
    assert_eq!(messages[0]["body"]["task_type"], "video_translate");

    let (status, body) = sandbox.get_json("/sandbox/inbox/empty").await;
    assert_eq!((status, body["data"].clone()), (200, json!([])));
    let (status, _) = sandbox.get_json("/sandbox/inbox/bad%20name").await;
    assert_eq!(status, 400);
}
