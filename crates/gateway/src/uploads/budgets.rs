//! Each owner's upload budgets: bytes a day (UTC), counted as an upload is
//! made (its declared length), and uploads under way at once. In this
//! gateway's memory.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use super::refusal::UploadRefusal;
use crate::access::usage::DAY;

/// The budgets and what each owner used today.
pub struct UploadBudgets {
    bytes_per_day: u64,
    in_flight: usize,
    /// Owner → (day, bytes that day).
    used: Mutex<HashMap<String, (u64, u64)>>,
}

impl UploadBudgets {
    /// `bytes_per_day` and `in_flight` uploads at once, per owner.
    pub fn new(bytes_per_day: u64, in_flight: usize) -> UploadBudgets {
        UploadBudgets {
            bytes_per_day,
            in_flight,
            used: Mutex::default(),
        }
    }

    /// Count an upload of `length` bytes by `owner`, who has
    /// `under_way` uploads not complete, at `now`; or why not.
    pub fn take(
        &self,
        owner: &str,
        length: u64,
        under_way: usize,
        now: u64,
    ) -> Result<(), UploadRefusal> {
        let until_midnight = Duration::from_secs(DAY - now % DAY);
        if under_way >= self.in_flight {
            // An upload under way ends within its idle timeout or is cancelled:
            // a minute is a fair first wait.
            return Err(UploadRefusal::TooManyInFlight(
                self.in_flight,
                Duration::from_secs(60),
            ));
        }
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = used.entry(owner.to_owned()).or_insert((now / DAY, 0));
        if entry.0 != now / DAY {
            *entry = (now / DAY, 0);
        }
        if entry.1.saturating_add(length) > self.bytes_per_day {
            return Err(UploadRefusal::BytesOfTheDayUsed(
                self.bytes_per_day,
                until_midnight,
            ));
        }
        entry.1 += length;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_a_day_and_uploads_at_once_are_counted_per_owner() {
        let budgets = UploadBudgets::new(100, 2);
        let noon = 20_000 * DAY + DAY / 2;
        assert_eq!(budgets.take("ada", 60, 0, noon), Ok(()));
        assert_eq!(
            budgets.take("ada", 50, 1, noon),
            Err(UploadRefusal::BytesOfTheDayUsed(
                100,
                Duration::from_secs(DAY / 2)
            ))
        );
        assert_eq!(budgets.take("ada", 40, 1, noon), Ok(()));
        assert!(matches!(
            budgets.take("ada", 0, 2, noon),
            Err(UploadRefusal::TooManyInFlight(2, _))
        ));
        assert_eq!(budgets.take("grace", 100, 0, noon), Ok(()));
        assert_eq!(budgets.take("ada", 100, 0, noon + DAY), Ok(()), "a new day");
    }
}
