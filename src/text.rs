//! Lower-casing for case-insensitive search (the board's filter, the
//! language picker).
//!
//! In the browser the text goes through `String.prototype.toLowerCase`: the
//! browser already carries the Unicode case tables, and Rust's would add
//! about 8 KB of gzipped wasm. Natively (unit tests) Rust's own are used; both
//! follow Unicode's default lower-case mapping.

/// `text` in lower case, for comparing without regard to case.
pub fn lower(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        String::from(js_sys::JsString::from(text).to_lower_case())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.to_lowercase()
    }
}
