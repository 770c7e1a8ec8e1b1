//! What the forms and the settings owe a first-time user, in the release
//! build in real headless Chromium through the gateway: a token that cannot
//! apply is said to be unused, a callback URL is an advanced choice with no
//! sandbox inbox on a real deployment, invalid input is blocked with the
//! field's message, and std/pro say what they are. (A portrait start frame
//! for a landscape video being pointed out is checked in `images.rs`.) The
//! settings page's test also checks, first, that "Skip to content" keeps
//! the address (moved here from `navigation.rs`, to open the page once).

use media_gen_e2e::session;

/// On the settings page: "Skip to content" (Enter on it, as a keyboard user
/// does) stays on the page, the address unchanged but for `#main`; then a
/// token typed while the site's own gateway is used is said to be unused
/// and is not sent, applies once another address is set, and "Use this
/// site again" goes back to the site.
#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn skip_to_content_stays_on_the_page_and_a_token_typed_for_the_sites_gateway_is_said_to_be_unused(
) {
    let (site, browser) = session("/settings?x=1", "Settings").await;

    // "Skip to content": tab to it and Enter, as a keyboard user does.
    let link = browser.find("a.skip-link").await;
    link.send_keys("\u{E007}").await.expect("press Enter");
    browser
        .wait_until("the address names #main", "location.hash === '#main'")
        .await;
    assert_eq!(browser.address().await, "/settings?x=1", "the page stayed");
    browser.wait_for_text("main h1", "Settings").await;

    // A token typed for the site's gateway is said to be unused.
    browser.watch_for_errors().await;
    assert_eq!(
        browser
            .eval("document.getElementById('token-unused')")
            .await,
        serde_json::Value::Null
    );
    browser.type_into("#token", "my-own-token").await;
    // Leaving the field commits it.
    browser.click("#settings-title").await;
    let said = browser.find("#token-unused").await;
    let said = said.text().await.expect("its text");
    assert!(said.starts_with("The token above is not used"), "{said}");
    // The header does not claim a token, and the page sends none.
    browser
        .wait_for_text("header .connection", "Through this site")
        .await;
    let sent = browser
        .run_async(
            "const seen = [];\n\
             const original = window.fetch;\n\
             window.fetch = (input, init) => {\n\
               const url = String(input instanceof Request ? input.url : input);\n\
               // The app's chunks, fetched when the page is idle, are no call.\n\
               if (!/\\.(wasm|js)(\\?|$)/.test(url)) seen.push(new Headers((init || {}).headers || (input instanceof Request ? input.headers : {})).get('authorization'));\n\
               return original(input, init);\n\
             };\n\
             document.getElementById('test-connection').click();\n\
             for (let i = 0; i < 100 && !/Connected|failed|refused/i.test(document.getElementById('check-result').textContent); i++) await new Promise((r) => setTimeout(r, 50));\n\
             window.fetch = original;\n\
             return [document.getElementById('check-result').textContent, seen];",
        )
        .await;
    assert_eq!(
        sent[1],
        serde_json::json!([null]),
        "no token to the site: {sent}"
    );

    // Another address: the token applies; "Use this site again" goes back.
    assert_eq!(
        browser
            .eval("document.getElementById('use-this-site')")
            .await,
        serde_json::Value::Null
    );
    browser.type_into("#base-url", &site.sandbox_url).await;
    browser.click("#settings-title").await;
    browser
        .wait_for_text("header .connection", "Token set")
        .await;
    assert_eq!(
        browser
            .eval("document.getElementById('token-unused')")
            .await,
        serde_json::Value::Null
    );
    browser.click("#use-this-site").await;
    browser
        .wait_for_text("header .connection", "Through this site")
        .await;
    let base = browser
        .eval("document.getElementById('base-url').value")
        .await;
    assert_eq!(base, serde_json::json!(site.base_url));
    browser.find("#token-unused").await;
    browser.assert_still_working("the settings").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn the_image_form_folds_its_callback_blocks_invalid_input_and_says_what_std_and_pro_are() {
    let (_site, browser) = session("/new/image-generate", "Image generation").await;
    browser.watch_for_errors().await;
    // Folded away, and saying what a callback URL of one's own means.
    let visible = browser
        .eval("document.getElementById('callback_url').checkVisibility()")
        .await;
    assert_eq!(visible, serde_json::json!(false));
    browser.click("details.advanced summary").await;
    let hint = browser.find("#callback_url-hint").await;
    let hint = hint.text().await.expect("its text");
    assert!(
        hint.contains("reads the task's status itself instead of hearing of its end"),
        "{hint}"
    );
    // The site's gateway is no sandbox: the page asked, and offers no inbox.
    browser
        .wait_until(
            "the page to have asked the site",
            "performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === '/capabilities')",
        )
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        browser.eval("document.getElementById('use-inbox')").await,
        serde_json::Value::Null
    );
    assert!(!hint.contains("sandbox"), "{hint}");
    browser.assert_still_working("the advanced section").await;
    // Folded again, as the form is first shown (the screenshot below).
    browser.click("details.advanced summary").await;

    // Invalid input is blocked with the field's message.
    browser.type_into("#prompt", "Fine prompt").await;
    browser.type_into("#count", "9").await;
    // Nothing is shown while typing; leaving the field (Tab) shows its rule.
    browser
        .wait_for_text("#submit-state", "Fix 1 problem to submit")
        .await;
    let count = browser.find("#count").await;
    count.send_keys("\u{E004}").await.expect("press Tab");
    browser
        .wait_for_text(
            "#generate_count-problems li",
            "Make 1 to 8 images at a time (not 9)",
        )
        .await;
    let disabled = browser
        .eval("document.querySelector('#submit').disabled")
        .await;
    assert_eq!(disabled, serde_json::Value::Bool(true));
    // Ctrl+Enter does not get past the rule either.
    let prompt = browser.find("#prompt").await;
    prompt
        .send_keys("\u{E009}\u{E007}\u{E000}")
        .await
        .expect("press Ctrl+Enter");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    browser.wait_for_text("main h1", "Image generation").await;
    let created = browser
        .eval("JSON.stringify(Object.keys(localStorage).filter(k => k.startsWith('media-gen.task:')))")
        .await;
    assert_eq!(created, serde_json::json!("[]"), "nothing was submitted");
    browser.screenshot("form-invalid").await;

    // std and pro say what they are where they are chosen.
    browser
        .wait_for_text(
            "#module-hint",
            "std: the standard model, the service's default.",
        )
        .await;
    browser.choose("#module", "pro").await;
    browser
        .wait_for_text(
            "#module-hint",
            "pro: the professional model, for more detailed images than std.",
        )
        .await;
    browser.close().await;
}
