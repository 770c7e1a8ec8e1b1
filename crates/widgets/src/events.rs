//! The DOM events widgets send: `CustomEvent`s that bubble and cross shadow
//! roots, on the element the widget was mounted in.

use wasm_bindgen::JsValue;
use web_sys::{CustomEvent, CustomEventInit, Element};

/// A submit created tasks: `detail` is `{ kind, taskIds, request }`.
pub const SUBMITTED: &str = "media-gen-submitted";
/// A task changed: `detail` is `{ kind, taskId, status, task }`.
pub const STATUS: &str = "media-gen-status";
/// A task ended (`SUCCEEDED` or `FAILED`): `detail` is `{ kind, taskId, status, task }`.
pub const COMPLETE: &str = "media-gen-complete";
/// A submit or a read failed for good: `detail` is `{ kind, taskId?, error }`
/// with `error` as `{ message, kind, status, code, retryable }`.
pub const ERROR: &str = "media-gen-error";
/// A submit form's request changed: `detail` is `{ kind, complete, empty,
/// problems }` (`complete`: no errors; `empty`: nothing typed yet).
pub const CHANGE: &str = "media-gen-change";
/// A widget is on the page (sent by the package's JavaScript once the
/// widgets' module has mounted it): `detail` is `{ kind }`.
pub const READY: &str = "media-gen-ready";

/// A result was offered to the next job ("Make a video of it"): `detail`
/// is `{ kind, field, url, request, source: { kind, taskId } }`, `request`
/// being what a submit widget of `kind` starts from (`handle.use(detail)`).
pub const USE: &str = "media-gen-use";

/// Every event name, for the package's exported constants.
pub const ALL: [&str; 7] = [SUBMITTED, STATUS, COMPLETE, ERROR, CHANGE, READY, USE];

/// Send event `name` with `detail` from `target`.
pub fn dispatch(target: &Element, name: &str, detail: &JsValue) {
    let init = CustomEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_detail(detail);
    if let Ok(event) = CustomEvent::new_with_event_init_dict(name, &init) {
        let _ = target.dispatch_event(&event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The package's exported constants (npm/index.js) are these names.
    #[test]
    fn the_package_exports_these_names() {
        let index = include_str!("../npm/index.js");
        for (constant, name) in [
            ("EVENT_SUBMITTED", SUBMITTED),
            ("EVENT_STATUS", STATUS),
            ("EVENT_COMPLETE", COMPLETE),
            ("EVENT_ERROR", ERROR),
            ("EVENT_CHANGE", CHANGE),
            ("EVENT_READY", READY),
            ("EVENT_USE", USE),
        ] {
            let line = format!("export const {constant} = \"{name}\";");
            assert!(index.contains(&line), "npm/index.js lacks `{line}`");
        }
        let types = include_str!("../npm/index.d.ts");
        for name in ALL {
            assert!(
                types.contains(&format!("\"{name}\": CustomEvent<")),
                "index.d.ts: {name}"
            );
        }
    }
}
