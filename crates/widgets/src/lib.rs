//! The JavaScript API, packed for npm by `cargo xtask npm`: `createClient`,
//! the `validate*` functions, `mountSubmitWidget` and `mountStatusWidget`.
//! The package's `index.js` (in `npm/`) adds the event name constants and
//! the custom elements on top.
//!
//! Everything here is a thin layer: forms and views come from
//! `media-gen-ui`, requests go through the page's JavaScript client (the
//! client entry's, `page_client.rs`), rules come from `media-gen-api`. The app is not a dependency: no page of it can reach the
//! package.

pub mod chunks;
pub mod events;
pub mod handle;
#[cfg(test)]
mod manifest;
pub mod mounted;
pub mod next_jobs;
pub mod page_client;
pub mod status;
pub mod submit;

use wasm_bindgen::prelude::*;

/// The TypeScript types of the widgets' options and events details.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");
