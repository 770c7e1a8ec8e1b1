//! Whose request this is: the socket's peer, or, when that peer is a
//! trusted reverse proxy, the visitor named by the one forwarding header
//! the operator says that proxy sets (`--client-address-header`). Any other
//! forwarding header is the visitor's own writing and is never read: a
//! proxy that sets only `X-Forwarded-For` passes a visitor's `Forwarded`
//! through untouched.

use std::net::IpAddr;

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The one header a trusted proxy names the visitor in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum AddressHeader {
    /// `X-Forwarded-For: visitor, proxy1, …` (nginx's
    /// `proxy_set_header X-Forwarded-For $remote_addr;`, the guide's).
    #[default]
    #[value(name = "x-forwarded-for")]
    XForwardedFor,
    /// RFC 7239 `Forwarded: for=visitor, for=proxy1`.
    #[value(name = "forwarded")]
    Forwarded,
    /// `X-Real-IP: visitor` (one address).
    #[value(name = "x-real-ip")]
    XRealIp,
}

impl AddressHeader {
    /// The header's name.
    pub fn name(self) -> &'static str {
        match self {
            AddressHeader::XForwardedFor => "x-forwarded-for",
            AddressHeader::Forwarded => "forwarded",
            AddressHeader::XRealIp => "x-real-ip",
        }
    }
}

/// Who the gateway believes about visitors' addresses: the proxies it
/// trusts, and the header they name the visitor in.
#[derive(Debug, Clone, Default)]
pub struct ClientAddresses {
    /// Proxies whose header is believed (`--trusted-proxy`).
    pub trusted: Vec<IpNet>,
    /// The header they set (`--client-address-header`).
    pub header: AddressHeader,
}

impl ClientAddresses {
    /// Whether `address` is one of the trusted proxies.
    pub fn is_trusted(&self, address: &IpAddr) -> bool {
        self.trusted.iter().any(|net| net.contains(address))
    }

    /// The visitor's address. The header counts only when `peer` is a
    /// trusted proxy; then the hops are read from the right (what the
    /// nearest proxy wrote) past every trusted proxy, and the first one
    /// that is not trusted is the visitor: whatever the visitor wrote
    /// themselves lies further left and is never reached unless every hop
    /// after it is a trusted proxy.
    pub fn of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.is_trusted(&peer) {
            return peer;
        }
        let Some(hops) = hops(headers, self.header).filter(|hops| !hops.is_empty()) else {
            return peer;
        };
        hops.iter()
            .rev()
            .find(|hop| !self.is_trusted(hop))
            .or(hops.first())
            .copied()
            .unwrap_or(peer)
    }
}

/// One hop of `Forwarded: for=…`, `X-Forwarded-For` or `X-Real-IP`: an
/// address with an optional port, IPv6 possibly in brackets and quotes.
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

/// The hops `header` lists, oldest first (every line of it, in order).
/// `None` when a hop cannot be read, so a garbled header counts for
/// nothing; `X-Real-IP` names one address, so more than one is garbled.
fn hops(headers: &HeaderMap, header: AddressHeader) -> Option<Vec<IpAddr>> {
    let lines = headers
        .get_all(header.name())
        .iter()
        .map(|value| value.to_str().ok())
        .collect::<Option<Vec<&str>>>()?;
    let elements = lines.iter().flat_map(|value| value.split(','));
    match header {
        AddressHeader::XForwardedFor => elements.map(hop_address).collect(),
        AddressHeader::XRealIp => {
            let hops: Vec<IpAddr> = elements.map(hop_address).collect::<Option<_>>()?;
            (hops.len() <= 1).then_some(hops)
        }
        AddressHeader::Forwarded => elements
            .map(|element| {
                element
                    .split(';')
                    .find_map(|pair| {
                        let (name, value) = pair.split_once('=')?;
                        name.trim().eq_ignore_ascii_case("for").then_some(value)
                    })
                    .and_then(hop_address)
            })
            .collect(),
    }
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

    /// Loopback and 10/8 trusted, naming the visitor in `header`.
    fn rule(header: AddressHeader) -> ClientAddresses {
        ClientAddresses {
            trusted: vec![
                "127.0.0.1/32".parse().unwrap(),
                "10.0.0.0/8".parse().unwrap(),
            ],
            header,
        }
    }

    fn client_address(peer: IpAddr, headers: &HeaderMap, rule: &ClientAddresses) -> IpAddr {
        rule.of(peer, headers)
    }

    #[test]
    fn untrusted_peers_are_the_client_whatever_they_claim() {
        let claims = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            ("forwarded", "for=5.6.7.8"),
            ("x-real-ip", "9.9.9.9"),
        ]);
        for header in [
            AddressHeader::XForwardedFor,
            AddressHeader::Forwarded,
            AddressHeader::XRealIp,
        ] {
            assert_eq!(
                client_address(ip("203.0.113.9"), &claims, &rule(header)),
                ip("203.0.113.9")
            );
        }
        assert_eq!(
            client_address(ip("203.0.113.9"), &claims, &ClientAddresses::default()),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn only_the_header_named_is_read() {
        // The proxy sets X-Forwarded-For; the visitor's own Forwarded and
        // X-Real-IP pass through it and must not name anyone.
        let forged = headers(&[
            ("forwarded", "for=198.18.0.7"),
            ("x-real-ip", "198.18.0.8"),
            ("x-forwarded-for", "198.51.100.7"),
        ]);
        let peer = ip("127.0.0.1");
        assert_eq!(
            client_address(peer, &forged, &rule(AddressHeader::XForwardedFor)),
            ip("198.51.100.7")
        );
        assert_eq!(
            client_address(peer, &forged, &rule(AddressHeader::Forwarded)),
            ip("198.18.0.7")
        );
        assert_eq!(
            client_address(peer, &forged, &rule(AddressHeader::XRealIp)),
            ip("198.18.0.8")
        );
        // Without the named header, the proxy itself is the visitor: one
        // budget for all rather than one chosen by each visitor.
        let only_forwarded = headers(&[("forwarded", "for=198.18.0.7")]);
        assert_eq!(
            client_address(peer, &only_forwarded, &rule(AddressHeader::XForwardedFor)),
            peer
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_visitor() {
        let xff = rule(AddressHeader::XForwardedFor);
        let given = headers(&[("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &given, &xff),
            ip("198.51.100.7")
        );
        // A visitor's own X-Forwarded-For is to the left of what the proxy added.
        let spoofed = headers(&[("x-forwarded-for", "1.1.1.1, 198.51.100.7, 10.1.2.3")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &spoofed, &xff),
            ip("198.51.100.7")
        );
        // Two header lines read as one list, in order.
        let two_lines = headers(&[
            ("x-forwarded-for", "1.1.1.1"),
            ("x-forwarded-for", "198.51.100.7"),
        ]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &two_lines, &xff),
            ip("198.51.100.7")
        );
        let forwarded = headers(&[(
            "forwarded",
            "for=1.1.1.1, for=\"[2001:db8::1]:4711\";proto=https",
        )]);
        assert_eq!(
            client_address(ip("10.0.0.2"), &forwarded, &rule(AddressHeader::Forwarded)),
            ip("2001:db8::1")
        );
        let with_port = headers(&[("x-forwarded-for", "198.51.100.7:5050")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &with_port, &xff),
            ip("198.51.100.7")
        );
        let real_ip = headers(&[("x-real-ip", "198.51.100.7")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &real_ip, &rule(AddressHeader::XRealIp)),
            ip("198.51.100.7")
        );
    }

    #[test]
    fn missing_or_garbled_headers_leave_the_peer() {
        let xff = rule(AddressHeader::XForwardedFor);
        assert_eq!(
            client_address(ip("127.0.0.1"), &HeaderMap::new(), &xff),
            ip("127.0.0.1")
        );
        let garbled = headers(&[("x-forwarded-for", "not-an-address")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &garbled, &xff),
            ip("127.0.0.1")
        );
        let only_proxies = headers(&[("x-forwarded-for", "10.0.0.5, 10.0.0.6")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &only_proxies, &xff),
            ip("10.0.0.5")
        );
        let two_real = headers(&[("x-real-ip", "198.51.100.7, 198.51.100.8")]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &two_real, &rule(AddressHeader::XRealIp)),
            ip("127.0.0.1"),
            "X-Real-IP names one address"
        );
    }

    #[test]
    fn the_flag_reads_each_header_by_its_name() {
        use clap::ValueEnum;
        for header in AddressHeader::value_variants() {
            assert_eq!(
                AddressHeader::from_str(header.name(), true).ok(),
                Some(*header)
            );
        }
        assert_eq!(AddressHeader::default(), AddressHeader::XForwardedFor);
    }
}
