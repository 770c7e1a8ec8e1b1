//! One tab follows the tasks. Tabs of the app ask for the same Web Lock; the
//! tab holding it polls, the others show what it stores (storage events).
//! When that tab closes, the lock passes to another. Where the browser has
//! no Web Locks, every tab follows its tasks itself.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The lock's name.
const LOCK: &str = "media-gen.task-poller";

/// The lock while held or asked for; [`Leadership::release`] gives it up.
pub struct Leadership {
    release: Rc<RefCell<Option<Function>>>,
    abort: Option<web_sys::AbortController>,
    _granted: Option<Closure<dyn FnMut(JsValue) -> JsValue>>,
    _ignore: Option<Closure<dyn FnMut(JsValue)>>,
}

impl Leadership {
    /// Give the lock up (or stop waiting for it).
    pub fn release(&self) {
        if let Some(resolve) = self.release.borrow_mut().take() {
            let _ = resolve.call0(&JsValue::NULL);
        } else if let Some(abort) = &self.abort {
            abort.abort();
        }
    }
}

/// Ask for the lock; `on_granted` runs once this tab holds it (at once when
/// the browser has no Web Locks).
pub fn elect(on_granted: impl FnOnce() + 'static) -> Leadership {
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
        return Leadership {
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
    if let Ok(result) = request.call3(&locks, &JsValue::from_str(LOCK), &options, granted.as_ref())
    {
        // An aborted request rejects: expected, not an error to report.
        if let Ok(promise) = result.dyn_into::<Promise>() {
            let _ = promise.catch(&ignore);
        }
    }
    Leadership {
        release,
        abort: Some(abort),
        _granted: Some(granted),
        _ignore: Some(ignore),
    }
}
