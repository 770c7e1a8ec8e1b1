//! Accepting connections under limits axum's `serve` does not set: a cap on
//! open connections (more are closed at once), a cap per visitor's address
//! (so one address holding connections open cannot take every place), a
//! time to send headers that also ends idle kept-alive connections, and a
//! graceful end that lets requests in flight finish.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
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
    /// Open connections one address may hold (an IPv6 visitor: their /64);
    /// trusted proxies, which carry everyone's, are not capped.
    pub per_address: usize,
    /// Time to send a request's headers, and to start the next one.
    pub header_timeout: Duration,
    /// Time requests in flight get to finish once shutdown starts.
    pub shutdown_grace: Duration,
}

/// The connections each address holds open.
#[derive(Default)]
struct PerAddress(std::sync::Mutex<HashMap<IpAddr, usize>>);

/// One open connection counted against its address; uncounted when dropped.
struct AddressSlot {
    counts: Arc<PerAddress>,
    address: IpAddr,
}

impl PerAddress {
    /// A place for one more connection from `address`, unless it holds
    /// `cap` already.
    fn take(self: &Arc<Self>, address: IpAddr, cap: usize) -> Option<AddressSlot> {
        let mut counts = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = counts.entry(address).or_insert(0);
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            counts: Arc::clone(self),
            address,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut counts = self
            .counts
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = counts.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

/// Serve `app` on `listener` until `shutdown` completes, then let requests
/// in flight finish (up to the grace period) and close what is left open
/// (event streams), so a stopped server holds no connection. Connections
/// from the trusted proxies of `addresses`, which carry everyone's, are not
/// counted per address.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    addresses: crate::client_address::ClientAddresses,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let per_address = Arc::new(PerAddress::default());
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
        let address_slot = if addresses.is_trusted(&peer.ip()) {
            None
        } else {
            let visitor = crate::client_address::visitor(peer.ip());
            let Some(taken) = per_address.take(visitor, limits.per_address) else {
                metrics::counter!(CONNECTIONS_REFUSED, "cap" => "per_address").increment(1);
                drop(stream);
                continue;
            };
            Some(taken)
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            metrics::counter!(CONNECTIONS_REFUSED, "cap" => "all").increment(1);
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
            drop(address_slot);
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
