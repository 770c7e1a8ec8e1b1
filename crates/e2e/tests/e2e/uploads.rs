//! Uploads as another program makes them: `tus-js-client` (from npm) in
//! Chromium uploads a PNG the page drew, in 16 KiB pieces, through the
//! gateway; a task submitted with the upload's address succeeds, and the
//! sandbox, fetching inputs as the service does, received exactly the
//! bytes the page held (their SHA-256 compared).

use media_gen_e2e::{
    npm_scratch_dir, start_fetching_sandbox, start_gateway_at, test_folder, Browser,
};
use media_gen_gateway::uploads::UploadSettings;
use std::time::Duration;

use crate::common::{fetched, png, status_reads, submit_video_from, upload, video_task_end};

/// On the page: draw a picture, upload it with tus-js-client, submit an
/// image-to-video task starting from it and wait for its end; the upload's
/// address, the file's SHA-256 and the task.
const UPLOAD_AND_SUBMIT: &str = "
    await new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = './node_modules/tus-js-client/dist/tus.min.js';
      script.onload = resolve; script.onerror = reject;
      document.head.append(script);
    });
    const canvas = document.createElement('canvas');
    canvas.width = 640; canvas.height = 360;
    const context = canvas.getContext('2d');
    for (let i = 0; i < 4000; i++) {
      context.fillStyle = `hsl(${i % 360} 70% ${30 + (i * 7) % 50}%)`;
      context.fillRect((i * 37) % 640, (i * 53) % 360, 9, 9);
    }
    const file = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
    const sha256 = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    const progress = [];
    const url = await new Promise((resolve, reject) => {
      const upload = new tus.Upload(file, {
        endpoint: '/uploads/',
        chunkSize: 16 * 1024,
        metadata: { filename: 'drawn.png', filetype: 'image/png' },
        onProgress: (sent, total) => progress.push([sent, total]),
        onError: (error) => reject(String(error)),
        onSuccess: () => resolve(upload.url),
      });
      upload.start();
    });
    const submitted = await fetch('/v1/image_to_video', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'S', prompt: 'The drawing comes alive', aspect_ratio: '16:9',
        aspect_resolution: '720p', duration: 8, image_url: url }),
    }).then((r) => r.json());
    const id = submitted.data.task_ids[0];
    let task;
    for (;;) {
      task = (await fetch(`/v1/image_to_video/${id}`).then((r) => r.json())).data;
      if (task.status === 'SUCCEEDED' || task.status === 'FAILED') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { url, sha256, size: file.size, pieces: progress.length, task };";

#[tokio::test]
#[ignore = "needs the packed npm package (with tus-js-client) and ChromeDriver: run through `cargo xtask test`"]
async fn a_tus_client_uploads_through_the_gateway_and_the_service_gets_those_bytes() {
    let sandbox = start_fetching_sandbox(300).await;
    let upload_dir = test_folder("uploads");
    let gateway = start_gateway_at(&sandbox, Some(npm_scratch_dir()), |settings, base| {
        settings.uploads = Some(UploadSettings::new(
            upload_dir.path().to_owned(),
            base.to_owned(),
        ));
    })
    .await;
    let browser = Browser::start().await;
    browser.open(&format!("{gateway}/index.html")).await;
    browser
        .wait_until("the page", "window.ready === true")
        .await;
    let outcome = browser.run_async(UPLOAD_AND_SUBMIT).await;
    browser.close().await;

    let url = outcome["url"].as_str().unwrap();
    assert!(url.starts_with(&format!("{gateway}/uploads/")), "{outcome}");
    assert!(
        outcome["size"].as_u64().unwrap() > 2 * 16 * 1024
            && outcome["pieces"].as_u64().unwrap() > 1,
        "uploaded in pieces: {outcome}"
    );
    assert_eq!(outcome["task"]["status"], "SUCCEEDED", "{outcome}");
    let fetched = fetched(&sandbox).await;
    let record = &fetched[0];
    assert_eq!(record["url"], url);
    assert_eq!(record["mime"], "image/png");
    assert_eq!(
        record["sha256"], outcome["sha256"],
        "the service got the page's bytes"
    );
}

#[tokio::test]
async fn an_upload_a_task_is_made_from_outlives_its_ttl_until_the_task_ends() {
    let sandbox = start_fetching_sandbox(3_000).await;
    let dir = test_folder("held");
    let gateway = start_gateway_at(&sandbox, None, |settings, base| {
        let mut uploads = UploadSettings::new(dir.path().to_owned(), base.to_owned());
        uploads.ttl = std::time::Duration::from_secs(1);
        settings.uploads = Some(uploads);
    })
    .await;
    let url = upload(&gateway, png(2_000)).await;
    let id = submit_video_from(&gateway, &url, "Held").await;
    // Past its TTL, the task still running: kept.
    tokio::time::sleep(std::time::Duration::from_millis(1_800)).await;
    assert_eq!(
        reqwest::get(&url).await.unwrap().status(),
        200,
        "held by its task"
    );
    // The task read to its end through the gateway: kept a TTL more, then gone.
    assert_eq!(video_task_end(&gateway, &id).await, "SUCCEEDED");
    assert_eq!(
        reqwest::get(&url).await.unwrap().status(),
        200,
        "a TTL after the end"
    );
    // Gone once the TTL (rounded up to whole seconds) has passed.
    let mut status = 200;
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        status = reqwest::get(&url).await.unwrap().status().as_u16();
        if status == 410 {
            break;
        }
    }
    assert_eq!(status, 410);
}

/// Upload settings into `dir` at `base` with a TTL of a second, the
/// gateway's own reads of held tasks every half second, and holds of at
/// most `hold_max`.
fn quick_holds(dir: &std::path::Path, base: &str, hold_max: Duration) -> UploadSettings {
    let mut uploads = UploadSettings::new(dir.to_owned(), base.to_owned());
    uploads.ttl = Duration::from_secs(1);
    uploads.hold_max = hold_max;
    uploads.hold_reads = media_gen_api::poll::PollSchedule {
        first: Duration::from_millis(500),
        factor: 1.0,
        cap: Duration::from_millis(500),
        floor: Duration::from_millis(200),
    };
    uploads
}

/// The status `url` answers within `within`, read every 100 ms until it is `wanted`.
async fn status_within(url: &str, wanted: u16, within: Duration) -> u16 {
    let started = std::time::Instant::now();
    loop {
        let status = reqwest::get(url).await.unwrap().status().as_u16();
        if status == wanted || started.elapsed() > within {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn an_upload_held_by_a_task_nobody_follows_is_let_go_when_the_gateway_reads_its_end() {
    let sandbox = start_fetching_sandbox(1_500).await;
    let dir = test_folder("held-unfollowed");
    let gateway = start_gateway_at(&sandbox, None, |settings, base| {
        settings.uploads = Some(quick_holds(dir.path(), base, Duration::from_secs(3_600)));
    })
    .await;
    let url = upload(&gateway, png(2_000)).await;
    // Submitted as a program does, and never read: no page, no relay.
    submit_video_from(&gateway, &url, "Nobody follows").await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert_eq!(
        reqwest::get(&url).await.unwrap().status(),
        200,
        "held past its TTL while the task runs"
    );
    // The gateway reads the task itself, sees it end, and lets the upload
    // go a TTL later.
    assert_eq!(status_within(&url, 410, Duration::from_secs(8)).await, 410);
    let reads = status_reads(&sandbox).await;
    assert!(
        (1..=12).contains(&reads),
        "the gateway's own reads: {reads}"
    );
}

#[tokio::test]
async fn a_hold_ends_at_its_ceiling_whether_or_not_the_task_does() {
    let sandbox = start_fetching_sandbox(120_000).await;
    let dir = test_folder("held-ceiling");
    let gateway = start_gateway_at(&sandbox, None, |settings, base| {
        settings.uploads = Some(quick_holds(dir.path(), base, Duration::from_secs(2)));
    })
    .await;
    let url = upload(&gateway, png(2_000)).await;
    let id = submit_video_from(&gateway, &url, "Never ends").await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert_eq!(reqwest::get(&url).await.unwrap().status(), 200, "held");
    assert_eq!(status_within(&url, 410, Duration::from_secs(5)).await, 410);
    // The task still runs: the ceiling, not its end, let the upload go.
    let task: serde_json::Value = reqwest::get(format!("{gateway}/v1/image_to_video/{id}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let status = task["data"]["status"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(status != "SUCCEEDED" && status != "FAILED", "{task}");
}
