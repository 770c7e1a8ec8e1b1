//! The Media Generation Service contract in plain Rust.
//!
//! This crate is the single source of truth for the service's interface: wire
//! types with the document's field names, the envelope rules, every
//! validation rule, the naming rule and the published defaults. It performs no
//! I/O and depends on nothing browser- or server-specific, so the browser app,
//! the JavaScript bindings and the sandbox all share exactly the same rules.
//! The crate README maps each rule to the document section it comes from.

pub mod any_task;
pub mod archive;
pub mod batch;
pub mod batch_run;
pub mod callback;
pub mod cost;
pub mod curl;
pub mod decode;
pub mod defaults;
pub mod endpoint;
pub mod envelope;
pub mod error_codes;
pub mod every_model;
pub mod export;
pub mod follow;
pub mod image_generate;
pub mod image_to_video;
pub mod kept;
pub mod kind;
pub mod languages;
mod lenient;
pub mod library;
pub mod media_field;
pub mod media_inputs;
pub mod media_type;
pub mod model_rules;
pub mod next_job;
pub mod organise;
pub mod path;
pub mod poll;
#[cfg(feature = "server")]
pub mod reach;
pub mod relay;
pub mod request;
pub mod retry;
#[cfg(feature = "model")]
pub mod service;
pub mod share;
pub mod size_text;
pub mod status;
#[cfg(feature = "server")]
pub mod submit_body;
pub mod subtitles;
pub mod task_key;
pub mod tus;
#[cfg(feature = "typescript")]
pub mod typescript;
pub mod upload;
pub mod url_parts;
pub mod validate;
pub mod values;
pub mod video_translate;
mod wire_enum;

pub use any_task::{AnyTask, TaggedTask};
pub use callback::Callback;
pub use curl::{curl_command, shell_quote, CurlToken, TOKEN_VARIABLE};
pub use decode::{decode_data, decode_envelope, decode_task, ResponseError};
pub use endpoint::{Endpoint, NotDocumented};
pub use envelope::{Envelope, ErrorEnvelope, SUCCESS_CODE};
pub use image_generate::{ImageGenerateRequest, ImageGenerateTask};
pub use image_to_video::{ImageToVideoRequest, ImageToVideoTask, TaskIds};
pub use kind::TaskKind;
pub use languages::{TargetLanguages, TARGET_LANGUAGES_PATH};
pub use model_rules::{Mode, ModelRules, Support};
pub use next_job::{made_from, NextJob, StartedFrom};
pub use request::Request;
pub use status::TaskStatus;
pub use subtitles::{ass_to_vtt, Vtt};
pub use task_key::{NotATaskKey, TaskKey};
pub use validate::{
    validate_image_generate, validate_image_to_video, validate_video_translate, Context, ImageInfo,
    Problem, Problems, Rule, Severity,
};
pub use values::{AspectRatio, ImageQuality, ImageRatio, Model, Module, Resolution};
pub use video_translate::{
    predicted_name, TranslationTaskRef, VideoTranslateRequest, VideoTranslateTask,
};
pub use wire_enum::UnknownValue;
