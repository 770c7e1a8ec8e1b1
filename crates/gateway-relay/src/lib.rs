//! The relay: completions the service POSTs to a callback address reach
//! the browser over Server-Sent Events.
//!
//! With `--public-url`, a submit forwarded without a `callback_url` gets
//! one of the gateway's own, `{public-url}/callbacks/{secret}`, with a
//! secret made for that submission alone ([`capability`]); the submit's
//! answer carries the listening capability derived from it back to the
//! browser in the `media-gen-relay` header (the secret stays with the
//! service).
//! A callback to that address ([`callbacks`]) is read with the contract's
//! callback type, confirmed with one status read (unless
//! `--trust-callbacks`), and announced once ([`log`]) to the streams of
//! `GET /events?relays=…` ([`events`]) that name its capability.

pub mod callbacks;
pub mod capability;
pub mod confirm;
pub mod events;
pub mod log;
pub mod redis_store;
pub mod store;
pub mod streams;
pub mod submissions;
pub mod submit;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::FromRef;
use axum::routing::{get, post};
use axum::Router;
use media_gen_api::{AnyTask, TaskKind};

pub(crate) use media_gen_gateway_access as access;
pub(crate) use media_gen_gateway_base::{client_address, redis_link, refusal};

use crate::access::admission::Admission;
use crate::access::Who;
use crate::redis_link::RedisLink;
use crate::refusal::Refusal;
use store::Store;

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
    /// A task is read to confirm a callback at most once this often;
    /// callbacks for it in between are answered 503 with `Retry-After`.
    pub confirm_interval: Duration,
    /// Confirming reads per second, all tasks together: the gateway's own
    /// budget of reads on the owner's token.
    pub confirm_reads_per_second: NonZeroU32,
    /// Event streams one visitor may hold open (a page needs one, two
    /// when signed in to a library).
    pub streams_per_visitor: usize,
    /// Event streams open at most, all visitors together: below the cap on
    /// connections, so other requests always find room.
    pub max_streams: usize,
    /// How long one stream lasts before the gateway ends it (the browser
    /// opens it again at once, with `Last-Event-ID`).
    pub stream_lifetime: Duration,
}

impl RelaySettings {
    /// The defaults the flags have, for a gateway reached at `public_url`
    /// that takes at most `max_connections` connections.
    pub fn new(public_url: String, max_connections: usize) -> RelaySettings {
        RelaySettings {
            public_url,
            trust_callbacks: false,
            heartbeat: Duration::from_secs(15),
            confirm_interval: Duration::from_secs(10),
            confirm_reads_per_second: NonZeroU32::new(20).unwrap_or(NonZeroU32::MIN),
            streams_per_visitor: 8,
            max_streams: default_max_streams(max_connections),
            stream_lifetime: Duration::from_secs(10 * 60),
        }
    }
}

/// Event streams at most by default: three quarters of the connections,
/// so a quarter always stays for other requests.
pub fn default_max_streams(max_connections: usize) -> usize {
    (max_connections * 3 / 4).max(1)
}

/// The relay's state: its settings, its store, and the bounds on what
/// callbacks and streams may cost.
pub struct Relay {
    settings: RelaySettings,
    store: Store,
    confirmations: confirm::Confirmations,
    streams: streams::StreamSlots,
}

impl Relay {
    /// A relay with `settings`, its store in the `redis` the gateways
    /// share (`--redis`), else in this process.
    pub fn start(settings: RelaySettings, redis: Option<Arc<RedisLink>>) -> Relay {
        let store = match redis {
            Some(link) => Store::Redis(redis_store::RedisStore::new(link)),
            None => Store::memory(),
        };
        let confirmations = confirm::Confirmations::new(
            settings.confirm_interval,
            settings.confirm_reads_per_second,
        );
        let streams = streams::StreamSlots::new(settings.streams_per_visitor, settings.max_streams);
        Relay {
            settings,
            store,
            confirmations,
            streams,
        }
    }

    /// What bounds the confirming reads.
    pub fn confirmations(&self) -> &confirm::Confirmations {
        &self.confirmations
    }

    /// What bounds the open streams.
    pub fn streams(&self) -> &streams::StreamSlots {
        &self.streams
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
    pub async fn take_submit(
        &self,
        kind: TaskKind,
        body: &Bytes,
        submitter: &Who,
    ) -> Option<(capability::Capability, Bytes)> {
        let secret = capability::CallbackSecret::new()?;
        let url = format!("{}/callbacks/{}", self.settings.public_url, secret.as_str());
        let body = submit::with_callback_url(body, &url)?;
        // Kept and announced under the listening capability: the one the
        // page is given. The callback secret is only in the service's body.
        let capability = secret.listening();
        if let Err(error) = self.store.open(&capability, kind, submitter).await {
            tracing::warn!(%error, "the relay could not take a submit");
            return None;
        }
        Some((capability, body))
    }

    /// The service answered the submit under `capability`, creating the
    /// tasks `ids` ([`submit::created_ids`]): they are followed, or, when
    /// it created none, the capability is closed.
    pub async fn submit_answered(&self, capability: &capability::Capability, ids: Vec<String>) {
        if let Err(error) = self.store.created(capability, ids).await {
            tracing::warn!(%error, "the relay could not note a submit's tasks");
        }
    }
}

/// What the relay asks of the gateway it runs in: a task as the service
/// reads it now, and what a confirmed callback's news leads to (the
/// gateway decides that once, for every way it hears of a task).
#[async_trait::async_trait]
pub trait TaskNews: Send + Sync {
    /// Task `task_id` of `kind` as the service reads it now.
    async fn read(&self, kind: TaskKind, task_id: &str) -> Result<AnyTask, Refusal>;
    /// A relayed callback, confirmed, told that `task` ended; `submitter`
    /// as the relay kept it. `task` gains where its results are kept.
    async fn ended(&self, task: &mut AnyTask, submitter: Option<&Who>);
}

/// What the relay's routes take: the relay (none without
/// `--public-url`), the gateway's [`TaskNews`], and whether each person's
/// library is kept (its news is streamed too).
#[derive(Clone)]
pub struct RelayState {
    /// The relay, when the gateway relays.
    pub relay: Option<Arc<Relay>>,
    /// Where a callback's news goes.
    pub news: Arc<dyn TaskNews>,
    /// Whether people's libraries are kept here.
    pub library: bool,
}

impl media_gen_gateway_base::offered::Offered for RelayState {
    type Part = Arc<Relay>;
    type Off = Refusal;

    /// The relay, when the gateway relays; 404 otherwise.
    fn part(self) -> Result<Arc<Relay>, Refusal> {
        self.relay.ok_or(Refusal::NotFound)
    }
}

/// The relay's routes: the service's callbacks, and the pages' streams.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    RelayState: FromRef<S>,
    Arc<Admission>: FromRef<S>,
{
    Router::new()
        .route(media_gen_api::relay::EVENTS_PATH, get(events::stream))
        .route("/callbacks/{capability}", post(callbacks::receive))
}
