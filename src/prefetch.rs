//! Chunks fetched before their pages open: the page a link leads to, as
//! soon as the link is hovered, focused or touched, and every page's once
//! the app has started and the browser is idle (unless the visitor asked
//! to save data). Fetching twice costs nothing: a chunk loads once.

use gloo_events::EventListener;
use leptos::prelude::*;
use media_gen_ui::forms::file_target::UploadsOffered;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::address::{app_path, Page};
use crate::chunks;

/// How long after the start the idle fetching waits at least: the first
/// page's own requests go first.
const IDLE_AFTER_MS: u32 = 2_000;

/// The performance mark made as the idle fetching starts: a chunk fetched
/// before it was fetched for a page or a link.
pub const IDLE_MARK: &str = "media-gen-idle-fetch";

/// Fetch, for as long as the app runs, the chunk of the page a link leads
/// to when it is pointed at, focused or touched; and every chunk once the
/// browser is idle after the start (the file controls' too, where the
/// gateway takes uploads).
pub fn start() {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    // Where the gateway takes uploads, a form's page draws file controls:
    // their chunk is fetched with the form's.
    let uploads = use_context::<UploadsOffered>();
    let takes_uploads =
        move || uploads.is_some_and(|offered| offered.0.with_untracked(Option::is_some));
    for event in ["pointerover", "focusin", "touchstart"] {
        EventListener::new(&document, event, move |event| {
            if let Some(page) = event.target().and_then(|target| linked_page(&target)) {
                chunks::preload(&page);
                if matches!(page, Page::NewTask(_)) && takes_uploads() {
                    chunks::preload_file_controls();
                }
            }
        })
        .forget();
    }
    gloo_timers::callback::Timeout::new(IDLE_AFTER_MS, move || when_idle(takes_uploads())).forget();
}

/// The page the link at (or around) `target` leads to, when it is one of
/// the app's.
fn linked_page(target: &web_sys::EventTarget) -> Option<Page> {
    let element = target.dyn_ref::<web_sys::Element>()?;
    let link = element
        .closest("a[href]")
        .ok()??
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .ok()?;
    let here = web_sys::window()?.location().origin().ok()?;
    if link.origin() != here {
        return None;
    }
    Some(Page::from_path(app_path(&link.pathname())))
}

/// Every chunk, in the browser's next idle time (after a timeout where it
/// has no idle callbacks), unless the visitor asked to save data.
fn when_idle(with_file_controls: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let saving = js_sys::Reflect::get(&window.navigator(), &"connection".into())
        .ok()
        .filter(|connection| connection.is_object())
        .and_then(|connection| js_sys::Reflect::get(&connection, &"saveData".into()).ok())
        .is_some_and(|save| save.is_truthy());
    if saving {
        return;
    }
    let fetch_all = Closure::once_into_js(move || {
        crate::shell::boot::mark(IDLE_MARK);
        chunks::preload_all();
        if with_file_controls {
            chunks::preload_file_controls();
        }
    });
    let idle = js_sys::Reflect::get(&window, &"requestIdleCallback".into())
        .ok()
        .and_then(|idle| idle.dyn_into::<js_sys::Function>().ok());
    let _ = match idle {
        Some(idle) => idle.call1(&window, &fetch_all),
        None => window
            .set_timeout_with_callback(fetch_all.unchecked_ref())
            .map(JsValue::from),
    };
}
