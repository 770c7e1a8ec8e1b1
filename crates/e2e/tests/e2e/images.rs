//! Images as people see them, in the release build in real headless
//! Chromium: a URL typed key by key is loaded once, when complete, and a
//! field's previews load one at a time; previews, thumbnails and the gallery
//! keep each image's own shape; a portrait start frame for a landscape
//! video is pointed out.

use media_gen_e2e::{start_site, Browser};

/// The images the page has loaded, as the browser's resource timing saw
/// them: `[{ name, start, end }]` in order of start.
const IMAGE_LOADS: &str = "performance.getEntriesByType('resource')
  .filter((e) => e.initiatorType === 'img')
  .map((e) => ({ name: e.name, start: e.startTime, end: e.responseEnd }))
  .sort((a, b) => a.start - b.start)";

/// Whether every `img` matching `css` is drawn in its own aspect ratio
/// (within 3%), and there is at least one, loaded.
fn drawn_in_own_shape(css: &str) -> String {
    format!(
        "(() => {{ const images = [...document.querySelectorAll(\"{css}\")]; \
         return images.length > 0 && images.every((i) => {{ \
           const r = i.getBoundingClientRect(); \
           if (!i.complete || !i.naturalWidth || !r.height) return false; \
           return Math.abs((r.width / r.height) / (i.naturalWidth / i.naturalHeight) - 1) < 0.03; }}); }})()"
    )
}

/// A start frame's URL typed key by key is loaded once, when complete, and
/// previewed in its own shape; a portrait start frame for a landscape video
/// is pointed out, and the warning goes once the ratio follows the frame.
#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_url_typed_key_by_key_is_loaded_once_and_a_portrait_frame_is_pointed_out() {
    let site = start_site().await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site.base_url, "/new/image-to-video", "Image to video")
        .await;
    browser.click("#model-S").await;
    let portrait = site.media("image/1K/9x16.png");
    // WebDriver types a key at a time: one `input` event per character.
    let field = browser.find("#image_url").await;
    field.send_keys(&portrait).await.expect("type the URL");
    browser
        .wait_for_text(".image-preview figcaption", "576 × 1024 px")
        .await;
    // Time for any late load to show up.
    tokio::time::sleep(std::time::Duration::from_millis(1_000)).await;
    let loads = browser.eval(IMAGE_LOADS).await;
    let names: Vec<&str> = loads
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|load| load["name"].as_str())
        .collect();
    assert_eq!(names, [portrait.as_str()], "one load, of the whole URL");
    browser
        .wait_until(
            "the portrait preview drawn as a portrait",
            &drawn_in_own_shape(".image-preview img"),
        )
        .await;

    // A portrait start frame for a landscape video is pointed out.
    browser.watch_for_errors().await;
    browser.click("#model-S").await;
    browser
        .type_into("#image_url", &site.media("image/2K/9x16.png"))
        .await;
    browser.click("#prompt").await;
    browser
        .wait_for_text(".image-preview figcaption", "1152 × 2048 px")
        .await;
    let warning = "#aspect_ratio-problems li.problem--warning";
    browser
        .wait_for_text(
            warning,
            "The start frame is 1152×2048 (portrait) but the video will be 16:9 \
             (landscape, the service's default): the picture will be cropped or filled. \
             Choose 9:16 to keep the frame's shape.",
        )
        .await;
    browser.screenshot("form-portrait-frame").await;
    // Taking the advice: the warning goes, and the frame size turns.
    browser.choose("#aspect_ratio", "9:16").await;
    browser.wait_for_text("#frame-size", "720 × 1280 px").await;
    browser
        .wait_until(
            "the warning to go",
            &format!("document.querySelector('{warning}') === null"),
        )
        .await;
    browser.assert_still_working("the aspect ratio").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_fields_previews_load_one_at_a_time() {
    let site = start_site().await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site.base_url, "/new/image-generate", "Image generation")
        .await;
    let urls: Vec<String> = ["16x9", "9x16", "1x1", "4x3"]
        .iter()
        .map(|ratio| site.media(&format!("image/2K/{ratio}.png")))
        .collect();
    browser.type_into("#references", &urls.join("\n")).await;
    browser
        .wait_until(
            "four previews measured",
            "[...document.querySelectorAll('.image-preview figcaption')].filter((c) => c.textContent.endsWith(' px')).length === 4",
        )
        .await;
    let loads = browser.eval(IMAGE_LOADS).await;
    let loads = loads.as_array().expect("a list");
    assert_eq!(loads.len(), 4, "each image once: {loads:?}");
    for pair in loads.windows(2) {
        let (earlier_end, later_start) = (pair[0]["end"].as_f64(), pair[1]["start"].as_f64());
        assert!(
            later_start >= earlier_end,
            "two loads in flight at once: {loads:?}"
        );
    }
    browser
        .wait_until(
            "every preview in its own shape",
            &drawn_in_own_shape(".image-preview img"),
        )
        .await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn portrait_results_stay_portrait_on_the_board_and_in_the_gallery() {
    let site = start_site().await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site.base_url, "/new/image-generate", "Image generation")
        .await;
    browser.type_into("#prompt", "A tall tower").await;
    browser.choose("#ratio", "9:16").await;
    browser.submit_and_wait("SUCCEEDED").await;
    // The prompt tells the row apart before any picture.
    browser
        .wait_for_text("li.task-row .task-row__summary", "A tall tower")
        .await;
    browser
        .wait_until(
            "the thumbnail drawn as a portrait",
            &drawn_in_own_shape("li.task-row img.task-row__thumb"),
        )
        .await;
    let tall = browser
        .eval("(() => { const r = document.querySelector('li.task-row img.task-row__thumb').getBoundingClientRect(); return r.height > r.width; })()")
        .await;
    assert_eq!(tall, true);
    browser.click("li.task-row a.open").await;
    browser
        .wait_until(
            "the gallery's image drawn as a portrait",
            &drawn_in_own_shape(".gallery img"),
        )
        .await;
    browser.screenshot("task-portrait-image").await;
    browser.close().await;
}
