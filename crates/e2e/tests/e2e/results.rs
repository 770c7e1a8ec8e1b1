//! Results shown as results, in the release build in real headless Chromium:
//! a task's page says what was asked (prompt, settings in words, the input
//! media as pictures), shows images as large as the column allows and steps
//! through a request's images with the arrow keys, and links the
//! translations of one submit to each other. A video's page picturing its
//! start frame is checked in `flows.rs`, on the page its flow ends on.

use fantoccini::key::Key;
use media_gen_e2e::session;

/// Whether every image matching `css` has loaded.
pub(crate) fn loaded(css: &str) -> String {
    format!("[...document.querySelectorAll(\"{css}\")].every((i) => i.complete && i.naturalWidth > 0) && document.querySelector(\"{css}\") !== null")
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_task_page_shows_what_was_asked_and_its_images_large() {
    let (site, browser) = session("/new/image-generate", "Image generation").await;
    browser
        .type_into("#prompt", "Three kites over a dune")
        .await;
    browser
        .type_into("#references", &site.media("image/1K/1x1.png"))
        .await;
    browser.type_into("#count", "3").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser
        .wait_until(
            "every image",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 3",
        )
        .await;
    browser.watch_for_errors().await;
    browser.click("li.task-group a.open").await;

    // What was asked, in words and pictures.
    browser
        .wait_for_text(".asked__prompt", "Three kites over a dune")
        .await;
    let settings = browser
        .eval("[...document.querySelectorAll('.asked__settings dt, .asked__settings dd')].map((e) => e.textContent)")
        .await;
    // The form sends every value, the defaults it started from included.
    assert_eq!(
        settings,
        serde_json::json!(["Model", "std", "Images", "3", "Quality", "2K", "Ratio", "9:16"])
    );
    browser
        .wait_until("the reference image", &loaded(".asked__medium img"))
        .await;
    browser
        .wait_for_text(".asked__medium figcaption", "Reference image 1")
        .await;

    // The request's three images, each as wide as its column, in its shape.
    browser
        .wait_until("the images", &loaded(".gallery img"))
        .await;
    let sizes = browser
        .eval("[...document.querySelectorAll('.gallery img')].map((i) => { const r = i.getBoundingClientRect(); \
               return [Math.round(r.width), Math.abs(r.width / r.height - i.naturalWidth / i.naturalHeight) < 0.02, \
                       Math.round(i.closest('li').getBoundingClientRect().width)]; })")
        .await;
    let sizes: Vec<(f64, bool, f64)> = serde_json::from_value(sizes).expect("sizes");
    assert_eq!(sizes.len(), 3, "{sizes:?}");
    for (width, shaped, column) in &sizes {
        assert!(
            *width >= 250.0 && (*width - *column).abs() <= 2.0 && *shaped,
            "{sizes:?}"
        );
    }
    browser.screenshot("task-images-large").await;

    // The full view, and the arrow keys through the request's images.
    browser
        .click(".gallery li:nth-child(1) .gallery__thumb")
        .await;
    browser
        .wait_for_text("dialog[open] .full-view__count", "1 of 3")
        .await;
    let first = browser
        .eval("document.querySelector('dialog[open] img').src")
        .await;
    let dialog = browser.find("dialog[open]").await;
    dialog.send_keys(&Key::Right).await.expect("→");
    browser
        .wait_for_text("dialog[open] .full-view__count", "2 of 3")
        .await;
    let second = browser
        .eval("document.querySelector('dialog[open] img').src")
        .await;
    assert_ne!(first, second, "another image");
    dialog.send_keys(&Key::Left).await.expect("←");
    dialog.send_keys(&Key::Left).await.expect("←");
    browser
        .wait_for_text("dialog[open] .full-view__count", "3 of 3")
        .await;
    browser
        .wait_until("the full image", &loaded("dialog[open] img"))
        .await;
    browser.check_accessibility("the full view").await;
    dialog.send_keys(&Key::Escape).await.expect("Esc");
    browser
        .wait_until(
            "the full view to close",
            "document.querySelector('dialog[open]') === null",
        )
        .await;
    browser.assert_still_working("the gallery").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn the_translations_of_one_submit_link_to_each_other() {
    let (site, browser) = session("/new/video-translate", "Video translation").await;
    browser
        .type_into("#video_url", &site.media("video/landscape.mp4"))
        .await;
    for (search, id) in [("fren", "#language-French"), ("germ", "#language-German")] {
        browser.type_into("#language-search", search).await;
        browser.click(id).await;
    }
    browser.submit_and_wait("SUCCEEDED").await;
    browser
        .wait_until(
            "both translations",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 2",
        )
        .await;
    browser.click("li.task-group a.open").await;
    let mine = browser.find(".translation-language").await;
    let mine = mine.text().await.expect("its language");
    let other = if mine == "French" { "German" } else { "French" };
    // The source video, pictured with what was asked.
    browser.find(".asked__medium video").await;
    let link = browser.find(".siblings a").await;
    assert_eq!(link.text().await.expect("its text"), other);
    let href = link.attr("href").await.expect("href").expect("an href");
    link.click().await.expect("follow it");
    browser.wait_for_address(&href).await;
    browser.wait_for_text(".translation-language", other).await;
    browser.wait_for_text(".siblings a", &mine).await;
    browser.close().await;
}
