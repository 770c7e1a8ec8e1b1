//! `GET /sandbox/stats`: counters that let tests see what clients did, for
//! example that a stopped widget sends no more requests, or that retries
//! created no duplicate tasks.

use std::sync::atomic::Ordering;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use axum::Json;
use media_gen_api::Envelope;
use serde::Serialize;

use crate::state::AppState;

/// The counters as `GET /sandbox/stats` reports them.
#[derive(Debug, Clone, Copy, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Stats {
    /// Requests to `/v1/*`.
    pub v1_requests: u64,
    /// Status reads that reached the endpoint (not those refused by a fault).
    pub status_reads: u64,
    /// Tasks created since start.
    pub tasks_created: u64,
    /// Tasks held in memory now.
    pub tasks_held: u64,
    /// Result images encoded since start (each is made once).
    #[serde(default)]
    pub images_made: u64,
    /// Bytes of callback messages the inboxes hold now.
    #[serde(default)]
    pub inbox_bytes: u64,
    /// Result files asked for since start (`/sandbox/media/*`).
    #[serde(default)]
    pub media_requests: u64,
}

/// Middleware: count one `/v1` request.
pub async fn count(State(app): State<AppState>, request: Request, next: Next) -> Response {
    app.counters.v1_requests.fetch_add(1, Ordering::Relaxed);
    next.run(request).await
}

/// Middleware: count one request for a result file.
pub async fn count_media(State(app): State<AppState>, request: Request, next: Next) -> Response {
    app.counters.media_requests.fetch_add(1, Ordering::Relaxed);
    next.run(request).await
}

/// `GET /sandbox/stats`.
pub async fn stats(State(app): State<AppState>) -> Json<Envelope<Stats>> {
    let stats = Stats {
        v1_requests: app.counters.v1_requests.load(Ordering::Relaxed),
        status_reads: app.counters.status_reads.load(Ordering::Relaxed),
        tasks_created: app.counters.tasks_created.load(Ordering::Relaxed),
        tasks_held: u64::try_from(app.task_count()).unwrap_or(u64::MAX),
        images_made: app.images.made(),
        inbox_bytes: u64::try_from(app.inbox.bytes()).unwrap_or(u64::MAX),
        media_requests: app.counters.media_requests.load(Ordering::Relaxed),
    };
    Json(Envelope::success("ok", stats))
}
