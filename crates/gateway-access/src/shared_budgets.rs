//! The per-visitor budgets counted in Redis (`--redis`), so several
//! gateways behind a balancer give each visitor one budget between them,
//! not one each.
//!
//! The same rule as [`crate::budgets::Budgets`] (governor's): the generic cell rate
//! algorithm, the whole budget available at once and refilled evenly over
//! its period. Each check is one Lua script, so the read and the update of
//! a visitor's theoretical arrival time are one step for every gateway.

use std::num::NonZeroU32;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use std::sync::Arc;

use crate::redis_link::RedisLink;
use crate::Who;

use crate::redis_link::StoreError;

/// GCRA: `KEYS[1]` holds the visitor's theoretical arrival time (ms);
/// `ARGV`: now (ms), the interval one unit costs (ms), the period (ms),
/// the units asked. Returns 0 when taken, else the milliseconds to wait.
const GCRA: &str = r"
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local period = tonumber(ARGV[3])
local units = tonumber(ARGV[4])
local tat = tonumber(redis.call('GET', KEYS[1]) or ARGV[1])
if tat < now then tat = now end
local new_tat = tat + interval * units
local wait = new_tat - period - now
if wait > 0 then return math.ceil(wait) end
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil(new_tat - now))
return 0
";

/// One budget: `quota` units per `period`, per visitor.
#[derive(Debug, Clone, Copy)]
struct Budget {
    name: &'static str,
    quota: NonZeroU32,
    period: Duration,
}

/// The two budgets, in Redis.
pub struct SharedBudgets {
    link: Arc<RedisLink>,
    script: redis::Script,
    requests: Budget,
    tasks: Budget,
}

impl SharedBudgets {
    /// The budgets of [`crate::budgets::Budgets::new`], counted in the Redis of `link`.
    pub fn new(
        link: Arc<RedisLink>,
        requests_per_minute: NonZeroU32,
        tasks_per_hour: NonZeroU32,
    ) -> SharedBudgets {
        SharedBudgets {
            link,
            script: redis::Script::new(GCRA),
            requests: Budget {
                name: "requests",
                quota: requests_per_minute,
                period: Duration::from_secs(60),
            },
            tasks: Budget {
                name: "tasks",
                quota: tasks_per_hour,
                period: Duration::from_secs(3_600),
            },
        }
    }

    /// Count one request from `client`; `Err(wait)` when over budget.
    pub async fn request(&self, client: &Who) -> Result<Result<(), Duration>, StoreError> {
        self.take(self.requests, client, 1).await
    }

    /// Count `tasks` tasks a submit from `client` would create; a submit
    /// larger than the whole budget waits a period.
    pub async fn submit(
        &self,
        client: &Who,
        tasks: u64,
    ) -> Result<Result<(), Duration>, StoreError> {
        if tasks > u64::from(self.tasks.quota.get()) {
            return Ok(Err(self.tasks.period));
        }
        self.take(self.tasks, client, tasks.max(1)).await
    }

    async fn take(
        &self,
        budget: Budget,
        client: &Who,
        units: u64,
    ) -> Result<Result<(), Duration>, StoreError> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis() as u64;
        let period = budget.period.as_millis() as u64;
        let interval = period as f64 / f64::from(budget.quota.get());
        let wait: u64 = self
            .script
            .key(format!("media-gen:budget:{}:{client}", budget.name))
            .arg(now)
            .arg(interval)
            .arg(period)
            .arg(units)
            .invoke_async(&mut self.link.connection()?)
            .await?;
        Ok(if wait == 0 {
            Ok(())
        } else {
            Err(Duration::from_millis(wait))
        })
    }
}
