//! A gateway in this process in front of a recording stand-in of the
//! service, and a raw HTTP/1.1 client for request lines no library sends.
#![allow(dead_code)]
// Test-only code: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use media_gen_gateway::{ConnectionLimits, Settings};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The token the gateway holds in these tests.
pub const TOKEN: &str = "gateway-secret-token-7f3a";

/// What reached the stand-in service.
#[derive(Debug, Clone)]
pub struct Seen {
    /// Method.
    pub method: String,
    /// Path and query, as received.
    pub target: String,
    /// Headers.
    pub headers: HeaderMap,
    /// Body.
    pub body: Vec<u8>,
}

/// The stand-in's record.
#[derive(Clone, Default)]
pub struct Recorder(Arc<Mutex<Vec<Seen>>>);

impl Recorder {
    /// Everything seen so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.0.lock().unwrap().clone()
    }
}

/// The stand-in's answers: JSON, except for ids that ask for something else.
async fn answer(recorder: Recorder, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let target = parts
        .uri
        .path_and_query()
        .map_or("", |p| p.as_str())
        .to_owned();
    recorder.0.lock().unwrap().push(Seen {
        method: parts.method.to_string(),
        target: target.clone(),
        headers: parts.headers,
        body: body.to_vec(),
    });
    let json = |status: StatusCode| {
        (
            status,
            [("content-type", "application/json")],
            r#"{"code":0,"msg":"success","data":{"task_id":"t-1","status":"PENDING"}}"#,
        )
            .into_response()
    };
    // A submit of images answers with the ids it created, as the service's does.
    if parts.method == axum::http::Method::POST && target == "/v1/image_generate" {
        return (
            StatusCode::OK,
            [("content-type", "application/json")],
            r#"{"code":0,"msg":"ok","data":{"task_ids":["ig-1"]}}"#,
        )
            .into_response();
    }
    match target.rsplit('/').next().unwrap_or_default() {
        "redirect" => (
            StatusCode::TEMPORARY_REDIRECT,
            [("location", "/v1/image_generate/elsewhere")],
        )
            .into_response(),
        "html" => (
            [("content-type", "text/html")],
            "<html><script>alert('upstream')</script></html>",
        )
            .into_response(),
        "html-json" => (
            [("content-type", "text/html")],
            r#"{"code":0,"msg":"success","data":{"task_id":"x","status":"PENDING"}}"#,
        )
            .into_response(),
        "slow" => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            json(StatusCode::OK)
        }
        "busy" => (
            StatusCode::TOO_MANY_REQUESTS,
            [("content-type", "application/json"), ("retry-after", "7")],
            r#"{"code":100006,"msg":"slow down"}"#,
        )
            .into_response(),
        _ => json(StatusCode::OK),
    }
}

/// Start the recording stand-in; returns its base URL and record.
pub async fn start_service() -> (String, Recorder) {
    let recorder = Recorder::default();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = axum::Router::new().fallback({
        let recorder = recorder.clone();
        move |request: Request| answer(recorder.clone(), request)
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{address}"), recorder)
}

/// Settings for a test gateway in front of `upstream` (a base URL):
/// budgets of a thousand, and one-second timeouts so abuse tests end soon.
pub fn settings(upstream: Option<&str>) -> Settings {
    let mut settings = Settings::for_tests(upstream.unwrap_or_default(), TOKEN, None);
    settings.requests_per_minute = NonZeroU32::new(1_000).unwrap();
    settings.tasks_per_hour = NonZeroU32::new(1_000).unwrap();
    settings.body_timeout = Duration::from_secs(1);
    settings.upstream_timeout = Duration::from_secs(1);
    settings.connections = ConnectionLimits {
        max_connections: 64,
        per_address: 64,
        header_timeout: Duration::from_secs(1),
        shutdown_grace: Duration::from_secs(1),
    };
    settings
}

/// Start a gateway with `settings`; returns its address.
pub async fn start_gateway(settings: Settings) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        media_gen_gateway::serve(listener, &settings, std::future::pending())
            .await
            .unwrap();
    });
    address
}

/// Start a gateway with `settings` changed by `configure`, which is given
/// the gateway's own base URL first (for `--public-url`); returns that URL.
pub async fn start_gateway_at(
    mut settings: Settings,
    configure: impl FnOnce(&mut Settings, &str),
) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    configure(&mut settings, &base);
    tokio::spawn(async move {
        media_gen_gateway::serve(listener, &settings, std::future::pending())
            .await
            .unwrap();
    });
    base
}

/// Why a gateway with `settings` does not start.
pub async fn refused_at_start(settings: Settings) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    media_gen_gateway::serve(listener, &settings, std::future::pending())
        .await
        .unwrap_err()
        .to_string()
}

/// A gateway in front of a fresh stand-in: its address, the stand-in's record.
pub async fn gateway() -> (SocketAddr, Recorder) {
    let (service, recorder) = start_service().await;
    (start_gateway(settings(Some(&service))).await, recorder)
}

/// An answer read off the wire.
#[derive(Debug)]
pub struct RawAnswer {
    /// Status code.
    pub status: u16,
    /// The head, as text (status line and headers).
    pub head: String,
    /// The body.
    pub body: String,
}

/// Send `request` (a whole HTTP/1.1 request, `Connection: close` included)
/// and read the answer until the gateway closes the connection.
pub async fn raw(address: SocketAddr, request: &str) -> RawAnswer {
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut bytes))
        .await
        .expect("an answer within 10 s")
        .unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    RawAnswer {
        status,
        head: head.to_owned(),
        body: body.to_owned(),
    }
}

/// `GET target` as a raw request line.
pub async fn raw_get(address: SocketAddr, method: &str, target: &str) -> RawAnswer {
    raw(
        address,
        &format!("{method} {target} HTTP/1.1\r\nHost: gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    )
    .await
}
