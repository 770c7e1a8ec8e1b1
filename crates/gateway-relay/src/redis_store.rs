//! The relay's store in Redis, shared by several gateways.
//!
//! A submission is a hash (`kind`) with two sets (the ids its submit
//! created, the ids announced), each expiring [`LIFETIME`] after it was
//! last written; a task is announced by the gateway whose `SADD` to the
//! announced set adds it (in one script with the stream's `XADD`), so each
//! is announced once however many gateways receive its callbacks. The
//! announcements are one Redis stream, trimmed to the last
//! [`super::log::KEPT`]: its entry ids are the streams' event ids, so a
//! browser that reconnects to another gateway resumes where it was. Each
//! gateway reads the stream's new entries on a connection of its own and
//! hands them to the streams open on it.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use media_gen_api::{AnyTask, TaskKind};
use redis::aio::{ConnectionManager, MultiplexedConnection};
use redis::streams::{StreamId, StreamRangeReply, StreamReadReply};
use redis::AsyncCommands;
use redis::AsyncConnectionConfig;
use tokio::sync::broadcast;

use super::log::{Announcement, Channel, EventId, Subscription, KEPT};
use super::submissions::{Arrival, LIFETIME};
use crate::access::Who;
use crate::redis_link::StoreError;
use crate::redis_link::{RedisLink, MAX_RECONNECT_WAIT, REDIS_TIMEOUT};

/// The keys' common prefix.
const PREFIX: &str = "media-gen:relay";
/// The stream of announcements.
const EVENTS: &str = "media-gen:relay:events";

/// Announce a task once: add it to the submission's announced set
/// (`KEYS[1]`) and, if it was not there, to the stream (`KEYS[2]`), in one
/// step, so a gateway that fails between the two cannot leave a task
/// marked announced that no stream heard of. A submission closed since
/// (`KEYS[3]` gone: every task announced, its sets deleted) announces
/// nothing more: a callback that passed its arrival check before the close
/// would otherwise re-create the announced set and announce its task
/// again. The entry's id is also listed under the capability (`KEYS[4]`,
/// kept as long as the sets, and not deleted at the close), so a new stream
/// replays its own capabilities' entries without reading the whole stream.
/// ARGV: task id, the set's lifetime (s), the stream's length kept,
/// capability, kind, task JSON. Returns 1 when this call announced it.
const ANNOUNCE: &str = r"
if redis.call('EXISTS', KEYS[3]) == 0 then
  return 0
end
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*',
  'capability', ARGV[4], 'kind', ARGV[5], 'task', ARGV[6])
redis.call('RPUSH', KEYS[4], id)
redis.call('EXPIRE', KEYS[4], ARGV[2])
return 1
";

fn submission_key(capability: &str) -> String {
    format!("{PREFIX}:submission:{capability}")
}

fn created_key(capability: &str) -> String {
    format!("{PREFIX}:created:{capability}")
}

fn announced_key(capability: &str) -> String {
    format!("{PREFIX}:announced:{capability}")
}

fn heard_key(capability: &str) -> String {
    format!("{PREFIX}:heard:{capability}")
}

/// The relay's store in Redis.
pub struct RedisStore {
    link: Arc<RedisLink>,
    announce: redis::Script,
    live: broadcast::Sender<Arc<Announcement>>,
    reader: tokio::task::JoinHandle<()>,
}

impl Drop for RedisStore {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl RedisStore {
    /// The store on `link`, reading the announcements the gateways add from
    /// now on (once Redis answers).
    pub fn new(link: Arc<RedisLink>) -> RedisStore {
        let live = broadcast::channel(1024).0;
        let reader = tokio::spawn(read_new(link.client().clone(), live.clone()));
        RedisStore {
            link,
            announce: redis::Script::new(ANNOUNCE),
            live,
            reader,
        }
    }

    fn connection(&self) -> Result<ConnectionManager, StoreError> {
        self.link.connection()
    }

    /// See [`super::store::Store::open`].
    pub async fn open(
        &self,
        capability: &str,
        kind: TaskKind,
        owner: &Who,
    ) -> Result<(), StoreError> {
        let key = submission_key(capability);
        redis::pipe()
            .hset(&key, "kind", kind.as_str())
            .ignore()
            .hset(&key, "owner", owner.to_string())
            .ignore()
            .expire(&key, LIFETIME.as_secs() as i64)
            .ignore()
            .query_async::<()>(&mut self.connection()?)
            .await?;
        Ok(())
    }

    /// See [`super::store::Store::created`].
    pub async fn created(&self, capability: &str, ids: Vec<String>) -> Result<(), StoreError> {
        if ids.is_empty() {
            return self.close(capability).await;
        }
        let key = created_key(capability);
        redis::pipe()
            .sadd(&key, ids)
            .ignore()
            .expire(&key, LIFETIME.as_secs() as i64)
            .ignore()
            .query_async::<()>(&mut self.connection()?)
            .await?;
        self.close_if_done(capability).await
    }

    /// See [`super::store::Store::opened`].
    pub async fn opened(
        &self,
        capability: &str,
    ) -> Result<Option<(TaskKind, Option<Who>)>, StoreError> {
        let (kind, owner): (Option<String>, Option<String>) = self
            .connection()?
            .hget(submission_key(capability), &["kind", "owner"])
            .await?;
        let owner = owner.as_deref().and_then(Who::from_text);
        Ok(kind
            .and_then(|kind| kind.parse().ok())
            .map(|kind| (kind, owner)))
    }

    /// See [`super::store::Store::arrival`].
    pub async fn arrival(
        &self,
        capability: &str,
        kind: TaskKind,
        task_id: &str,
    ) -> Result<Arrival, StoreError> {
        let (open_kind, created, ours, announced): (Option<String>, bool, bool, bool) =
            redis::pipe()
                .hget(submission_key(capability), "kind")
                .exists(created_key(capability))
                .sismember(created_key(capability), task_id)
                .sismember(announced_key(capability), task_id)
                .query_async(&mut self.connection()?)
                .await?;
        let Some(open_kind) = open_kind else {
            return Ok(Arrival::Unknown);
        };
        // Before the submit's answer, a task is taken on the submission's word.
        if open_kind != kind.as_str() || (created && !ours) {
            Ok(Arrival::Foreign)
        } else if announced {
            Ok(Arrival::Duplicate)
        } else {
            Ok(Arrival::New)
        }
    }

    /// See [`super::store::Store::announce`].
    pub async fn announce(&self, capability: &str, task: AnyTask) -> Result<bool, StoreError> {
        let announced: u32 = self
            .announce
            .key(announced_key(capability))
            .key(EVENTS)
            .key(submission_key(capability))
            .key(heard_key(capability))
            .arg(task.task_id())
            .arg(LIFETIME.as_secs())
            .arg(KEPT)
            .arg(capability)
            .arg(task.kind().as_str())
            .arg(task.to_json()?)
            .invoke_async(&mut self.connection()?)
            .await?;
        if announced == 0 {
            return Ok(false);
        }
        self.close_if_done(capability).await?;
        Ok(true)
    }

    /// See [`super::store::Store::tell`]: added to the stream, nothing
    /// else kept.
    pub async fn tell(&self, channel: &Channel, task: AnyTask) -> Result<(), StoreError> {
        redis::cmd("XADD")
            .arg(EVENTS)
            .arg("MAXLEN")
            .arg("~")
            .arg(KEPT)
            .arg("*")
            .arg("capability")
            .arg(channel.written())
            .arg("kind")
            .arg(task.kind().as_str())
            .arg("task")
            .arg(task.to_json()?)
            .query_async::<()>(&mut self.connection()?)
            .await?;
        Ok(())
    }

    /// See [`super::store::Store::subscribe`]. A reconnection reads the
    /// stream after its last id; a new stream reads only its capabilities'
    /// own entries (a few each), never the whole stream.
    pub async fn subscribe(
        &self,
        after: Option<EventId>,
        relays: &HashSet<Channel>,
    ) -> Result<Subscription, StoreError> {
        // Subscribed first, so nothing falls between the two.
        let live = self.live.subscribe();
        let mut connection = self.connection()?;
        let Some(after) = after else {
            let mut lists = redis::pipe();
            // A person's channel keeps no list: their page reads its
            // library as it opens.
            for relay in relays {
                if let Channel::Submission(capability) = relay {
                    lists.lrange(heard_key(capability.as_str()), 0, -1);
                }
            }
            let ids: Vec<Vec<String>> = lists.query_async(&mut connection).await?;
            if ids.iter().all(Vec::is_empty) {
                return Ok((Vec::new(), live));
            }
            let mut entries = redis::pipe();
            for id in ids.iter().flatten() {
                entries.cmd("XRANGE").arg(EVENTS).arg(id).arg(id);
            }
            let replies: Vec<StreamRangeReply> = entries.query_async(&mut connection).await?;
            let mut missed: Vec<Arc<Announcement>> = replies
                .iter()
                .flat_map(|reply| reply.ids.iter().filter_map(announcement))
                .collect();
            missed.sort_by_key(|announcement| announcement.id);
            return Ok((missed, live));
        };
        let reply: StreamRangeReply = redis::cmd("XRANGE")
            .arg(EVENTS)
            .arg(format!("({after}"))
            .arg("+")
            .arg("COUNT")
            .arg(KEPT)
            .query_async(&mut connection)
            .await?;
        let missed = reply.ids.iter().filter_map(announcement).collect();
        Ok((missed, live))
    }

    /// Close the capability once every task it created was announced.
    async fn close_if_done(&self, capability: &str) -> Result<(), StoreError> {
        let (created, left): (u32, Vec<String>) = redis::pipe()
            .scard(created_key(capability))
            .sdiff(&[created_key(capability), announced_key(capability)])
            .query_async(&mut self.connection()?)
            .await?;
        if created > 0 && left.is_empty() {
            self.close(capability).await?;
        }
        Ok(())
    }

    async fn close(&self, capability: &str) -> Result<(), StoreError> {
        self.connection()?
            .del::<_, ()>(&[
                submission_key(capability),
                created_key(capability),
                announced_key(capability),
            ])
            .await?;
        Ok(())
    }
}

/// A stream entry as an announcement (`None` for one that does not read).
fn announcement(entry: &StreamId) -> Option<Arc<Announcement>> {
    let id = EventId::parse(&entry.id)?;
    let channel = Channel::read(&entry.get::<String>("capability")?)?;
    let kind: TaskKind = entry.get::<String>("kind")?.parse().ok()?;
    let task: String = entry.get("task")?;
    let task = AnyTask::from_json(kind, task.as_bytes()).ok()?;
    Some(Arc::new(Announcement { id, channel, task }))
}

/// The reader's connection: a blocking read waits up to [`READ_BLOCK_MS`],
/// so its calls may take a little longer than that.
async fn reader_connection(client: &redis::Client) -> Result<MultiplexedConnection, StoreError> {
    let config = AsyncConnectionConfig::new()
        .set_connection_timeout(REDIS_TIMEOUT)
        .set_response_timeout(Duration::from_millis(READ_BLOCK_MS) + REDIS_TIMEOUT);
    Ok(client
        .get_multiplexed_async_connection_with_config(&config)
        .await?)
}

/// How long one read of the stream waits for new entries.
const READ_BLOCK_MS: u64 = 5_000;

/// Hand every entry added to the stream from now on to `live`. After an
/// error (Redis restarted, say) it connects again, waiting longer each time
/// up to [`MAX_RECONNECT_WAIT`], and goes on from the last entry read, so
/// the streams open on this gateway miss nothing added meanwhile.
async fn read_new(client: redis::Client, live: broadcast::Sender<Arc<Announcement>>) {
    // Where reading starts: the stream's end as it is now, found before
    // anything is read, so entries added during a reconnection are read.
    let mut last: Option<String> = None;
    let mut wait = Duration::from_millis(250);
    loop {
        let mut connection = match reader_connection(&client).await {
            Ok(connection) => connection,
            Err(error) => {
                tracing::warn!(%error, ?wait, "the relay cannot reach redis; trying again");
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(MAX_RECONNECT_WAIT);
                continue;
            }
        };
        if last.is_none() {
            last = Some(stream_end(&mut connection).await);
        }
        let Some(from) = last.as_mut() else {
            continue;
        };
        wait = Duration::from_millis(250);
        let Err(error) = read_from(&mut connection, &live, from).await else {
            continue;
        };
        tracing::warn!(%error, "reading the relay's announcements from redis; connecting again");
        tokio::time::sleep(wait).await;
    }
}

/// The id of the stream's last entry now (`0-0` when it is empty).
async fn stream_end(connection: &mut MultiplexedConnection) -> String {
    let reply: Result<StreamRangeReply, _> = redis::cmd("XREVRANGE")
        .arg(EVENTS)
        .arg("+")
        .arg("-")
        .arg("COUNT")
        .arg(1)
        .query_async(connection)
        .await;
    reply
        .ok()
        .and_then(|reply| reply.ids.first().map(|entry| entry.id.clone()))
        .unwrap_or_else(|| "0-0".to_owned())
}

/// Read new entries on `connection` after `last` until an error.
async fn read_from(
    connection: &mut MultiplexedConnection,
    live: &broadcast::Sender<Arc<Announcement>>,
    last: &mut String,
) -> Result<(), redis::RedisError> {
    loop {
        let reply: Result<Option<StreamReadReply>, _> = redis::cmd("XREAD")
            .arg("BLOCK")
            .arg(READ_BLOCK_MS)
            .arg("COUNT")
            .arg(100)
            .arg("STREAMS")
            .arg(EVENTS)
            .arg(last.as_str())
            .query_async(connection)
            .await;
        for entry in reply?
            .iter()
            .flat_map(|reply| &reply.keys)
            .flat_map(|key| &key.ids)
        {
            last.clone_from(&entry.id);
            if let Some(announcement) = announcement(entry) {
                let _ = live.send(announcement);
            }
        }
    }
}
