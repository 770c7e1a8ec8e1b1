//! The release build of the app, served by the sandbox, in real headless Chromium.
//! (That each route opens directly is checked in `every_page.rs`. That the
//! release build starts connected to the sandbox, under its
//! Content-Security-Policy and with its icons, is checked in
//! `navigation.rs`, with the header's links on the same board.)

use media_gen_e2e::{start_site, Browser, Network};

/// What a page shows at `DOMContentLoaded`, before its WebAssembly can have
/// started (the loader awaits the wasm's download): kept on `window`.
const RECORD_FIRST_PAINT: &str = "document.addEventListener('DOMContentLoaded', () => {\n\
       const state = document.getElementById('boot-state');\n\
       window.__firstPaint = {\n\
         state: state && state.checkVisibility() ? state.textContent : null,\n\
         links: [...document.querySelectorAll('header nav a')].map((a) => a.textContent),\n\
         app: document.querySelector('header .connection') !== null,\n\
       };\n\
     });";

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn the_header_and_a_loading_state_show_before_the_app_starts() {
    let site = start_site().await;
    let browser = Browser::start().await;
    browser.before_every_page(RECORD_FIRST_PAINT).await;
    // A slow line (1.6 Mbit/s), as the loading state is for.
    browser.emulate_network(Network::SLOW_4G).await;
    browser.open(&format!("{}/", site.base_url)).await;
    browser
        .wait_for_text("header .connection", "Through this site")
        .await;
    let first = browser.eval("window.__firstPaint ?? null").await;
    assert_eq!(
        first,
        serde_json::json!({
            "state": "Loading the app…",
            "links": ["Tasks", "Image to video", "Video translation", "Image generation", "Settings"],
            "app": false,
        }),
        "what the page showed before its app started"
    );
    // Once started, the loading state is gone and one header remains.
    browser.wait_for_text("main h1", "Tasks").await;
    let shell = browser
        .eval("[document.getElementById('boot'), document.querySelectorAll('nav[aria-label=Main]').length]")
        .await;
    assert_eq!(shell, serde_json::json!([null, 1]));
    browser.close().await;
}

/// A copy of the release build without its WebAssembly: a page that cannot start.
fn build_without_wasm() -> tempfile::TempDir {
    media_gen_e2e::build_copy("no-wasm", |path| path.contains(".wasm")).0
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_page_that_cannot_start_says_so_instead_of_staying_blank() {
    let dir = build_without_wasm();
    let site = media_gen_e2e::start_site_serving(dir.path().to_owned(), 200).await;
    let browser = Browser::start().await;
    browser.open(&format!("{}/", site.base_url)).await;
    browser
        .wait_until(
            "the page to say it could not start",
            "document.getElementById('boot-failed')?.checkVisibility()",
        )
        .await;
    let said = browser
        .eval("document.getElementById('boot-failed').textContent")
        .await;
    let said = said.as_str().unwrap_or_default();
    assert!(said.contains("This page could not start."), "{said}");
    assert!(said.contains("Reload the page"), "{said}");
    // The loading state is gone, the header is there to go elsewhere.
    let shown = browser
        .eval("[document.getElementById('boot-state').checkVisibility(), document.querySelectorAll('header nav a').length]")
        .await;
    assert_eq!(shown, serde_json::json!([false, 5]));
    browser.screenshot("cannot-start").await;
    browser.close().await;
}
