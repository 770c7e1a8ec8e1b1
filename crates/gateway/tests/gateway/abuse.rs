//! The gateway under abuse: slow or never-finished requests are closed in
//! bounded time, a flood of connections cannot keep others out for long,
//! bodies are limited, and each visitor has budgets that forged forwarding
//! headers cannot escape.
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use crate::support::{raw, raw_get, settings, start_gateway, start_service};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Whether the gateway closes `stream` within `limit` (reads to the end).
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    let mut sink = Vec::new();
    tokio::time::timeout(limit, stream.read_to_end(&mut sink))
        .await
        .is_ok()
}

#[tokio::test]
async fn slow_headers_are_cut_off_while_others_are_served() {
    let (service, _) = start_service().await;
    let address = start_gateway(settings(Some(&service))).await;
    let started = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..50 {
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream
            .write_all(b"GET /v1/image_generate/x HTTP/1.1\r\nHost: g\r\n")
            .await
            .unwrap();
        slow.push(stream);
    }
    // Meanwhile a whole request is answered.
    assert_eq!(
        raw_get(address, "GET", "/v1/image_generate/x").await.status,
        200
    );
    for stream in &mut slow {
        assert!(closed_within(stream, Duration::from_secs(5)).await);
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed() {
    let (service, _) = start_service().await;
    let address = start_gateway(settings(Some(&service))).await;
    let mut stream = TcpStream::connect(address).await.unwrap();
    // Nothing sent at all.
    assert!(closed_within(&mut stream, Duration::from_secs(5)).await);
}

#[tokio::test]
async fn a_body_that_never_completes_is_refused_in_time() {
    let (service, recorder) = start_service().await;
    let address = start_gateway(settings(Some(&service))).await;
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream
        .write_all(
            b"POST /v1/image_generate HTTP/1.1\r\nHost: g\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"prompt\":",
        )
        .await
        .unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "closed within 5 s");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(recorder.seen().is_empty());
}

#[tokio::test]
async fn bodies_over_one_mebibyte_are_refused() {
    let (service, recorder) = start_service().await;
    let address = start_gateway(settings(Some(&service))).await;
    let body = format!("{{\"prompt\":\"{}\"}}", "x".repeat(1024 * 1024));
    let answer = raw(
        address,
        &format!(
            "POST /v1/image_generate HTTP/1.1\r\nHost: g\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
    .await;
    assert_eq!(answer.status, 413, "{answer:?}");
    assert!(recorder.seen().is_empty());
}

#[tokio::test]
async fn a_connection_flood_cannot_keep_visitors_out() {
    let (service, _) = start_service().await;
    let mut capped = settings(Some(&service));
    capped.connections.max_connections = 20;
    let address = start_gateway(capped).await;
    let mut flood = Vec::new();
    for _ in 0..60 {
        flood.push(TcpStream::connect(address).await.unwrap());
    }
    // Those over the cap are closed at once (well before the one second
    // the others have to send their headers).
    let checked = Instant::now();
    for (index, stream) in flood.iter_mut().enumerate().skip(20) {
        assert!(
            closed_within(stream, Duration::from_millis(300)).await,
            "connection {index} is over the cap of 20 and should be closed"
        );
    }
    assert!(
        checked.elapsed() < Duration::from_millis(900),
        "{:?}",
        checked.elapsed()
    );
    // The rest go when their time to send headers is up; then a visitor gets in.
    let started = Instant::now();
    loop {
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream
            .write_all(b"GET /v1/image_generate/x HTTP/1.1\r\nHost: g\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
        if answer.starts_with(b"HTTP/1.1 200") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "no visitor served within 5 s of the flood"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(flood);
}

/// A request from `peer`'s point of view is not possible over loopback;
/// forwarding headers are what differ between visitors here.
async fn get_as(address: SocketAddr, forwarded_for: &str) -> u16 {
    raw(
        address,
        &format!(
            "GET /v1/image_generate/x HTTP/1.1\r\nHost: g\r\nX-Forwarded-For: {forwarded_for}\r\nConnection: close\r\n\r\n"
        ),
    )
    .await
    .status
}

#[tokio::test]
async fn forged_forwarding_headers_do_not_buy_a_new_budget() {
    let (service, _) = start_service().await;
    let mut limited = settings(Some(&service));
    limited.requests_per_minute = NonZeroU32::new(3).unwrap();
    let address = start_gateway(limited).await;
    // Not a trusted proxy: every forged address is the same visitor.
    let statuses: Vec<u16> =
        statuses_for(address, &["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"]).await;
    assert_eq!(statuses, [200, 200, 200, 429]);
    let answer = raw_get(address, "GET", "/v1/image_generate/x").await;
    assert_eq!(answer.status, 429);
    assert!(
        answer.head.to_ascii_lowercase().contains("retry-after: "),
        "{}",
        answer.head
    );
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_visitor_has_a_budget() {
    let (service, _) = start_service().await;
    let mut limited = settings(Some(&service));
    limited.requests_per_minute = NonZeroU32::new(2).unwrap();
    limited.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    let address = start_gateway(limited).await;
    let statuses = statuses_for(
        address,
        &[
            "198.51.100.1",
            "198.51.100.1",
            "198.51.100.1",
            "198.51.100.2",
            "9.9.9.9, 198.51.100.2",
        ],
    )
    .await;
    // The third from .1 is over; .2 has its own budget, and an address the
    // visitor put in front of the proxy's does not change who they are.
    assert_eq!(statuses, [200, 200, 429, 200, 200]);
    assert_eq!(get_as(address, "9.9.9.8, 198.51.100.2").await, 429);
}

async fn statuses_for(address: SocketAddr, forwarded: &[&str]) -> Vec<u16> {
    let mut statuses = Vec::new();
    for forwarded_for in forwarded {
        statuses.push(get_as(address, forwarded_for).await);
    }
    statuses
}

#[tokio::test]
async fn submits_are_counted_in_tasks_created() {
    let (service, recorder) = start_service().await;
    let mut limited = settings(Some(&service));
    limited.tasks_per_hour = NonZeroU32::new(10).unwrap();
    let address = start_gateway(limited).await;
    let http = reqwest::Client::new();
    let submit = |body: &'static str| {
        http.post(format!("http://{address}/v1/image_generate"))
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    assert_eq!(
        submit(r#"{"prompt":"p","generate_count":8}"#)
            .await
            .unwrap()
            .status(),
        200
    );
    assert_eq!(
        submit(r#"{"prompt":"p","generate_count":2}"#)
            .await
            .unwrap()
            .status(),
        200
    );
    let refused = submit(r#"{"prompt":"p"}"#).await.unwrap();
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    // Reads are not submits: still allowed.
    assert_eq!(
        raw_get(address, "GET", "/v1/image_generate/x").await.status,
        200
    );
    assert_eq!(
        recorder
            .seen()
            .iter()
            .filter(|s| s.method == "POST")
            .count(),
        2
    );
}

/// A connection to `to` from the loopback address `from` (Linux answers on
/// all of 127.0.0.0/8).
async fn connect_from(from: &str, to: SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(to).await.unwrap()
}

/// Send `head`, then the body a byte every `every` until the gateway
/// answers; returns the answer's status line and when it came.
async fn trickle(mut stream: TcpStream, head: String, every: Duration) -> (String, Duration) {
    let started = Instant::now();
    if stream.write_all(head.as_bytes()).await.is_err() {
        return (String::new(), started.elapsed());
    }
    let mut answer = Vec::new();
    let mut buffer = [0u8; 1024];
    loop {
        tokio::select! {
            read = stream.read(&mut buffer) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    answer.extend_from_slice(&buffer[..n]);
                    if answer.windows(2).any(|pair| pair == b"\r\n") {
                        break;
                    }
                }
            },
            () = tokio::time::sleep(every) => {
                if stream.write_all(b" ").await.is_err() {
                    break;
                }
            }
        }
        if started.elapsed() > Duration::from_secs(20) {
            break;
        }
    }
    let status = String::from_utf8_lossy(&answer)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    (status, started.elapsed())
}

#[tokio::test]
async fn a_trickled_body_is_ended_at_its_deadline_and_others_are_served_meanwhile() {
    let (service, recorder) = start_service().await;
    let mut limited = settings(Some(&service));
    limited.body_timeout = Duration::from_secs(2);
    limited.connections.max_connections = 12;
    limited.connections.per_address = 8;
    limited.connections.header_timeout = Duration::from_secs(5);
    let address = start_gateway(limited).await;
    // 16 connections from one address trickle a byte every 300 ms: never
    // idle for the 2 s between pieces, so only a deadline for the whole
    // body ends them. 8 get in; the other 8 are closed at once.
    let mut trickles = Vec::new();
    for _ in 0..16 {
        let stream = connect_from("127.0.0.2", address).await;
        let head = "POST /v1/image_generate HTTP/1.1\r\nHost: g\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n".to_owned();
        trickles.push(tokio::spawn(trickle(
            stream,
            head,
            Duration::from_millis(300),
        )));
    }
    // Meanwhile another visitor is served, again and again.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for _ in 0..3 {
        assert_eq!(
            raw_get(address, "GET", "/v1/image_generate/x").await.status,
            200
        );
    }
    let mut ended = Vec::new();
    for trickle in trickles {
        ended.push(trickle.await.unwrap());
    }
    let timed_out: Vec<&(String, Duration)> = ended
        .iter()
        .filter(|(status, _)| status.starts_with("HTTP/1.1 408"))
        .collect();
    assert_eq!(timed_out.len(), 8, "{ended:?}");
    for (_, after) in &timed_out {
        assert!(
            *after < Duration::from_secs(4),
            "answered 408 within the 2 s deadline (and some slack): {after:?}"
        );
    }
    let refused = ended.iter().filter(|(status, _)| status.is_empty()).count();
    assert_eq!(
        refused, 8,
        "over the cap of 8 an address: closed: {ended:?}"
    );
    assert!(
        recorder.seen().iter().all(|seen| seen.method == "GET"),
        "no trickled body reached the service"
    );
}

#[tokio::test]
async fn a_trickled_sign_in_is_ended_at_its_deadline() {
    let (service, _) = start_service().await;
    let dir = tempfile::tempdir().unwrap();
    media_gen_gateway::access::key_file::KeyFile::new(dir.path())
        .add("ada", None, 0)
        .unwrap();
    let mut keys = settings(Some(&service));
    keys.access = media_gen_gateway::access::AccessMode::Keys;
    keys.data_dir = Some(dir.path().to_owned());
    keys.body_timeout = Duration::from_secs(2);
    let address = start_gateway(keys).await;
    let stream = connect_from("127.0.0.7", address).await;
    let head = "POST /session HTTP/1.1\r\nHost: g\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n".to_owned();
    let (status, after) = trickle(stream, head, Duration::from_millis(300)).await;
    assert!(status.starts_with("HTTP/1.1 408"), "{status}");
    assert!(after < Duration::from_secs(4), "{after:?}");
}
