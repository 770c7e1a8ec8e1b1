//! The only code that touches browser storage.

pub mod settings;
