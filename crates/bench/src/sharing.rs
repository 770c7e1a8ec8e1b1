//! Shared links (`cargo xtask bench sharing`): a shared page of three
//! images from the gateway in front of the sandbox, as a stranger opens
//! it: its bytes before its media (the HTML, gzipped; budget: 15 KB, and
//! no script at all), and in headless Chromium over a slow mobile
//! connection with nothing cached, the time from navigation to its first
//! image drawn (median of cold loads), beside `load`'s figures for the
//! app's first page over the same connection.

use std::io::Write;

use media_gen_e2e::{start_gateway_at, start_sandbox, Browser, Network};
use media_gen_gateway::access::key_file::KeyFile;
use media_gen_gateway::access::AccessMode;
use media_gen_gateway::kept::KeepSettings;
use media_gen_gateway::uploads::UploadSettings;
use serde_json::{json, Value};

use crate::report::{median, Report};
use crate::size::Size;

/// Cold loads of the page (a smoke run: one).
const LOADS: usize = 5;

/// The first image's end, once it is drawn: its resource timing's
/// `responseEnd` (milliseconds from navigation start).
const FIRST_IMAGE: &str = "(() => { const image = document.querySelector('main img'); \
    if (!image || !image.complete || image.naturalWidth === 0) return null; \
    const entry = performance.getEntriesByType('resource').find((e) => e.name === image.currentSrc); \
    return entry ? entry.responseEnd : null; })()";

/// A gateway keeping results and a library, three images of `ada`'s kept,
/// and a link to them: the link.
async fn shared_link(dir: &std::path::Path) -> Result<String, String> {
    let sandbox = start_sandbox(200).await;
    let data = dir.join("data");
    let key = KeyFile::new(&data)
        .add("ada", None, 0)
        .map_err(|error| error.to_string())?;
    let uploads = dir.join("uploads");
    let base = start_gateway_at(&sandbox, None, |settings, base| {
        settings.access = AccessMode::Keys;
        settings.data_dir = Some(data.clone());
        settings.uploads = Some(UploadSettings::new(uploads.clone(), base.to_owned()));
        settings.keep = Some(KeepSettings::new(b"bench"));
    })
    .await;
    let client = reqwest::Client::new();
    let answer = client
        .post(format!("{base}/v1/image_generate"))
        .bearer_auth(&key)
        .json(&json!({ "prompt": "A harbour at dawn, three ways", "generate_count": 3 }))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let request = answer
        .headers()
        .get(media_gen_api::library::LIBRARY_HEADER)
        .and_then(|value| value.to_str().ok())
        .ok_or("no library request")?
        .to_owned();
    let body = answer.bytes().await.map_err(|e| e.to_string())?;
    let tasks = media_gen_gateway::relay::submit::created_ids(
        media_gen_api::TaskKind::ImageGenerate,
        200,
        &body,
    );
    for task in &tasks {
        let mut kept = false;
        for _ in 0..150 {
            let read: Value = client
                .get(format!("{base}/v1/image_generate/{task}"))
                .bearer_auth(&key)
                .send()
                .await
                .map_err(|e| e.to_string())?
                .json()
                .await
                .map_err(|e| e.to_string())?;
            if read["data"]["kept"]["image_url"].is_string() {
                kept = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        if !kept {
            return Err(format!("task {task} was not kept"));
        }
    }
    let made: Value = client
        .post(format!("{base}/shares"))
        .bearer_auth(&key)
        .json(&json!({ "requests": [request], "life": "day", "asked": true }))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    let path = made["data"]["path"].as_str().ok_or("no link made")?;
    Ok(format!("{base}{path}"))
}

/// Measure a shared page.
pub async fn measure(report: &mut Report, size: Size) -> Result<(), String> {
    println!("Shared links: a page of three images, as a stranger opens it");
    let dir = media_gen_e2e::test_folder("bench-sharing");
    let link = shared_link(dir.path()).await?;
    let html = reqwest::get(&link)
        .await
        .map_err(|e| e.to_string())?
        .text()
        .await
        .map_err(|e| e.to_string())?;
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(html.as_bytes()).map_err(|e| e.to_string())?;
    let gzipped = gzip.finish().map_err(|e| e.to_string())?.len();
    report.add_with_budget(
        "shared page: HTML before its media, gzipped",
        gzipped as f64 / 1000.0,
        "KB",
        15.0,
    );
    report.add_with_budget(
        "shared page: scripts",
        html.matches("<script").count() as f64,
        "",
        0.0,
    );

    let browser = Browser::start_own().await;
    browser.devtools("Network.enable", json!({})).await;
    browser
        .devtools("Network.setCacheDisabled", json!({ "cacheDisabled": true }))
        .await;
    browser.emulate_network(Network::SLOW_4G).await;
    let mut times = Vec::new();
    for load in 0..size.pick(LOADS, 1) {
        times.push(
            crate::load::time_until(&browser, &format!("{link}?cold={load}"), FIRST_IMAGE).await?,
        );
    }
    browser.close().await;
    report.add(
        "shared page cold over 1.6 Mbit/s, 150 ms: its first image drawn",
        median(times),
        "ms",
    );
    Ok(())
}
