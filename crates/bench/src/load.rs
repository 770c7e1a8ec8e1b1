//! Load time in headless Chromium: from navigation start to the first form
//! being interactive (the app's Performance mark), median of several fresh
//! loads, next to an empty page loaded the same way in the same run; and the
//! JS heap once the form is ready.

use std::path::Path;

use media_gen_e2e::Browser;

use crate::report::Report;
use crate::sandbox::Sandbox;

/// Fresh loads per page.
const LOADS: usize = 10;

/// The mark `forms/shell.rs` sets.
const MARK: &str = "media-gen:form-interactive";

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Milliseconds from navigation start until `script` (an expression) gives a number.
async fn time_until(browser: &Browser, url: &str, script: &str) -> Result<f64, String> {
    browser.open(url).await;
    for _ in 0..400 {
        let value = browser.eval(script).await;
        if let Some(ms) = value.as_f64() {
            return Ok(ms);
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    Err(format!("{url}: `{script}` never gave a number"))
}

/// Measure the release build in `dist` (with an empty page beside it).
pub async fn measure(report: &mut Report, dist: &Path) -> Result<(), String> {
    println!("Load in headless Chromium (median of {LOADS} fresh loads)");
    // A copy of the app with an empty page next to it, served the same way.
    let dir = std::env::temp_dir().join(format!("media-gen-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    for entry in std::fs::read_dir(dist).map_err(|e| format!("{}: {e}", dist.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_file() {
            if let Some(name) = path.file_name() {
                std::fs::copy(&path, dir.join(name)).map_err(|e| e.to_string())?;
            }
        }
    }
    std::fs::write(
        dir.join("empty.html"),
        "<!DOCTYPE html><title>empty</title>",
    )
    .map_err(|e| e.to_string())?;
    let static_dir = dir.to_string_lossy().into_owned();
    let sandbox = Sandbox::start(&["--static", &static_dir]).await?;
    let browser = Browser::start().await;

    let (mut app, mut empty, mut heap) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..LOADS {
        let cache_busted = |path: &str| format!("{}{path}?fresh={}", sandbox.base_url, app.len());
        empty.push(
            time_until(
                &browser,
                &cache_busted("/empty.html"),
                "performance.getEntriesByType('navigation')[0]?.loadEventEnd || null",
            )
            .await?,
        );
        app.push(
            time_until(
                &browser,
                &cache_busted("/new/image-generate"),
                &format!("performance.getEntriesByName('{MARK}')[0]?.startTime ?? null"),
            )
            .await?,
        );
        let used = browser
            .eval("performance.memory ? performance.memory.usedJSHeapSize : null")
            .await;
        if let Some(bytes) = used.as_f64() {
            heap.push(bytes / (1024.0 * 1024.0));
        }
    }
    browser.close().await;
    drop(sandbox);
    let _ = std::fs::remove_dir_all(&dir);

    let (app, empty) = (median(app), median(empty));
    report.add("load: empty page, navigation to load event", empty, "ms");
    report.add("load: app, navigation to interactive form", app, "ms");
    report.add("load: app over the empty page", app / empty.max(1.0), "×");
    if !heap.is_empty() {
        report.add("load: JS heap with the form ready", median(heap), "MiB");
    }
    Ok(())
}
