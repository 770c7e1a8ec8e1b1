//! A connector that dials public addresses only, for fetching an address
//! the gateway did not choose (a task's result files): a host name is
//! resolved here and every address it resolves to must be
//! [`Reach::Public`]; an address written in the URL must be too. The
//! check is made on the very addresses the connection is then dialled to,
//! at connect time, so a name that answers differently the second time
//! (DNS rebinding) gains nothing, and a redirect's target is checked when
//! it is connected to like any other.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::http::Uri;
use hyper_util::client::legacy::connect::dns::Name;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioIo;
use media_gen_api::reach::{first_not_public, Reach};
use tokio::net::TcpStream;

/// Why an address is not dialled: `subject` (an address, or a name and
/// what it resolved to) is `reach`, not public.
pub fn refusal(subject: &str, reach: Reach) -> String {
    format!("{subject} is {reach}, not public")
}

/// `Ok` when every one of `addresses` (what `host` resolved to) is public;
/// otherwise why not, naming the first that is not.
pub fn check(host: &str, addresses: &[IpAddr]) -> Result<(), String> {
    if addresses.is_empty() {
        return Err(format!("{host} resolves to no address"));
    }
    let Some((ip, reach)) = first_not_public(addresses) else {
        return Ok(());
    };
    let subject = if host.trim_matches(['[', ']']) == ip.to_string() {
        ip.to_string()
    } else {
        format!("{host} resolves to {ip}, which")
    };
    Err(refusal(&subject, reach))
}

/// Resolves a name to its addresses when every one is public.
#[derive(Clone, Copy, Debug, Default)]
pub struct PublicResolver;

type Resolving = Pin<Box<dyn Future<Output = io::Result<std::vec::IntoIter<SocketAddr>>> + Send>>;

impl tower::Service<Name> for PublicResolver {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = io::Error;
    type Future = Resolving;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, name: Name) -> Resolving {
        Box::pin(async move {
            // The port is the connector's to set.
            let addresses: Vec<SocketAddr> =
                tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            let ips: Vec<IpAddr> = addresses.iter().map(SocketAddr::ip).collect();
            check(name.as_str(), &ips)
                .map_err(|why| io::Error::new(io::ErrorKind::PermissionDenied, why))?;
            Ok(addresses.into_iter())
        })
    }
}

/// hyper's connector over [`PublicResolver`], refusing a URL whose host is
/// an address that is not public (the connector dials those unresolved).
#[derive(Clone, Debug)]
pub struct PublicConnector {
    inner: HttpConnector<PublicResolver>,
}

impl Default for PublicConnector {
    fn default() -> Self {
        let mut inner = HttpConnector::new_with_resolver(PublicResolver);
        inner.set_nodelay(true);
        inner.enforce_http(false);
        PublicConnector { inner }
    }
}

type Connecting = Pin<
    Box<
        dyn Future<Output = Result<TokioIo<TcpStream>, Box<dyn std::error::Error + Send + Sync>>>
            + Send,
    >,
>;

impl tower::Service<Uri> for PublicConnector {
    type Response = TokioIo<TcpStream>;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    type Future = Connecting;

    fn poll_ready(&mut self, context: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(context).map_err(Into::into)
    }

    fn call(&mut self, uri: Uri) -> Connecting {
        let literal = uri
            .host()
            .map(|host| host.trim_start_matches('[').trim_end_matches(']'))
            .and_then(|host| host.parse::<IpAddr>().ok());
        if let Some(ip) = literal {
            if let Err(why) = check(&ip.to_string(), &[ip]) {
                return Box::pin(async move {
                    Err(io::Error::new(io::ErrorKind::PermissionDenied, why).into())
                });
            }
        }
        let connecting = self.inner.call(uri);
        Box::pin(async move { connecting.await.map_err(Into::into) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::Service;

    #[tokio::test]
    async fn this_machine_is_not_dialled_by_address_or_by_name() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        for host in [
            "127.0.0.1".to_owned(),
            "[::1]".to_owned(),
            "[::ffff:127.0.0.1]".to_owned(),
            "localhost".to_owned(),
        ] {
            let uri: Uri = format!("http://{host}:{port}/").parse().unwrap();
            let refused = PublicConnector::default().call(uri).await;
            let error = refused.expect_err(&host);
            // The connector's own error wraps the resolver's.
            let mut why = error.to_string();
            let mut source = error.source();
            while let Some(inner) = source {
                why = format!("{why}: {inner}");
                source = inner.source();
            }
            assert!(why.contains("is loopback, not public"), "{host}: {why}");
        }
    }

    #[test]
    fn a_refusal_names_the_address_and_what_it_is() {
        let loopback: IpAddr = "127.0.0.1".parse().unwrap();
        assert_eq!(
            check("localhost", &[loopback]),
            Err("localhost resolves to 127.0.0.1, which is loopback, not public".to_owned())
        );
        assert_eq!(
            check("127.0.0.1", &[loopback]),
            Err("127.0.0.1 is loopback, not public".to_owned())
        );
        let public: IpAddr = "93.184.216.34".parse().unwrap();
        assert_eq!(check("example.com", &[public]), Ok(()));
        assert!(
            check("example.com", &[public, loopback]).is_err(),
            "every address counts"
        );
    }
}
