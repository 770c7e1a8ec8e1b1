//! The release build of the app, served by the sandbox, in real headless Chromium.
//! (That each route opens directly is checked in `every_page.rs`.)

use media_gen_e2e::{start_site, Browser, Network};

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn release_app_starts_connected_to_the_sandbox() {
    let site = start_site().await;
    let base_url = &site.base_url;
    let browser = Browser::start().await;

    browser.open(&format!("{base_url}/")).await;
    // The wasm started and rendered (a broken build leaves an empty body).
    browser
        .wait_for_text("header .brand", "Media Generation")
        .await;
    browser.wait_for_text("main h1", "Tasks").await;
    // It goes through the site's gateway, with no token in the page.
    browser
        .wait_for_text("header .connection", "Through this site")
        .await;
    browser.screenshot("board").await;
    // It started under the page's Content-Security-Policy (the loader is
    // allowed by its hash, WebAssembly by 'wasm-unsafe-eval').
    let policy = browser
        .run_async("return (await fetch(location.href)).headers.get('content-security-policy');")
        .await;
    let policy = policy.as_str().expect("a Content-Security-Policy header");
    assert!(
        policy.contains("'wasm-unsafe-eval'") && policy.contains("'sha256-"),
        "{policy}"
    );

    // An icon for the tab, and favicon.ico for whatever asks for it.
    let icons = browser
        .run_async(
            "const icon = document.querySelector('link[rel=icon]'); \
             const read = async (url) => { const r = await fetch(url); \
               return [r.status, r.headers.get('content-type'), (await r.arrayBuffer()).byteLength > 0]; }; \
             return [await read(icon.href), await read('/favicon.ico')];",
        )
        .await;
    assert_eq!(
        icons,
        serde_json::json!([[200, "image/svg+xml", true], [200, "image/x-icon", true]])
    );

    browser.click("nav a[href='/settings']").await;
    browser.wait_for_text("main h1", "Settings").await;
    browser.screenshot("settings").await;
    browser.close().await;
}

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
