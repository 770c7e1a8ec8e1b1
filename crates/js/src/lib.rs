//! The client module for JavaScript, packed for npm by `cargo xtask npm`
//! under the package's `client` entry: the `validate*` functions, and the
//! decisions the entry's JavaScript (`createClient`, `watch`, `upload`)
//! carries out with `fetch`, timers and `EventSource`: each call's answer
//! and retry plan (`call.rs`), the follow engine (`follower.rs`), requests
//! and paths (`wire.rs`), an upload's rules (`upload_rules.rs`); with the
//! TypeScript declarations of the wire types.
//!
//! A thin layer over the contract (`media-gen-api`), with no view code and
//! no I/O, so a page that only calls the service loads only this.
//! The widgets module (`media-gen-widgets`) shares the options, errors and
//! JSON bridge, without the exports.

pub mod bridge;
#[cfg(feature = "exports")]
mod call;
pub mod connection;
#[cfg(feature = "exports")]
mod follower;
pub mod object;
pub mod read;
#[cfg(feature = "exports")]
mod results;
#[cfg(feature = "exports")]
mod upload_rules;
#[cfg(feature = "exports")]
mod validate;
pub mod widget_options;
#[cfg(feature = "exports")]
mod wire;

/// As the module loads (the client module and the widgets' module alike):
/// the rules read URLs with the browser's `URL`.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    media_gen_client::use_browser_urls();
}

/// The TypeScript types of requests, tasks and problems, generated from
/// the contract's Rust types (see `the_wire_types_are_declared_as_rust_generates_them`).
#[cfg(feature = "exports")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const WIRE_TYPES: &str = include_str!("wire_types.d.ts");

/// The TypeScript types of the JavaScript API itself: options, errors,
/// updates, and the unions over the kinds.
#[cfg(feature = "exports")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

#[cfg(test)]
mod tests {
    /// `wire_types.d.ts` is what ts-rs generates from the contract's Rust
    /// types; `MEDIA_GEN_WRITE_TYPES=1` writes it after a change of them.
    #[test]
    fn the_wire_types_are_declared_as_rust_generates_them() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/wire_types.d.ts");
        let generated = media_gen_api::typescript::declarations();
        if std::env::var_os("MEDIA_GEN_WRITE_TYPES").is_some() {
            std::fs::write(path, &generated).expect("write wire_types.d.ts");
        }
        let written = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            written == generated,
            "crates/js/src/wire_types.d.ts is not what Rust generates; run \
             `MEDIA_GEN_WRITE_TYPES=1 cargo test -p media-gen-js` and review the change"
        );
    }
}
