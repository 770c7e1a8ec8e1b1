//! Each owner's upload budgets: bytes a day (UTC), counted as an upload is
//! made (its declared length), and uploads under way at once (counted from
//! the records, so shared with them). The bytes of the day are counted in
//! Redis with `--redis` (`media-gen:upload-bytes:{day}`, one script that
//! checks and counts, so two gateways cannot both give the last bytes),
//! and in this gateway's memory without it or while Redis does not answer.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::Duration;

use super::refusal::UploadRefusal;
use crate::access::person_usage::DAY;
use crate::redis_link::RedisLink;

/// `KEYS[1]`: the day's bytes per owner. `ARGV`: the owner, the bytes
/// asked, the bytes a day allowed. 1 when they fit (and are counted), else 0.
static TAKE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
local after = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') + tonumber(ARGV[2])
if after > tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], after)
redis.call('EXPIRE', KEYS[1], 172800)
return 1
",
    )
});

/// The budgets and what each owner used today.
pub struct UploadBudgets {
    bytes_per_day: u64,
    in_flight: usize,
    /// Owner → (day, bytes that day), without Redis.
    used: Mutex<HashMap<String, (u64, u64)>>,
    redis: Option<Arc<RedisLink>>,
}

impl UploadBudgets {
    /// `bytes_per_day` and `in_flight` uploads at once, per owner, the
    /// bytes counted in `redis` when given.
    pub fn new(
        bytes_per_day: u64,
        in_flight: usize,
        redis: Option<Arc<RedisLink>>,
    ) -> UploadBudgets {
        UploadBudgets {
            bytes_per_day,
            in_flight,
            used: Mutex::default(),
            redis,
        }
    }

    /// Count `length` bytes for `owner` at `now` in Redis: whether they
    /// fit, or `None` when Redis cannot say.
    async fn take_shared(&self, owner: &str, length: u64, now: u64) -> Option<bool> {
        let mut connection = self.redis.as_ref()?.connection().ok()?;
        let fits: redis::RedisResult<i64> = TAKE
            .key(format!("media-gen:upload-bytes:{}", now / DAY))
            .arg(owner)
            .arg(length)
            .arg(self.bytes_per_day)
            .invoke_async(&mut connection)
            .await;
        match fits {
            Ok(fits) => Some(fits == 1),
            Err(error) => {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "upload bytes counted here: redis does not answer");
                None
            }
        }
    }

    /// Count an upload of `length` bytes by `owner`, who has
    /// `under_way` uploads not complete, at `now`; or why not.
    pub async fn take(
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
        let over = || UploadRefusal::BytesOfTheDayUsed(self.bytes_per_day, until_midnight);
        match self.take_shared(owner, length, now).await {
            Some(true) => return Ok(()),
            Some(false) => return Err(over()),
            None => {}
        }
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = used.entry(owner.to_owned()).or_insert((now / DAY, 0));
        if entry.0 != now / DAY {
            *entry = (now / DAY, 0);
        }
        if entry.1.saturating_add(length) > self.bytes_per_day {
            return Err(over());
        }
        entry.1 += length;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bytes_a_day_and_uploads_at_once_are_counted_per_owner() {
        let budgets = UploadBudgets::new(100, 2, None);
        let noon = 20_000 * DAY + DAY / 2;
        assert_eq!(budgets.take("ada", 60, 0, noon).await, Ok(()));
        assert_eq!(
            budgets.take("ada", 50, 1, noon).await,
            Err(UploadRefusal::BytesOfTheDayUsed(
                100,
                Duration::from_secs(DAY / 2)
            ))
        );
        assert_eq!(budgets.take("ada", 40, 1, noon).await, Ok(()));
        assert!(matches!(
            budgets.take("ada", 0, 2, noon).await,
            Err(UploadRefusal::TooManyInFlight(2, _))
        ));
        assert_eq!(budgets.take("grace", 100, 0, noon).await, Ok(()));
        assert_eq!(
            budgets.take("ada", 100, 0, noon + DAY).await,
            Ok(()),
            "a new day"
        );
    }
}
