//! Every page of the release build as people meet it: each route opens
//! directly, axe-core finds no serious or critical accessibility violation
//! (and does find a name that hides the visible text), nothing scrolls
//! sideways on a 360 px phone, and the floating shortcuts link covers no
//! control.

use fantoccini::key::Key;
use media_gen_e2e::{start_site_with_task_ms, Browser};

/// A phone's width, in CSS pixels: the narrowest common one.
const PHONE_WIDTH: u32 = 360;

/// The controls in the page that the shortcuts link overlaps, at any scroll
/// position (scrolled half a window at a time, then back to the top).
const COVERED_CONTROLS: &str = "(() => {
  const link = document.querySelector('#shortcuts-open');
  const hits = new Set();
  const controls = [...document.querySelectorAll('main input, main select, main textarea, main button, main a, main video')];
  for (let y = 0; y <= document.documentElement.scrollHeight; y += innerHeight / 2) {
    scrollTo(0, y);
    const r = link.getBoundingClientRect();
    for (const c of controls) {
      const q = c.getBoundingClientRect();
      if (q.width && q.height && q.left < r.right && r.left < q.right && q.top < r.bottom && r.top < q.bottom) {
        hits.add(c.id || c.className || c.tagName);
      }
    }
  }
  scrollTo(0, 0);
  return [...hits];
})()";

/// Check the page as it is now: accessibility at desktop width, then
/// sideways scrolling and covered controls at phone width (with a
/// screenshot `phone-<name>`), and back.
async fn check_page(browser: &Browser, name: &str) {
    browser.check_accessibility(name).await;
    browser
        .client
        .set_window_size(PHONE_WIDTH, 780)
        .await
        .expect("resize to a phone");
    browser
        .wait_until(
            "the phone's width",
            &format!("document.documentElement.clientWidth <= {PHONE_WIDTH}"),
        )
        .await;
    let overflow = browser.sideways_overflow().await;
    let wide = browser
        .eval(
            "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 5).map((e) => e.tagName + '.' + e.className + '#' + e.id)",
        )
        .await;
    assert_eq!(
        overflow, 0,
        "{name} scrolls sideways at {PHONE_WIDTH} px: {wide}"
    );
    let covered = browser.eval(COVERED_CONTROLS).await;
    assert_eq!(
        covered,
        serde_json::json!([]),
        "the shortcuts link covers controls on {name}"
    );
    browser.screenshot(&format!("phone-{name}")).await;
    browser
        .client
        .set_window_size(1280, 800)
        .await
        .expect("resize back");
    // The layout of the wide window before anything is clicked: a control
    // only a keyboard needs is hidden at phone width.
    browser
        .wait_until(
            "the desktop width",
            "document.documentElement.clientWidth > 1000",
        )
        .await;
}

/// Wait for the page at `path`, opened by the address bar, with `title`.
async fn visit(browser: &Browser, base_url: &str, path: &str, title: &str) {
    browser.open(&format!("{base_url}{path}")).await;
    browser.wait_for_text("main h1", title).await;
}

/// Every route opens directly from the address bar with its heading; every
/// page passes axe-core, fits a phone and keeps its controls uncovered;
/// and the accessibility check itself finds a name that hides the visible
/// text.
#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn every_page_is_accessible_and_fits_a_phone() {
    let site = start_site_with_task_ms(500).await;
    let base_url = &site.base_url;
    let browser = Browser::start().await;

    browser.open_app_page(base_url, "/", "Tasks").await;
    check_page(&browser, "board-empty").await;
    for (path, title, name) in [
        (
            "/new/image-to-video",
            "Image to video",
            "form-image-to-video",
        ),
        (
            "/new/video-translate",
            "Video translation",
            "form-video-translate",
        ),
        (
            "/new/image-generate",
            "Image generation",
            "form-image-generate",
        ),
    ] {
        visit(&browser, base_url, path, title).await;
        check_page(&browser, name).await;
        // With every problem shown.
        browser.click("#show-problems").await;
        browser.find(".problem--error").await;
        check_page(&browser, &format!("{name}-problems")).await;
    }
    visit(&browser, base_url, "/settings", "Settings").await;
    check_page(&browser, "settings").await;
    // A task's address typed by hand opens its kind's page too.
    visit(
        &browser,
        base_url,
        "/tasks/image_generate/i2is-typed-by-hand",
        "Image generation",
    )
    .await;
    visit(&browser, base_url, "/no/such/page", "Page not found").await;
    browser.screenshot("not-found").await;
    check_page(&browser, "not-found").await;

    // A task of each kind, then the board and their pages.
    visit(
        &browser,
        base_url,
        "/new/image-generate",
        "Image generation",
    )
    .await;
    browser
        .type_into("#prompt", "Two lighthouses at dawn, one each side of a bay")
        .await;
    browser.type_into("#count", "2").await;
    browser.submit_and_wait("SUCCEEDED").await;
    visit(&browser, base_url, "/new/image-to-video", "Image to video").await;
    browser.click("#model-S").await;
    browser.type_into("#prompt", "Waves on a quiet beach").await;
    browser
        .type_into("#image_url", &site.media("image/1K/16x9.png"))
        .await;
    browser.submit_and_wait("SUCCEEDED").await;
    visit(
        &browser,
        base_url,
        "/new/video-translate",
        "Video translation",
    )
    .await;
    browser
        .type_into("#video_url", &site.media("video/landscape.mp4"))
        .await;
    browser.type_into("#language-search", "fren").await;
    browser.click("#language-French").await;
    browser.click("#enable_caption").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser
        .wait_until(
            "four tasks done",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 4",
        )
        .await;
    // Every row says what it was asked for, whatever its kind.
    let summaries = browser
        .eval("[...document.querySelectorAll('li.task-row .task-row__summary')].map((p) => p.textContent)")
        .await;
    let summaries: Vec<String> = serde_json::from_value(summaries).expect("texts");
    let count = |text: &str| summaries.iter().filter(|s| *s == text).count();
    assert_eq!(summaries.len(), 4, "{summaries:?}");
    assert_eq!(count("Two lighthouses at dawn, one each side of a bay"), 2);
    assert_eq!(count("Waves on a quiet beach"), 1);
    assert!(
        summaries.iter().any(|s| s.starts_with("French-")),
        "the translation's name: {summaries:?}"
    );
    check_page(&browser, "board").await;

    for kind in ["image_generate", "image_to_video", "video_translate"] {
        browser.click(&format!("li[data-kind={kind}] a.open")).await;
        browser.find(".task-detail__result > *").await;
        check_page(&browser, &format!("task-{kind}")).await;
        browser.click("nav[aria-label=Main] a[href='/']").await;
        browser.wait_for_text("main h1", "Tasks").await;
    }

    // Two images compared: the request's row opened to its tasks.
    browser
        .click("li.task-group[data-kind=image_generate] summary")
        .await;
    browser
        .click("li.task-row[data-kind=image_generate] .compare-pick__box")
        .await;
    browser
        .click("li.task-row[data-kind=image_generate] ~ li.task-row[data-kind=image_generate] .compare-pick__box")
        .await;
    browser.click("#compare-link").await;
    browser.wait_for_text("main h1", "Compare").await;
    browser.find(".compare-slider__over").await;
    check_page(&browser, "compare").await;

    // The shortcut list, open over the page.
    browser.click("#shortcuts-open").await;
    browser.find("dialog#shortcuts[open]").await;
    browser.check_accessibility("the shortcut list").await;

    // The check itself finds a name that hides the visible text: back on
    // the board (axe-core stays loaded in the page), a button whose name
    // is not its text.
    let dialog = browser.find("dialog#shortcuts[open]").await;
    dialog.send_keys(&Key::Escape).await.expect("Esc");
    browser
        .wait_until(
            "the shortcut list to close",
            "document.querySelector('dialog[open]') === null",
        )
        .await;
    browser.click("nav[aria-label=Main] a[href='/']").await;
    browser.wait_for_text("main h1", "Tasks").await;
    assert_eq!(
        browser.accessibility_violations().await,
        Vec::<String>::new(),
        "no violation on the board before the button is added"
    );
    // The copy buttons' old names: the visible text is not in the name.
    browser
        .run_async(
            "const b = document.createElement('button'); b.textContent = 'Copy id'; \
             b.setAttribute('aria-label', 'Copy task id i2v-1'); document.querySelector('main').append(b);",
        )
        .await;
    let violations = browser.accessibility_violations().await;
    assert!(
        violations
            .iter()
            .any(|v| v.starts_with("label-content-name-mismatch (serious)")),
        "{violations:?}"
    );
    browser.close().await;
}
