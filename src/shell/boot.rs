//! The plain-HTML header and loading state `index.html` shows until the
//! app starts (`#boot`), and its script that says when a page cannot start.

/// The id of what `index.html` shows until the app starts.
pub const BOOT_ID: &str = "boot";

/// The app is starting: take away the loading state, in the same task as
/// the mount, so no frame shows neither. Its failure handlers stop there:
/// they act only while `#boot` is on the page.
pub fn started() {
    if let Some(boot) = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.get_element_by_id(BOOT_ID))
    {
        boot.remove();
    }
    mark(STARTED_MARK);
}

/// The performance mark made as the app starts: what a page's first
/// requests are measured up to (`cargo xtask bench load`, the tests of
/// what a page fetches first).
pub const STARTED_MARK: &str = "media-gen-started";

/// Name this moment in the page's performance timeline.
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|window| window.performance()) {
        let _ = performance.mark(name);
    }
}
