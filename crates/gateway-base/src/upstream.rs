//! Calls to the service: hyper's pooled client (kept-alive connections,
//! TLS by rustls with the Mozilla roots for an `https` upstream), one
//! deadline over the whole call, the answer read up to a size limit.
//!
//! The client follows no redirect (it has no such layer): a `3xx` comes
//! back as an answer like any other, and the gateway refuses it.

use std::time::Duration;

use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode, Uri};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::{Client, ResponseFuture};
use hyper_util::rt::TokioExecutor;

use crate::public_only::PublicConnector;

/// How a call failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallError {
    /// No answer, whole, before the deadline.
    Timeout,
    /// No connection, a broken one, or an answer over the size limit.
    Failed,
}

/// The service's answer.
#[derive(Debug)]
pub struct Answer {
    /// Its status.
    pub status: StatusCode,
    /// Its headers.
    pub headers: HeaderMap,
    /// Its whole body.
    pub body: Bytes,
}

/// A pooled client for the service.
#[derive(Clone, Debug)]
pub struct UpstreamClient {
    client: Pool,
}

/// Where a client's connections may go.
#[derive(Clone, Debug)]
enum Pool {
    /// Wherever a URL's host resolves: the service's own address.
    Anywhere(Client<HttpsConnector<HttpConnector>, Full<Bytes>>),
    /// Public addresses only ([`crate::public_only`]).
    PublicOnly(Client<HttpsConnector<PublicConnector>, Full<Bytes>>),
}

impl Pool {
    fn request(&self, request: Request<Full<Bytes>>) -> ResponseFuture {
        match self {
            Pool::Anywhere(client) => client.request(request),
            Pool::PublicOnly(client) => client.request(request),
        }
    }
}

impl Default for UpstreamClient {
    fn default() -> Self {
        UpstreamClient::new()
    }
}

impl UpstreamClient {
    /// A client for `http` and `https` upstreams.
    pub fn new() -> UpstreamClient {
        let mut http = HttpConnector::new();
        // Small requests go out at once rather than wait for more to send.
        http.set_nodelay(true);
        http.enforce_http(false);
        let connector = HttpsConnectorBuilder::new()
            .with_webpki_roots()
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        UpstreamClient {
            client: Pool::Anywhere(Client::builder(TokioExecutor::new()).build(connector)),
        }
    }

    /// A client that connects to public addresses only, for addresses the
    /// gateway did not choose ([`crate::public_only`]).
    pub fn public_only() -> UpstreamClient {
        let connector = HttpsConnectorBuilder::new()
            .with_webpki_roots()
            .https_or_http()
            .enable_http1()
            .wrap_connector(PublicConnector::default());
        UpstreamClient {
            client: Pool::PublicOnly(Client::builder(TokioExecutor::new()).build(connector)),
        }
    }

    /// `method url` with `authorization`, and `body` of `content_type` when
    /// given; the whole answer, at most `max_answer` bytes, within `deadline`.
    pub async fn call(
        &self,
        method: Method,
        url: &str,
        authorization: &HeaderValue,
        body: Option<(Bytes, Option<HeaderValue>)>,
        deadline: Duration,
        max_answer: usize,
    ) -> Result<Answer, CallError> {
        let uri: Uri = url.parse().map_err(|_| CallError::Failed)?;
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::AUTHORIZATION, authorization.clone());
        let body = match body {
            Some((bytes, content_type)) => {
                if let Some(content_type) = content_type {
                    request = request.header(header::CONTENT_TYPE, content_type);
                }
                Full::new(bytes)
            }
            None => Full::default(),
        };
        let request = request.body(body).map_err(|_| CallError::Failed)?;
        let call = async {
            let answer = self
                .client
                .request(request)
                .await
                .map_err(|_| CallError::Failed)?;
            let (parts, body) = answer.into_parts();
            let body = Limited::new(body, max_answer)
                .collect()
                .await
                .map_err(|_| CallError::Failed)?
                .to_bytes();
            Ok(Answer {
                status: parts.status,
                headers: parts.headers,
                body,
            })
        };
        tokio::time::timeout(deadline, call)
            .await
            .unwrap_or(Err(CallError::Timeout))
    }

    /// `GET uri` with no credentials (a result's file lives at a public
    /// address: the token is the service's alone), its head within
    /// `deadline`; the body is left for the caller to read as it comes.
    pub async fn get_streamed(
        &self,
        uri: Uri,
        deadline: Duration,
    ) -> Result<hyper::Response<hyper::body::Incoming>, CallError> {
        let request = Request::get(uri)
            .body(Full::default())
            .map_err(|_| CallError::Failed)?;
        tokio::time::timeout(deadline, self.client.request(request))
            .await
            .map_err(|_| CallError::Timeout)?
            .map_err(|_| CallError::Failed)
    }
}
