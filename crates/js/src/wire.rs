//! What the package's JavaScript sends, as the contract writes it: a
//! request's body, each call's path, the options that say where the
//! service is. Everything here checks its input and throws an `Error` with
//! `kind: "options"` naming the field.

use media_gen_api::relay::{is_page_token, CAPABILITIES_PATH, RELAY_HEADER};
use media_gen_api::TARGET_LANGUAGES_PATH;
use wasm_bindgen::prelude::*;

use super::connection::Connection;
use super::read::{check_task_id, parse_kind, request_from_js};
use super::widget_options::relay_option;

/// The body of a submit of `kind`: the request read by the contract's
/// types (a field that does not fit is named), written as JSON.
#[wasm_bindgen(js_name = requestBody)]
pub fn request_body(kind: JsValue, request: JsValue) -> Result<String, JsValue> {
    let request = request_from_js(parse_kind(&kind, "kind")?, &request)?;
    Ok(request.to_json_text())
}

/// The path a submit of `kind` goes to.
#[wasm_bindgen(js_name = submitPath)]
pub fn submit_path(kind: JsValue) -> Result<String, JsValue> {
    Ok(parse_kind(&kind, "kind")?.submit_path())
}

/// The path of task `taskId`'s status read; with `field`, a blank id is
/// refused, named so.
#[wasm_bindgen(js_name = statusPath)]
pub fn status_path(kind: JsValue, task_id: &str, field: Option<String>) -> Result<String, JsValue> {
    let kind = parse_kind(&kind, "kind")?;
    if let Some(field) = field {
        check_task_id(task_id, &field)?;
    }
    Ok(kind.status_path(task_id))
}

/// The path of the target languages' list.
#[wasm_bindgen(js_name = languagesPath)]
pub fn languages_path() -> String {
    TARGET_LANGUAGES_PATH.to_owned()
}

/// The path where a gateway says what it offers (`/capabilities`).
#[wasm_bindgen(js_name = capabilitiesPath)]
pub fn capabilities_path() -> String {
    CAPABILITIES_PATH.to_owned()
}

/// The base URL `{ baseUrl, token?, getToken? }` name, without a trailing
/// slash, once every option is checked.
#[wasm_bindgen(js_name = baseUrlOf)]
pub fn base_url_of(options: JsValue) -> Result<String, JsValue> {
    Connection::check(&options)
}

/// `watch`'s `options.relay`, checked: a capability, or `undefined`.
#[wasm_bindgen(js_name = relayOf)]
pub fn relay_of(options: JsValue) -> Result<Option<String>, JsValue> {
    relay_option(&options)
}

/// Whether `token` is a page token (one a relay's stream may name).
#[wasm_bindgen(js_name = isPageToken)]
pub fn page_token(token: &str) -> bool {
    is_page_token(token)
}

/// The answer header naming a relayed submit's capability.
#[wasm_bindgen(js_name = relayHeader)]
pub fn relay_header() -> String {
    RELAY_HEADER.to_owned()
}
