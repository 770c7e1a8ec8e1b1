//! The browser tests, one binary: the app, its client and its storage in
//! headless Chromium, against the sandbox `cargo xtask test` starts. One
//! page runs them all, one after another (each test mounts its own app and
//! clears what it relies on: see `mount`); each module's own documentation
//! says what it covers.
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
mod stored_records;
mod task_pages;
mod urls;
mod web;
