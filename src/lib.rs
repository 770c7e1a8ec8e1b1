//! The Media Generation Service in the browser.
//!
//! This crate is both the single-page app (the `media-gen-app` binary mounts
//! [`app::App`]) and, as a `cdylib`, the JavaScript bindings. The contract
//! itself lives in `media-gen-api`, the HTTP client and the polling engine
//! in `media-gen-client`; this crate is the views over them.

pub mod app;
pub mod components;
pub mod forms;
pub mod store;
pub mod text;
#[cfg(feature = "widgets")]
pub mod widgets;
