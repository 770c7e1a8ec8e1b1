//! Form state per task kind: signals to and from a `media-gen-api` request.

pub mod image_generate;
