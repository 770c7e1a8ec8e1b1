//! The Media Generation Service contract in plain Rust.
//!
//! This crate is the single source of truth for the service's interface: the
//! wire types, the envelope rules and (as the crate grows) validation and
//! polling arithmetic. It performs no I/O and depends on nothing browser- or
//! server-specific, so the browser app, the JavaScript bindings and the sandbox
//! all share exactly the same rules.

pub mod envelope;
pub mod kind;
pub mod languages;

pub use envelope::{Envelope, ErrorEnvelope, SUCCESS_CODE};
pub use kind::TaskKind;
pub use languages::{TargetLanguages, TARGET_LANGUAGES_PATH};
