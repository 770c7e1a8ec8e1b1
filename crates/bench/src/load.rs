//! Load time in headless Chromium: from navigation start to the first form
//! being interactive (the app's Performance mark), median of several fresh
//! loads, next to an empty page loaded the same way in the same run; the JS
//! heap once the form is ready; and cold loads (no cache) of the board to
//! its first control and of a form's page to a usable form, on loopback and
//! over a slow mobile connection (Chrome's network emulation).

use std::path::Path;

use media_gen_e2e::{Browser, Network};

use crate::report::{median, Report};
use crate::size::Size;
use crate::staged::StagedApp;

/// Fresh loads per page (a smoke run: one).
const LOADS: usize = 10;

/// The mark the app sets (`components/marks.rs`).
const MARK: &str = "media-gen:form-interactive";

/// The app's wasm, JS and CSS as they came over the wire (compressed bodies,
/// in bytes), from the browser's resource timing.
const WIRE_BYTES: &str = "performance.getEntriesByType('resource')
    .filter(e => /\\.(wasm|js|css)$/.test(new URL(e.name).pathname))
    .reduce((sum, e) => sum + e.encodedBodySize, 0)";

/// Cold loads per page and network (nothing in the browser's cache; a
/// smoke run: one).
const COLD_LOADS: usize = 5;

/// The mark the app makes as it starts, with the board or the page it
/// opened on drawn (`src/shell/boot.rs`): its first control.
const STARTED: &str = "media-gen-started";

/// The networks cold loads are timed over, by name: loopback, and a slow
/// mobile connection.
const NETWORKS: [(&str, Network); 2] = [
    ("loopback", Network::LOOPBACK),
    ("1.6 Mbit/s, 150 ms", Network::SLOW_4G),
];

/// Cold loads (the browser's cache off) of the board to its first control
/// and of a form's page until the form takes input, over each network (a
/// smoke run: loopback only, as the slow one takes seconds a load and
/// `sharing` emulates it too): the medians, named.
async fn cold_loads(
    browser: &Browser,
    staged: &StagedApp,
    size: Size,
) -> Result<Vec<(String, f64)>, String> {
    let mut figures = Vec::new();
    browser
        .devtools("Network.enable", serde_json::json!({}))
        .await;
    browser
        .devtools(
            "Network.setCacheDisabled",
            serde_json::json!({ "cacheDisabled": true }),
        )
        .await;
    let networks = size.pick(&NETWORKS[..], &NETWORKS[..1]);
    for &(network, conditions) in networks {
        browser.emulate_network(conditions).await;
        for (what, path, mark) in [
            ("the board to its first control", "/", STARTED),
            (
                "a form's page to a usable form",
                "/new/image-generate",
                MARK,
            ),
        ] {
            let mut times = Vec::new();
            for load in 0..size.pick(COLD_LOADS, 1) {
                let url = staged.url(&format!("{path}?cold={load}"));
                let script =
                    format!("performance.getEntriesByName('{mark}')[0]?.startTime ?? null");
                times.push(time_until(browser, &url, &script).await?);
            }
            figures.push((format!("load cold over {network}: {what}"), median(times)));
        }
    }
    browser
        .devtools(
            "Network.setCacheDisabled",
            serde_json::json!({ "cacheDisabled": false }),
        )
        .await;
    Ok(figures)
}

/// Milliseconds from navigation start until `script` (an expression) gives a number.
pub async fn time_until(browser: &Browser, url: &str, script: &str) -> Result<f64, String> {
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
pub async fn measure(report: &mut Report, dist: &Path, size: Size) -> Result<(), String> {
    let loads = size.pick(LOADS, 1);
    println!("Load in headless Chromium (median of {loads} fresh loads)");
    let staged = StagedApp::start(dist, "load", &[]).await?;
    let browser = Browser::start_own().await;

    let (mut app, mut empty, mut heap) = (Vec::new(), Vec::new(), Vec::new());
    let mut wire_kb = None;
    for _ in 0..loads {
        let cache_busted = |path: &str| staged.url(&format!("{path}?fresh={}", app.len()));
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
        // The first load finds nothing in the browser's cache.
        if wire_kb.is_none() {
            wire_kb = browser.eval(WIRE_BYTES).await.as_f64().map(|b| b / 1000.0);
        }
        let used = browser
            .eval("performance.memory ? performance.memory.usedJSHeapSize : null")
            .await;
        if let Some(bytes) = used.as_f64() {
            heap.push(bytes / (1024.0 * 1024.0));
        }
    }
    let cold = cold_loads(&browser, &staged, size).await?;
    browser.close().await;
    drop(staged);
    for (figure, ms) in cold {
        report.add(figure, ms, "ms");
    }

    let (app, empty) = (median(app), median(empty));
    report.add("load: empty page, navigation to load event", empty, "ms");
    report.add("load: app, navigation to interactive form", app, "ms");
    report.add("load: app over the empty page", app / empty.max(1.0), "×");
    if !heap.is_empty() {
        report.add("load: JS heap with the form ready", median(heap), "MiB");
    }
    if let Some(kb) = wire_kb {
        report.add("load: app files over the wire, first load", kb, "KB");
    }
    Ok(())
}
