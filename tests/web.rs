//! Browser tests: mount the app in headless Chromium and look at the DOM.
#![cfg(target_arch = "wasm32")]
// Test-only crate: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

use leptos::prelude::*;
use media_gen::app::App;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

/// The app mounted into its own element, removed again when dropped.
struct MountedApp {
    host: HtmlElement,
    owner: Owner,
    _view: Box<dyn std::any::Any>,
}

impl Drop for MountedApp {
    fn drop(&mut self) {
        // Dropping the mount handle alone leaves the router's window listeners
        // behind (spawned tasks keep its owner alive); cleaning up the parent
        // owner runs every `on_cleanup`, so the next test starts clean.
        self.owner.cleanup();
        self.host.remove();
    }
}

/// Mount the app at `/` into a fresh element.
async fn mount_app() -> MountedApp {
    window()
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some("/"))
        .unwrap();
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let owner = Owner::new();
    let view = owner.with(|| leptos::mount::mount_to(host.clone(), App));
    leptos::task::tick().await;
    MountedApp {
        host,
        owner,
        _view: Box::new(view),
    }
}

/// Wait (up to two seconds) until `condition` holds; the router and effects
/// finish their work over several ticks and timers.
async fn wait_for(what: &str, condition: impl Fn() -> bool) {
    for _ in 0..200 {
        if condition() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    panic!("timed out waiting for {what}");
}

/// Click the main navigation's link named `title` and wait for its page.
async fn navigate(host: &HtmlElement, title: &str) -> HtmlElement {
    let link = elements(host, "nav a")
        .into_iter()
        .find(|link| link.text_content().as_deref() == Some(title))
        .unwrap_or_else(|| panic!("no navigation link named {title}"));
    link.click();
    wait_for(&format!("the {title} page"), || {
        texts(host, "main h1") == [title]
    })
    .await;
    link
}

fn elements(root: &HtmlElement, selector: &str) -> Vec<HtmlElement> {
    let nodes = root.query_selector_all(selector).unwrap();
    (0..nodes.length())
        .filter_map(|i| nodes.get(i))
        .map(|node| node.unchecked_into())
        .collect()
}

fn texts(root: &HtmlElement, selector: &str) -> Vec<String> {
    elements(root, selector)
        .iter()
        .map(|element| element.text_content().unwrap_or_default().trim().to_owned())
        .collect()
}

#[wasm_bindgen_test]
async fn shell_has_header_navigation_board_and_settings() {
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
    let app = mount_app().await;
    let host = &app.host;
    navigate(host, "Settings").await;

    let base_url: web_sys::HtmlInputElement = host
        .query_selector("#base-url")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(base_url.value(), window().location().origin().unwrap());
    let token: web_sys::HtmlInputElement = host
        .query_selector("#token")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(token.type_(), "password");
}
