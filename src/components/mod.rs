//! Reusable views, one file each.

pub mod field;
pub mod problems;

pub use field::Field;
pub use problems::FieldProblems;
