//! Many visitors from one machine: the benchmark's clients spread over
//! loopback source addresses (127.0.0.2, 127.0.0.3, …; Linux routes all
//! of 127.0.0.0/8 to `lo`), each holding no more than the gateway lets one
//! address hold. The gateway then runs as deployed, with its default caps
//! per address, rather than with caps raised for the benchmark: raising
//! them would measure a gateway nobody runs (and a cap that grew costly
//! would go unseen).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// Open connections the gateway lets one address hold by default
/// (`--max-connections-per-address`).
pub const CONNECTIONS_PER_ADDRESS: usize = 32;
/// HTTP clients given one address: half of what it may hold, so a
/// connection opened again while the gateway still counts the old one
/// finds room.
pub const CLIENTS_PER_ADDRESS: usize = CONNECTIONS_PER_ADDRESS / 2;
/// Event streams the gateway lets one visitor (address) hold by default
/// (`--relay-streams-per-visitor`).
pub const STREAMS_PER_VISITOR: usize = 8;

/// The source address of the `index`th of many clients when one address
/// may hold `per_address` of them: 127.0.0.2 for the first `per_address`,
/// 127.0.0.3 for the next, and so on. 127.0.0.1 is left to the benchmark's
/// other requests, which the gateway counts against the same caps.
pub fn source(index: usize, per_address: usize) -> IpAddr {
    let first = u32::from(Ipv4Addr::new(127, 0, 0, 2));
    let offset = u32::try_from(index / per_address.max(1)).unwrap_or(u32::MAX);
    // At most 127.255.255.254: past it, addresses are shared (and the caps
    // refuse); 16 million clients are far beyond any part.
    let last = u32::from(Ipv4Addr::new(127, 255, 255, 254));
    IpAddr::V4(Ipv4Addr::from(first.saturating_add(offset).min(last)))
}

/// A TCP connection to `to` from the `index`th source address of
/// [`source`] (`per_address` clients to an address).
pub async fn connect(
    to: SocketAddr,
    index: usize,
    per_address: usize,
) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source(index, per_address), 0))?;
    socket.connect(to).await
}

/// A client whose connections come from the `index`th source address of
/// [`source`] (`per_address` clients to an address).
pub fn client(index: usize, per_address: usize) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .local_address(source(index, per_address))
        .build()
        .map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_fill_each_address_up_to_its_share_then_take_the_next() {
        let at = |index| source(index, STREAMS_PER_VISITOR).to_string();
        assert_eq!(at(0), "127.0.0.2");
        assert_eq!(at(7), "127.0.0.2");
        assert_eq!(at(8), "127.0.0.3");
        // 4,000 streams: 500 addresses, across a byte.
        assert_eq!(at(3_999), "127.0.1.245");
        assert_eq!(source(5, 0).to_string(), "127.0.0.7");
    }

    #[tokio::test]
    async fn a_connection_comes_from_its_loopback_address() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let to = listener.local_addr().unwrap();
        let _client = connect(to, 9, STREAMS_PER_VISITOR).await.unwrap();
        let (_, from) = listener.accept().await.unwrap();
        assert_eq!(from.ip().to_string(), "127.0.0.3");
    }
}
