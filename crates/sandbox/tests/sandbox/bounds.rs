//! The sandbox as a server others can reach: what a client sends cannot
//! take its memory, its CPU or its answers' addresses.

use crate::common::*;
use media_gen_sandbox::inbox::boxes::{MAX_MESSAGE_BYTES, MAX_TOTAL_BYTES};
use media_gen_sandbox::DEMO_TOKEN;
use serde_json::json;

#[tokio::test]
async fn the_inboxes_hold_a_bounded_number_of_bytes() {
    let sandbox = start_default().await;
    // One message over the size a callback could have: refused.
    let huge = json!({ "padding": "x".repeat(MAX_MESSAGE_BYTES) });
    let (status, _) = sandbox.post_json("/sandbox/inbox/big", &huge).await;
    assert_eq!(status, 413);
    // Many messages near the limit, in many inboxes: the oldest go.
    let message = |i: usize| json!({ "n": i, "padding": "y".repeat(60 * 1024) });
    for i in 0..200 {
        let (status, _) = sandbox
            .post_json(&format!("/sandbox/inbox/box-{}", i % 7), &message(i))
            .await;
        assert_eq!(status, 200);
    }
    let held = sandbox.stats().await.inbox_bytes;
    let budget = u64::try_from(MAX_TOTAL_BYTES).unwrap();
    assert!(held <= budget && held > budget / 2, "{held} bytes held");
    // The newest message is still there, as sent.
    let (_, listed) = sandbox.get_json("/sandbox/inbox/box-3").await;
    let last = listed["data"].as_array().unwrap().last().unwrap();
    // The last one posted, 199, went to box-3 (199 % 7 == 3).
    assert_eq!(last["body"]["n"], 199);
}

#[tokio::test]
async fn an_image_asked_for_by_many_at_once_is_made_once() {
    let sandbox = start_default().await;
    let url = format!("{}/sandbox/media/image/4K/16x9.png", sandbox.base_url);
    let fetches = (0..40).map(|_| {
        let client = sandbox.client.clone();
        let url = url.clone();
        tokio::spawn(async move { client.get(url).send().await.unwrap().status().as_u16() })
    });
    for fetch in fetches {
        assert_eq!(fetch.await.unwrap(), 200);
    }
    assert_eq!(sandbox.stats().await.images_made, 1);
}

#[tokio::test]
async fn fault_latency_is_bounded() {
    let sandbox = start_default().await;
    let response = sandbox
        .client
        .put(format!("{}/sandbox/faults", sandbox.base_url))
        .bearer_auth(DEMO_TOKEN)
        .json(&json!({ "latency_ms": u64::MAX }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(body["msg"]
        .as_str()
        .unwrap()
        .contains("latency_ms is at most 60000"));
    // Requests are still answered at once.
    let (status, _) = sandbox
        .get_json("/v1/video_translate/target_languages")
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_hundred_thousand_languages_are_refused_at_once() {
    let sandbox = start_default().await;
    let names: Vec<String> = (0..110_000).map(|i| format!("L{i}")).collect();
    let (status, body) = sandbox
        .post_json(
            "/v1/video_translate",
            &json!({ "video_url": "https://x.example/a.mp4", "target_languages": names }),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        body["msg"]
            .as_str()
            .unwrap()
            .contains("At most 100 target languages"),
        "{body}"
    );
}
