//! The one connection to the Redis the gateways behind a balancer share
//! (`--redis`), for the budgets and the relay alike. It is made in the
//! background: a gateway starts whether or not Redis answers (budgets are
//! then counted here, submits go out unrelayed, `/readyz` says why), and
//! uses Redis once it does. Every call and connection attempt ends after
//! [`REDIS_TIMEOUT`], and Redis is asked every [`WATCH_EVERY`] whether it
//! answers: while it does not, no call waits on it at all.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

/// Why a store in Redis (the relay's, the budgets', the keys', the
/// uploads') or kept beside it could not answer (Redis unreachable, say).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Redis did not answer, or refused.
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// A task that does not write as JSON.
    #[error("a task's JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// Redis has not answered since the gateway started, or stopped
    /// answering (the link's watch says so).
    #[error("redis: not answering")]
    Unreachable,
}

/// How long a Redis call may take, and a connection attempt.
pub const REDIS_TIMEOUT: Duration = Duration::from_secs(1);

/// The longest wait between two attempts to reach Redis.
pub const MAX_RECONNECT_WAIT: Duration = Duration::from_secs(30);

/// How often Redis is asked whether it answers, once connected.
pub const WATCH_EVERY: Duration = Duration::from_secs(1);

/// The shared connection, once made, and whether Redis answers now.
pub struct RedisLink {
    client: redis::Client,
    connection: OnceLock<ConnectionManager>,
    /// Whether the last `PING` was answered in time. While it is not, every
    /// call fails at once (budgets counted here, submits unrelayed).
    answering: AtomicBool,
}

impl RedisLink {
    /// The link to the Redis at `url`: connected before this returns when
    /// Redis answers at once (a gateway restarted beside a running Redis
    /// relays its first submit), else connecting in the background until it
    /// does. Fails only on a URL that does not read.
    pub async fn start(url: &str) -> Result<Arc<RedisLink>, StoreError> {
        let link = Arc::new(RedisLink {
            client: redis::Client::open(url)?,
            connection: OnceLock::new(),
            answering: AtomicBool::new(false),
        });
        let first = link.attempt().await;
        let connecting = Arc::clone(&link);
        tokio::spawn(async move {
            if let Err(error) = first {
                connecting.connect(error).await;
            }
            connecting.watch().await;
        });
        Ok(link)
    }

    /// One attempt to connect, within [`REDIS_TIMEOUT`] (and one retry).
    async fn attempt(&self) -> Result<(), redis::RedisError> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(REDIS_TIMEOUT)
            .set_response_timeout(REDIS_TIMEOUT)
            .set_number_of_retries(1);
        let connection = ConnectionManager::new_with_config(self.client.clone(), config).await?;
        let _ = self.connection.set(connection);
        self.answering.store(true, Ordering::Relaxed);
        tracing::info!("connected to redis");
        Ok(())
    }

    /// Attempt again, waiting longer each time, until connected.
    async fn connect(&self, first: redis::RedisError) {
        let mut wait = Duration::from_millis(250);
        let mut error = first;
        loop {
            tracing::warn!(
                %error,
                ?wait,
                "redis does not answer: budgets are counted here and submits go out \
                 unrelayed until it does; trying again"
            );
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(MAX_RECONNECT_WAIT);
            match self.attempt().await {
                Ok(()) => return,
                Err(again) => error = again,
            }
        }
    }

    /// Ask Redis every [`WATCH_EVERY`] whether it answers, and say so when
    /// that changes: a Redis that hangs or dies costs the calls made within
    /// one watch at most their timeout, and none after.
    async fn watch(&self) {
        loop {
            tokio::time::sleep(WATCH_EVERY).await;
            let answers = self.ping().await;
            let was = self.answering.swap(answers, Ordering::Relaxed);
            if was && !answers {
                tracing::warn!(
                    "redis does not answer: budgets are counted here, submits go out unrelayed \
                     and event streams are refused until it does"
                );
            } else if answers && !was {
                tracing::info!("redis answers again");
            }
        }
    }

    async fn ping(&self) -> bool {
        let Some(mut connection) = self.connection.get().cloned() else {
            return false;
        };
        let ping = redis::cmd("PING");
        let answer = ping.query_async::<String>(&mut connection);
        matches!(tokio::time::timeout(REDIS_TIMEOUT, answer).await, Ok(Ok(_)))
    }

    /// The connection (a cheap handle), or [`StoreError::Unreachable`]
    /// while Redis has not answered yet or its last watch found it silent.
    /// Once made, it reconnects by itself.
    pub fn connection(&self) -> Result<ConnectionManager, StoreError> {
        if !self.answers() {
            return Err(StoreError::Unreachable);
        }
        self.connection
            .get()
            .cloned()
            .ok_or(StoreError::Unreachable)
    }

    /// The client, for a connection of one's own (the relay's reader).
    pub fn client(&self) -> &redis::Client {
        &self.client
    }

    /// Whether Redis answered its last watch.
    pub fn answers(&self) -> bool {
        self.answering.load(Ordering::Relaxed)
    }
}
