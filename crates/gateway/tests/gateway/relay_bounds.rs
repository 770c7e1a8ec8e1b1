//! The relay's event streams, callbacks and the budgets under attack, over
//! real HTTP: one visitor holding streams cannot take the room other
//! requests need, streams end after their lifetime, a callback body that is
//! slow or too large is refused as such, and a visitor with a whole IPv6
//! /64 gets one budget, not one per address.

use std::num::NonZeroU32;
use std::time::Duration;

use crate::support::{raw, raw_get, settings, start_gateway, start_service};
use media_gen_gateway::relay::RelaySettings;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Any capability's shape: streams are refused or held before a
/// capability means anything.
const CAPABILITY: &str = "0123456789abcdef0123456789abcdef";

/// An event stream opened as `visitor` (through the trusted proxy's
/// `X-Forwarded-For`): its status and head, and the connection, kept open.
async fn open_stream(address: std::net::SocketAddr, visitor: &str) -> (u16, String, TcpStream) {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let request = format!(
        "GET /events?relays={CAPABILITY} HTTP/1.1\r\nHost: g\r\nX-Forwarded-For: {visitor}\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut byte))
            .await
            .expect("a head within 5 s")
            .unwrap();
        assert!(read > 0, "the gateway closed before its head");
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, head.to_ascii_lowercase(), stream)
}

/// A gateway with a relay of small bounds, behind a trusted proxy on loopback.
async fn relaying_gateway(
    per_visitor: usize,
    max: usize,
    lifetime: Duration,
) -> std::net::SocketAddr {
    let (service, _) = start_service().await;
    let mut settings = settings(Some(&service));
    settings.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    settings.relay = Some(RelaySettings {
        streams_per_visitor: per_visitor,
        max_streams: max,
        stream_lifetime: lifetime,
        ..RelaySettings::new("http://127.0.0.1:9".to_owned(), 64)
    });
    start_gateway(settings).await
}

#[tokio::test]
async fn a_visitor_holding_streams_leaves_room_for_everyone_else() {
    let address = relaying_gateway(2, 3, Duration::from_secs(600)).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let (status, _, stream) = open_stream(address, "198.51.100.1").await;
        assert_eq!(status, 200);
        held.push(stream);
    }
    // A third from the same visitor: refused, told when to come back.
    let (status, head, _) = open_stream(address, "198.51.100.1").await;
    assert_eq!(status, 429, "{head}");
    assert!(head.contains("retry-after: "), "{head}");
    // Another visitor has room of their own, until the gateway's bound.
    let (status, _, other) = open_stream(address, "198.51.100.2").await;
    assert_eq!(status, 200);
    let (status, head, _) = open_stream(address, "198.51.100.3").await;
    assert_eq!(status, 429, "the gateway's bound: {head}");
    assert!(head.contains("retry-after: "), "{head}");
    // Ordinary requests still find room.
    assert_eq!(raw_get(address, "GET", "/healthz").await.status, 200);
    assert_eq!(
        raw_get(address, "GET", "/v1/image_generate/x").await.status,
        200
    );
    // A stream that ends gives its place back.
    drop(held.pop());
    drop(other);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _, _) = open_stream(address, "198.51.100.3").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_stream_ends_after_its_lifetime() {
    let address = relaying_gateway(2, 3, Duration::from_secs(1)).await;
    let (status, _, mut stream) = open_stream(address, "198.51.100.1").await;
    assert_eq!(status, 200);
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest))
        .await
        .expect("the stream ends by itself")
        .unwrap();
    // Its place is free again: two more open.
    for _ in 0..2 {
        assert_eq!(open_stream(address, "198.51.100.1").await.0, 200);
    }
}

/// The status of a status read as `visitor`, through the trusted proxy.
async fn read_as(address: std::net::SocketAddr, visitor: &str) -> u16 {
    raw(
        address,
        &format!(
            "GET /v1/image_generate/x HTTP/1.1\r\nHost: g\r\nX-Forwarded-For: {visitor}\r\nConnection: close\r\n\r\n"
        ),
    )
    .await
    .status
}

#[tokio::test]
async fn a_whole_ipv6_64_is_one_visitor() {
    let (service, _) = start_service().await;
    let mut limited = settings(Some(&service));
    limited.requests_per_minute = NonZeroU32::new(2).unwrap();
    limited.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    let address = start_gateway(limited).await;
    // Three addresses of one /64: one budget of two.
    let mut statuses = Vec::new();
    for visitor in ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff::3"] {
        statuses.push(read_as(address, visitor).await);
    }
    assert_eq!(statuses, [200, 200, 429]);
    // The next /64 is someone else.
    assert_eq!(read_as(address, "2001:db8:1:3::1").await, 200);
    // IPv4 visitors are counted by their address, as before.
    assert_eq!(read_as(address, "198.51.100.1").await, 200);
    assert_eq!(read_as(address, "198.51.100.2").await, 200);
}

#[tokio::test]
async fn a_slow_or_large_callback_body_is_refused_as_what_it_is() {
    let (service, recorder) = start_service().await;
    let mut settings = settings(Some(&service));
    settings.relay = Some(RelaySettings::new("http://127.0.0.1:9".to_owned(), 64));
    let address = start_gateway(settings).await;
    // A relayed submit: the service is given the callback address.
    let answer = raw(
        address,
        "POST /v1/image_generate HTTP/1.1\r\nHost: g\r\nContent-Type: application/json\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{\"prompt\":\"p\"}",
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let submitted = recorder.seen().pop().unwrap();
    let body: serde_json::Value = serde_json::from_slice(&submitted.body).unwrap();
    let url = body["callback_url"].as_str().unwrap().to_owned();
    let path = url.trim_start_matches("http://127.0.0.1:9");

    // A body that never arrives: 408, within the body timeout (1 s here).
    let mut slow = TcpStream::connect(address).await.unwrap();
    let head = format!("POST {path} HTTP/1.1\r\nHost: g\r\nContent-Length: 100\r\n\r\n{{\"code\"");
    slow.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut answer))
        .await
        .expect("an answer within 5 s")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");

    // Over its limit: 413, naming its own limit.
    let large = raw(
        address,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: g\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
            65 * 1024,
            " ".repeat(65 * 1024)
        ),
    )
    .await;
    assert_eq!(large.status, 413, "{large:?}");
    assert!(large.body.contains("over 64 KiB"), "{}", large.body);
}
