//! What operators see: Prometheus metrics at `/metrics` (requests by route
//! and status, upstream latency, refusals by budget), a request id on every
//! request and answer (`x-request-id`), and one log line per request.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use media_gen_api::Endpoint;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tower_http::request_id::{MakeRequestId, RequestId};

/// Requests answered, by `route` and `status`.
pub const REQUESTS: &str = "gateway_requests_total";
/// Seconds the service took to answer, by `route`.
pub const UPSTREAM_SECONDS: &str = "gateway_upstream_duration_seconds";
/// Requests refused by a budget, by `budget` (`requests`, `tasks`,
/// `tasks_of_the_day`, or `keys`: a wrong access key).
pub const REFUSED: &str = "gateway_rate_limited_total";
/// Pages signing in with an access key, by result (`ok`, `refused`).
pub const SIGN_INS: &str = "gateway_sign_ins_total";
/// Pages' sessions alive now.
pub const SESSIONS: &str = "gateway_sessions";
/// Connections closed at once because a cap was reached (`cap`: `all`,
/// or `per_address`).
pub const CONNECTIONS_REFUSED: &str = "gateway_connections_refused_total";
/// Status reads the gateway made itself, of tasks holding uploads that it
/// heard of no other way.
pub const HOLD_READS: &str = "gateway_upload_hold_reads_total";
/// Result files the gateway tried to keep, by `outcome` (`kept`, or why
/// not: `too_large`, `not_what_it_said`, `not_fetched`, `not_given`,
/// `no_room`).
pub const KEPT_FILES: &str = "gateway_kept_files_total";
/// Kept copies deleted before their time to make room under `--keep-quota`.
pub const KEPT_EVICTED: &str = "gateway_kept_evicted_total";
/// Seconds from learning a task succeeded to its file being kept.
pub const KEPT_SECONDS: &str = "gateway_kept_duration_seconds";
/// Calls of the library's database that failed (answered 503, or a
/// submit or status not written down).
pub const LIBRARY_FAILURES: &str = "gateway_library_failures_total";
/// Seconds each call of the library's database took, by `call`.
pub const LIBRARY_SECONDS: &str = "gateway_library_duration_seconds";
/// Counts of the uploads' and kept copies' bytes found to differ from a
/// recount of their records (and mended), by count's `kind`.
pub const COUNTS_DRIFTED: &str = "gateway_upload_counts_drifted_total";
/// Connections open now.
pub const CONNECTIONS_OPEN: &str = "gateway_connections_open";

/// The process's metrics recorder, installed once (every gateway in the
/// process records into it), and its handle for rendering.
pub fn metrics() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&[
                0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
            ])
            .unwrap_or_else(|_| PrometheusBuilder::new())
            .build_recorder();
        let handle = recorder.handle();
        // Another recorder may have been installed first (a test harness):
        // the handle then renders an empty page rather than failing.
        let _ = metrics::set_global_recorder(recorder);
        handle
    })
}

/// Fold the samples recorded since the last time into the histograms, every
/// five seconds. Without it every latency ever recorded stays in memory
/// until something scrapes `/metrics`, and a gateway nobody scrapes grows
/// by two numbers a request.
pub async fn upkeep() {
    let handle = metrics();
    let mut every = tokio::time::interval(std::time::Duration::from_secs(5));
    loop {
        every.tick().await;
        handle.run_upkeep();
    }
}

/// `GET /metrics`: the Prometheus text format.
pub async fn render() -> Response {
    let mut response = metrics().render().into_response();
    response.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4"),
    );
    response
}

/// How much of an upload's id a log line keeps: enough to tell uploads
/// apart when reading a log, far too little to fetch one (32 of 128 bits).
pub const LOGGED_ID_CHARS: usize = 8;

/// An upload's id as a log line shows it: its first characters.
pub fn logged_id(id: &str) -> String {
    let start: String = id.chars().take(LOGGED_ID_CHARS).collect();
    format!("{start}…")
}

/// An error as a log line shows it: every upload id in its text (an
/// object's path in the storage names one) shortened as [`logged_id`] does.
pub struct Scrubbed<'a, T: std::fmt::Display>(pub &'a T);

impl<T: std::fmt::Display> std::fmt::Display for Scrubbed<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = self.0.to_string();
        let mut rest = text.as_str();
        // Runs of exactly 32 lower-case hex characters: the shape of an id.
        while let Some(start) = rest.find(|c: char| c.is_ascii_hexdigit()) {
            f.write_str(&rest[..start])?;
            let run = &rest[start..];
            let length = run
                .find(|c: char| !(c.is_ascii_digit() || ('a'..='f').contains(&c)))
                .unwrap_or(run.len());
            let (hex, after) = run.split_at(length.max(1));
            if media_gen_api::relay::is_capability(hex) {
                f.write_str(&logged_id(hex))?;
            } else {
                f.write_str(hex)?;
            }
            rest = after;
        }
        f.write_str(rest)
    }
}

/// Where the owner takes a link back: `/shares/{token}`.
const SHARES_TOKEN_PATH: &str = "/shares/";

/// A request's path as logged: a callback address's secret (which lets
/// its holder call back) is left out, and of an upload's, a kept copy's or
/// a shared link's address (each opens what it names) only the id's first
/// characters; the rest as it came.
pub fn logged_path(path: &str) -> std::borrow::Cow<'_, str> {
    if path.starts_with("/callbacks/") {
        return std::borrow::Cow::Borrowed("/callbacks/{secret}");
    }
    for prefix in [
        media_gen_api::relay::UPLOADS_PATH,
        media_gen_api::kept::KEPT_PATH,
        media_gen_api::share::SHARED_PATH,
        SHARES_TOKEN_PATH,
    ] {
        match path.strip_prefix(prefix) {
            Some(rest) if !rest.is_empty() => {
                let (id, name) = rest
                    .split_once('/')
                    .map_or((rest, None), |(id, name)| (id, Some(name)));
                let name = name.map(|_| "/{name}").unwrap_or_default();
                return std::borrow::Cow::Owned(format!("{prefix}{}{name}", logged_id(id)));
            }
            _ => {}
        }
    }
    std::borrow::Cow::Borrowed(path)
}

/// The route label of a request: the documented call it makes, or what
/// else it asked for. A closed set, so visitors cannot grow the metrics.
pub fn route_of(method: &str, path: &str) -> &'static str {
    match path {
        "/healthz" => "healthz",
        "/readyz" => "readyz",
        "/metrics" => "metrics",
        _ if path.starts_with(media_gen_api::share::SHARED_PATH) => "shared",
        _ if path == "/v1" || path.starts_with("/v1/") => match Endpoint::parse(method, path) {
            Ok(endpoint) => endpoint.route(),
            Err(_) => "not_documented",
        },
        _ => "other",
    }
}

/// Middleware: count every answer by route and status.
pub async fn count(request: Request, next: Next) -> Response {
    let route = route_of(request.method().as_str(), request.uri().path());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status();
    metrics::counter!(REQUESTS, "route" => route, "status" => status_label(status)).increment(1);
    metrics::histogram!("gateway_request_duration_seconds", "route" => route)
        .record(started.elapsed().as_secs_f64());
    response
}

/// The status as a label: the common ones without an allocation per request.
fn status_label(status: StatusCode) -> std::borrow::Cow<'static, str> {
    match status.as_u16() {
        200 => "200".into(),
        400 => "400".into(),
        401 => "401".into(),
        404 => "404".into(),
        408 => "408".into(),
        413 => "413".into(),
        429 => "429".into(),
        500 => "500".into(),
        502 => "502".into(),
        503 => "503".into(),
        504 => "504".into(),
        other => other.to_string().into(),
    }
}

/// Request ids: a random prefix for this process and a counter, so ids
/// are unique across instances behind one balancer without a UUID crate.
#[derive(Debug, Clone)]
pub struct RequestIds {
    prefix: String,
}

impl Default for RequestIds {
    fn default() -> Self {
        RequestIds {
            prefix: format!("{:08x}", fastrand::u32(..)),
        }
    }
}

impl MakeRequestId for RequestIds {
    fn make_request_id<B>(&mut self, _request: &axum::http::Request<B>) -> Option<RequestId> {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let id = format!("{}-{}", self.prefix, NEXT.fetch_add(1, Ordering::Relaxed));
        HeaderValue::from_str(&id).ok().map(RequestId::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callback_secret_is_never_logged() {
        assert_eq!(
            logged_path("/callbacks/0123456789abcdef0123456789abcdef"),
            "/callbacks/{secret}"
        );
        assert_eq!(logged_path("/v1/image_generate/x"), "/v1/image_generate/x");
    }

    #[test]
    fn an_upload_is_logged_by_the_start_of_its_id_only() {
        let id = "0123456789abcdef0123456789abcdef";
        assert_eq!(logged_path(&format!("/uploads/{id}")), "/uploads/01234567…");
        assert_eq!(
            logged_path(&format!("/uploads/{id}/holiday.png")),
            "/uploads/01234567…/{name}"
        );
        assert_eq!(logged_path("/uploads/"), "/uploads/");
        assert_eq!(
            logged_path(&format!("/kept/{id}/clip.mp4")),
            "/kept/01234567…/{name}",
            "a kept copy's address fetches it as an upload's does"
        );
        assert_eq!(logged_path(&format!("/kept/{id}")), "/kept/01234567…");
        assert!(!logged_path(&format!("/uploads/{id}")).contains(&id[8..]));
        // A shared link's token, for its page, its files, and taken back.
        assert_eq!(logged_path(&format!("/s/{id}")), "/s/01234567…");
        assert_eq!(
            logged_path(&format!("/s/{id}/0/image.png")),
            "/s/01234567…/{name}"
        );
        assert_eq!(logged_path(&format!("/shares/{id}")), "/shares/01234567…");
        assert_eq!(logged_path("/shares"), "/shares");
        assert_eq!(route_of("GET", &format!("/s/{id}")), "shared");
        let error = format!("Object at location uploads/{id}.pending not found: 404; code 0xffff");
        assert_eq!(
            Scrubbed(&error).to_string(),
            "Object at location uploads/01234567….pending not found: 404; code 0xffff"
        );
    }

    #[test]
    fn routes_are_a_closed_set() {
        assert_eq!(route_of("POST", "/v1/image_generate"), "submit");
        assert_eq!(route_of("GET", "/v1/image_generate/x"), "status");
        assert_eq!(
            route_of("GET", "/v1/video_translate/target_languages"),
            "target_languages"
        );
        assert_eq!(route_of("GET", "/v1/%2e%2e/admin"), "not_documented");
        assert_eq!(route_of("DELETE", "/v1/image_generate/x"), "not_documented");
        assert_eq!(route_of("GET", "/anything/else"), "other");
        assert_eq!(route_of("GET", "/metrics"), "metrics");
    }
}
