//! A Web Lock held until released: one tab of many does a job. Tabs ask for
//! the same lock by name; the browser grants it to one at a time and, when
//! that tab closes or releases it, to the next. Where the browser has no Web
//! Locks, every tab is granted at once.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The lock while held or asked for; [`WebLock::release`] gives it up.
pub struct WebLock {
    release: Rc<RefCell<Option<Function>>>,
    abort: Option<web_sys::AbortController>,
    _granted: Option<Closure<dyn FnMut(JsValue) -> JsValue>>,
    _ignore: Option<Closure<dyn FnMut(JsValue)>>,
}

impl WebLock {
    /// Give the lock up (or stop waiting for it).
    pub fn release(&self) {
        if let Some(resolve) = self.release.borrow_mut().take() {
            let _ = resolve.call0(&JsValue::NULL);
        } else if let Some(abort) = &self.abort {
            abort.abort();
        }
    }
}

/// Ask for the lock `name`; `on_granted` runs once this tab holds it (at
/// once when the browser has no Web Locks).
pub fn request(name: &str, on_granted: impl FnOnce() + 'static) -> WebLock {
    let release: Rc<RefCell<Option<Function>>> = Rc::new(RefCell::new(None));
    let navigator = web_sys::window().map(|window| window.navigator());
    let locks = navigator
        .and_then(|navigator| Reflect::get(&navigator, &JsValue::from_str("locks")).ok())
        .filter(|locks| locks.is_object());
    let request = locks.as_ref().and_then(|locks| {
        Reflect::get(locks, &JsValue::from_str("request"))
            .ok()?
            .dyn_into::<Function>()
            .ok()
    });
    let (Some(locks), Some(request), Ok(abort)) = (locks, request, web_sys::AbortController::new())
    else {
        on_granted();
        return WebLock {
            release,
            abort: None,
            _granted: None,
            _ignore: None,
        };
    };
    let held = Rc::clone(&release);
    let mut on_granted = Some(on_granted);
    // Runs when the lock is granted; the lock is held until the promise it
    // returns settles, which `release` does.
    let granted = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |_lock: JsValue| {
        let held = Rc::clone(&held);
        let promise = Promise::new(&mut |resolve, _reject| {
            *held.borrow_mut() = Some(resolve);
        });
        if let Some(on_granted) = on_granted.take() {
            on_granted();
        }
        promise.into()
    });
    let options = js_sys::Object::new();
    let _ = Reflect::set(&options, &JsValue::from_str("signal"), &abort.signal());
    let ignore = Closure::<dyn FnMut(JsValue)>::new(|_| {});
    if let Ok(result) = request.call3(&locks, &JsValue::from_str(name), &options, granted.as_ref())
    {
        // An aborted request rejects: expected, not an error to report.
        if let Ok(promise) = result.dyn_into::<Promise>() {
            let _ = promise.catch(&ignore);
        }
    }
    WebLock {
        release,
        abort: Some(abort),
        _granted: Some(granted),
        _ignore: Some(ignore),
    }
}
