//! What a key grants, in Redis: each grant (a session, a page token) is
//! `media-gen:grant:{kind}:{hash}`, its [`Stored`] JSON, living as long as
//! the grant may (Redis drops it then); `media-gen:grants:{kind}` orders
//! the hashes by when each ends, so counting the live ones is one
//! `ZCARD`. A lookup is one script: read the grant, end it when it is past
//! its lifetime or idle too long, else push its end back by the idle time.

use std::sync::LazyLock;
use std::time::Duration;

use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};

use crate::redis_link::StoreError;

/// A grant as Redis keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    /// The person it names.
    pub name: String,
    /// The hash of the key it came from.
    pub key_hash: String,
    /// When it was given (seconds since 1970).
    pub created: u64,
    /// How long it lasts at most (seconds).
    pub lifetime: u64,
}

/// `KEYS[1]`: the grant; `KEYS[2]`: its kind's index. `ARGV`: its hash,
/// now (s), the idle time that ends it (s; 0: none). The grant's JSON
/// while it lives, else nothing (and it is gone).
static LOOK_UP: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
local value = redis.call('GET', KEYS[1])
if not value then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return false
end
local grant = cjson.decode(value)
local now = tonumber(ARGV[2])
local idle = tonumber(ARGV[3])
local ends = grant.created + grant.lifetime
if idle > 0 and now + idle < ends then ends = now + idle end
if ends <= now then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  return false
end
redis.call('EXPIRE', KEYS[1], ends - now)
redis.call('ZADD', KEYS[2], ends, ARGV[1])
return value
",
    )
});

fn grant_key(kind: &str, hash: &str) -> String {
    format!("media-gen:grant:{kind}:{hash}")
}

fn index_key(kind: &str) -> String {
    format!("media-gen:grants:{kind}")
}

/// When a grant made at `now` first ends: its lifetime, or sooner its idle time.
fn first_end(grant: &Stored, idle: Option<Duration>) -> u64 {
    let lifetime = grant.lifetime.max(1);
    idle.map_or(lifetime, |idle| lifetime.min(idle.as_secs().max(1)))
}

/// Keep `grant` of `kind` under `hash`, ending after its lifetime or
/// (when given) `idle` without use.
pub async fn give(
    connection: &mut ConnectionManager,
    kind: &str,
    hash: &str,
    grant: &Stored,
    idle: Option<Duration>,
) -> Result<(), StoreError> {
    let json = serde_json::to_string(grant)?;
    let lasts = first_end(grant, idle);
    redis::pipe()
        .atomic()
        .set_ex(grant_key(kind, hash), json, lasts)
        .ignore()
        .zadd(index_key(kind), hash, grant.created + lasts)
        .ignore()
        .query_async::<()>(connection)
        .await?;
    Ok(())
}

/// The grant of `kind` under `hash`, while it lives at `now` (the call
/// counts as use: it ends `idle` from now, if given, unless sooner).
pub async fn look_up(
    connection: &mut ConnectionManager,
    kind: &str,
    hash: &str,
    now: u64,
    idle: Option<Duration>,
) -> Result<Option<Stored>, StoreError> {
    let json: Option<String> = LOOK_UP
        .key(grant_key(kind, hash))
        .key(index_key(kind))
        .arg(hash)
        .arg(now)
        .arg(idle.map_or(0, |idle| idle.as_secs().max(1)))
        .invoke_async(connection)
        .await?;
    Ok(json.map(|json| serde_json::from_str(&json)).transpose()?)
}

/// End the grant of `kind` under `hash`.
pub async fn end(
    connection: &mut ConnectionManager,
    kind: &str,
    hash: &str,
) -> Result<(), StoreError> {
    redis::pipe()
        .atomic()
        .del(grant_key(kind, hash))
        .ignore()
        .zrem(index_key(kind), hash)
        .ignore()
        .query_async::<()>(connection)
        .await?;
    Ok(())
}

/// The grants of `kind` alive at `now` (on every gateway).
pub async fn count(
    connection: &mut ConnectionManager,
    kind: &str,
    now: u64,
) -> Result<usize, StoreError> {
    let (alive,): (usize,) = redis::pipe()
        .atomic()
        .zrembyscore(index_key(kind), "-inf", now)
        .ignore()
        .zcard(index_key(kind))
        .query_async(connection)
        .await?;
    Ok(alive)
}
