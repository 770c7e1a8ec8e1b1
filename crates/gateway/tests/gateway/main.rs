//! The gateway's tests over real HTTP, one binary (linked once): forwarding,
//! abuse, operations, the relay's bounds, the static files and uploads, a module
//! each, against a stand-in service that records what reached it.

// Test-only crate: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

mod support;

mod abuse;
mod access;
mod admission;
mod config_file;
mod forwarding;
mod kept;
mod library;
mod operations;
mod relay_bounds;
mod static_files;
mod uploads;
