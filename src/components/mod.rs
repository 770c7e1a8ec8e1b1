//! Reusable views, one file each.

pub mod field;

pub use field::Field;
