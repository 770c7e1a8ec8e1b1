//! The app on a phone and the compare flow, measured where a person looks,
//! in the release build in real headless Chromium: the header's height at
//! 390 × 844 and its menu, 24 px touch targets apart from their labels, no
//! keyboard hints on a phone, "Compare the two chosen" in view while rows
//! far down are ticked, and the overlay as wide as the panels; a request
//! tried on every model, what changed for each said, the first two
//! compared.

use media_gen_e2e::session;

/// Every checkbox and radio in the page: [id, width, height, gap to its
/// label's words] (CSS px).
const TARGETS: &str = "[...document.querySelectorAll('main input[type=checkbox], main input[type=radio]')]\n\
    .filter((input) => input.checkVisibility())\n\
    .map((input) => {\n\
      const box = input.getBoundingClientRect();\n\
      const label = input.closest('label') || document.querySelector(`label[for='${input.id}']`);\n\
      const words = label && [...label.childNodes].find((node) => node.nodeType === 3 && node.textContent.trim() || node.nodeType === 1 && node !== input && node.textContent.trim());\n\
      let gap = null;\n\
      if (words) { const range = document.createRange(); range.selectNodeContents(words); gap = range.getBoundingClientRect().left - box.right; }\n\
      return [input.id, box.width, box.height, gap];\n\
    })";

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_phone_gets_a_compact_header_big_targets_and_no_keyboard_hints() {
    let (site, browser) = session("/new/video-translate", "Video translation").await;
    // On a desktop the keyboard hints are there.
    let shown = "[document.querySelector('#shortcuts-open').checkVisibility(), \
                 document.querySelector('#submit-state .keyboard-only')?.checkVisibility() ?? null]";
    browser
        .type_into("#video_url", &site.media("video/landscape.mp4"))
        .await;
    browser.type_into("#language-search", "fren").await;
    browser.click("#language-French").await;
    browser
        .wait_until(
            "a valid form",
            "!document.querySelector('#submit').disabled",
        )
        .await;
    assert_eq!(browser.eval(shown).await, serde_json::json!([true, true]));

    browser.resize(390, 844).await;
    browser.watch_for_errors().await;
    assert_eq!(
        browser.eval(shown).await,
        serde_json::json!([false, false]),
        "no keyboard hints on a phone"
    );
    let header = browser
        .eval("document.querySelector('header.site-header').getBoundingClientRect().height")
        .await
        .as_f64()
        .unwrap_or(f64::MAX);
    browser.screenshot("phone-header").await;
    assert!(header <= 64.0, "the phone's header is {header} px high");

    // Every checkbox and radio: 24 px at least, not touching its words.
    browser.type_into("#language-search", "e").await;
    let targets: Vec<(String, f64, f64, Option<f64>)> =
        serde_json::from_value(browser.eval(TARGETS).await).expect("targets");
    assert!(targets.len() > 10, "{targets:?}");
    for (id, width, height, gap) in &targets {
        assert!(
            *width >= 24.0 && *height >= 24.0,
            "{id}: {width} × {height}"
        );
        assert!(
            gap.is_none_or(|gap| gap >= 4.0),
            "{id} touches its label: {gap:?}"
        );
    }

    // The menu: folded, opened, followed, folded again.
    let nav_shown = "document.querySelector('nav[aria-label=Main]').checkVisibility()";
    assert_eq!(browser.eval(nav_shown).await, serde_json::json!(false));
    browser.click("#menu-toggle").await;
    assert_eq!(
        browser
            .eval("document.getElementById('menu-toggle').getAttribute('aria-expanded')")
            .await,
        serde_json::json!("true")
    );
    browser.check_accessibility("the phone's open menu").await;
    browser
        .click("nav[aria-label=Main] a[href='/settings']")
        .await;
    browser.wait_for_address("/settings").await;
    browser.wait_for_text("main h1", "Settings").await;
    browser
        .wait_until("the menu to fold", &format!("!{nav_shown}"))
        .await;
    browser.assert_still_working("the phone's menu").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn compare_stays_in_view_and_the_overlay_is_as_wide_as_the_panels() {
    let (_site, browser) = session("/new/image-generate", "Image generation").await;
    browser.type_into("#prompt", "A row of lighthouses").await;
    browser.type_into("#count", "8").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser
        .wait_until(
            "every image",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 8",
        )
        .await;
    // The last two rows, far below the top of the list (the request's row
    // opened to its tasks).
    browser.click("li.task-group summary").await;
    browser
        .click("li.task-row:nth-last-child(2) .compare-pick__box")
        .await;
    browser
        .click("li.task-row:nth-last-child(1) .compare-pick__box")
        .await;
    let in_view = browser
        .eval("(() => { const r = document.getElementById('compare-link').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && scrollY > 0; })()")
        .await;
    assert_eq!(
        in_view,
        serde_json::json!(true),
        "the compare link, in view far down"
    );
    browser.screenshot("compare-in-view").await;
    browser.click("#compare-link").await;
    browser.wait_for_text("main h1", "Compare").await;
    browser
        .wait_until(
            "the images",
            "document.querySelector('.compare-slider__under').naturalWidth > 0",
        )
        .await;
    let widths = browser
        .eval("(() => { const slider = document.querySelector('.compare-slider').getBoundingClientRect(); \
               const pair = document.querySelector('.compare-pair').getBoundingClientRect(); \
               const under = document.querySelector('.compare-slider__under').getBoundingClientRect(); \
               const b = [...document.querySelectorAll('.compare-slider__tag')].find((t) => t.textContent === 'B').getBoundingClientRect(); \
               return [Math.round(slider.width - pair.width), b.right <= under.right && b.left >= under.left && b.bottom <= under.bottom]; })()")
        .await;
    assert_eq!(
        widths,
        serde_json::json!([0, true]),
        "overlay width against the panels', B on its image"
    );
    browser.screenshot("compare-overlay").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn every_model_is_tried_with_what_changed_said_and_the_first_two_compared() {
    let (site, browser) = session("/new/image-to-video", "Image to video").await;
    browser.watch_for_errors().await;
    browser.type_into("#prompt", "A lighthouse at dusk").await;
    browser
        .type_into("#image_url", &site.media("image/1K/16x9.png"))
        .await;
    browser.choose("#aspect_resolution", "1080p").await;
    browser.choose("#duration", "8").await;
    browser
        .wait_until(
            "the form valid, so every model can be tried",
            "!document.querySelector('#every-model').disabled",
        )
        .await;
    // Where a person clicks once the frame's preview has come and the
    // page stands still (the preview moves what is under it).
    browser
        .wait_until(
            "the page still",
            "[...document.images].every((image) => image.complete) && (() => { \
               const y = document.querySelector('#every-model').getBoundingClientRect().top + scrollY; \
               const still = window.everyModelAt === y; window.everyModelAt = y; return still; })()",
        )
        .await;
    browser.click("#every-model").await;
    let plan = browser
        .eval("[...document.querySelectorAll('#every-model-plan li')].map((li) => li.textContent)")
        .await;
    assert_eq!(
        plan,
        serde_json::json!([
            "V: as asked",
            "KL: needs reference images: your start frame is used as one; 10 s, not 8: KL makes 5 or 10 s videos",
            "S: 720p, not 1080p: S makes 720p",
        ]),
        "each model's version, what changed said"
    );
    browser
        .wait_for_text("#every-model-cost", "Creates 3 tasks")
        .await;
    browser.check_accessibility("every model's plan").await;
    browser.click("#every-model-submit").await;
    browser
        .wait_until(
            "the compare page",
            "location.pathname.endsWith('/compare') && location.search.startsWith('?a=')",
        )
        .await;
    browser
        .wait_until(
            "both videos side by side",
            "document.querySelectorAll('.compare-pair video').length === 2",
        )
        .await;
    browser.screenshot("compare-every-model").await;
    browser
        .assert_still_working("every model tried and compared")
        .await;
    browser.close().await;
}
