//! The time, as the gateway's records keep it.

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds in a day: days are counted in UTC, from midnight.
pub const DAY: u64 = 86_400;

/// Seconds since 1970 (0 on a clock set before it).
pub fn now_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
}
