//! `--media-ttl`: result files answer 404 once their task ended longer ago
//! than the TTL, as the service's do once it stops keeping them.

use std::time::Duration;

use crate::common::*;
use media_gen_sandbox::Config;

/// Every result URL of the task `kind`/`id` once it has ended.
async fn results_of(sandbox: &Running, kind: &str, id: &str) -> Vec<String> {
    let (task, seen) = sandbox.wait_for_end(kind, id).await;
    assert_eq!(seen.last().map(String::as_str), Some("SUCCEEDED"), "{task}");
    ["video_url", "thumbnail_url", "image_url", "caption_url"]
        .iter()
        .filter_map(|field| task[field].as_str())
        .filter(|url| !url.is_empty())
        .map(str::to_owned)
        .collect()
}

async fn submitted(sandbox: &Running, path: &str, body: serde_json::Value) -> String {
    let (status, answer) = sandbox.post_json(path, &body).await;
    assert_eq!(status, 200, "{answer}");
    answer["data"]["task_ids"][0]
        .as_str()
        .or_else(|| answer["data"][0]["task_id"].as_str())
        .unwrap_or_else(|| panic!("no task id in {answer}"))
        .to_owned()
}

#[tokio::test]
async fn results_answer_404_once_the_ttl_after_their_task_ended_has_passed() {
    let sandbox = start(Config {
        media_ttl: Some(1),
        ..Config::for_tests()
    })
    .await;
    let video = submitted(&sandbox, "/v1/image_to_video", image_to_video()).await;
    let image = submitted(&sandbox, "/v1/image_generate", image_generate()).await;
    let translation = submitted(&sandbox, "/v1/video_translate", video_translate()).await;
    let mut urls = results_of(&sandbox, "image_to_video", &video).await;
    urls.extend(results_of(&sandbox, "image_generate", &image).await);
    urls.extend(results_of(&sandbox, "video_translate", &translation).await);
    // A video and its cover, an image and its thumbnail, a translated video
    // and its captions.
    assert_eq!(urls.len(), 6, "{urls:?}");
    for url in &urls {
        let (status, _, _) = sandbox.fetch(url).await;
        assert_eq!(status, 200, "{url} before the TTL");
    }
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    for url in &urls {
        let (status, _, body) = sandbox.fetch(url).await;
        assert_eq!(status, 404, "{url} after the TTL");
        let message = String::from_utf8_lossy(&body);
        assert!(
            message.contains("removed 1 s after its task ended"),
            "{message}"
        );
    }
}

#[tokio::test]
async fn with_a_ttl_a_result_url_must_name_a_task_it_holds() {
    let with_ttl = start(Config {
        media_ttl: Some(60),
        ..Config::for_tests()
    })
    .await;
    let without = start_default().await;
    for path in [
        "/sandbox/media/video/landscape.mp4",
        "/sandbox/media/video/landscape.mp4?task=i2v-unknown",
        "/sandbox/media/image/1K/16x9.png?task=i2i-unknown",
    ] {
        let (status, _, body) = with_ttl
            .fetch(&format!("{}{path}", with_ttl.base_url))
            .await;
        assert_eq!(status, 404, "{path} with a TTL");
        assert!(
            String::from_utf8_lossy(&body).contains("not known"),
            "{path}"
        );
        let (status, _, _) = without.fetch(&format!("{}{path}", without.base_url)).await;
        assert_eq!(status, 200, "{path} without a TTL: served as before");
    }
}
