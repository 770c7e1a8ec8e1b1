//! Starts a sandbox on an ephemeral loopback port for one test, and talks to it.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use media_gen_sandbox::stats::Stats;
use media_gen_sandbox::{Config, Faults, DEMO_TOKEN};
use serde_json::Value;

/// A running sandbox; it stops when the test's runtime ends.
pub struct Running {
    /// `http://127.0.0.1:<port>`, no trailing slash.
    pub base_url: String,
    /// A client for it.
    pub client: reqwest::Client,
}

/// Start a sandbox with `config` (its host and port are ignored: loopback, any free port).
pub async fn start(config: Config) -> Running {
    let base_url = media_gen_sandbox::spawn_local(config)
        .await
        .expect("bind a free loopback port");
    Running {
        base_url,
        client: reqwest::Client::new(),
    }
}

/// A sandbox with the test configuration.
pub async fn start_default() -> Running {
    start(Config::for_tests()).await
}

impl Running {
    /// `POST path` with the demo token and a JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.base_url))
            .bearer_auth(DEMO_TOKEN)
            .json(body)
            .send()
            .await
            .expect("the sandbox answers")
    }

    /// `GET path` with the demo token.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base_url))
            .bearer_auth(DEMO_TOKEN)
            .send()
            .await
            .expect("the sandbox answers")
    }

    /// `POST path` and decode the JSON answer, with its status.
    pub async fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let response = self.post(path, body).await;
        let status = response.status().as_u16();
        (status, response.json().await.expect("a JSON answer"))
    }

    /// `GET path` and decode the JSON answer, with its status.
    pub async fn get_json(&self, path: &str) -> (u16, Value) {
        let response = self.get(path).await;
        let status = response.status().as_u16();
        (status, response.json().await.expect("a JSON answer"))
    }

    /// Read `/v1/{kind}/{id}` until it is `SUCCEEDED` or `FAILED`; return its `data`
    /// and every status seen on the way, in order, without repeats.
    pub async fn wait_for_end(&self, kind: &str, id: &str) -> (Value, Vec<String>) {
        let started = Instant::now();
        let mut seen: Vec<String> = Vec::new();
        loop {
            let (status, body) = self.get_json(&format!("/v1/{kind}/{id}")).await;
            assert_eq!(status, 200, "{body}");
            let task_status = body["data"]["status"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            if seen.last() != Some(&task_status) {
                seen.push(task_status.clone());
            }
            if task_status == "SUCCEEDED" || task_status == "FAILED" {
                return (body["data"].clone(), seen);
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "{kind} {id} never ended: {seen:?}"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// The sandbox's counters.
    pub async fn stats(&self) -> Stats {
        let (_, body) = self.get_json("/sandbox/stats").await;
        serde_json::from_value(body["data"].clone()).expect("stats")
    }

    /// Replace the fault settings.
    pub async fn set_faults(&self, faults: &Faults) {
        let response = self
            .client
            .put(format!("{}/sandbox/faults", self.base_url))
            .bearer_auth(DEMO_TOKEN)
            .json(faults)
            .send()
            .await
            .expect("the sandbox answers");
        assert_eq!(response.status(), 200);
    }

    /// Fetch a URL the sandbox handed out; return status, content type and bytes.
    pub async fn fetch(&self, url: &str) -> (u16, String, Vec<u8>) {
        let response = self
            .client
            .get(url)
            .send()
            .await
            .expect("the media answers");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        (
            status,
            content_type,
            response.bytes().await.expect("a body").to_vec(),
        )
    }
}

/// A valid image-to-video request (model S).
pub fn image_to_video() -> Value {
    serde_json::json!({
        "model": "S",
        "prompt": "A paper boat on a pond",
        "aspect_ratio": "9:16",
        "aspect_resolution": "720p",
        "duration": 8,
        "image_url": "https://example.com/start.png"
    })
}

/// A valid video translation request.
pub fn video_translate() -> Value {
    serde_json::json!({
        "target_languages": ["English", "Japanese"],
        "video_url": "https://example.com/talk.mp4",
        "name": "my clip",
        "enable_caption": true
    })
}

/// A valid image generation request.
pub fn image_generate() -> Value {
    serde_json::json!({"prompt": "A lighthouse at dawn", "image_quality": "1K", "image_ratio": "3:2"})
}
