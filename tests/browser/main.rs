//! The app's browser tests, one binary (linked once, one Chromium for all),
//! run by `cargo xtask test` in headless Chromium against a sandbox: a
//! module per subject. Tests share the page: each starts from what it
//! needs (its own mount, its own stored tasks).
#![cfg(target_arch = "wasm32")]
// Test-only crate: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

use wasm_bindgen_test::wasm_bindgen_test_configure;

wasm_bindgen_test_configure!(run_in_browser);

mod mount;
mod sandbox;

mod board;
mod client;
mod faults;
mod forms;
mod keyboard_and_alerts;
mod poller;
mod result_tools;
mod settings;
mod task_pages;
mod urls;
mod web;
