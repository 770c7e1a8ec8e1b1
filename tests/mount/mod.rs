//! Mounting the app in the test page, and finding things in it.
#![allow(dead_code)]

use leptos::prelude::*;
use media_gen::app::App;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::HtmlElement;

/// The app mounted into its own element, removed again when dropped.
pub struct MountedApp {
    /// The element the app is mounted in.
    pub host: HtmlElement,
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
pub async fn mount_app() -> MountedApp {
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
pub async fn wait_for(what: &str, condition: impl Fn() -> bool) {
    for _ in 0..200 {
        if condition() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    panic!("timed out waiting for {what}");
}

/// Click the main navigation's link named `title` and wait for its page.
pub async fn navigate(host: &HtmlElement, title: &str) -> HtmlElement {
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

pub fn elements(root: &HtmlElement, selector: &str) -> Vec<HtmlElement> {
    let nodes = root.query_selector_all(selector).unwrap();
    (0..nodes.length())
        .filter_map(|i| nodes.get(i))
        .map(|node| node.unchecked_into())
        .collect()
}

pub fn texts(root: &HtmlElement, selector: &str) -> Vec<String> {
    elements(root, selector)
        .iter()
        .map(|element| element.text_content().unwrap_or_default().trim().to_owned())
        .collect()
}
