//! What the end-to-end tests share: the status reads the sandbox answered
//! and those a page sent, submits and callbacks as a page and the service
//! send them, uploads and page tokens as programs make them, and what the
//! signed-in header says.
#![allow(dead_code)]
// Test-only code: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

use media_gen_e2e::Browser;
use serde_json::{json, Value};

/// The sandbox's counters, as `/sandbox/stats` gives them.
pub async fn sandbox_stats(sandbox_url: &str) -> Value {
    let stats: Value = reqwest::get(format!("{sandbox_url}/sandbox/stats"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    stats["data"].clone()
}

/// Status reads the sandbox at `sandbox_url` has answered.
pub async fn status_reads(sandbox_url: &str) -> u64 {
    sandbox_stats(sandbox_url).await["status_reads"]
        .as_u64()
        .unwrap()
}

/// Open the site at `base_url` in `browser` and sign in with `key`: the
/// board.
pub async fn sign_in(browser: &Browser, base_url: &str, key: &str) {
    browser.open(base_url).await;
    browser.wait_for_text("main h1", "Sign in").await;
    browser
        .type_into("#access-key", &format!("{key}\u{E007}"))
        .await;
    browser.wait_for_text("main h1", "Tasks").await;
}

/// Image generation status reads the page in `browser` has sent since it loaded.
pub async fn page_status_reads(browser: &Browser) -> Value {
    browser
        .eval(
            "performance.getEntriesByType('resource')
               .filter((entry) => /\\/v1\\/image_generate\\/./.test(new URL(entry.name).pathname)).length",
        )
        .await
}

/// The page in `browser` sent no status read, and the sandbox at
/// `sandbox_url` answered `confirmations` (the gateway's, one per task).
pub async fn heard_not_read(browser: &Browser, sandbox_url: &str, confirmations: u64) {
    assert_eq!(
        page_status_reads(browser).await,
        0,
        "heard of, not read: no status read from the page"
    );
    assert_eq!(
        status_reads(sandbox_url).await,
        confirmations,
        "the service read once per task: the gateway's confirmations"
    );
}

/// Submit `count` images through the gateway at `base` (with
/// `callback_url`, when given): the task ids, and the relay capability the
/// answer names (none when the submit was not relayed).
pub async fn submit_images(
    base: &str,
    count: u32,
    callback_url: Option<&str>,
) -> (Vec<String>, Option<String>) {
    let mut request =
        json!({ "prompt": "A lighthouse", "image_quality": "1K", "generate_count": count });
    if let Some(url) = callback_url {
        request["callback_url"] = url.into();
    }
    let answer = reqwest::Client::new()
        .post(format!("{base}/v1/image_generate"))
        .json(&request)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let relay = answer
        .headers()
        .get("media-gen-relay")
        .map(|value| value.to_str().unwrap().to_owned());
    let body: Value = answer.json().await.unwrap();
    let ids = body["data"]["task_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap().to_owned())
        .collect();
    (ids, relay)
}

/// The callback the service sends when image task `id` succeeded.
pub fn succeeded(id: &str) -> Value {
    json!({ "code": 0, "msg": "ok", "task_type": "image_generate",
            "data": { "task_id": id, "status": "SUCCEEDED",
                      "image_url": "http://127.0.0.1:9/i.png" } })
}

/// POST [`succeeded`] for task `id` to `url`; the status of the answer.
pub async fn call_back_succeeded(url: &str, id: &str) -> u16 {
    reqwest::Client::new()
        .post(url)
        .json(&succeeded(id))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Submit a video of model S made from `image_url` through the gateway at
/// `base`, as a program does: its task id.
pub async fn submit_video_from(base: &str, image_url: &str, prompt: &str) -> String {
    let submitted: Value = reqwest::Client::new()
        .post(format!("{base}/v1/image_to_video"))
        .json(
            &json!({ "model": "S", "prompt": prompt, "aspect_ratio": "16:9",
                       "aspect_resolution": "720p", "duration": 8, "image_url": image_url }),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    submitted["data"]["task_ids"][0]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Read video task `id` through the gateway at `base` until it ends (10 s
/// at most): its last status.
pub async fn video_task_end(base: &str, id: &str) -> Value {
    let mut status = Value::Null;
    for _ in 0..100 {
        let task: Value = reqwest::get(format!("{base}/v1/image_to_video/{id}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        status = task["data"]["status"].clone();
        if status == "SUCCEEDED" || status == "FAILED" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    status
}

/// A PNG's first bytes and filler: `length` bytes in all (a PNG to the
/// contract's judge, which reads only the first bytes).
pub fn png(length: usize) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.resize(length, 3);
    bytes
}

/// Upload `bytes` through the gateway at `base` (a site's base URL) in one
/// `PATCH`, as a tus client does; the upload's address.
pub async fn upload(base: &str, bytes: Vec<u8>) -> String {
    let client = reqwest::Client::new();
    let made = client
        .post(format!("{base}/uploads/"))
        .header("tus-resumable", "1.0.0")
        .header("upload-length", bytes.len())
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 201);
    let url = made.headers()["location"].to_str().unwrap().to_owned();
    let written = client
        .patch(&url)
        .header("tus-resumable", "1.0.0")
        .header("upload-offset", 0)
        .header("content-type", "application/offset+octet-stream")
        .body(bytes)
        .send()
        .await
        .unwrap();
    assert_eq!(written.status(), 204, "{:?}", written.text().await);
    url
}

/// A page token for `key` from the gateway at `gateway`, as a host site's
/// server gets one.
pub async fn page_token(gateway: &str, key: &str) -> String {
    let given: Value = reqwest::Client::new()
        .post(format!("{gateway}/tokens"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    given["data"]["token"].as_str().unwrap().to_owned()
}

/// Wait until the header's person says `text` (a part of it).
pub async fn person_says(browser: &Browser, text: &str) {
    browser
        .wait_until(
            &format!("the header to say {text:?}"),
            &format!("document.querySelector('#person')?.textContent.includes({text:?})"),
        )
        .await;
}

/// What the sandbox fetched as the service does (a submit's inputs): a
/// record `{ url, mime, sha256 }` each.
pub async fn fetched(sandbox: &str) -> Vec<Value> {
    let fetched: Value = reqwest::get(format!("{sandbox}/sandbox/fetched"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    fetched["data"].as_array().cloned().unwrap_or_default()
}

/// The SHA-256 of what the sandbox fetched from `url`.
pub async fn fetched_hash(sandbox: &str, url: &str) -> Option<String> {
    fetched(sandbox)
        .await
        .iter()
        .find(|record| record["url"] == url)
        .and_then(|record| record["sha256"].as_str().map(str::to_owned))
}

/// On the page: a file made of a canvas, named `NAME` (replaced), as
/// `window.__file`, and its SHA-256.
pub const MAKE_FILE: &str = "
    const canvas = document.createElement('canvas');
    canvas.width = 320; canvas.height = 180;
    const context = canvas.getContext('2d');
    for (let i = 0; i < 3000; i++) {
      context.fillStyle = `hsl(${(i * 17) % 360} 80% ${20 + (i * 13) % 60}%)`;
      context.fillRect((i * 31) % 320, (i * 47) % 180, 7, 7);
    }
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    window.__file = new File([blob], 'NAME', { type: 'image/png' });
    const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');";

/// On the page: `window.__file` ([`MAKE_FILE`]) dropped on the file
/// target of the field `FIELD` (replaced by an expression finding it), as
/// a person drags a file onto it.
pub const DROP_FILE: &str = "
    const data = new DataTransfer(); data.items.add(window.__file);
    FIELD.closest('.file-target')
      .dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));";

/// [`fetched_hash`], waiting up to 10 s for the sandbox to fetch `url`
/// (it fetches a submit's inputs as the service does, as the task starts).
pub async fn fetched_hash_soon(sandbox: &str, url: &str) -> Option<String> {
    for _ in 0..100 {
        if let Some(hash) = fetched_hash(sandbox, url).await {
            return Some(hash);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    None
}

/// The SHA-256 of `bytes`, in lowercase hexadecimal (as the sandbox says it).
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Run in every page: each `PATCH` the page sends, with its
/// `Upload-Offset` and its body's size, in `window.__patches`.
pub const RECORD_PATCHES: &str = "
    window.__patches = [];
    const open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (method, url, ...rest) {
      this.__method = method; this.__url = url;
      return open.call(this, method, url, ...rest);
    };
    const header = XMLHttpRequest.prototype.setRequestHeader;
    XMLHttpRequest.prototype.setRequestHeader = function (name, value) {
      if (name.toLowerCase() === 'upload-offset') this.__offset = Number(value);
      return header.call(this, name, value);
    };
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (body) {
      if (this.__method === 'PATCH') {
        window.__patches.push({ url: this.__url, offset: this.__offset, bytes: body ? body.size : 0 });
      }
      return send.call(this, body);
    };";

/// A slow line (uploads at 250 KB/s), or a normal one again.
pub async fn slow_line(browser: &Browser, slow: bool) {
    browser
        .devtools("Network.enable", serde_json::json!({}))
        .await;
    let throughput = if slow { 250_000 } else { -1 };
    browser
        .devtools(
            "Network.emulateNetworkConditions",
            serde_json::json!({
                "offline": false,
                "latency": 0,
                "downloadThroughput": -1,
                "uploadThroughput": throughput,
            }),
        )
        .await;
}

/// `redis-cli` against the Redis at `url`, with `args`; its output.
pub async fn redis_cli(url: &str, args: &[&str]) -> String {
    let output = tokio::process::Command::new("redis-cli")
        .arg("-u")
        .arg(url)
        .args(args)
        .output()
        .await
        .expect("run redis-cli (Debian's redis-tools, beside redis-server)");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Until `check` holds, asked every 100 ms for `seconds`; the test fails
/// naming `what` otherwise.
pub async fn eventually<F, Fut>(what: &str, seconds: u64, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..seconds * 10 {
        if check().await {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("not within {seconds} s: {what}");
}

/// Click `button` with downloads recorded instead of saved: the name and
/// the bytes of the one file it saves (a `blob:` URL of the page), read
/// from the `Blob` itself (the page's policy lets it fetch no `blob:`
/// address).
pub async fn saved_file(browser: &media_gen_e2e::Browser, button: &str) -> (String, Vec<u8>) {
    browser
        .run_async(
            "window.__saved = []; window.__blobs = window.__blobs ?? new Map(); \
             if (!window.__recording) { window.__recording = true; \
               const create = URL.createObjectURL; \
               URL.createObjectURL = (blob) => { const url = create(blob); window.__blobs.set(url, blob); return url; }; \
               HTMLAnchorElement.prototype.click = function () { \
                 if (this.hasAttribute('download')) window.__saved.push([this.download, this.href]); }; }",
        )
        .await;
    browser.click(button).await;
    for _ in 0..300 {
        if browser.eval("window.__saved.length > 0").await == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let saved = browser.eval("window.__saved").await;
    assert_eq!(
        saved.as_array().map(Vec::len),
        Some(1),
        "one file saved: {saved}; the page said {}",
        browser
            .eval("[...document.querySelectorAll('[role=alert], .download-all__state')].map((e) => e.textContent).join(' | ')")
            .await
    );
    let name = saved[0][0].as_str().unwrap_or_default().to_owned();
    let bytes = browser
        .run_async(
            "const [, href] = window.__saved[0]; \
             const buffer = await window.__blobs.get(href).arrayBuffer(); \
             return Array.from(new Uint8Array(buffer));",
        )
        .await;
    (name, serde_json::from_value(bytes).unwrap())
}
