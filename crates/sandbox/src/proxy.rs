//! Proxy mode (`--proxy-to URL`): `/v1/*` is forwarded to a real service with
//! `Authorization: Bearer` from `MEDIA_GEN_UPSTREAM_TOKEN`, never from the
//! browser, so a public page (the app, or a site embedding the widgets)
//! carries no token. Bodies are limited as everywhere; each client (by IP
//! address) gets a request budget per minute; CORS only for `--allow-origin`.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

use crate::body::MAX_BODY_BYTES;
use crate::error::ApiError;

/// The environment variable that holds the upstream token.
pub const TOKEN_VAR: &str = "MEDIA_GEN_UPSTREAM_TOKEN";

/// Requests per client per window.
#[derive(Debug)]
struct Window {
    started: Instant,
    count: u32,
}

/// What forwarding needs.
#[derive(Clone)]
pub struct Proxy {
    upstream: String,
    token: String,
    per_minute: u32,
    http: reqwest::Client,
    clients: Arc<Mutex<HashMap<IpAddr, Window>>>,
}

/// How long a client's budget lasts.
const WINDOW: Duration = Duration::from_secs(60);

impl Proxy {
    /// Forward to `upstream` with `token`, allowing `per_minute` requests per client.
    pub fn new(upstream: &str, token: String, per_minute: u32) -> Proxy {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap_or_default();
        Proxy {
            upstream: upstream.trim_end_matches('/').to_owned(),
            token,
            per_minute,
            http,
            clients: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Count a request from `client`; `Err(seconds)` when over budget.
    fn admit(&self, client: IpAddr) -> Result<(), u64> {
        let now = Instant::now();
        let mut clients = self
            .clients
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // Forget clients whose window ended, so the map stays small.
        if clients.len() > 10_000 {
            clients.retain(|_, window| now.duration_since(window.started) < WINDOW);
        }
        let window = clients.entry(client).or_insert(Window {
            started: now,
            count: 0,
        });
        if now.duration_since(window.started) >= WINDOW {
            *window = Window {
                started: now,
                count: 0,
            };
        }
        if window.count >= self.per_minute {
            let left = WINDOW.saturating_sub(now.duration_since(window.started));
            return Err(left.as_secs().max(1));
        }
        window.count += 1;
        Ok(())
    }
}

/// Forward one `/v1/*` request.
pub async fn forward(State(proxy): State<Proxy>, request: Request) -> Response {
    let client = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |info| info.0.ip());
    if let Err(seconds) = proxy.admit(client) {
        return ApiError::ClientRateLimited(seconds).into_response();
    }
    let (parts, body) = request.into_parts();
    let Ok(body) = to_bytes(body, MAX_BODY_BYTES).await else {
        return ApiError::BodyTooLarge.into_response();
    };
    let path = parts.uri.path_and_query().map_or("/", |path| path.as_str());
    let mut upstream = proxy
        .http
        .request(parts.method.clone(), format!("{}{path}", proxy.upstream))
        .bearer_auth(&proxy.token)
        .body(body);
    // Only what the service needs: the body's type. The browser's own
    // Authorization, cookies and the rest stay here.
    if let Some(content_type) = parts.headers.get(header::CONTENT_TYPE) {
        upstream = upstream.header(header::CONTENT_TYPE, content_type.clone());
    }
    let answer = match upstream.send().await {
        Ok(answer) => answer,
        Err(error) => {
            let detail = if error.is_timeout() {
                "no answer within 60 s"
            } else {
                "connection failed"
            };
            return ApiError::BadGateway(detail.to_owned()).into_response();
        }
    };
    let status = answer.status();
    let keep: Vec<(header::HeaderName, HeaderValue)> = [header::CONTENT_TYPE, header::RETRY_AFTER]
        .into_iter()
        .filter_map(|name| {
            answer
                .headers()
                .get(&name)
                .cloned()
                .map(|value| (name, value))
        })
        .collect();
    let Ok(bytes) = answer.bytes().await else {
        return ApiError::BadGateway("the answer was cut off".to_owned()).into_response();
    };
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    for (name, value) in keep {
        response.headers_mut().insert(name, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_has_its_own_budget() {
        let proxy = Proxy::new("http://upstream.test/", "t".into(), 2);
        let (a, b) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        assert!(proxy.admit(a).is_ok() && proxy.admit(a).is_ok());
        let wait = proxy.admit(a).unwrap_err();
        assert!((1..=60).contains(&wait));
        assert!(proxy.admit(b).is_ok(), "another client is not affected");
        assert_eq!(proxy.upstream, "http://upstream.test");
    }
}
