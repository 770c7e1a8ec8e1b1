//! The only code that touches browser storage.

pub mod record;
pub mod settings;
pub mod sync;
pub mod tasks;
#[cfg(feature = "uploads")]
pub mod uploads;
