//! The contract's tests against the interface document, one binary (linked
//! once): a module per part of the document (`doc_*`), and properties
//! (proptest) over every rule.

// Test-only crate: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

mod common;

mod doc_callbacks;
mod doc_envelopes_states_endpoints;
mod doc_image_generate;
mod doc_image_to_video_request;
mod doc_limits;
mod doc_per_model_rules;
mod doc_video_translate;
mod properties;
