//! The address bar follows the app, in the release build in real headless
//! Chromium: every link and navigation writes the address, reload shows the
//! same page, Back and Forward walk the pages seen, and an address opened
//! in a fresh tab or browser shows its page. The header's links are walked
//! from the board the release build first starts on, where its start (the
//! sandbox through the gateway, the Content-Security-Policy, the icons) is
//! checked too, moved here from `app_shell.rs`. (That "Skip to content"
//! stays on the page is checked in `guidance.rs`, on the settings page its
//! token test opens.)

use media_gen_e2e::{start_site, Browser};

/// The heading of the page at each link of the header's navigation.
const HEADER_LINKS: [(&str, &str); 5] = [
    ("/new/image-to-video", "Image to video"),
    ("/new/video-translate", "Video translation"),
    ("/new/image-generate", "Image generation"),
    ("/settings", "Settings"),
    ("/", "Tasks"),
];

/// Submit an image generation from its form and wait for it on the board;
/// returns the task id.
async fn submit_image(browser: &Browser, base_url: &str, prompt: &str) -> String {
    browser
        .open_app_page(base_url, "/new/image-generate", "Image generation")
        .await;
    browser.type_into("#prompt", prompt).await;
    browser.submit_and_wait("SUCCEEDED").await;
    let id = browser
        .eval("document.querySelector('li.task-row').dataset.taskId")
        .await;
    id.as_str().expect("a task id").to_owned()
}

/// The release build, served by the sandbox through the site's gateway,
/// starts connected on the board (the wasm rendered, no token in the
/// page) under its Content-Security-Policy, with an icon for the tab and
/// favicon.ico (moved here from `app_shell.rs`, to open the board once);
/// then the header's links write the address, one history entry each,
/// reload shows the page the address names, Back and Forward walk the
/// pages seen, and the brand, the connection state and the kinds offered
/// on an empty board are links too.
#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn release_app_starts_connected_and_header_links_write_the_address_and_back_and_forward_walk_it(
) {
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

    // The header's links, from the board (the fetches above made no
    // history entry).
    let start_length = browser.eval("history.length").await;

    for (path, title) in HEADER_LINKS {
        browser
            .click(&format!("nav[aria-label=Main] a[href='{path}']"))
            .await;
        browser.wait_for_text("main h1", title).await;
        browser.wait_for_address(path).await;
        if path == "/settings" {
            browser.screenshot("settings").await;
        }
    }
    let length = browser.eval("history.length").await;
    assert_eq!(
        length.as_i64(),
        start_length.as_i64().map(|n| n + 5),
        "one history entry per page"
    );

    // Reload shows the page the address names.
    browser
        .click("nav[aria-label=Main] a[href='/new/video-translate']")
        .await;
    browser.wait_for_address("/new/video-translate").await;
    browser.reload().await;
    browser.wait_for_text("main h1", "Video translation").await;

    // Back walks the pages seen, newest first; Forward walks them again.
    browser.client.back().await.expect("back");
    browser.wait_for_address("/").await;
    browser.wait_for_text("main h1", "Tasks").await;
    browser.client.back().await.expect("back");
    browser.wait_for_address("/settings").await;
    browser.wait_for_text("main h1", "Settings").await;
    browser.client.forward().await.expect("forward");
    browser.wait_for_address("/").await;
    browser.wait_for_text("main h1", "Tasks").await;

    // The brand and the connection state are links too; Enter follows one.
    browser.click("header .connection").await;
    browser.wait_for_address("/settings").await;
    browser.wait_for_text("main h1", "Settings").await;
    let brand = browser.find("header .brand").await;
    brand.send_keys("\u{E007}").await.expect("press Enter");
    browser.wait_for_address("/").await;
    browser.wait_for_text("main h1", "Tasks").await;

    // The kinds offered on an empty board.
    browser
        .click(".kind-cards a[href='/new/image-generate']")
        .await;
    browser.wait_for_address("/new/image-generate").await;
    browser.wait_for_text("main h1", "Image generation").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_task_opened_from_the_board_has_an_address_to_reload_and_share() {
    let site = start_site().await;
    let base_url = &site.base_url;
    let browser = Browser::start().await;
    let id = submit_image(&browser, base_url, "A lighthouse at dawn").await;
    // Submitting went to the board, and said so in the address.
    browser.wait_for_address("/").await;
    let task_path = format!("/tasks/image_generate/{id}");

    browser.click("li.task-row a.open").await;
    browser.wait_for_address(&task_path).await;
    browser.wait_for_text("#task-id", &id).await;
    browser.reload().await;
    browser.wait_for_text("main h1", "Image generation").await;
    browser.wait_for_text("#task-id", &id).await;
    browser.wait_for_text(".facts dt", "Submitted").await;

    browser.client.back().await.expect("back");
    browser.wait_for_address("/").await;
    browser.wait_for_text("main h1", "Tasks").await;
    browser.client.forward().await.expect("forward");
    browser.wait_for_address(&task_path).await;
    browser.wait_for_text("#task-id", &id).await;

    // Esc leaves for the board, and the address says so.
    browser
        .run_async("document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));")
        .await;
    browser.wait_for_address("/").await;

    // The kind link on the row goes to the same address.
    browser.click("li.task-row a.task-row__kind").await;
    browser.wait_for_address(&task_path).await;

    // The same address in a new tab of this browser: the task from the board.
    let first = browser.client.window().await.expect("this tab");
    let tab = browser.new_tab().await;
    browser
        .client
        .switch_to_window(tab)
        .await
        .expect("switch tabs");
    browser.open(&format!("{base_url}{task_path}")).await;
    browser.wait_for_text("#task-id", &id).await;
    browser.wait_for_text(".facts dt", "Submitted").await;
    browser
        .client
        .switch_to_window(first)
        .await
        .expect("switch back");

    // In another browser, with nothing stored: looked up, and first seen now.
    let other = Browser::start().await;
    other.open(&format!("{base_url}{task_path}")).await;
    other.wait_for_text("main h1", "Image generation").await;
    other.wait_for_text("#task-id", &id).await;
    other.wait_for_text(".facts dt", "First seen").await;
    other.wait_for_address(&task_path).await;
    other.close().await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn queries_and_other_spellings_behave() {
    let site = start_site().await;
    let base_url = &site.base_url;
    let browser = Browser::start().await;
    let id = submit_image(&browser, base_url, "Edit me").await;

    // Edit and re-run: the form filled in, under an address of its own.
    browser.click("li.task-row a.edit").await;
    browser
        .wait_for_address(&format!("/new/image-generate?from={id}"))
        .await;
    browser
        .wait_for_text(
            "#filled-from",
            &format!("Filled in from task {id}: change what you like and submit."),
        )
        .await;
    let prompt = browser
        .eval("document.querySelector('#prompt').value")
        .await;
    assert_eq!(prompt, "Edit me");

    // The same form from the navigation: empty, and the query gone.
    browser
        .click("nav[aria-label=Main] a[href='/new/image-generate']")
        .await;
    browser.wait_for_address("/new/image-generate").await;
    browser
        .wait_until(
            "an empty form",
            "document.querySelector('#prompt').value === '' && !document.querySelector('#filled-from')",
        )
        .await;
    // Back: filled in again.
    browser.client.back().await.expect("back");
    browser
        .wait_for_address(&format!("/new/image-generate?from={id}"))
        .await;
    browser
        .wait_until(
            "the filled-in form",
            "document.querySelector('#prompt').value === 'Edit me'",
        )
        .await;

    // The board's filters live in its address: reload and Back keep them.
    browser.click("nav[aria-label=Main] a[href='/']").await;
    browser.wait_for_address("/").await;
    browser.choose("#filter-status", "succeeded").await;
    browser.type_into("#filter-text", "Edit me").await;
    browser
        .wait_for_address("/?status=succeeded&q=Edit%20me")
        .await;
    browser.reload().await;
    browser.wait_for_text("main h1", "Tasks").await;
    let kept = browser
        .eval("[document.querySelector('#filter-status').value, document.querySelector('#filter-text').value]")
        .await;
    assert_eq!(kept, serde_json::json!(["succeeded", "Edit me"]));
    browser.click("li.task-row a.open").await;
    browser
        .wait_for_address(&format!("/tasks/image_generate/{id}"))
        .await;
    browser.client.back().await.expect("back");
    browser
        .wait_for_address("/?status=succeeded&q=Edit%20me")
        .await;
    browser
        .wait_until(
            "the filters kept",
            "document.querySelector('#filter-text').value === 'Edit me'",
        )
        .await;
    // "Tasks" in the header is the whole board again.
    browser.click("nav[aria-label=Main] a[href='/']").await;
    browser.wait_for_address("/").await;
    browser
        .wait_until(
            "the filters cleared",
            "document.querySelector('#filter-text').value === '' && document.querySelector('#filter-status').value === 'all'",
        )
        .await;

    // "Look up a task" writes the task's address.
    browser.choose("#lookup-kind", "image_generate").await;
    browser.type_into("#lookup-id", &id).await;
    browser.click("#lookup button[type=submit]").await;
    browser
        .wait_for_address(&format!("/tasks/image_generate/{id}"))
        .await;

    // The service's spelling of a kind, or a trailing slash, opens the page
    // and the address is replaced by the app's own (no extra history entry).
    let length = browser.eval("history.length").await;
    browser
        .open(&format!("{base_url}/new/image_generate"))
        .await;
    browser.wait_for_text("main h1", "Image generation").await;
    browser.wait_for_address("/new/image-generate").await;
    browser
        .open(&format!("{base_url}/tasks/image-generate/{id}/"))
        .await;
    browser.wait_for_text("#task-id", &id).await;
    browser
        .wait_for_address(&format!("/tasks/image_generate/{id}"))
        .await;
    let after = browser.eval("history.length").await;
    assert_eq!(
        after.as_i64(),
        length.as_i64().map(|n| n + 2),
        "two pages opened, no entry for the replaced spellings"
    );
    browser.close().await;
}
