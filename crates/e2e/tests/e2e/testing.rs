//! The testing entry (`@media-gen/widgets/testing`) as a JavaScript
//! developer's tests use it, with no sandbox and no gateway running: a
//! Vite page built from the packed tarball, served by a plain static file
//! server, its requests to the service answered by the test service's
//! worker and model in the page; and the client entry on the test service
//! in Node, with no DOM. `cargo xtask test` packs, installs and builds
//! them first.

use std::time::Duration;

use media_gen_e2e::{npm_scratch_dir, serve_folder, Browser};
use serde_json::Value;

use crate::common::{DROP_FILE, MAKE_FILE};

/// The form's field labelled `label`, found as a person finds it: by the
/// text of its label, in the submit widget's shadow root.
fn field_by_label(label: &str) -> String {
    format!(
        "(() => {{ const root = document.querySelector('#submit').shadowRoot;
           const label = [...root.querySelectorAll('label')].find((l) => l.textContent.trim().startsWith('{label}'));
           return label && root.getElementById(label.htmlFor); }})()"
    )
}

/// Type `prompt` into the form and press its Submit button, once it may be.
async fn submit(browser: &Browser, prompt: &str) {
    browser
        .run_async(&format!(
            "const field = {field};
             field.value = {prompt:?};
             field.dispatchEvent(new Event('input', {{ bubbles: true }}));",
            field = field_by_label("Prompt"),
        ))
        .await;
    browser
        .wait_until(
            "the form to take the prompt",
            "!document.querySelector('#submit').shadowRoot.querySelector('#submit').disabled",
        )
        .await;
    browser
        .run_async("document.querySelector('#submit').shadowRoot.querySelector('#submit').click();")
        .await;
}

/// The status widget's text.
const STATUS_TEXT: &str = "document.querySelector('#status').shadowRoot?.textContent ?? ''";

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn a_page_on_the_test_service_submits_follows_and_fails_with_nothing_behind_it() {
    let dist = npm_scratch_dir().join("vite-testing").join("dist");
    let (base, asked) = serve_folder(dist).await;
    let browser = Browser::start().await;
    browser.open(&format!("{base}/index.html")).await;
    browser
        .wait_until(
            "the test service to start",
            "document.body.dataset.ready === 'true'",
        )
        .await;

    // A task to SUCCEEDED, its image shown: loaded from the test service.
    submit(&browser, "A lighthouse at dusk").await;
    browser
        .wait_until(
            "the finished image, loaded",
            "[...(document.querySelector('#status').shadowRoot?.querySelectorAll('.gallery img') ?? [])]
               .some((img) => img.complete && img.naturalWidth > 0)",
        )
        .await;
    let image = browser
        .eval("document.querySelector('#status').shadowRoot.querySelector('.gallery img').src")
        .await;
    assert!(
        image
            .as_str()
            .is_some_and(|src| src.starts_with("https://media-gen.test/")),
        "{image}"
    );

    // A failure the test chose, shown to the person.
    browser
        .eval("window.testService.next({ fail: 'The prompt was refused' })")
        .await;
    submit(&browser, "A second one").await;
    browser
        .wait_until(
            "the chosen failure, said",
            &format!("{STATUS_TEXT}.includes('The prompt was refused')"),
        )
        .await;

    // A 429 waited out as the client does: the submit goes through after
    // its Retry-After.
    browser
        .eval("window.testService.faults({ http_429: 1, retry_after_secs: 1, limit: 1 })")
        .await;
    submit(&browser, "After a wait").await;
    browser
        .wait_until(
            "the submit after the 429",
            "window.testService.submissions().length === 4",
        )
        .await;
    let prompts = browser
        .eval("window.testService.submissions().map((s) => s.body.prompt)")
        .await;
    assert_eq!(
        prompts,
        serde_json::json!([
            "A lighthouse at dusk",
            "A second one",
            "After a wait",
            "After a wait"
        ]),
        "each body as the service received it, the refused one and its retry"
    );

    // A picked file uploaded to the test service and used: dropped on the
    // reference images, sent as the service receives it, its bytes served.
    let hash = browser
        .run_async(&MAKE_FILE.replace("NAME", "a picked photo.png"))
        .await;
    browser
        .wait_until(
            "the reference images' file control",
            "document.querySelector('#submit').shadowRoot.querySelector('#references')?.closest('.file-target') != null",
        )
        .await;
    browser
        .run_async(&DROP_FILE.replace(
            "FIELD",
            "document.querySelector('#submit').shadowRoot.querySelector('#references')",
        ))
        .await;
    browser
        .wait_until(
            "the field to hold the upload's address",
            "document.querySelector('#submit').shadowRoot.querySelector('#references').value.includes('https://media-gen.test/uploads/')",
        )
        .await;
    submit(&browser, "From the picked photo").await;
    browser
        .wait_until(
            "the submit with the upload",
            "window.testService.submissions().length === 5",
        )
        .await;
    let uploaded = browser
        .run_async(
            "const url = window.testService.submissions()[4].body.reference_images[0];
             const bytes = await (await fetch(url)).arrayBuffer();
             const digest = await crypto.subtle.digest('SHA-256', bytes);
             return [url, [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')];",
        )
        .await;
    assert!(
        uploaded[0]
            .as_str()
            .is_some_and(|url| url.starts_with("https://media-gen.test/uploads/")),
        "{uploaded}"
    );
    assert_eq!(uploaded[1], hash, "the service holds the picked bytes");

    // Nothing left the page for the service: every request to its base URL
    // was answered by the worker, and the page's own server was asked for
    // the page's files only.
    let not_by_worker = browser
        .eval(
            "performance.getEntriesByType('resource')
               .filter((e) => new URL(e.name).host === 'media-gen.test' && e.workerStart === 0)
               .map((e) => e.name)",
        )
        .await;
    assert_eq!(not_by_worker, serde_json::json!([]), "answered in the page");
    let by_worker = browser
        .eval(
            "performance.getEntriesByType('resource')
               .filter((e) => new URL(e.name).host === 'media-gen.test').length",
        )
        .await;
    assert!(by_worker.as_u64() > Some(3), "{by_worker}");
    let paths = asked.lock().unwrap().clone();
    for path in &paths {
        let a_file = path == "/"
            || path == "/index.html"
            || path == "/favicon.ico"
            || path == "/media-gen-test-worker.js"
            || path.starts_with("/assets/");
        assert!(
            a_file,
            "only the page's files were asked of its server: {paths:?}"
        );
    }
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and Node: run through `cargo xtask test`"]
async fn the_client_entry_runs_on_the_test_service_in_node() {
    let output = tokio::process::Command::new("node")
        .arg("node-testing.mjs")
        .current_dir(npm_scratch_dir())
        .output();
    let output = tokio::time::timeout(Duration::from_secs(60), output)
        .await
        .expect("node within a minute")
        .expect("node runs");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let result: Value = serde_json::from_str(said.trim()).expect("one JSON line");
    assert_eq!(result["document"], "undefined", "no DOM: {result}");
    assert_eq!(
        result["succeeded"],
        serde_json::json!({ "status": "SUCCEEDED", "image": 200, "type": "image/png" }),
        "{result}"
    );
    assert_eq!(
        result["failed"],
        serde_json::json!({ "status": "FAILED", "message": "The prompt was refused" }),
        "{result}"
    );
    assert!(
        result["waited"].as_u64() >= Some(900),
        "the 429's Retry-After waited out: {result}"
    );
    assert_eq!(result["afterWait"], 1, "{result}");
    assert_eq!(
        result["advanced"],
        serde_json::json!(["PENDING", "SUCCEEDED"]),
        "service.advance moves the tasks' clock: {result}"
    );
    assert_eq!(
        (&result["invalid"]["kind"], &result["invalid"]["code"]),
        (&serde_json::json!("business"), &serde_json::json!(100001)),
        "image generation refuses in HTTP 200, as the document shows: {result}"
    );
    assert_eq!(
        result["submissions"],
        serde_json::json!([
            "A lighthouse at dusk",
            "A second one",
            "After a wait",
            "After a wait",
            "Under a moved clock",
            ""
        ]),
        "{result}"
    );
}

#[tokio::test]
#[ignore = "needs the packed npm package, Playwright's runner and Debian's Chromium: run through `cargo xtask test`"]
async fn the_readmes_playwright_examples_pass_as_written_against_the_testing_page() {
    let scratch = npm_scratch_dir();
    let specs: Vec<_> = std::fs::read_dir(scratch.join("playwright"))
        .expect("the README's specs, written by cargo xtask npm")
        .filter_map(Result::ok)
        .collect();
    assert!(!specs.is_empty(), "the README has a Playwright example");
    let (base, _) = serve_folder(scratch.join("vite-testing").join("dist")).await;
    let run = tokio::process::Command::new("node")
        .arg(scratch.join("node_modules/@playwright/test/cli.js"))
        .args(["test", "--config", "playwright.config.mjs"])
        .env("BASE_URL", &base)
        .env(
            "CHROMIUM",
            std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned()),
        )
        .current_dir(&scratch)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("Playwright within two minutes")
        .expect("Playwright runs");
    let said = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{said}");
    assert!(said.contains("2 passed"), "both examples ran: {said}");
}

/// The demo notice's text.
const DEMO_NOTICE: &str = "document.querySelector('aside[aria-label=Demo]')?.textContent ?? ''";

/// The page shows the demo notice (`on` says which page, for the message).
async fn assert_demo_notice(browser: &Browser, on: &str) {
    let said = browser.eval(DEMO_NOTICE).await;
    assert!(
        said.as_str()
            .is_some_and(|text| text.contains("This is a demo")),
        "{on}: {said}"
    );
}

#[tokio::test]
#[ignore = "needs the demo (cargo xtask dist --demo) and ChromeDriver: run through `cargo xtask test`"]
async fn the_demo_runs_the_app_on_a_plain_static_server_and_says_it_is_a_demo() {
    let demo = media_gen_e2e::workspace_root().join("target").join("demo");
    let (base, asked) = serve_folder(demo).await;
    let browser = Browser::start().await;
    browser.open(&format!("{base}/")).await;
    browser.wait_for_text("main h1", "Tasks").await;
    let said = browser.eval(DEMO_NOTICE).await;
    assert!(
        said.as_str()
            .is_some_and(|text| text.contains("This is a demo")
                && text.contains("nothing you enter is sent anywhere")),
        "{said}"
    );
    browser.check_accessibility("the demo's board").await;

    // A form, a task to SUCCEEDED on the board, as on a site with a gateway.
    browser
        .click("nav[aria-label=Main] a[href='/new/image-generate']")
        .await;
    browser.wait_for_text("main h1", "Image generation").await;
    assert_demo_notice(&browser, "the notice on the form's page too").await;
    browser.type_into("#prompt", "A lighthouse at dusk").await;
    browser.submit_and_wait("SUCCEEDED").await;
    assert_demo_notice(&browser, "the notice on the board after the submit").await;

    // The task's page, its image loaded from the service in the page.
    browser.click("li.task-row a.open").await;
    browser
        .wait_until(
            "the task's image, loaded",
            "[...document.querySelectorAll('main img')].some((img) => img.complete && img.naturalWidth > 0)",
        )
        .await;
    assert_demo_notice(&browser, "the notice on the task's page").await;

    // A picked file, uploaded to the service in the page and used as a
    // video's start frame: its bytes are there to fetch.
    browser
        .click("nav[aria-label=Main] a[href='/new/image-to-video']")
        .await;
    browser.wait_for_text("main h1", "Image to video").await;
    let picked = media_gen_e2e::test_folder("demo-picked");
    let file = picked.path().join("lighthouse.png");
    let bytes = crate::file_fields::write_png(&file, 7);
    browser.find("#image_url-choose").await;
    crate::file_fields::choose(&browser, "#image_url-file", &file.to_string_lossy()).await;
    browser
        .wait_until(
            "the start frame's uploaded address",
            &format!("document.querySelector('#image_url').value.startsWith('{base}/uploads/')"),
        )
        .await;
    let served = browser
        .run_async(
            "const answer = await fetch(document.querySelector('#image_url').value);
             return (await answer.arrayBuffer()).byteLength;",
        )
        .await;
    assert_eq!(
        served,
        bytes.len(),
        "the service in the page holds the picked file"
    );
    assert_demo_notice(&browser, "the notice on the form with an upload").await;

    // At a phone's width: nothing wider than the screen, the notice kept.
    browser.resize(360, 800).await;
    assert_eq!(
        browser.sideways_overflow().await,
        0,
        "nothing sideways at 360 px"
    );
    browser
        .check_accessibility("the demo's board at 360 px")
        .await;

    // The service's calls never reached the static server: the worker and
    // the page answered them.
    let paths = asked.lock().unwrap().clone();
    let served = ["/v1/", "/capabilities", "/uploads/", "/sandbox/"];
    assert!(
        !paths
            .iter()
            .any(|path| served.iter().any(|prefix| path.starts_with(prefix))),
        "{paths:?}"
    );
    browser.close().await;
}
