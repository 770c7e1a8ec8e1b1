//! The client for JavaScript, packed for npm by `cargo xtask npm` as the
//! package's `client` entry: `createClient`, the `validate*` functions,
//! `watch` (the polling engine) and the errors they throw, with the
//! TypeScript declarations of the wire types.
//!
//! A thin layer over `media-gen-client` and the contract (`media-gen-api`),
//! with no view code, so a page that only calls the service loads only this.
//! The widgets module (`media-gen-widgets`) shares the options, errors and
//! JSON bridge, without the exports.

pub mod bridge;
pub mod connection;
#[cfg(feature = "exports")]
mod js_client;
pub mod read;
#[cfg(feature = "exports")]
mod validate;
#[cfg(feature = "exports")]
mod watch;
#[cfg(feature = "exports")]
mod widget_options;

/// The TypeScript types of requests, tasks, problems, options and errors.
#[cfg(feature = "exports")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

#[cfg(test)]
mod tests {
    use media_gen_api::*;

    /// Every field the wire types serialize is declared in `types.d.ts`, in
    /// the interface of the same name: the declarations cannot drift from
    /// the contract unnoticed.
    #[test]
    fn declarations_name_every_field_of_the_wire_types() {
        let declarations = include_str!("types.d.ts");
        let interface = |name: &str| -> &str {
            let start = declarations
                .find(&format!("export interface {name} "))
                .unwrap_or_else(|| panic!("types.d.ts has no interface {name}"));
            let end = declarations[start..]
                .find("\n}")
                .map_or(declarations.len(), |end| start + end);
            &declarations[start..end]
        };
        let check = |name: &str, value: serde_json::Value| {
            let body = interface(name);
            for field in value.as_object().expect("an object").keys() {
                assert!(
                    body.contains(&format!("  {field}:")) || body.contains(&format!("  {field}?:")),
                    "interface {name} lacks {field}"
                );
            }
        };
        let full_video = ImageToVideoRequest {
            model: Some(Model::V),
            aspect_ratio: Some(AspectRatio::Landscape16x9),
            aspect_resolution: Some(Resolution::P720),
            duration: Some(8),
            image_url: Some("u".into()),
            end_image_url: Some("u".into()),
            reference_images: vec!["u".into()],
            generate_audio: Some(true),
            generate_count: Some(1),
            callback_url: Some("u".into()),
            ..Default::default()
        };
        let full_translation = VideoTranslateRequest {
            speaker_num: Some(1),
            translate_audio_only: Some(true),
            enable_dynamic_duration: Some(true),
            enable_caption: Some(true),
            name: Some("n".into()),
            callback_url: Some("u".into()),
            ..Default::default()
        };
        let full_image = ImageGenerateRequest {
            reference_images: vec!["u".into()],
            module: Some(Module::Pro),
            generate_count: Some(1),
            image_quality: Some(ImageQuality::K1),
            image_ratio: Some(ImageRatio::R1x1),
            callback_url: Some("u".into()),
            ..Default::default()
        };
        let json = |value: &dyn erased::Json| value.json();
        check("ImageToVideoRequest", json(&full_video));
        check("VideoTranslateRequest", json(&full_translation));
        check("ImageGenerateRequest", json(&full_image));
        check("TaskIds", json(&TaskIds::default()));
        let task: ImageToVideoTask = serde_json::from_value(serde_json::json!({
            "task_id": "t", "status": "SUCCEEDED", "duration": 1, "width": 1, "height": 1
        }))
        .expect("a task");
        check("ImageToVideoTask", json(&task));
        let task: VideoTranslateTask =
            serde_json::from_value(serde_json::json!({"task_id": "t", "status": "FAILED"}))
                .expect("a task");
        check("VideoTranslateTask", json(&task));
        let task: ImageGenerateTask =
            serde_json::from_value(serde_json::json!({"task_id": "t", "status": "FAILED"}))
                .expect("a task");
        check("ImageGenerateTask", json(&task));
        check(
            "TranslationTaskRef",
            json(&TranslationTaskRef {
                task_id: "t".into(),
                language: "English".into(),
            }),
        );
        let problems =
            validate_image_generate(&ImageGenerateRequest::default(), &Context::default());
        let first = problems.iter().next().expect("a problem");
        check("Problem", json(first));
    }

    /// Serialize to JSON through one signature for every wire type.
    mod erased {
        pub trait Json {
            fn json(&self) -> serde_json::Value;
        }
        impl<T: serde::Serialize> Json for T {
            fn json(&self) -> serde_json::Value {
                serde_json::to_value(self).expect("serializable")
            }
        }
    }
}
