//! Mounting the app in the test page, and finding things in it.
#![allow(dead_code)]

use leptos::prelude::*;
use media_gen::App;
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
        // owner runs every `on_cleanup`, so the next test starts clean. The
        // element goes first, as the app's own pages go: removing a focused
        // field runs its handlers (`focusout`), which need their owner alive.
        self.host.remove();
        self.owner.cleanup();
    }
}

/// Forget what earlier tests stored: the page's local and session storage.
/// Every test runs in the same page, so a test that needs what a fresh
/// visitor sees (no settings, no tasks) clears them before it mounts.
pub fn clear_storage() {
    let window = window();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    window.session_storage().unwrap().unwrap().clear().unwrap();
}

/// Mount the app at `/` into a fresh element.
pub async fn mount_app() -> MountedApp {
    mount_app_at("/").await
}

thread_local! {
    /// The last app mounted, as (owner, host): a test that panicked never
    /// drops its `MountedApp`, and its router would keep taking link clicks.
    static LAST: std::cell::RefCell<Option<(Owner, HtmlElement)>> = const { std::cell::RefCell::new(None) };
}

/// Mount the app at `path` (a link opened directly) into a fresh element.
pub async fn mount_app_at(path: &str) -> MountedApp {
    if let Some((owner, host)) = LAST.with(|last| last.borrow_mut().take()) {
        host.remove();
        owner.cleanup();
    }
    window()
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some(path))
        .unwrap();
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let owner = Owner::new();
    let view = owner.with(|| leptos::mount::mount_to(host.clone(), App));
    leptos::task::tick().await;
    LAST.with(|last| *last.borrow_mut() = Some((owner.clone(), host.clone())));
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

/// The first element matching `selector`; panics naming it when there is none.
pub fn element(app: &MountedApp, selector: &str) -> HtmlElement {
    app.host
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"))
        .unchecked_into()
}

/// Whether something matches `selector`.
pub fn exists(app: &MountedApp, selector: &str) -> bool {
    app.host.query_selector(selector).unwrap().is_some()
}

/// Fire a bubbling event `name` at `element`, as the browser does.
fn fire(element: &HtmlElement, name: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict(name, &init).unwrap();
    element.dispatch_event(&event).unwrap();
}

/// Type into a field and stay in it: set the value, fire `input`.
pub fn type_without_leaving(app: &MountedApp, selector: &str, value: &str) {
    let element = element(app, selector);
    if let Some(area) = element.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        area.set_value(value);
    } else {
        element
            .unchecked_ref::<web_sys::HtmlInputElement>()
            .set_value(value);
    }
    fire(&element, "input");
}

/// Leave a field, as a person moving on: `change`, then `focusout`.
pub fn leave(app: &MountedApp, selector: &str) {
    let element = element(app, selector);
    fire(&element, "change");
    fire(&element, "focusout");
}

/// Type into a field as a person does, and move on to the next.
pub fn type_into(app: &MountedApp, selector: &str, value: &str) {
    type_without_leaving(app, selector, value);
    leave(app, selector);
}

/// Choose `value` in a `<select>`, firing `change`.
pub fn choose(app: &MountedApp, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = element(app, selector).unchecked_into();
    select.set_value(value);
    fire(&select, "change");
}

/// The values of a `<select>`'s options.
pub fn options(app: &MountedApp, selector: &str) -> Vec<String> {
    elements(&app.host, &format!("{selector} option"))
        .into_iter()
        .map(|option| {
            option
                .unchecked_into::<web_sys::HtmlOptionElement>()
                .value()
        })
        .collect()
}

/// The value a `<select>` or `<input>` holds now.
pub fn value_of(app: &MountedApp, selector: &str) -> String {
    let element = element(app, selector);
    if let Some(select) = element.dyn_ref::<web_sys::HtmlSelectElement>() {
        select.value()
    } else if let Some(area) = element.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        area.value()
    } else {
        element.unchecked_ref::<web_sys::HtmlInputElement>().value()
    }
}

/// The form's submit button.
pub fn submit_button(app: &MountedApp) -> web_sys::HtmlButtonElement {
    element(app, "#submit").unchecked_into()
}

/// Press a key on `selector`, with Ctrl when `ctrl`.
pub fn press(app: &MountedApp, selector: &str, key: &str, ctrl: bool) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_ctrl_key(ctrl);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    element(app, selector).dispatch_event(&event).unwrap();
}

/// Run JavaScript in the test page: stubs for what headless Chromium keeps
/// to itself (the clipboard, downloads, notifications), and reads of them.
pub fn js(code: &str) -> JsValue {
    js_sys::Function::new_no_args(code)
        .call0(&JsValue::NULL)
        .unwrap()
}
