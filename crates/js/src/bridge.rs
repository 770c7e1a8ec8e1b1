//! Values across the JavaScript boundary: plain objects in (read by
//! [`media_gen_client::value_reader`]) and out (through JSON, so objects never arrive
//! as `Map`s), and errors as `Error` objects that carry `kind`, `status`,
//! `code` and `retryable`.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

use media_gen_client::value_reader::read;

use super::object::{property, set_property as set};

use media_gen_client::ClientError;

/// A Rust value as a plain JavaScript object.
pub fn to_js<T: Serialize>(value: &T) -> JsValue {
    serde_json::to_string(value)
        .ok()
        .and_then(|json| js_sys::JSON::parse(&json).ok())
        .unwrap_or(JsValue::NULL)
}

/// A JavaScript value read as `T`; the error names the field that does not
/// fit (`request.generate_count: invalid type: string "x", expected i64`).
pub fn from_js<T: DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsValue> {
    let value = if value.is_undefined() || value.is_null() {
        js_sys::Object::new().into()
    } else {
        value.clone()
    };
    read::<T>(&value).map_err(|error| {
        let field =
            misfit::<T>(&value).map_or_else(|| what.to_owned(), |key| format!("{what}.{key}"));
        options_error(&field, &error.to_string())
    })
}

/// The property of `object` that `T` cannot read: each property is read
/// alone (every field of a request has a default), and the first that
/// fails is the one at fault.
fn misfit<T: DeserializeOwned>(object: &JsValue) -> Option<String> {
    let object = object.dyn_ref::<js_sys::Object>()?;
    js_sys::Object::keys(object).iter().find_map(|key| {
        let alone = js_sys::Object::new();
        let field = js_sys::Reflect::get(object, &key).ok()?;
        js_sys::Reflect::set(&alone, &key, &field).ok()?;
        read::<T>(&alone)
            .is_err()
            .then(|| key.as_string())
            .flatten()
    })
}

/// An `Error` with extra properties.
pub(crate) fn error_with(message: &str, properties: &[(&str, JsValue)]) -> JsValue {
    let error = js_sys::Error::new(message);
    for (name, value) in properties {
        set(&error, name, value);
    }
    error.unchecked_into()
}

/// Bad options or input from the page: `kind: "options"`, naming the field.
pub fn options_error(field: &str, rule: &str) -> JsValue {
    error_with(
        &format!("{field}: {rule}"),
        &[
            ("kind", JsValue::from_str("options")),
            ("field", JsValue::from_str(field)),
            ("retryable", JsValue::FALSE),
        ],
    )
}

/// A client error as an `Error` with `kind`, `status`, `code`, `retryable`.
pub fn client_error(error: &ClientError) -> JsValue {
    let number = |value: Option<f64>| value.map_or(JsValue::NULL, JsValue::from_f64);
    error_with(
        &error.to_string(),
        &[
            ("kind", JsValue::from_str(error.kind())),
            ("status", number(error.status().map(f64::from))),
            ("code", number(error.code().map(|code| code as f64))),
            ("retryable", JsValue::from_bool(error.retryable())),
        ],
    )
}

/// What a failure says: its `message`, or the value itself.
pub fn message_of(error: &JsValue) -> String {
    property(error, "message")
        .as_string()
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the request failed".to_owned())
}

/// A failure as a plain object, `{ message, kind, status, code, retryable }`:
/// a `watch` update's `error`, and an error event's detail (the client
/// entry's and the widgets', one shape).
pub fn error_detail(error: &JsValue) -> JsValue {
    let detail = js_sys::Object::new();
    set(&detail, "message", &JsValue::from_str(&message_of(error)));
    for (name, absent) in [
        ("kind", JsValue::from_str("network")),
        ("status", JsValue::NULL),
        ("code", JsValue::NULL),
        ("retryable", JsValue::FALSE),
    ] {
        let value = property(error, name);
        set(
            &detail,
            name,
            if value.is_undefined() {
                &absent
            } else {
                &value
            },
        );
    }
    detail.into()
}

/// [`error_detail`] for the client entry's JavaScript (`watch`'s updates).
#[cfg(feature = "exports")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = errorDetail, skip_typescript)]
pub fn error_detail_js(error: JsValue) -> JsValue {
    error_detail(&error)
}
