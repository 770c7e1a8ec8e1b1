//! Whether this page is in view, and word when that changes: the poller
//! pauses while hidden, the board hands its lead on, the title's count of
//! unseen endings clears when the tab is looked at again. One place reads
//! the browser's `visibilitychange` and `freeze` events for all of them.

use gloo_events::EventListener;
use web_sys::VisibilityState;

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Whether the page is hidden now (a background tab, a minimised window).
pub fn page_hidden() -> bool {
    document().is_some_and(|document| document.visibility_state() == VisibilityState::Hidden)
}

/// Call `on_change(hidden)` each time the page goes out of view or comes
/// back, for as long as the returned listener lives.
pub fn on_visibility_change(on_change: impl Fn(bool) + 'static) -> Option<EventListener> {
    let document = document()?;
    Some(EventListener::new(
        &document,
        "visibilitychange",
        move |_| {
            on_change(page_hidden());
        },
    ))
}

/// Call `on_leave` each time the page goes to the background: hidden, or
/// frozen by the browser to save power (which may come without a
/// `visibilitychange`), for as long as the returned listeners live.
pub fn on_page_leave(on_leave: impl Fn() + 'static) -> Option<(EventListener, EventListener)> {
    let document = document()?;
    let on_leave = std::rc::Rc::new(on_leave);
    let on_freeze = std::rc::Rc::clone(&on_leave);
    let hidden = on_visibility_change(move |hidden| {
        if hidden {
            on_leave();
        }
    })?;
    let frozen = EventListener::new(&document, "freeze", move |_| on_freeze());
    Some((hidden, frozen))
}
