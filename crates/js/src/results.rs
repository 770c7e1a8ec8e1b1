//! Where a finished task's files are, for a page that shows them: the
//! site's kept copy first, else the service's own URL (the contract's
//! [`media_gen_api::kept`]; a gateway that keeps results adds `kept` to the
//! task objects its reads and events carry).

use media_gen_api::kept::{shown_url, ByMediaField, MediaField, KEPT_FIELD};
use wasm_bindgen::prelude::*;

use super::bridge::options_error;
use super::object::property;

/// The address to show for `field` (`video_url`, `thumbnail_url`,
/// `caption_url`, `image_url`) of `task`, a task object as a read, an
/// event or `watch` gives it: its kept copy when the site kept one, else the
/// service's URL (`""` when it has neither). A field no task has throws,
/// naming `field`.
#[wasm_bindgen(js_name = shownUrl)]
pub fn shown(
    #[wasm_bindgen(unchecked_param_type = "AnyTask")] task: &JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "\"video_url\" | \"thumbnail_url\" | \"caption_url\" | \"image_url\""
    )]
    field: &str,
) -> Result<String, JsValue> {
    let field = MediaField::from_name(field).ok_or_else(|| {
        options_error(
            "field",
            "must be video_url, thumbnail_url, caption_url or image_url",
        )
    })?;
    let service = property(task, field.name()).as_string().unwrap_or_default();
    // Only the field asked for is read of `kept`: no whole object is parsed.
    let mut kept = ByMediaField::default();
    if let Some(copy) = property(&property(task, KEPT_FIELD), field.name()).as_string() {
        kept.set(field, copy);
    }
    Ok(shown_url(&service, Some(&kept), field).to_owned())
}
