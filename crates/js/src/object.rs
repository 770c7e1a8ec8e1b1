//! A JavaScript object's properties, read and set: how every value the
//! page hands in is looked into, and every answer handed back is made.

use wasm_bindgen::JsValue;

/// Read property `name` of a JavaScript object.
pub fn property(object: &JsValue, name: &str) -> JsValue {
    if !object.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// Set property `name` of a JavaScript object to `value`.
pub fn set_property(object: &JsValue, name: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(object, &JsValue::from_str(name), value);
}

/// Whether the options object sets `name` (to anything but `undefined`).
pub fn has(object: &JsValue, name: &str) -> bool {
    !property(object, name).is_undefined()
}
