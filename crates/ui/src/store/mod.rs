//! The only code that touches browser storage.

pub mod record;
pub mod settings;
pub mod sync;
pub mod tasks;
