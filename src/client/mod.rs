//! The only code that speaks HTTP.

pub mod demo;
