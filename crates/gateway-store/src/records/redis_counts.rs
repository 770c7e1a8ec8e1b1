//! The counts of the records in Redis ([`crate::counts`]): the hash
//! `media-gen:upload-counts` holds them, and `media-gen:upload-charges`
//! each record's charge, so one script writes a record and moves its
//! charge in the counts in one step, whichever gateway writes it. A charge
//! is written `count\tamount` a line: Redis's scripts read it with no JSON
//! and no floating point.

use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use crate::counts::{Charge, Counts};
use crate::FileId;

/// The set of every record's id.
pub const IDS: &str = "media-gen:uploads";
/// The counts.
pub const COUNTS: &str = "media-gen:upload-counts";
/// Each record's charge, by id.
pub const CHARGES: &str = "media-gen:upload-charges";

/// `KEYS`: the record, the set of ids, [`CHARGES`], [`COUNTS`]. `ARGV`:
/// the id, the record's text (empty: remove it), its charge, and when
/// given, the text the record must still have (empty: none) for anything
/// to be written (a recount mending a charge, never a newer record). The
/// old charge leaves the counts and the new one enters, with the record.
static WRITE: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(WRITE_SOURCE));

/// [`WRITE`]'s source, also sent whole inside a transaction (`EVAL`).
pub const WRITE_SOURCE: &str = r"
if ARGV[4] and (redis.call('GET', KEYS[1]) or '') ~= ARGV[4] then return 0 end
local old = redis.call('HGET', KEYS[3], ARGV[1])
if old then
  for count, amount in string.gmatch(old, '([^\t\n]+)\t(%d+)') do
    if redis.call('HINCRBY', KEYS[4], count, '-' .. amount) <= 0 then
      redis.call('HDEL', KEYS[4], count)
    end
  end
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
else
  redis.call('SET', KEYS[1], ARGV[2])
  redis.call('SADD', KEYS[2], ARGV[1])
  for count, amount in string.gmatch(ARGV[3], '([^\t\n]+)\t(%d+)') do
    redis.call('HINCRBY', KEYS[4], count, amount)
  end
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
end
return 1
";

/// `KEYS`: [`CHARGES`], [`COUNTS`]. The counts summed again from every
/// charge, in one step; each count that differed, as it was and as summed.
static RECOUNT: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
local sums = {}
local charges = redis.call('HGETALL', KEYS[1])
for i = 2, #charges, 2 do
  for count, amount in string.gmatch(charges[i], '([^\t\n]+)\t(%d+)') do
    sums[count] = (sums[count] or 0) + tonumber(amount)
  end
end
local held = redis.call('HGETALL', KEYS[2])
local drift = {}
local seen = {}
for i = 1, #held, 2 do
  local count, was = held[i], tonumber(held[i + 1]) or 0
  seen[count] = true
  local summed = sums[count] or 0
  if was ~= summed then
    table.insert(drift, {count, string.format('%d', was), string.format('%d', summed)})
  end
end
for count, summed in pairs(sums) do
  if not seen[count] and summed ~= 0 then
    table.insert(drift, {count, '0', string.format('%d', summed)})
  end
end
redis.call('DEL', KEYS[2])
for count, summed in pairs(sums) do
  if summed > 0 then redis.call('HSET', KEYS[2], count, string.format('%d', summed)) end
end
return drift
",
    )
});

/// A charge as the scripts read it.
pub fn written(charge: &Charge) -> String {
    charge
        .0
        .iter()
        .map(|(count, amount)| format!("{count}\t{amount}\n"))
        .collect()
}

/// The counts as Redis holds them.
pub async fn read(connection: &mut redis::aio::ConnectionManager) -> redis::RedisResult<Counts> {
    let held: HashMap<String, i64> = redis::cmd("HGETALL")
        .arg(COUNTS)
        .query_async(connection)
        .await?;
    Ok(Counts::from_map(
        held.into_iter()
            .map(|(count, amount)| (count, u64::try_from(amount).unwrap_or(0)))
            .collect::<BTreeMap<_, _>>(),
    ))
}

/// Mend the charges of `records` (each id with its text as read) where
/// they differ from what is kept, then sum the counts again: the drift
/// found, each count as it was and as summed.
pub async fn recount(
    connection: &mut redis::aio::ConnectionManager,
    records: &[(FileId, String, Charge)],
    record_key: impl Fn(&FileId) -> String,
) -> redis::RedisResult<Vec<(String, u64, u64)>> {
    let kept: HashMap<String, String> = redis::cmd("HGETALL")
        .arg(CHARGES)
        .query_async(connection)
        .await?;
    let mut seen = std::collections::HashSet::new();
    for (id, text, charge) in records {
        seen.insert(id.as_str().to_owned());
        let charge = written(charge);
        if kept.get(id.as_str()) != Some(&charge) {
            write(
                connection,
                &record_key(id),
                id.as_str(),
                text,
                &charge,
                Some(text),
            )
            .await?;
        }
    }
    for id in kept.keys().filter(|id| !seen.contains(id.as_str())) {
        // A charge whose record is gone: mended only if it is still gone.
        if let Some(id) = FileId::parse(id) {
            write(connection, &record_key(&id), id.as_str(), "", "", Some("")).await?;
        }
    }
    let drift: Vec<(String, String, String)> = RECOUNT
        .key(CHARGES)
        .key(COUNTS)
        .invoke_async(connection)
        .await?;
    Ok(drift
        .into_iter()
        .map(|(count, was, summed)| (count, was.parse().unwrap_or(0), summed.parse().unwrap_or(0)))
        .collect())
}

/// Write `id`'s record `text` (empty: remove it) with its `charge`, the
/// counts moved in the same step; when `expected` is given, only if the
/// record is still that text (empty: none). Whether it was written.
pub async fn write(
    connection: &mut redis::aio::ConnectionManager,
    key: &str,
    id: &str,
    text: &str,
    charge: &str,
    expected: Option<&str>,
) -> redis::RedisResult<bool> {
    let mut write = WRITE.key(key);
    write
        .key(IDS)
        .key(CHARGES)
        .key(COUNTS)
        .arg(id)
        .arg(text)
        .arg(charge);
    if let Some(expected) = expected {
        write.arg(expected);
    }
    write
        .invoke_async::<i64>(connection)
        .await
        .map(|written| written == 1)
}
