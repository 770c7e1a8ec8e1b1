//! Running totals of what clients asked for, which `GET /sandbox/stats`
//! reports.

use std::sync::atomic::AtomicU64;

/// Running totals.
#[derive(Debug, Default)]
pub struct Counters {
    /// Requests to `/v1/*` paths, whatever their answer.
    pub v1_requests: AtomicU64,
    /// Status reads (GET of a task) that reached the endpoint.
    pub status_reads: AtomicU64,
    /// Tasks created since start.
    pub tasks_created: AtomicU64,
    /// Result files asked for (`/sandbox/media/*`), whatever the answer.
    pub media_requests: AtomicU64,
}
