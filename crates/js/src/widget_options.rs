//! The widgets' options checked in the client module, before the widgets'
//! own module has loaded: the package's `mountSubmitWidget`,
//! `mountStatusWidget` and a handle's `update` throw at once for wrong
//! options, as they did when everything was one module.

use wasm_bindgen::prelude::*;

use super::connection::{property, Connection};
use super::read::{parse_kind, request_from_js, task_ids};

/// Throw the `kind: "options"` error mounting a submit widget with
/// `options` would throw; nothing when they are right.
#[wasm_bindgen(js_name = checkSubmitWidgetOptions, skip_typescript)]
pub fn check_submit_widget_options(options: JsValue) -> Result<(), JsValue> {
    let kind = parse_kind(&property(&options, "kind"), "kind")?;
    Connection::from_js(&options)?;
    let initial = property(&options, "initial");
    if !(initial.is_undefined() || initial.is_null()) {
        request_from_js(kind, &initial)?;
    }
    Ok(())
}

/// Throw the `kind: "options"` error mounting a status widget with
/// `options` would throw; nothing when they are right.
#[wasm_bindgen(js_name = checkStatusWidgetOptions, skip_typescript)]
pub fn check_status_widget_options(options: JsValue) -> Result<(), JsValue> {
    parse_kind(&property(&options, "kind"), "kind")?;
    task_ids(&options)?;
    Connection::from_js(&options)?;
    Ok(())
}
