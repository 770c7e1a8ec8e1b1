//! Leptos hooks: reactive wrappers of browser facilities, one file each,
//! named `use_*` as leptos-use names them.

mod use_now;

pub use use_now::use_now;
