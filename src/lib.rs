//! The Media Generation Service in the browser.
//!
//! This crate is both the single-page app (the `media-gen-app` binary mounts
//! [`app::App`]) and, as a `cdylib`, the JavaScript bindings. The contract
//! itself lives in `media-gen-api`; this crate is the thin browser layer over it.

pub mod app;
pub mod client;
pub mod components;
pub mod forms;
pub mod store;
pub mod text;
#[cfg(feature = "widgets")]
pub mod widgets;
