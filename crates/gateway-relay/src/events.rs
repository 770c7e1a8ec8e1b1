//! `GET /events?relays=c1,c2`: one Server-Sent Events stream for every
//! relayed submission a page follows, named by their capabilities (at most
//! [`MAX_RELAYS`]); with `library=1`, also every change in the signed-in
//! person's library (as the server tells it; then no capability is
//! needed). Each event is named by its task's kind
//! (`image_generate`, ...), its id is the announcement's number and its data
//! the task object as a status read answers it. A stream that reconnects
//! with `Last-Event-ID` first gets what it missed, of the last
//! [`super::log::KEPT`] (an id that does not read is a 400); a new one
//! what was already announced for its capabilities; a comment line every heartbeat keeps proxies from
//! closing an idle stream. A visitor holds a few streams at most, all
//! visitors together fewer than the connections ([`super::streams`]; over
//! either, 429 with `Retry-After`), and each ends after its lifetime.

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{FromRequestParts, Query, State};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream, StreamExt};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::capability::Capability;
use super::log::{Announcement, Channel, EventId};
use super::streams::{Full, StreamSlot};
use crate::access::admission::Admitted;
use crate::client_address::visitor;
use crate::refusal::Refusal;
use crate::RelayState;
use media_gen_api::relay::MAX_RELAYS;
use media_gen_gateway_base::offered::On;

/// Streams open now.
pub const STREAMS_OPEN: &str = "gateway_relay_streams_open";
/// Streams refused, by what was full (`visitor`, `gateway`).
pub const STREAMS_REFUSED: &str = "gateway_relay_streams_refused_total";
/// When a refused stream may try again.
const STREAM_RETRY: Duration = Duration::from_secs(30);

/// The stream's query.
#[derive(Debug, Deserialize)]
pub struct EventsQuery {
    /// The capabilities, comma-separated.
    #[serde(default)]
    relays: String,
    /// Also the signed-in person's library news (any value: `library=1`),
    /// on a gateway that keeps their library.
    library: Option<String>,
    /// Another site's page token ([`media_gen_api::relay::STREAM_TOKEN_PARAM`]):
    /// its `EventSource` can send no `Authorization`.
    token: Option<String>,
}

/// A page token named in the address (another site's `EventSource` can
/// send no `Authorization`), put where [`Admitted`] reads a key: taken
/// before it, so the stream's call is let in as any other. A token that
/// is not a page token is refused (400), so a key is never taken from an
/// address; a call that carries `Authorization` keeps its own.
pub struct TokenInAddress;

impl<S> FromRequestParts<S> for TokenInAddress
where
    S: Send + Sync,
{
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<TokenInAddress, Refusal> {
        let Ok(Query(query)) = Query::<EventsQuery>::try_from_uri(&parts.uri) else {
            return Ok(TokenInAddress);
        };
        let Some(token) = query.token.as_deref() else {
            return Ok(TokenInAddress);
        };
        if !media_gen_api::relay::is_page_token(token) {
            return Err(Refusal::Invalid(format!(
                "{}: only a page token (mgt_…) may be named in the address; send a key as Authorization",
                media_gen_api::relay::STREAM_TOKEN_PARAM
            )));
        }
        if !parts
            .headers
            .contains_key(axum::http::header::AUTHORIZATION)
        {
            if let Ok(value) = axum::http::HeaderValue::from_str(&format!("Bearer {token}")) {
                parts
                    .headers
                    .insert(axum::http::header::AUTHORIZATION, value);
            }
        }
        Ok(TokenInAddress)
    }
}

/// The stream, or why there is none.
pub async fn stream(
    State(state): State<RelayState>,
    Query(query): Query<EventsQuery>,
    On(relay): On<RelayState>,
    _: TokenInAddress,
    Admitted { who, client }: Admitted,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    // The person's own channel, never one named in the address.
    let news = match (query.library.is_some(), &who, state.library) {
        (false, _, _) => None,
        (true, crate::access::Who::Person(person), true) => Some(Channel::library(person)),
        (true, _, _) => return Err(Refusal::NotFound),
    };
    // Held by the stream while it lives: a few per visitor, and room left
    // for every other request.
    let slot = relay.streams().take(visitor(client)).map_err(|full| {
        metrics::counter!(STREAMS_REFUSED, "full" => match full {
            Full::Visitor => "visitor",
            Full::Gateway => "gateway",
        })
        .increment(1);
        match full {
            Full::Visitor => Refusal::TooManyStreams(STREAM_RETRY),
            Full::Gateway => Refusal::StreamsFull(STREAM_RETRY),
        }
    })?;
    let named: Vec<&str> = query
        .relays
        .split(',')
        .filter(|relay| !relay.is_empty())
        .collect();
    let capabilities: HashSet<Capability> = named
        .iter()
        .filter_map(|relay| Capability::parse(relay))
        .collect();
    let fewest = usize::from(news.is_none());
    if capabilities.len() < fewest
        || capabilities.len() > MAX_RELAYS
        || capabilities.len() < named.iter().collect::<HashSet<_>>().len()
    {
        return Err(Refusal::Invalid(format!(
            "relays: {fewest} to {MAX_RELAYS} capabilities from the media-gen-relay header, comma-separated"
        )));
    }
    let relays: HashSet<Channel> = capabilities
        .into_iter()
        .map(Channel::Submission)
        .chain(news)
        .collect();
    // A stream that reconnects says where it was; one that does not is new.
    let after = match headers.get("last-event-id") {
        None => None,
        Some(id) => Some(id.to_str().ok().and_then(EventId::parse).ok_or_else(|| {
            Refusal::Invalid(
                "Last-Event-ID: an event id of this relay's streams (`<ms>-<n>`)".to_owned(),
            )
        })?),
    };
    let (missed, live) = match relay.store().subscribe(after, &relays).await {
        // A new stream's page reads its library as it opens: older news of
        // it would only take its tasks back to what they were.
        Ok((missed, live)) if after.is_none() => (
            missed
                .into_iter()
                .filter(|told| !matches!(told.channel, Channel::Library(_)))
                .collect(),
            live,
        ),
        Ok(subscription) => subscription,
        Err(error) => {
            tracing::warn!(%error, "the relay's store did not answer");
            return Err(Refusal::Unavailable);
        }
    };
    let heartbeat = relay.settings().heartbeat;
    // Ended after its lifetime: the browser opens it again at once, with
    // its Last-Event-ID, and misses nothing; a stream held forever is not
    // one a visitor can pile up.
    let ends = tokio::time::sleep(relay.settings().stream_lifetime);
    let events = events(relays, after.unwrap_or_default(), missed, live, slot).take_until(ends);
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::new().interval(heartbeat))
        .into_response())
}

/// The events of `relays` after `after`: the missed ones, then the live.
fn events(
    relays: HashSet<Channel>,
    after: EventId,
    missed: Vec<Arc<Announcement>>,
    live: tokio::sync::broadcast::Receiver<Arc<Announcement>>,
    slot: StreamSlot,
) -> impl Stream<Item = Result<Event, Infallible>> {
    let open = (StreamOpen::new(), slot);
    let live = stream::unfold((live, open), |(mut live, open)| async move {
        match live.recv().await {
            Ok(announcement) => Some((announcement, (live, open))),
            // A stream too slow to keep up ends; the browser reconnects
            // with its Last-Event-ID and gets the rest from the log.
            Err(RecvError::Lagged(_) | RecvError::Closed) => None,
        }
    });
    let mut last = after;
    stream::iter(missed)
        .chain(live)
        .filter_map(move |announcement| {
            let wanted = announcement.id > last && relays.contains(&announcement.channel);
            if wanted {
                last = announcement.id;
            }
            std::future::ready(wanted.then(|| Ok(event(&announcement))))
        })
}

/// An announcement as an SSE event: named by the task's kind, the task
/// object (as a status read answers it) as its data.
fn event(announcement: &Announcement) -> Event {
    let task = &announcement.task;
    Event::default()
        .id(announcement.id.to_string())
        .event(task.kind().as_str())
        .data(task.to_json().unwrap_or_default())
}

/// Counts the stream in [`STREAMS_OPEN`] while it lives.
struct StreamOpen;

impl StreamOpen {
    fn new() -> StreamOpen {
        metrics::gauge!(STREAMS_OPEN).increment(1.0);
        StreamOpen
    }
}

impl Drop for StreamOpen {
    fn drop(&mut self) {
        metrics::gauge!(STREAMS_OPEN).decrement(1.0);
    }
}
