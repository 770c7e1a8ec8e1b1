//! The sandbox's HTTP tests, one binary (linked once), a module per
//! subject: tasks, callbacks, faults, fetched inputs, bounds, errors, CORS, languages, media TTL, the
//! README's cURL commands and hostile requests.

// Test-only crate: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

mod common;

mod bounds;
mod callbacks;
mod cors;
mod curl_commands;
mod errors;
mod faults;
mod fetch_inputs;
mod hostile_requests;
mod languages;
mod media_ttl;
mod tasks;
