//! Accepting connections under limits axum's `serve` does not set: a cap on
//! open connections (more are closed at once), a time to send headers that
//! also ends idle kept-alive connections, and a graceful end that lets
//! requests in flight finish.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::observe::{CONNECTIONS_OPEN, CONNECTIONS_REFUSED};

/// Limits on connections.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Open connections at most.
    pub max_connections: usize,
    /// Time to send a request's headers, and to start the next one.
    pub header_timeout: Duration,
    /// Time requests in flight get to finish once shutdown starts.
    pub shutdown_grace: Duration,
}

/// Serve `app` on `listener` until `shutdown` completes, then let requests
/// in flight finish (up to the grace period) and close what is left open
/// (event streams), so a stopped server holds no connection.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    tokio::pin!(shutdown);
    // Every connection's task, so those still open at the end of the grace
    // period (an event stream never ends by itself) end with the server.
    let mut connections = tokio::task::JoinSet::new();
    loop {
        while connections.try_join_next().is_some() {}
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of file descriptors, say: wait rather than spin.
                tracing::warn!(%error, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Small answers go out at once rather than wait for more to send.
        let _ = stream.set_nodelay(true);
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            metrics::counter!(CONNECTIONS_REFUSED).increment(1);
            drop(stream);
            continue;
        };
        let service = app
            .clone()
            .map_request(move |mut request: hyper::Request<Incoming>| {
                request
                    .extensions_mut()
                    .insert(ConnectInfo::<SocketAddr>(peer));
                request
            });
        let connection =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        metrics::gauge!(CONNECTIONS_OPEN).increment(1.0);
        connections.spawn(async move {
            let _ = connection.await;
            metrics::gauge!(CONNECTIONS_OPEN).decrement(1.0);
            drop(slot);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(limits.shutdown_grace) => {
            tracing::warn!("requests still in flight at the end of the grace period");
        }
    }
    // What is still open is closed now, as when the process ends.
    connections.abort_all();
    while let Some(ended) = connections.join_next().await {
        if ended.is_err() {
            metrics::gauge!(CONNECTIONS_OPEN).decrement(1.0);
        }
    }
}
