//! `validate*` for JavaScript: the problems `media-gen-api` finds, as plain
//! objects (`{ field, rule, severity, message }`).

use media_gen_api::{
    validate_image_generate, validate_image_to_video, validate_video_translate, Context,
    ImageGenerateRequest, ImageToVideoRequest, VideoTranslateRequest,
};
use wasm_bindgen::prelude::*;

use super::bridge::{from_js, to_js};
use super::read::{parse_kind, request_from_js};

/// Every problem of an image-to-video request.
#[wasm_bindgen(js_name = validateImageToVideo, unchecked_return_type = "Problem[]")]
pub fn validate_image_to_video_js(
    #[wasm_bindgen(unchecked_param_type = "ImageToVideoRequest")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let request: ImageToVideoRequest = from_js(&request, "request")?;
    Ok(to_js(&validate_image_to_video(
        &request,
        &Context::default(),
    )))
}

/// Every problem of a video translation request; with `languages` (the
/// service's list), target languages are checked against it.
#[wasm_bindgen(js_name = validateVideoTranslate, unchecked_return_type = "Problem[]")]
pub fn validate_video_translate_js(
    #[wasm_bindgen(unchecked_param_type = "VideoTranslateRequest")] request: JsValue,
    languages: Option<Vec<String>>,
) -> Result<JsValue, JsValue> {
    let request: VideoTranslateRequest = from_js(&request, "request")?;
    let context = Context {
        languages,
        ..Context::default()
    };
    Ok(to_js(&validate_video_translate(&request, &context)))
}

/// Every problem of an image generation request.
#[wasm_bindgen(js_name = validateImageGenerate, unchecked_return_type = "Problem[]")]
pub fn validate_image_generate_js(
    #[wasm_bindgen(unchecked_param_type = "ImageGenerateRequest")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let request: ImageGenerateRequest = from_js(&request, "request")?;
    Ok(to_js(&validate_image_generate(
        &request,
        &Context::default(),
    )))
}

/// Every problem of a request of `kind`.
#[wasm_bindgen(unchecked_return_type = "Problem[]")]
pub fn validate(
    #[wasm_bindgen(unchecked_param_type = "TaskKind")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnyRequest")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let request = request_from_js(parse_kind(&kind, "kind")?, &request)?;
    Ok(to_js(&request.validate(&Context::default())))
}
