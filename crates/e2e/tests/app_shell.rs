//! The release build of the app, served by the sandbox, in real headless Chromium.

use media_gen_e2e::{start_site, Browser};

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

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn app_routes_open_directly() {
    let site = start_site().await;
    let base_url = &site.base_url;
    let browser = Browser::start().await;
    for (path, title) in [
        ("/new/image-to-video", "Image to video"),
        ("/new/video-translate", "Video translation"),
        ("/new/image-generate", "Image generation"),
        ("/settings", "Settings"),
        (
            "/tasks/image_generate/i2is-typed-by-hand",
            "Image generation",
        ),
        ("/no/such/page", "Page not found"),
    ] {
        browser.open(&format!("{base_url}{path}")).await;
        browser.wait_for_text("main h1", title).await;
    }
    browser.screenshot("not-found").await;
    browser.close().await;
}
