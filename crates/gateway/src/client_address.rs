//! Whose request this is: the socket's peer, or, when that peer is a
//! trusted reverse proxy, the visitor its forwarding headers name.

use std::net::IpAddr;

use axum::http::HeaderMap;
use ipnet::IpNet;

/// One hop of `Forwarded: for=…` or `X-Forwarded-For`: an address with an
/// optional port, IPv6 possibly in brackets and quotes.
fn hop_address(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Ok(address) = text.parse() {
        return Some(address);
    }
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    // IPv4 with a port.
    text.rsplit_once(':')?.0.parse().ok()
}

/// The hops the forwarding headers list, oldest first: RFC 7239
/// `Forwarded` when present, else `X-Forwarded-For`. `None` when a hop
/// cannot be read, so a garbled header counts for nothing.
fn hops(headers: &HeaderMap) -> Option<Vec<IpAddr>> {
    let forwarded: Vec<&str> = headers
        .get_all("forwarded")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .collect();
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .flat_map(|value| value.split(','))
            .map(|element| {
                element
                    .split(';')
                    .find_map(|pair| {
                        let (name, value) = pair.split_once('=')?;
                        name.trim().eq_ignore_ascii_case("for").then_some(value)
                    })
                    .and_then(hop_address)
            })
            .collect();
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .map(|value| value.to_str().ok())
        .collect::<Option<Vec<&str>>>()?
        .iter()
        .flat_map(|value| value.split(','))
        .map(hop_address)
        .collect()
}

/// Who a budget counts, from a visitor's address: an IPv4 address itself,
/// an IPv6 address by its /64 network. One IPv6 subscriber usually holds a
/// whole /64, so counting single IPv6 addresses would give them 2^64
/// budgets. An IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is the IPv4
/// address.
pub fn visitor(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(
                u128::from(v6) & !u128::from(u64::MAX),
            )),
        },
    }
}

/// The visitor's address. Forwarding headers count only when `peer` is in
/// `trusted`; then the nearest hop not in `trusted` is the visitor (read
/// from the right: the left of the list is whatever the visitor wrote).
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |address: &IpAddr| trusted.iter().any(|net| net.contains(address));
    if !is_trusted(&peer) {
        return peer;
    }
    let Some(hops) = hops(headers).filter(|hops| !hops.is_empty()) else {
        return peer;
    };
    hops.iter()
        .rev()
        .find(|hop| !is_trusted(hop))
        .or(hops.first())
        .copied()
        .unwrap_or(peer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_visitors_are_counted_by_their_64_network() {
        assert_eq!(
            visitor(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            visitor(ip("2001:db8:1:2::1")),
            visitor(ip("2001:db8:1:2:ffff::9"))
        );
        assert_ne!(
            visitor(ip("2001:db8:1:2::1")),
            visitor(ip("2001:db8:1:3::1"))
        );
        assert_eq!(visitor(ip("198.51.100.7")), ip("198.51.100.7"));
        assert_eq!(visitor(ip("::ffff:198.51.100.7")), ip("198.51.100.7"));
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn trusted() -> Vec<IpNet> {
        vec![
            "127.0.0.1/32".parse().unwrap(),
            "10.0.0.0/8".parse().unwrap(),
        ]
    }

    #[test]
    fn untrusted_peers_are_the_client_whatever_they_claim() {
        let claims = headers(&[("x-forwarded-for", "1.2.3.4"), ("forwarded", "for=5.6.7.8")]);
        assert_eq!(
            client_address(ip("203.0.113.9"), &claims, &trusted()),
            ip("203.0.113.9")
        );
        assert_eq!(
            client_address(ip("203.0.113.9"), &claims, &[]),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_visitor() {
        let xff = headers(&[("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &xff, &trusted()),
            ip("198.51.100.7")
        );
        // A visitor's own X-Forwarded-For is to the left of what the proxy added.
        let spoofed = headers(&[("x-forwarded-for", "1.1.1.1, 198.51.100.7, 10.1.2.3")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &spoofed, &trusted()),
            ip("198.51.100.7")
        );
        let forwarded = headers(&[("forwarded", "for=\"[2001:db8::1]:4711\";proto=https")]);
        assert_eq!(
            client_address(ip("10.0.0.2"), &forwarded, &trusted()),
            ip("2001:db8::1")
        );
        let with_port = headers(&[("x-forwarded-for", "198.51.100.7:5050")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &with_port, &trusted()),
            ip("198.51.100.7")
        );
    }

    #[test]
    fn missing_or_garbled_headers_leave_the_peer() {
        assert_eq!(
            client_address(ip("127.0.0.1"), &HeaderMap::new(), &trusted()),
            ip("127.0.0.1")
        );
        let garbled = headers(&[("x-forwarded-for", "not-an-address")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &garbled, &trusted()),
            ip("127.0.0.1")
        );
        let only_proxies = headers(&[("x-forwarded-for", "10.0.0.5, 10.0.0.6")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &only_proxies, &trusted()),
            ip("10.0.0.5")
        );
    }
}
