//! The relay: completions the service POSTs to a callback address reach
//! the browser over Server-Sent Events.
//!
//! With `--public-url`, a submit forwarded without a `callback_url` gets
//! one of the gateway's own, `{public-url}/callbacks/{capability}`, with a
//! capability made for that submission alone ([`capability`]); the submit's
//! answer carries it back to the browser in the `media-gen-relay` header.
//! A callback to that address ([`callbacks`]) is read with the contract's
//! callback type, confirmed with one status read (unless
//! `--trust-callbacks`), and announced once ([`log`]) to the streams of
//! `GET /events?relays=…` ([`events`]) that name its capability.

pub mod callbacks;
pub mod capability;
pub mod events;
pub mod log;
pub mod redis_store;
pub mod store;
pub mod submissions;
mod submit;

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::Json;
use media_gen_api::envelope::MSG_OK;
use media_gen_api::relay::{Capabilities, RelayInfo};
use media_gen_api::{Envelope, TaskKind};

use crate::Gateway;
use store::{Store, StoreError};

pub use media_gen_api::relay::RELAY_HEADER;

/// How the relay runs, from the flags.
#[derive(Debug, Clone)]
pub struct RelaySettings {
    /// The gateway's address as the service reaches it (no trailing slash).
    pub public_url: String,
    /// Announce callbacks without confirming them with a status read.
    pub trust_callbacks: bool,
    /// How often an idle stream gets a comment, so proxies keep it open.
    pub heartbeat: Duration,
}

/// The relay's state: its settings and its store.
pub struct Relay {
    settings: RelaySettings,
    store: Store,
}

impl Relay {
    /// A relay with `settings`, its store in the `redis` the gateways
    /// share (`--redis`), else in this process.
    pub async fn start(settings: RelaySettings, redis: Option<&str>) -> Result<Relay, StoreError> {
        let store = match redis {
            Some(url) => Store::Redis(redis_store::RedisStore::connect(url).await?),
            None => Store::memory(),
        };
        Ok(Relay { settings, store })
    }

    /// The settings it runs with.
    pub fn settings(&self) -> &RelaySettings {
        &self.settings
    }

    /// Where it keeps what it knows.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// A submit of `kind` about to be forwarded: when its body leaves
    /// `callback_url` empty, the body with the relay's callback address in
    /// it, and the capability made for it. A `callback_url` the user gave
    /// is left as it is (those tasks are polled), and so is a body that is
    /// not a JSON object (the service refuses it).
    /// (The submit goes out unrelayed, and is read as before, when the
    /// store cannot take it.)
    pub async fn take_submit(&self, kind: TaskKind, body: &Bytes) -> Option<(String, Bytes)> {
        let capability = capability::new_capability()?;
        let url = format!("{}/callbacks/{capability}", self.settings.public_url);
        let body = submit::with_callback_url(body, &url)?;
        if let Err(error) = self.store.open(&capability, kind).await {
            tracing::warn!(%error, "the relay could not take a submit");
            return None;
        }
        Some((capability, body))
    }

    /// The service answered the submit under `capability` with `status` and
    /// `body`: its task ids are followed, or, when it created none, the
    /// capability is closed.
    pub async fn submit_answered(
        &self,
        capability: &str,
        kind: TaskKind,
        status: u16,
        body: &[u8],
    ) {
        let ids = submit::created_ids(kind, status, body);
        if let Err(error) = self.store.created(capability, ids).await {
            tracing::warn!(%error, "the relay could not note a submit's tasks");
        }
    }
}

/// `GET /capabilities`: what this gateway offers beyond the documented
/// calls (in the success envelope), so a page knows whether to listen or
/// to poll.
pub async fn capabilities(State(gateway): State<Gateway>) -> Json<Envelope<Capabilities>> {
    let relay = gateway.relay.as_ref().map(|_| RelayInfo::default());
    Json(Envelope::success(
        MSG_OK,
        Capabilities {
            relay,
            sandbox: None,
        },
    ))
}
