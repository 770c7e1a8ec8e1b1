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
pub mod widget_options;

/// As the module loads (the client module and the widgets' module alike):
/// the rules read URLs with the browser's `URL`.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    media_gen_client::use_browser_urls();
}

/// The TypeScript types of requests, tasks, problems, options and errors.
#[cfg(feature = "exports")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

#[cfg(test)]
mod tests {
    use media_gen_api::*;

    /// `types.d.ts` declares, in the interface of the same name, exactly the
    /// fields the wire types serialize, and a request's field as optional
    /// exactly when Rust leaves it out unset: the declarations cannot drift
    /// from the contract unnoticed.
    #[test]
    fn declarations_match_the_wire_types_field_by_field() {
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
        // The fields an interface declares, each with whether it is optional.
        let declared = |name: &str| -> Vec<(String, bool)> {
            interface(name)
                .lines()
                .filter_map(|line| line.strip_prefix("  "))
                .filter(|line| {
                    !line.starts_with(' ') && !line.starts_with("/**") && !line.starts_with('*')
                })
                .filter_map(|line| line.split_once(':').map(|(field, _)| field))
                .map(|field| match field.strip_suffix('?') {
                    Some(field) => (field.to_owned(), true),
                    None => (field.to_owned(), false),
                })
                .collect()
        };
        // Both ways: every serialized field declared, every declared field serialized.
        let check = |name: &str, value: serde_json::Value| {
            let object = value.as_object().expect("an object");
            let fields = declared(name);
            for field in object.keys() {
                assert!(
                    fields.iter().any(|(declared, _)| declared == field),
                    "interface {name} lacks {field}"
                );
            }
            for (field, _) in &fields {
                assert!(
                    object.contains_key(field),
                    "interface {name} declares {field}, which Rust never writes"
                );
            }
        };
        // A request field is optional exactly when Rust leaves it out unset.
        let optional_as_in_rust = |name: &str, unset: serde_json::Value| {
            let written = unset.as_object().expect("an object");
            for (field, optional) in declared(name) {
                assert_eq!(
                    optional,
                    !written.contains_key(&field),
                    "{name}.{field}: optional in types.d.ts must match Rust"
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
        optional_as_in_rust("ImageToVideoRequest", json(&ImageToVideoRequest::default()));
        optional_as_in_rust(
            "VideoTranslateRequest",
            json(&VideoTranslateRequest::default()),
        );
        optional_as_in_rust(
            "ImageGenerateRequest",
            json(&ImageGenerateRequest::default()),
        );
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

    /// The closed value sets are declared as exactly the values Rust has.
    #[test]
    fn value_types_list_exactly_the_values_of_the_contract() {
        let declarations = include_str!("types.d.ts");
        fn union<T: Copy>(all: &[T], wire: impl Fn(T) -> &'static str) -> String {
            all.iter()
                .map(|value| format!("\"{}\"", wire(*value)))
                .collect::<Vec<_>>()
                .join(" | ")
        }
        for (name, values) in [
            ("TaskKind", union(TaskKind::ALL, TaskKind::as_str)),
            ("Model", union(Model::ALL, Model::as_str)),
            ("AspectRatio", union(AspectRatio::ALL, AspectRatio::as_str)),
            ("Resolution", union(Resolution::ALL, Resolution::as_str)),
            ("Module", union(Module::ALL, Module::as_str)),
            (
                "ImageQuality",
                union(ImageQuality::ALL, ImageQuality::as_str),
            ),
            ("ImageRatio", union(ImageRatio::ALL, ImageRatio::as_str)),
        ] {
            let line = format!("export type {name} = {values};");
            assert!(declarations.contains(&line), "types.d.ts lacks `{line}`");
        }
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
