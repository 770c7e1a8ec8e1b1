//! The end-to-end tests, one binary (linked once, its tests run three at
//! a time however many each file holds): the release build of the app, the
//! npm package, the gateway, nginx and Redis, driven as people and
//! operators use them. Each module's own documentation says what it covers.

// Test-only crate: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

mod common;

mod actions;
mod app_shell;
mod batch;
mod behind_nginx;
mod check;
mod chunks;
mod every_page;
mod file_fields;
mod flows;
mod guidance;
mod harness;
mod images;
mod keystrokes;
mod library;
mod navigation;
mod next_jobs;
mod organise;
mod other_site;
mod phone_and_compare;
mod redis_faults;
mod relay;
mod relay_abuse;
mod results;
mod results_kept;
mod shared_access;
mod sharing;
mod sign_in;
mod testing;
mod uploads;
mod uploads_shared;
mod widgets;
