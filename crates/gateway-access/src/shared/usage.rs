//! Each person's use, in Redis: `media-gen:tasks:{day}` counts the tasks
//! each person made that day (UTC; kept two days), `media-gen:last-used`
//! holds each person's last call. A task is counted by one script that
//! checks the day's allowance and counts in one step, so two gateways
//! taking a person's last task at once give it to one of them.

use std::collections::HashMap;
use std::sync::LazyLock;
use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::AsyncCommands;

use crate::person_usage::{PersonUsage, DAY};
use crate::redis_link::StoreError;

/// The hash of each person's last call.
const LAST_USED: &str = "media-gen:last-used";

/// `KEYS[1]`: the day's counts. `ARGV`: the person, the tasks asked, the
/// tasks a day allowed. The tasks left after them, or -1 when they do not
/// fit (and nothing is counted).
static TAKE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
local after = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') + tonumber(ARGV[2])
if after > tonumber(ARGV[3]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], after)
redis.call('EXPIRE', KEYS[1], 172800)
return tonumber(ARGV[3]) - after
",
    )
});

/// `KEYS[1]`: the last calls. `ARGV`: pairs of a person and a time; each
/// kept unless a later one is.
static SEEN: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
for i = 1, #ARGV, 2 do
  local kept = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
  if tonumber(ARGV[i + 1]) > kept then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return 0
",
    )
});

fn day_key(now: u64) -> String {
    format!("media-gen:tasks:{}", now / DAY)
}

/// Count `tasks` for `name` at `now` against `per_day`: the tasks left
/// today after them, or how long until more may be made (the next day).
pub async fn take_tasks(
    connection: &mut ConnectionManager,
    name: &str,
    tasks: u32,
    per_day: u32,
    now: u64,
) -> Result<Result<u32, Duration>, StoreError> {
    let left: i64 = TAKE
        .key(day_key(now))
        .arg(name)
        .arg(tasks)
        .arg(per_day)
        .invoke_async(connection)
        .await?;
    Ok(u32::try_from(left).map_err(|_| Duration::from_secs(DAY - now % DAY)))
}

/// The tasks `name` made on the day of `now`.
pub async fn tasks_on(
    connection: &mut ConnectionManager,
    name: &str,
    now: u64,
) -> Result<u32, StoreError> {
    let used: Option<u32> = connection.hget(day_key(now), name).await?;
    Ok(used.unwrap_or(0))
}

/// Keep these last calls (each unless a later one is kept).
pub async fn seen(
    connection: &mut ConnectionManager,
    last_calls: &[(String, u64)],
) -> Result<(), StoreError> {
    if last_calls.is_empty() {
        return Ok(());
    }
    let mut script = SEEN.key(LAST_USED);
    for (name, at) in last_calls {
        script.arg(name).arg(at);
    }
    script.invoke_async::<i64>(connection).await?;
    Ok(())
}

/// Everyone's use as of `now`.
pub async fn everyone(
    connection: &mut ConnectionManager,
    now: u64,
) -> Result<HashMap<String, PersonUsage>, StoreError> {
    let last: HashMap<String, u64> = connection.hgetall(LAST_USED).await?;
    let today: HashMap<String, u32> = connection.hgetall(day_key(now)).await?;
    let mut people: HashMap<String, PersonUsage> = last
        .into_iter()
        .map(|(name, last_used)| {
            let usage = PersonUsage {
                last_used,
                ..PersonUsage::default()
            };
            (name, usage)
        })
        .collect();
    for (name, tasks) in today {
        let person = people.entry(name).or_default();
        person.day = now / DAY;
        person.tasks_today = tasks;
    }
    Ok(people)
}

/// The sorted set of the people forgotten, by their mark, scored by when
/// ([`crate::forgotten`]).
const FORGOTTEN: &str = "media-gen:forgotten";

/// Forget `name` at `now` in Redis: their last call and tasks of the day,
/// their upload bytes of the day, their budgets' counts; their mark kept
/// a day so running gateways drop what they hold of them. How many
/// records of use were removed.
pub async fn forget(
    connection: &mut ConnectionManager,
    name: &str,
    now: u64,
) -> Result<u64, StoreError> {
    use crate::forgotten::{mark, REMEMBERED};
    let owner = format!("person:{name}");
    let days = [now / DAY, (now / DAY).saturating_sub(1)];
    let mut pipe = redis::pipe();
    pipe.hdel(LAST_USED, name);
    for day in days {
        pipe.hdel(format!("media-gen:tasks:{day}"), name);
    }
    for day in days {
        pipe.hdel(format!("media-gen:upload-bytes:{day}"), &owner)
            .ignore();
    }
    pipe.del(&[
        format!("media-gen:budget:requests:{owner}"),
        format!("media-gen:budget:tasks:{owner}"),
    ])
    .ignore()
    .zadd(FORGOTTEN, mark(name), now)
    .ignore()
    .zrembyscore(FORGOTTEN, "-inf", now.saturating_sub(REMEMBERED))
    .ignore();
    let removed: (u64, u64, u64) = pipe.query_async(connection).await?;
    Ok(removed.0 + removed.1 + removed.2)
}

/// The marks of the people forgotten in the last day.
pub async fn forgotten(connection: &mut ConnectionManager) -> Result<Vec<String>, StoreError> {
    Ok(connection.zrange(FORGOTTEN, 0, -1).await?)
}
