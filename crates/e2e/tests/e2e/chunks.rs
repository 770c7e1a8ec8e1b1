//! The release build split into chunks, as a visitor's browser fetches it:
//! the board opened cold fetches the first module only, and each page's
//! chunk comes when the page opens (once), when a link to it is pointed
//! at, or when the browser is idle; a chunk that cannot be fetched says so
//! with a way to reload; all of it under a base path too. What is looked
//! at is what the browser fetched (its resource timing), by name.

use std::path::{Path, PathBuf};

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use media_gen_e2e::{
    build_copy, dist_dir, is_app_chunk, start_gateway_at, start_sandbox, start_site,
    start_site_configured, test_folder, Browser, Network,
};
use media_gen_gateway::uploads::UploadSettings;

/// Every page's chunk, by the start of its file's name.
const PAGE_CHUNKS: [&str; 6] = [
    "split-new-image-to-video-",
    "split-new-video-translate-",
    "split-new-image-generate-",
    "split-tasks-",
    "split-compare-",
    "split-settings-",
];

/// The files the page fetched so far: `[name, startTime, encodedBodySize]`.
const FETCHED: &str = "performance.getEntriesByType('resource')\
     .map((e) => [e.name.split('/').pop(), e.startTime, e.encodedBodySize])";

/// When the page named `mark` (ms since it started), if it has yet.
fn mark_time(mark: &str) -> String {
    format!("(performance.getEntriesByName('{mark}')[0] || {{ startTime: null }}).startTime")
}

/// What the page fetched so far, by name: when each started and its size.
async fn fetched(browser: &Browser) -> Vec<(String, f64, f64)> {
    let list = browser.eval(FETCHED).await;
    list.as_array()
        .expect("a list of fetches")
        .iter()
        .map(|entry| {
            (
                entry[0].as_str().unwrap_or_default().to_owned(),
                entry[1].as_f64().unwrap_or_default(),
                entry[2].as_f64().unwrap_or_default(),
            )
        })
        .collect()
}

/// How many times a file whose name starts with `start` was fetched.
async fn times_fetched(browser: &Browser, start: &str) -> usize {
    fetched(browser)
        .await
        .iter()
        .filter(|(name, _, _)| name.starts_with(start))
        .count()
}

/// Wait until a file whose name starts with `start` was fetched.
async fn wait_for_fetch(browser: &Browser, start: &str) {
    browser
        .wait_until(
            &format!("{start}… fetched"),
            &format!(
                "performance.getEntriesByType('resource')\
                 .some((e) => e.name.split('/').pop().startsWith('{start}'))"
            ),
        )
        .await;
}

/// A browser that tells pages its visitor asked to save data: the app then
/// fetches no chunk when idle, only for a page or a link.
async fn saving_data() -> Browser {
    let browser = Browser::start().await;
    browser
        .before_every_page(
            "Object.defineProperty(navigator, 'connection', \
             { value: { saveData: true }, configurable: true });",
        )
        .await;
    browser
}

/// A gateway in front of `sandbox` serving the build in `static_dir` and
/// taking uploads into `uploads`; its base URL.
async fn taking_uploads(sandbox: &str, static_dir: PathBuf, uploads: &Path) -> String {
    let uploads = uploads.to_owned();
    start_gateway_at(sandbox, Some(static_dir), move |settings, base| {
        settings.uploads = Some(UploadSettings::new(uploads, base.to_owned()));
    })
    .await
}

/// Move the pointer onto the element `css` finds, as a person's mouse does.
async fn point_at(browser: &Browser, css: &str) {
    let element = browser.find(css).await;
    let point = MouseActions::new("mouse".to_owned()).then(PointerAction::MoveToElement {
        element,
        duration: None,
        x: 0.0,
        y: 0.0,
    });
    browser
        .client
        .perform_actions(point)
        .await
        .expect("point at it");
}

/// A [`saving_data`] browser with the app's page `path` (titled `title`)
/// open on the site at `base`.
async fn saving_data_on(base: &str, path: &str, title: &str) -> Browser {
    let browser = saving_data().await;
    browser.open_app_page(base, path, title).await;
    browser
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn the_board_opened_cold_fetches_the_first_module_and_the_rest_when_idle() {
    let site = start_site().await;
    let browser = Browser::start().await;
    browser.open_app_page(&site.base_url, "/", "Tasks").await;
    let started = browser.eval(&mark_time("media-gen-started")).await;
    let started = started.as_f64().expect("the app marked its start");
    let idle = browser.eval(&mark_time("media-gen-idle-fetch")).await;
    let before_idle = idle.as_f64().unwrap_or(f64::INFINITY);
    let all = fetched(&browser).await;
    let first: Vec<_> = all
        .iter()
        .filter(|(name, at, _)| name.ends_with(".wasm") && *at <= started)
        .collect();
    assert_eq!(first.len(), 1, "one module before the board: {first:?}");
    assert!(
        first[0].0.starts_with("media-gen-app-") && first[0].0.ends_with("_bg.wasm"),
        "the first module: {first:?}"
    );
    let early: Vec<_> = all
        .iter()
        .filter(|(name, at, _)| is_app_chunk(name) && *at < before_idle)
        .collect();
    assert!(
        early.is_empty(),
        "no chunk before the browser is idle: {early:?}"
    );
    // Then, idle, every page's chunk.
    for chunk in PAGE_CHUNKS {
        wait_for_fetch(&browser, chunk).await;
    }
    let idle = browser.eval(&mark_time("media-gen-idle-fetch")).await;
    let idle = idle.as_f64().expect("the idle fetching marked its start");
    assert!(
        idle > started,
        "idle fetching waits for the start: {idle} vs {started}"
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_forms_chunk_is_fetched_once_and_a_link_pointed_at_fetches_its_chunk_before_the_click() {
    let site = start_site().await;
    let browser = saving_data().await;
    browser.open_app_page(&site.base_url, "/", "Tasks").await;
    assert_eq!(times_fetched(&browser, "split-settings-").await, 0);
    // Pointing at the link fetches its page's chunk; the page stays.
    point_at(&browser, "nav[aria-label=Main] a[href='/settings']").await;
    wait_for_fetch(&browser, "split-settings-").await;
    assert_eq!(browser.address().await, "/", "only pointed at");
    browser
        .click("nav[aria-label=Main] a[href='/settings']")
        .await;
    browser.wait_for_text("main h1", "Settings").await;
    assert_eq!(times_fetched(&browser, "split-settings-").await, 1);
    // Its chunk had come: past the time a slow chunk is announced, the
    // page says nothing of loading, neither on the page nor aloud.
    let said = browser
        .run_async(
            "await new Promise((resolve) => setTimeout(resolve, 600));
             return [document.querySelector('#chunk-loading') === null,
                     document.querySelector('#announcer').textContent];",
        )
        .await;
    assert_eq!(said, serde_json::json!([true, ""]));
    // A form's chunk once, however often its page opens.
    for _ in 0..2 {
        browser
            .click("nav[aria-label=Main] a[href='/new/image-generate']")
            .await;
        browser.wait_for_text("main h1", "Image generation").await;
        browser.find("#prompt").await;
        browser.click("nav[aria-label=Main] a[href='/']").await;
        browser.wait_for_text("main h1", "Tasks").await;
    }
    assert_eq!(
        times_fetched(&browser, "split-new-image-generate-").await,
        1
    );
    // Saving data: nothing fetched for pages not asked for.
    for chunk in [
        "split-tasks-",
        "split-compare-",
        "split-new-video-translate-",
    ] {
        assert_eq!(times_fetched(&browser, chunk).await, 0, "{chunk}");
    }
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_page_opened_cold_fetches_its_chunk_beside_the_first_module() {
    let site = start_site().await;
    let browser = saving_data_on(&site.base_url, "/new/image-generate", "Image generation").await;
    // Asked for by the page's own preload as it was read (a `link`), not by
    // the app once the first module had started (a `fetch`): and once.
    let asked = browser
        .eval(
            "performance.getEntriesByType('resource')\
             .filter((e) => e.name.split('/').pop().startsWith('split-new-image-generate-'))\
             .map((e) => e.initiatorType)",
        )
        .await;
    assert_eq!(
        asked,
        serde_json::json!(["link"]),
        "who asked for the form's chunk"
    );
    assert_eq!(
        times_fetched(&browser, "split-new-image-generate-").await,
        1
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn the_file_controls_are_fetched_only_where_the_gateway_takes_uploads() {
    // A gateway that takes no uploads: a form's fields are URL fields.
    let site = start_site().await;
    let browser = saving_data_on(&site.base_url, "/new/image-to-video", "Image to video").await;
    browser.find("#image_url").await;
    assert_eq!(times_fetched(&browser, "split-file-controls-").await, 0);
    assert!(browser
        .eval("document.querySelector('#image_url-choose')")
        .await
        .is_null());
    browser.close().await;
    // One that takes them: the controls come with their chunk.
    let folder = test_folder("chunk-uploads");
    let sandbox = start_sandbox(300).await;
    let base = taking_uploads(&sandbox, dist_dir(), folder.path()).await;
    let browser = saving_data_on(&base, "/new/image-to-video", "Image to video").await;
    browser.find("#image_url-choose").await;
    assert_eq!(times_fetched(&browser, "split-file-controls-").await, 1);
    browser.close().await;
    // Pointing at a form's link fetches the controls with the form.
    let browser = saving_data_on(&base, "/", "Tasks").await;
    point_at(
        &browser,
        "nav[aria-label=Main] a[href='/new/video-translate']",
    )
    .await;
    wait_for_fetch(&browser, "split-file-controls-").await;
    wait_for_fetch(&browser, "split-new-video-translate-").await;
    assert_eq!(browser.address().await, "/", "only pointed at");
    browser.close().await;
    // Their chunk gone: the field says files cannot be taken, and takes an
    // address.
    let (copy, _) = build_copy("chunk-controls-gone", |path| {
        path.starts_with("split-file-controls-")
    });
    let base = taking_uploads(&sandbox, copy.path().to_owned(), folder.path()).await;
    let browser = saving_data_on(&base, "/new/image-to-video", "Image to video").await;
    browser
        .wait_for_text(
            "#image_url-files-missing",
            "Files cannot be taken here: part of the page did not load. Type the file's address, or reload the page.",
        )
        .await;
    browser
        .type_into("#image_url", "https://example.com/a.png")
        .await;
    let typed = browser
        .eval("document.querySelector('#image_url').value")
        .await;
    assert_eq!(typed, "https://example.com/a.png");
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_chunk_that_cannot_be_fetched_says_so_and_reload_brings_the_page_once_it_is_back() {
    let (folder, missing) = build_copy("chunk-gone", |path| path.starts_with("split-settings-"));
    assert!(!missing.is_empty(), "the build has a settings chunk");
    let site = start_site_configured(folder.path().to_owned(), 300, |_| {}).await;
    let browser = saving_data().await;
    browser.open(&format!("{}/settings", site.base_url)).await;
    browser
        .wait_for_text("main [role=alert] strong", "This page could not start.")
        .await;
    browser.find("main a[rel=external]").await;
    // The header still works, and so does every other page.
    browser.click("nav[aria-label=Main] a[href='/']").await;
    browser.wait_for_text("main h1", "Tasks").await;
    browser
        .click("nav[aria-label=Main] a[href='/settings']")
        .await;
    browser
        .wait_for_text("main [role=alert] strong", "This page could not start.")
        .await;
    // The file is back (a deploy finished): Reload shows the page.
    for path in &missing {
        let name = path.file_name().expect("a name");
        std::fs::copy(dist_dir().join(name), path).expect("put the file back");
    }
    browser.click("main a[rel=external]").await;
    browser.wait_for_text("main h1", "Settings").await;
    assert_eq!(browser.address().await, "/settings");
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_page_whose_chunk_is_slow_to_come_says_it_is_loading() {
    let site = start_site().await;
    let browser = saving_data_on(&site.base_url, "/", "Tasks").await;
    // From now on every answer comes a second and a half late.
    browser.emulate_network(Network::late(1_500)).await;
    browser
        .click("nav[aria-label=Main] a[href='/settings']")
        .await;
    assert_eq!(browser.address().await, "/settings");
    browser
        .wait_for_text("#chunk-loading", "Loading the page…")
        .await;
    assert_eq!(
        browser
            .eval("document.querySelector('#announcer').textContent")
            .await,
        "Loading the page…",
        "the live region says it once"
    );
    browser.wait_for_text("main h1", "Settings").await;
    assert_eq!(
        browser
            .eval("document.querySelector('#chunk-loading') === null")
            .await,
        true,
        "the message goes with the page's coming"
    );
    // Back to the board and to settings again: its chunk has come, and the
    // page is drawn at once, with no message.
    browser.click("nav[aria-label=Main] a[href='/']").await;
    browser.wait_for_text("main h1", "Tasks").await;
    let shown = browser
        .run_async(
            "document.querySelector(\"nav[aria-label=Main] a[href='/settings']\").click();
             await new Promise((resolve) => setTimeout(resolve, 600));
             return [document.querySelector('main h1')?.textContent ?? null,
                     document.querySelector('#chunk-loading') === null];",
        )
        .await;
    assert_eq!(shown, serde_json::json!(["Settings", true]));
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn under_a_base_path_the_chunks_come_from_under_it() {
    let site = start_site_configured(dist_dir(), 300, |settings| {
        settings.base_path = "/media/".parse().expect("a base path");
    })
    .await;
    let browser = saving_data().await;
    browser
        .open_app_page(
            &site.base_url,
            "/media/new/video-translate",
            "Video translation",
        )
        .await;
    let paths = browser
        .eval(
            "performance.getEntriesByType('resource')\
             .filter((e) => e.name.endsWith('.wasm')).map((e) => new URL(e.name).pathname)",
        )
        .await;
    let paths: Vec<&str> = paths
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|path| path.as_str())
        .collect();
    assert!(
        paths
            .iter()
            .any(|path| path.starts_with("/media/split-new-video-translate-")),
        "{paths:?}"
    );
    assert!(
        paths.iter().all(|path| path.starts_with("/media/")),
        "{paths:?}"
    );
    browser.close().await;
}
