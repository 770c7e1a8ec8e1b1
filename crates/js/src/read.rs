//! Values read from JavaScript: a kind, a request of a kind.

use media_gen_api::{Request, TaskKind};
use wasm_bindgen::JsValue;

use super::bridge::{from_js, options_error};
use super::object::property;

/// A kind's wire name read from JavaScript; the error names the allowed
/// values, as the contract's own parse error does.
pub fn parse_kind(kind: &JsValue, field: &str) -> Result<TaskKind, JsValue> {
    let text = kind.as_string().unwrap_or_default();
    text.parse().map_err(|error: media_gen_api::UnknownValue| {
        let rule = format!(
            "`{}` is not one of {}",
            error.value,
            error.allowed.join(", ")
        );
        options_error(field, &rule)
    })
}

/// A request of `kind` read from JavaScript; errors name the field.
pub fn request_from_js(kind: TaskKind, request: &JsValue) -> Result<Request, JsValue> {
    Ok(match kind {
        TaskKind::ImageToVideo => Request::ImageToVideo(from_js(request, "request")?),
        TaskKind::VideoTranslate => Request::VideoTranslate(from_js(request, "request")?),
        TaskKind::ImageGenerate => Request::ImageGenerate(from_js(request, "request")?),
    })
}

/// `taskId` or `taskIds` from the options: at least one, all non-empty strings.
pub fn task_ids(options: &JsValue) -> Result<Vec<String>, JsValue> {
    let one = property(options, "taskId");
    let many = property(options, "taskIds");
    let ids: Vec<String> = if let Some(id) = one.as_string() {
        vec![id]
    } else if js_sys::Array::is_array(&many) {
        js_sys::Array::from(&many)
            .iter()
            .map(|id| {
                id.as_string()
                    .ok_or_else(|| options_error("taskIds", "must hold strings"))
            })
            .collect::<Result<_, _>>()?
    } else {
        return Err(options_error(
            "taskId",
            "give taskId (a string) or taskIds (an array of strings)",
        ));
    };
    if ids.is_empty() {
        return Err(options_error("taskIds", "must hold at least one id"));
    }
    for id in &ids {
        check_task_id(id, "taskIds")?;
    }
    Ok(ids)
}

/// A task id given as `field`: refused when blank, as the service would
/// find no task by it.
pub fn check_task_id(id: &str, field: &str) -> Result<(), JsValue> {
    if id.trim().is_empty() {
        Err(options_error(field, "must not be empty"))
    } else {
        Ok(())
    }
}
