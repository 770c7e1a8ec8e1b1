//! Whether an element has come near the visible part of the page: the
//! foot of a long list, so its next page loads as the person scrolls
//! towards it rather than when they reach it.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

/// How far below the visible part "near" starts: about a screen.
const AHEAD: &str = "0px 0px 600px 0px";

/// Watches one element; stops when dropped.
pub struct NearEnd {
    observer: IntersectionObserver,
    _on_change: Closure<dyn FnMut(js_sys::Array)>,
}

impl NearEnd {
    /// Call `on_near` each time `element` comes within [`AHEAD`] of the
    /// visible part (at once, if it is already); `None` where the browser
    /// cannot watch (the element's own control still works).
    pub fn watch(element: &Element, on_near: impl Fn() + 'static) -> Option<NearEnd> {
        let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let near = entries.iter().any(|entry| {
                entry
                    .dyn_into::<IntersectionObserverEntry>()
                    .is_ok_and(|entry| entry.is_intersecting())
            });
            if near {
                on_near();
            }
        });
        let options = IntersectionObserverInit::new();
        options.set_root_margin(AHEAD);
        let observer =
            IntersectionObserver::new_with_options(on_change.as_ref().unchecked_ref(), &options)
                .ok()?;
        observer.observe(element);
        Some(NearEnd {
            observer,
            _on_change: on_change,
        })
    }
}

impl Drop for NearEnd {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}
