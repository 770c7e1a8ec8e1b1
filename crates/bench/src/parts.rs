//! The benchmark's parts, in the order they run. `cargo xtask bench` reads
//! this file too (so a misspelt part is refused before anything is built):
//! it holds nothing but the list.

/// The parts, in the order they run.
pub const PARTS: [&str; 13] = [
    "sizes",
    "load",
    "board",
    "batch",
    "polling",
    "relay",
    "throughput",
    "gateway",
    "uploads",
    "kept",
    "sign_ins",
    "library",
    "sharing",
];
