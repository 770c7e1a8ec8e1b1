//! The JavaScript API, packed for npm by `cargo xtask npm` (feature `widgets`):
//! `createClient`, the `validate*` functions, `mountSubmitWidget` and
//! `mountStatusWidget`. The package's `index.js` (in `npm/`) adds the event
//! name constants and the custom elements on top.
//!
//! Everything here is a thin layer: forms and views come from `forms/` and
//! `components/`, requests from `client/`, rules from `media-gen-api`.

pub mod bridge;
pub mod connection;
pub mod events;
pub mod handle;
pub mod js_client;
pub mod mounted;
pub mod status;
pub mod submit;
pub mod validate;

use wasm_bindgen::prelude::*;

/// The TypeScript types of requests, tasks, problems, options and event details.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");
