//! Where an IP address leads, for servers that fetch an address someone
//! else named: the sandbox's `--fetch-inputs` (a submission's media) and
//! the gateway's kept results (a task's files). Only a [`Reach::Public`]
//! address is fetched unless the operator allowed more; every other kind
//! is named in the refusal, so a log or a page says why.
//!
//! IPv6 forms that carry an IPv4 address the packet goes to (mapped,
//! NAT64, 6to4) are judged by that address; IPv4-compatible (`::a.b.c.d`)
//! and every other address outside global unicast are special-purpose.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Where an address leads: across the internet, or somewhere a server
/// must not be made to reach for someone else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Reachable across the internet (global unicast).
    Public,
    /// This machine: 127.0.0.0/8, ::1.
    Loopback,
    /// The local link: 169.254.0.0/16, fe80::/10.
    LinkLocal,
    /// A private network: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7.
    Private,
    /// 0.0.0.0 or ::, which many systems connect to this machine.
    Unspecified,
    /// Any other address not meant to be reached across the internet:
    /// "this network", shared (carrier NAT), documentation, benchmarking,
    /// protocol assignments, multicast, reserved and broadcast addresses.
    SpecialPurpose,
}

impl fmt::Display for Reach {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            Reach::Public => "public",
            Reach::Loopback => "loopback",
            Reach::LinkLocal => "link-local",
            Reach::Private => "private",
            Reach::Unspecified => "unspecified",
            Reach::SpecialPurpose => "special-purpose",
        })
    }
}

/// Where `ip` leads. IPv6 addresses that carry an IPv4 one the connection
/// goes to (IPv4-mapped, NAT64's 64:ff9b::/96, 6to4's 2002::/16) are
/// judged by that IPv4 address.
pub fn classify(ip: IpAddr) -> Reach {
    match ip {
        IpAddr::V4(ip) => classify_v4(ip),
        IpAddr::V6(ip) => classify_v6(ip),
    }
}

fn classify_v4(ip: Ipv4Addr) -> Reach {
    let [a, b, c, _] = ip.octets();
    if ip.is_unspecified() {
        Reach::Unspecified
    } else if ip.is_loopback() {
        Reach::Loopback
    } else if ip.is_link_local() {
        Reach::LinkLocal
    } else if ip.is_private() {
        Reach::Private
    } else if a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && (c == 0 || c == 2))
        || (a == 192 && b == 88 && c == 99)
        || (a == 198 && (b == 18 || b == 19))
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113)
        || a >= 224
    {
        Reach::SpecialPurpose
    } else {
        Reach::Public
    }
}

fn classify_v6(ip: Ipv6Addr) -> Reach {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return classify_v4(v4);
    }
    let segments = ip.segments();
    let [first, second, ..] = segments;
    // The IPv4 address in the last 32 bits.
    let low_v4 = || {
        let [high, low] = [segments[6].to_be_bytes(), segments[7].to_be_bytes()];
        Ipv4Addr::new(high[0], high[1], low[0], low[1])
    };
    if ip.is_unspecified() {
        Reach::Unspecified
    } else if ip.is_loopback() {
        Reach::Loopback
    } else if first & 0xffc0 == 0xfe80 {
        Reach::LinkLocal
    } else if first & 0xfe00 == 0xfc00 {
        Reach::Private
    } else if first == 0x64 && second == 0xff9b && segments[2..6] == [0; 4] {
        classify_v4(low_v4())
    } else if first == 0x2002 {
        let [high, low] = [second.to_be_bytes(), segments[2].to_be_bytes()];
        classify_v4(Ipv4Addr::new(high[0], high[1], low[0], low[1]))
    } else if first & 0xe000 != 0x2000
        || (first == 0x2001 && second < 0x0200)
        || (first == 0x2001 && second == 0x0db8)
        || first & 0xfff0 == 0x3ff0
    {
        // Outside global unicast (2000::/3), or in its protocol
        // assignments (2001::/23, Teredo included) or documentation
        // (2001:db8::/32, 3fff::/20).
        Reach::SpecialPurpose
    } else {
        Reach::Public
    }
}

/// The first of `addresses` that is not public, with where it leads: what
/// a server refuses to dial when a name resolves to it (none: every one is
/// public).
pub fn first_not_public(addresses: &[IpAddr]) -> Option<(IpAddr, Reach)> {
    addresses
        .iter()
        .map(|ip| (*ip, classify(*ip)))
        .find(|(_, reach)| *reach != Reach::Public)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn addresses_are_classified_by_where_they_lead() {
        for (address, reach) in [
            ("8.8.8.8", Reach::Public),
            ("1.1.1.1", Reach::Public),
            ("2606:4700:4700::1111", Reach::Public),
            ("127.0.0.1", Reach::Loopback),
            ("127.255.0.9", Reach::Loopback),
            ("::1", Reach::Loopback),
            ("169.254.169.254", Reach::LinkLocal),
            ("fe80::1", Reach::LinkLocal),
            ("febf::1", Reach::LinkLocal),
            ("10.1.2.3", Reach::Private),
            ("172.16.0.1", Reach::Private),
            ("172.31.255.255", Reach::Private),
            ("192.168.1.1", Reach::Private),
            ("fc00::1", Reach::Private),
            ("fd12:3456::1", Reach::Private),
            ("0.0.0.0", Reach::Unspecified),
            ("::", Reach::Unspecified),
            // IPv6 forms that carry an IPv4 address are judged by it.
            ("::ffff:127.0.0.1", Reach::Loopback),
            ("::ffff:10.0.0.1", Reach::Private),
            ("::ffff:169.254.169.254", Reach::LinkLocal),
            ("::ffff:8.8.8.8", Reach::Public),
            ("64:ff9b::7f00:1", Reach::Loopback),
            ("64:ff9b::808:808", Reach::Public),
            ("2002:c0a8:101::1", Reach::Private),
            ("2002:808:808::1", Reach::Public),
            // Other addresses not meant to be reached across the internet.
            ("0.1.2.3", Reach::SpecialPurpose),
            ("100.64.0.1", Reach::SpecialPurpose),
            ("192.0.2.1", Reach::SpecialPurpose),
            ("198.18.0.1", Reach::SpecialPurpose),
            ("203.0.113.9", Reach::SpecialPurpose),
            ("224.0.0.1", Reach::SpecialPurpose),
            ("255.255.255.255", Reach::SpecialPurpose),
            ("::127.0.0.1", Reach::SpecialPurpose),
            ("2001:db8::1", Reach::SpecialPurpose),
            ("2001::1", Reach::SpecialPurpose),
            ("fec0::1", Reach::SpecialPurpose),
            ("ff02::1", Reach::SpecialPurpose),
        ] {
            assert_eq!(classify(ip(address)), reach, "{address}");
        }
        // Just outside the private and link-local ranges.
        for address in ["172.15.255.255", "172.32.0.1", "169.253.0.1", "100.128.0.1"] {
            assert_eq!(classify(ip(address)), Reach::Public, "{address}");
        }
    }

    #[test]
    fn the_first_address_not_public_is_named() {
        assert_eq!(
            first_not_public(&[ip("8.8.8.8"), ip("2606:4700::1111")]),
            None
        );
        assert_eq!(
            first_not_public(&[ip("8.8.8.8"), ip("10.0.0.7"), ip("::1")]),
            Some((ip("10.0.0.7"), Reach::Private))
        );
    }

    #[test]
    fn global_addresses_are_public_in_every_form() {
        for address in ["93.184.216.34", "::ffff:93.184.216.34", "2606:4700::1111"] {
            assert_eq!(classify(ip(address)), Reach::Public, "{address}");
        }
        // IPv4-compatible (deprecated) forms are never dialled as IPv4.
        assert_eq!(classify(ip("::7f00:1")), Reach::SpecialPurpose);
        assert_eq!(classify(ip("2002:7f00:1::")), Reach::Loopback, "6to4");
    }
}
