//! The keystrokes people use without thinking, in the release build in real
//! headless Chromium: Enter in a field, Ctrl+Enter, the browser's Back while
//! the cursor is in a field. Each one used to leave the page dead behind the
//! panic banner (a field's handler running after its page was gone); each
//! test looks where a person would: the board with the new task, and no
//! banner, no error in the console.

use fantoccini::key::Key;
use media_gen_e2e::{start_site, Browser, Site, STORED_TASKS};

/// A form of each kind, filled in until it is valid, on `browser`.
async fn fill(browser: &Browser, site: &Site, kind: &str) {
    match kind {
        "image-to-video" => {
            browser
                .open_app_page(&site.base_url, "/new/image-to-video", "Image to video")
                .await;
            browser.click("#model-S").await;
            browser.type_into("#prompt", "Waves on a quiet beach").await;
            let frame = site.media("image/1K/16x9.png");
            browser.type_into("#image_url", &frame).await;
        }
        "image-generate" => {
            browser
                .open_app_page(&site.base_url, "/new/image-generate", "Image generation")
                .await;
            browser.type_into("#prompt", "A lighthouse at dawn").await;
            browser.type_into("#count", "1").await;
        }
        "video-translate" => {
            browser
                .open_app_page(&site.base_url, "/new/video-translate", "Video translation")
                .await;
            let video = site.media("video/landscape.mp4");
            browser.type_into("#video_url", &video).await;
            browser.type_into("#language-search", "fren").await;
            browser.click("#language-French").await;
            browser.type_into("#name", "keynote").await;
        }
        other => panic!("no form {other}"),
    }
    browser
        .wait_until(
            "a valid form",
            "!document.querySelector('#submit').disabled",
        )
        .await;
    browser.watch_for_errors().await;
}

/// Press `keys` in the field matching `css` (the cursor put there first),
/// then expect the board with one task more than `before`.
async fn submit_with_keys(browser: &Browser, css: &str, keys: &str, before: i64, what: &str) {
    let field = browser.find(css).await;
    field.click().await.expect("put the cursor in the field");
    field.send_keys(keys).await.expect("press the keys");
    browser.wait_for_text("main h1", "Tasks").await;
    browser
        .wait_until(
            "the new task on the board",
            &format!("{STORED_TASKS} > {before}"),
        )
        .await;
    browser.assert_still_working(what).await;
    // And the page still answers a person: a link to another page works.
    browser
        .click("nav[aria-label=Main] a[href='/settings']")
        .await;
    browser.wait_for_text("main h1", "Settings").await;
    browser.assert_still_working(what).await;
}

/// The tasks stored on this device now (a form page shows no rows).
async fn rows(browser: &Browser) -> i64 {
    browser.eval(STORED_TASKS).await.as_i64().unwrap_or(0)
}

/// Enter in a field (a URL field, a number field and a text field: one
/// per form), then Ctrl+Enter (in the prompt, a text area where Enter alone
/// is a new line, or a field) submits each form: the board shows the new
/// task, with no banner and no error, and a link to another page still
/// works. One site and browser for both: the count each submit is checked
/// against is read just before it.
#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn enter_in_a_field_and_ctrl_enter_submit_each_form_and_the_page_keeps_working() {
    let site = start_site().await;
    let browser = Browser::start().await;
    // Enter: a URL field, a number field and a text field, one per form.
    for (kind, field) in [
        ("image-to-video", "#image_url"),
        ("image-generate", "#count"),
        ("video-translate", "#name"),
    ] {
        fill(&browser, &site, kind).await;
        let before = rows(&browser).await;
        let what = format!("Enter in {field} of {kind}");
        submit_with_keys(&browser, field, &Key::Enter, before, &what).await;
    }
    // Ctrl+Enter: the prompt is a text area, where Enter alone is a new line.
    for (kind, field) in [
        ("image-to-video", "#prompt"),
        ("image-generate", "#prompt"),
        ("video-translate", "#video_url"),
    ] {
        fill(&browser, &site, kind).await;
        let before = rows(&browser).await;
        // WebDriver holds a modifier key down until the end of the keys.
        let keys = format!("{}{}", &*Key::Control, &*Key::Enter);
        let what = format!("Ctrl+Enter in {field} of {kind}");
        submit_with_keys(&browser, field, &keys, before, &what).await;
    }
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn back_while_typing_keeps_what_was_typed_out_of_harm() {
    let site = start_site().await;
    let browser = Browser::start().await;
    browser.open_app_page(&site.base_url, "/", "Tasks").await;
    browser.watch_for_errors().await;
    for (link, field, title) in [
        ("/new/image-generate", "#prompt", "Image generation"),
        ("/new/image-to-video", "#image_url", "Image to video"),
        ("/new/video-translate", "#name", "Video translation"),
        ("/settings", "#token", "Settings"),
    ] {
        browser
            .click(&format!("nav[aria-label=Main] a[href='{link}']"))
            .await;
        browser.wait_for_text("main h1", title).await;
        let input = browser.find(field).await;
        input.click().await.expect("put the cursor in the field");
        input.send_keys("half a thou").await.expect("type");
        // The cursor is still in the field when Back is pressed.
        browser.client.back().await.expect("Back");
        browser.wait_for_text("main h1", "Tasks").await;
        browser
            .assert_still_working(&format!("Back while typing in {field} on {link}"))
            .await;
        // Forward again: the page comes back working.
        browser.client.forward().await.expect("Forward");
        browser.wait_for_text("main h1", title).await;
        browser
            .assert_still_working(&format!("Forward to {link}"))
            .await;
        browser.client.back().await.expect("Back");
        browser.wait_for_text("main h1", "Tasks").await;
    }
    browser.close().await;
}
