//! One person's use of the gateway: their last call and the tasks of the
//! current day (UTC). What the counts in memory ([`super::usage`]), in
//! Redis ([`super::shared::usage`]) and in the library's database
//! ([`crate::database::PeopleDatabase`]) each hold.

use serde::{Deserialize, Serialize};

pub use media_gen_gateway_base::clock::DAY;

/// One person's use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonUsage {
    /// Their last call (seconds since 1970, UTC).
    pub last_used: u64,
    /// The day `tasks_today` counts (days since 1970, UTC).
    pub day: u64,
    /// Tasks created on that day.
    pub tasks_today: u32,
}

impl PersonUsage {
    /// Tasks created today, as of `now`.
    pub fn tasks_on(&self, now: u64) -> u32 {
        if self.day == now / DAY {
            self.tasks_today
        } else {
            0
        }
    }
}
