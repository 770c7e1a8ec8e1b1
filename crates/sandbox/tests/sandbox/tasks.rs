//! The three task kinds over HTTP: submit, lifecycle, results and media.

use crate::common::*;
use serde_json::json;

fn ids(body: &serde_json::Value) -> Vec<String> {
    body["data"]["task_ids"]
        .as_array()
        .expect("task_ids")
        .iter()
        .map(|id| id.as_str().expect("an id").to_owned())
        .collect()
}

#[tokio::test]
async fn image_to_video_one_task_per_video_through_its_lifecycle() {
    let sandbox = start_default().await;
    let mut request = image_to_video();
    request["generate_count"] = json!(3);
    let (status, body) = sandbox.post_json("/v1/image_to_video", &request).await;
    assert_eq!(
        (status, body["code"].clone(), body["msg"].clone()),
        (200, json!(0), json!("ok"))
    );
    let ids = ids(&body);
    assert_eq!(ids.len(), 3);
    for id in &ids {
        let hex = id.strip_prefix("i2v-").expect("i2v- prefix");
        assert!(
            hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
            "{id}"
        );
    }

    let (task, seen) = sandbox.wait_for_end("image_to_video", &ids[0]).await;
    assert_eq!(seen.last().map(String::as_str), Some("SUCCEEDED"));
    assert!(
        seen.iter()
            .all(|s| ["PENDING", "GENERATING", "SUCCEEDED"].contains(&s.as_str())),
        "{seen:?}"
    );
    assert_eq!(task["task_id"], ids[0].as_str());
    assert_eq!(task["error_message"], "");
    // 9:16 at 720p for 8 seconds, as service-facts.md's example.
    assert_eq!(
        (
            task["duration"].clone(),
            task["width"].clone(),
            task["height"].clone()
        ),
        (json!(8), json!(720), json!(1280))
    );

    let (status, content_type, video) = sandbox.fetch(task["video_url"].as_str().unwrap()).await;
    assert_eq!((status, content_type.as_str()), (200, "video/mp4"));
    assert_eq!(&video[4..8], b"ftyp", "an MP4 file");
    let (status, content_type, thumbnail) =
        sandbox.fetch(task["thumbnail_url"].as_str().unwrap()).await;
    assert_eq!((status, content_type.as_str()), (200, "image/webp"));
    assert_eq!(&thumbnail[8..12], b"WEBP");
}

#[tokio::test]
async fn a_task_is_generating_before_it_ends_with_empty_results() {
    let config = media_gen_sandbox::Config {
        task_ms: 2_000,
        task_spread: 0.0,
        ..media_gen_sandbox::Config::for_tests()
    };
    let sandbox = start(config).await;
    let (_, body) = sandbox
        .post_json("/v1/image_generate", &image_generate())
        .await;
    let id = ids(&body).remove(0);
    let (_, first) = sandbox.get_json(&format!("/v1/image_generate/{id}")).await;
    assert_eq!(first["data"]["status"], "PENDING");
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let (_, later) = sandbox.get_json(&format!("/v1/image_generate/{id}")).await;
    assert_eq!(later["data"]["status"], "GENERATING");
    assert_eq!(
        (
            later["data"]["image_url"].clone(),
            later["data"]["thumbnail_url"].clone()
        ),
        (json!(""), json!(""))
    );
}

#[tokio::test]
async fn prompt_with_the_fail_trigger_fails_with_a_message() {
    let sandbox = start_default().await;
    let mut request = image_to_video();
    request["prompt"] = json!("please [fail] now");
    let (_, body) = sandbox.post_json("/v1/image_to_video", &request).await;
    let (task, _) = sandbox.wait_for_end("image_to_video", &ids(&body)[0]).await;
    assert_eq!(task["status"], "FAILED");
    assert!(task["error_message"].as_str().unwrap().contains("[fail]"));
    assert_eq!(task["video_url"], "");

    let mut request = image_generate();
    request["prompt"] = json!("[fail]");
    let (_, body) = sandbox.post_json("/v1/image_generate", &request).await;
    let (task, _) = sandbox.wait_for_end("image_generate", &ids(&body)[0]).await;
    assert_eq!(task["status"], "FAILED");
}

#[tokio::test]
async fn image_generate_one_png_per_image_at_the_requested_size() {
    let sandbox = start_default().await;
    for (quality, ratio, size) in [
        ("1K", "3:2", (1024, 682)),
        ("1K", "9:16", (576, 1024)),
        ("2K", "1:1", (2048, 2048)),
    ] {
        let request = json!({"prompt": "p", "image_quality": quality, "image_ratio": ratio, "generate_count": 2});
        let (_, body) = sandbox.post_json("/v1/image_generate", &request).await;
        let ids = ids(&body);
        assert_eq!(ids.len(), 2);
        assert!(
            ids[0].starts_with("i2is-") && ids[0].len() == 5 + 32,
            "{}",
            ids[0]
        );
        let (task, _) = sandbox.wait_for_end("image_generate", &ids[0]).await;
        assert_eq!(task["status"], "SUCCEEDED");
        let (status, content_type, png) = sandbox.fetch(task["image_url"].as_str().unwrap()).await;
        assert_eq!((status, content_type.as_str()), (200, "image/png"));
        assert_eq!(png_size(&png), size, "{quality} {ratio}");
        let (_, _, thumbnail) = sandbox.fetch(task["thumbnail_url"].as_str().unwrap()).await;
        let (w, h) = png_size(&thumbnail);
        assert_eq!(w.max(h), 256, "thumbnail of {quality} {ratio}");
    }
}

#[tokio::test]
async fn image_generate_defaults_are_one_2k_9_16_image() {
    let sandbox = start_default().await;
    let (_, body) = sandbox
        .post_json("/v1/image_generate", &json!({"prompt": "p"}))
        .await;
    let ids = ids(&body);
    assert_eq!(ids.len(), 1);
    let (task, _) = sandbox.wait_for_end("image_generate", &ids[0]).await;
    let url = task["image_url"].as_str().unwrap();
    assert!(url.contains("/2K/9x16.png"), "{url}");
}

fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    let number =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (number(16), number(20))
}

#[tokio::test]
async fn video_translate_one_task_per_language_named_by_the_rule() {
    let sandbox = start_default().await;
    let (status, body) = sandbox
        .post_json("/v1/video_translate", &video_translate())
        .await;
    assert_eq!(status, 200, "{body}");
    let refs = body["data"].as_array().unwrap();
    let languages: Vec<_> = refs
        .iter()
        .map(|r| r["language"].as_str().unwrap())
        .collect();
    assert_eq!(languages, ["English", "Japanese"]);
    let id = refs[1]["task_id"].as_str().unwrap();
    assert!(id.starts_with("vt-") && id.len() == 3 + 32, "{id}");

    let (task, _) = sandbox.wait_for_end("video_translate", id).await;
    assert_eq!(
        (
            task["status"].clone(),
            task["language"].clone(),
            task["name"].clone()
        ),
        (
            json!("SUCCEEDED"),
            json!("Japanese"),
            json!("Japanese-my clip")
        )
    );
    let video_url = task["video_url"].as_str().unwrap();
    // Named by the rule, and naming its task (for `--media-ttl`).
    assert!(
        video_url.ends_with(&format!(
            "/Japanese/Japanese-my%20clip.mp4?task={}",
            task["task_id"].as_str().unwrap()
        )),
        "{video_url}"
    );
    let (status, content_type, _) = sandbox.fetch(video_url).await;
    assert_eq!((status, content_type.as_str()), (200, "video/mp4"));
    let (status, content_type, ass) = sandbox.fetch(task["caption_url"].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert!(content_type.starts_with("text/x-ssa"), "{content_type}");
    let ass = String::from_utf8(ass).unwrap();
    assert!(
        ass.contains("[Events]") && ass.contains("Dialogue: ") && ass.contains("[Japanese]"),
        "{ass}"
    );
}

#[tokio::test]
async fn video_translate_without_a_name_or_captions() {
    let sandbox = start_default().await;
    let request = json!({"target_languages": ["Korean"], "video_url": "https://example.com/a.mp4"});
    let (_, body) = sandbox.post_json("/v1/video_translate", &request).await;
    let id = body["data"][0]["task_id"].as_str().unwrap();
    let (task, _) = sandbox.wait_for_end("video_translate", id).await;
    let name = task["name"].as_str().unwrap();
    let timestamp = name.strip_prefix("Korean-videoTranslate-").expect(name);
    assert!(
        timestamp.len() == 10 && timestamp.bytes().all(|b| b.is_ascii_digit()),
        "{name}"
    );
    assert_eq!(task["caption_url"], "");
}

#[tokio::test]
async fn video_translate_fail_trigger_in_the_video_url() {
    let sandbox = start_default().await;
    let request =
        json!({"target_languages": ["English"], "video_url": "https://example.com/fail.mp4"});
    let (_, body) = sandbox.post_json("/v1/video_translate", &request).await;
    let id = body["data"][0]["task_id"].as_str().unwrap();
    let (task, _) = sandbox.wait_for_end("video_translate", id).await;
    assert_eq!(task["status"], "FAILED");
    assert!(task["error_message"].as_str().unwrap().contains("fail"));
}

#[tokio::test]
async fn unknown_ids_and_ids_of_another_kind_are_404() {
    let sandbox = start_default().await;
    let (_, body) = sandbox
        .post_json("/v1/image_generate", &image_generate())
        .await;
    let image_id = ids(&body).remove(0);
    for path in [
        format!("/v1/image_to_video/{image_id}"),
        format!("/v1/video_translate/{image_id}"),
        "/v1/image_generate/i2is-00000000000000000000000000000000".to_owned(),
    ] {
        let (status, body) = sandbox.get_json(&path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(body["code"], 100004);
        assert!(body["msg"].as_str().unwrap().contains("task_id"), "{body}");
    }
}

#[tokio::test]
async fn past_the_cap_the_oldest_finished_tasks_are_forgotten() {
    let config = media_gen_sandbox::Config {
        max_tasks: 5,
        task_ms: 1,
        task_spread: 0.0,
        ..media_gen_sandbox::Config::for_tests()
    };
    let sandbox = start(config).await;
    let mut all = Vec::new();
    for _ in 0..12 {
        let (_, body) = sandbox
            .post_json("/v1/image_generate", &image_generate())
            .await;
        all.extend(ids(&body));
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }
    let stats = sandbox.stats().await;
    assert_eq!(stats.tasks_created, 12);
    assert!(stats.tasks_held <= 6, "{stats:?}");
    let (status, _) = sandbox
        .get_json(&format!("/v1/image_generate/{}", all[0]))
        .await;
    assert_eq!(status, 404, "the oldest is gone");
    let (status, _) = sandbox
        .get_json(&format!("/v1/image_generate/{}", all[11]))
        .await;
    assert_eq!(status, 200, "the newest is kept");
}

#[tokio::test]
async fn result_urls_use_the_sandboxs_own_address_whatever_the_host_header_says() {
    let sandbox = start_default().await;
    let response = sandbox
        .client
        .post(format!("{}/v1/image_generate", sandbox.base_url))
        .bearer_auth(media_gen_sandbox::DEMO_TOKEN)
        .header("host", "evil.example")
        .json(&serde_json::json!({"prompt": "p"}))
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = response.json().await.unwrap();
    let id = body["data"]["task_ids"][0].as_str().unwrap().to_owned();
    let (task, _) = sandbox.wait_for_end("image_generate", &id).await;
    let url = task["image_url"].as_str().unwrap();
    assert!(url.starts_with(&format!("{}/", sandbox.base_url)), "{url}");

    // A configured public address wins.
    let other = crate::common::start(media_gen_sandbox::Config {
        public_url: Some("https://media.example".to_owned()),
        ..media_gen_sandbox::Config::for_tests()
    })
    .await;
    let (_, body) = other
        .post_json("/v1/image_generate", &serde_json::json!({"prompt": "p"}))
        .await;
    let id = body["data"]["task_ids"][0].as_str().unwrap().to_owned();
    let (task, _) = other.wait_for_end("image_generate", &id).await;
    assert!(task["image_url"]
        .as_str()
        .unwrap()
        .starts_with("https://media.example/"));
}
