//! Operating the gateway: health and readiness, Prometheus metrics, the
//! binary's start-up checks, its logs (one JSON line per request, never the
//! token) and a clean end on SIGTERM that finishes requests in flight.
use std::process::Stdio;
use std::time::Duration;

use crate::support::{gateway, raw_get, settings, start_gateway, start_service, TOKEN};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::Command;

#[tokio::test]
async fn health_and_readiness_say_what_they_see() {
    let (address, _) = gateway().await;
    assert_eq!(raw_get(address, "GET", "/healthz").await.status, 200);
    let ready = raw_get(address, "GET", "/readyz").await;
    assert_eq!(ready.status, 200, "{ready:?}");

    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let down = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let address = start_gateway(settings(Some(&down))).await;
    assert_eq!(raw_get(address, "GET", "/healthz").await.status, 200);
    assert_eq!(raw_get(address, "GET", "/readyz").await.status, 503);
}

#[tokio::test]
async fn readiness_asked_often_costs_the_service_one_call_every_few_seconds() {
    let (address, recorder) = gateway().await;
    for _ in 0..20 {
        assert_eq!(raw_get(address, "GET", "/readyz").await.status, 200);
    }
    let calls = recorder
        .seen()
        .iter()
        .filter(|seen| seen.target.ends_with("/target_languages"))
        .count();
    assert_eq!(calls, 1, "twenty readiness checks, one call to the service");
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_status() {
    let (address, _) = gateway().await;
    raw_get(address, "GET", "/v1/image_generate/ig-1").await;
    raw_get(address, "GET", "/v1/%2e%2e/admin").await;
    let page = raw_get(address, "GET", "/metrics").await;
    assert_eq!(page.status, 200);
    for line in [
        "gateway_requests_total{route=\"status\",status=\"200\"}",
        "gateway_requests_total{route=\"not_documented\",status=\"404\"}",
        "gateway_upstream_duration_seconds_bucket{route=\"status\"",
    ] {
        assert!(page.body.contains(line), "{line} in\n{}", page.body);
    }
    // Visitors cannot add label values: what they ask for is a closed set.
    assert!(!page.body.contains("admin"));
}

#[tokio::test]
async fn without_a_token_the_binary_does_not_start() {
    let output = Command::new(env!("CARGO_BIN_EXE_media-gen-gateway"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "http://127.0.0.1:9",
        ])
        .env_remove("MEDIA_GEN_TOKEN")
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("MEDIA_GEN_TOKEN"), "{said}");
}

#[tokio::test]
async fn the_binary_logs_each_request_without_the_token_and_ends_cleanly() {
    logs_and_ends_cleanly(&[]).await;
}

#[tokio::test]
async fn on_one_thread_the_binary_serves_and_ends_as_well() {
    logs_and_ends_cleanly(&["--worker-threads", "1"]).await;
}

/// Run the binary with `extra` flags: it answers, logs each request without
/// the token, and on SIGTERM finishes the call in flight before it ends.
async fn logs_and_ends_cleanly(extra: &[&str]) {
    let (service, _) = start_service().await;
    let mut child = Command::new(env!("CARGO_BIN_EXE_media-gen-gateway"))
        .args(["--listen", "127.0.0.1:0", "--upstream", &service])
        .args(extra)
        .args([
            "--log-format",
            "json",
            "--upstream-timeout",
            "10s",
            "--shutdown-grace",
            "10s",
        ])
        .env("MEDIA_GEN_TOKEN", TOKEN)
        .env("RUST_LOG", "debug")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).await.unwrap();
    let address: std::net::SocketAddr = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();

    assert_eq!(
        raw_get(address, "GET", "/v1/image_generate/ig-1")
            .await
            .status,
        200
    );
    assert_eq!(
        raw_get(address, "DELETE", "/v1/image_generate/ig-1")
            .await
            .status,
        404
    );
    // A call in flight when SIGTERM arrives still gets its answer.
    let in_flight =
        tokio::spawn(async move { raw_get(address, "GET", "/v1/image_generate/slow").await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = child.id().unwrap().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .await
        .unwrap();
    assert!(killed.success());
    let answer = in_flight.await.unwrap();
    assert_eq!(answer.status, 200, "{answer:?}");
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("ends within the grace period")
        .unwrap();
    assert!(status.success(), "{status}");
    // No new connection after the end.
    assert!(tokio::net::TcpStream::connect(address).await.is_err());

    let mut logs = String::new();
    stdout.read_to_string(&mut logs).await.unwrap();
    let mut errors = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut errors)
        .await
        .unwrap();
    assert!(
        !logs.contains(TOKEN) && !errors.contains(TOKEN),
        "the token was logged"
    );
    let lines: Vec<serde_json::Value> = logs
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    let finished: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|line| line["fields"]["message"] == "finished processing request")
        .collect();
    assert_eq!(finished.len(), 3, "one line per request: {logs}");
    assert!(finished
        .iter()
        .all(|line| line["span"]["id"].as_str().is_some_and(|id| !id.is_empty())));
}
