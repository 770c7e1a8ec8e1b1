//! Browser tests: mount the app in headless Chromium and look at the DOM.

use crate::mount;
use mount::{clear_storage, elements, mount_app, navigate, texts};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::window;

#[wasm_bindgen_test]
async fn shell_has_header_navigation_board_and_settings() {
    // A fresh visitor's board: earlier tests' tasks would hide the cards.
    clear_storage();
    let app = mount_app().await;
    let host = &app.host;

    assert_eq!(texts(host, "header .brand"), ["Media Generation"]);
    assert_eq!(
        texts(host, "nav[aria-label=Main] a"),
        [
            "Tasks",
            "Image to video",
            "Video translation",
            "Image generation",
            "Settings"
        ]
    );
    let targets: Vec<_> = elements(host, "nav a")
        .iter()
        .map(|link| link.get_attribute("href").unwrap_or_default())
        .collect();
    assert_eq!(
        targets,
        [
            "/",
            "/new/image-to-video",
            "/new/video-translate",
            "/new/image-generate",
            "/settings"
        ]
    );
    assert_eq!(texts(host, "main h1"), ["Tasks"]);
    assert_eq!(texts(host, ".kind-card strong").len(), 3);
}

#[wasm_bindgen_test]
async fn navigation_opens_each_page_and_marks_its_link() {
    let app = mount_app().await;
    let host = &app.host;

    for (title, kind) in [
        ("Image to video", Some("image_to_video")),
        ("Video translation", Some("video_translate")),
        ("Image generation", Some("image_generate")),
        ("Settings", None),
        ("Tasks", None),
    ] {
        let link = navigate(host, title).await;
        assert_eq!(
            link.get_attribute("aria-current").as_deref(),
            Some("page"),
            "{title}"
        );
        // The address bar follows the click.
        let href = link.get_attribute("href").unwrap();
        mount::wait_for(&format!("the address of {title}"), || {
            window().unwrap().location().pathname().unwrap() == href
        })
        .await;
        let section = host.query_selector("main section").unwrap().unwrap();
        assert_eq!(
            section.get_attribute("data-kind").as_deref(),
            kind,
            "{title}"
        );
    }
}

#[wasm_bindgen_test]
async fn settings_show_the_base_url_defaulting_to_the_page_origin() {
    clear_storage();
    let app = mount_app().await;
    let host = &app.host;
    navigate(host, "Settings").await;

    let base_url: web_sys::HtmlInputElement = host
        .query_selector("#base-url")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(
        base_url.value(),
        window().unwrap().location().origin().unwrap()
    );
    let token: web_sys::HtmlInputElement = host
        .query_selector("#token")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(token.type_(), "password");
}

#[wasm_bindgen_test]
fn a_panic_shows_a_banner_that_says_what_to_do() {
    use media_gen::shell::panic_banner::{show, BANNER_ID};
    let document = web_sys::window().unwrap().document().unwrap();
    show("panicked at src/app/board.rs:1:1: boom").unwrap();
    show("a second panic").unwrap();
    let banners = document
        .query_selector_all(&format!("#{BANNER_ID}"))
        .unwrap();
    assert_eq!(banners.length(), 1, "one banner, however many panics");
    let banner = document.get_element_by_id(BANNER_ID).unwrap();
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    let text = banner.text_content().unwrap();
    assert!(
        text.contains("stopped working") && text.contains("Reload the page"),
        "{text}"
    );
    assert!(text.contains("boom"), "the details for a report");
    banner.remove();
}

/// Search text is lower-cased by the browser, beyond ASCII too, as Rust's
/// own tables would (the board's filter and the language picker use it).
#[wasm_bindgen_test]
fn search_text_is_lower_cased_beyond_ascii() {
    for text in [
        "ÜBER DEN WOLKEN",
        "Ελληνικά",
        "ÇA VA",
        "Straße",
        "plain ascii",
        "",
    ] {
        assert_eq!(
            media_gen_ui::text::lower(text),
            text.to_lowercase(),
            "{text}"
        );
    }
}
