//! A relaying gateway when the Redis it shares with others does not answer,
//! over real HTTP with Debian's redis-server and the sandbox as the
//! service: it starts and serves without Redis (degraded, `/readyz` says
//! why) and uses it once it answers; a Redis that hangs or dies costs each
//! call at most its timeout, the budgets counted here meanwhile; and after
//! Redis restarts, streams opened before and after both hear the next
//! completion.
use std::time::{Duration, Instant};

use media_gen_e2e::{ready_within, start_sandbox, unused_port, Redis, RelayGateway, RelayOptions};
use serde_json::json;

/// The longest any call may take while Redis does not answer: its one
/// second timeout and the service's own answer, with room.
const WITHIN: Duration = Duration::from_secs(3);

/// A relaying gateway in front of a sandbox (tasks of about `task_ms`),
/// sharing the Redis at `redis`.
async fn gateway(redis: &str, task_ms: u64) -> RelayGateway {
    RelayGateway::start(RelayOptions {
        redis: Some(redis.to_owned()),
        ..RelayOptions::new(&start_sandbox(task_ms).await)
    })
    .await
}

/// `GET path` on `base`: its status, and how long it took (a stream is
/// answered with its head; nothing more is read).
async fn get(base: &str, path: &str) -> (u16, Duration) {
    let started = Instant::now();
    let answer = tokio::time::timeout(
        Duration::from_secs(30),
        reqwest::get(format!("{base}{path}")),
    )
    .await
    .unwrap_or_else(|_| panic!("GET {path} did not answer within 30 s"))
    .unwrap();
    (answer.status().as_u16(), started.elapsed())
}

/// Submit one image through `base`: the status, whether the submit was
/// relayed, and how long it took.
async fn submit(base: &str) -> (u16, Option<String>, Duration) {
    let started = Instant::now();
    let answer = tokio::time::timeout(
        Duration::from_secs(30),
        reqwest::Client::new()
            .post(format!("{base}/v1/image_generate"))
            .json(&json!({ "prompt": "A lighthouse", "image_quality": "1K" }))
            .send(),
    )
    .await
    .expect("the submit answered within 30 s")
    .unwrap();
    let relay = answer
        .headers()
        .get("media-gen-relay")
        .map(|value| value.to_str().unwrap().to_owned());
    (answer.status().as_u16(), relay, started.elapsed())
}

/// Every call answers within [`WITHIN`] while Redis does not answer: the
/// documented calls are served (budgets counted here), a submit goes out
/// unrelayed, a stream is refused for now, `/readyz` says why.
async fn serves_degraded(base: &str, what: &str) {
    let (status, took) = get(base, "/v1/image_generate/nope").await;
    assert!(
        status == 400 || status == 404,
        "{what}: a read answered {status}"
    );
    assert!(took < WITHIN, "{what}: a read took {took:?}");
    let (status, relay, took) = submit(base).await;
    assert_eq!(status, 200, "{what}: the submit");
    assert_eq!(relay, None, "{what}: a submit goes out unrelayed");
    assert!(took < WITHIN, "{what}: a submit took {took:?}");
    let (status, took) = get(base, &format!("/events?relays={}", "0".repeat(32))).await;
    assert_eq!(status, 503, "{what}: a stream");
    assert!(took < WITHIN, "{what}: a stream took {took:?}");
    let (status, took) = get(base, "/healthz").await;
    assert_eq!(status, 200);
    assert!(took < WITHIN);
    let (status, took) = get(base, "/readyz").await;
    assert_eq!(status, 503, "{what}: not ready without Redis");
    assert!(took < WITHIN, "{what}: /readyz took {took:?}");
}

/// Wait until `base` is ready again (Redis answers), at most 20 s.
async fn ready_again(base: &str) {
    assert!(
        ready_within(base, Duration::from_secs(20)).await,
        "not ready again within 20 s"
    );
}

#[tokio::test]
#[ignore = "needs Debian's redis-server: run through `cargo xtask test`"]
async fn a_gateway_starts_without_redis_and_uses_it_once_it_answers() {
    let port = unused_port();
    let gateway = gateway(&format!("redis://127.0.0.1:{port}/"), 300).await;
    serves_degraded(&gateway.base_url, "Redis never started").await;
    let _redis = Redis::start_on(port, None).await;
    ready_again(&gateway.base_url).await;
    let (status, relay, _) = submit(&gateway.base_url).await;
    assert_eq!(status, 200);
    assert!(relay.is_some(), "relayed once Redis answers");
}

#[tokio::test]
#[ignore = "needs Debian's redis-server: run through `cargo xtask test`"]
async fn redis_hanging_or_killed_costs_each_call_at_most_its_timeout() {
    let mut redis = Redis::start().await;
    let gateway = gateway(&redis.url, 300).await;
    ready_again(&gateway.base_url).await;
    let (_, relay, _) = submit(&gateway.base_url).await;
    assert!(relay.is_some());

    // Hung: connections stay open, nothing is answered.
    redis.signal("STOP").await;
    // The kept readiness answer runs out first.
    tokio::time::sleep(Duration::from_secs(6)).await;
    serves_degraded(&gateway.base_url, "Redis stopped (SIGSTOP)").await;
    redis.signal("CONT").await;
    ready_again(&gateway.base_url).await;

    // Dead: connections refused.
    redis.kill().await;
    tokio::time::sleep(Duration::from_secs(6)).await;
    serves_degraded(&gateway.base_url, "Redis killed").await;
}

#[tokio::test]
#[ignore = "needs Debian's redis-server: run through `cargo xtask test`"]
async fn streams_hear_the_next_completion_after_redis_restarts() {
    let mut redis = Redis::start_persisting().await;
    // Tasks long enough to end after the restart.
    let gateway = gateway(&redis.url, 6_000).await;
    ready_again(&gateway.base_url).await;
    let (_, relay, _) = submit(&gateway.base_url).await;
    let relay = relay.expect("relayed");
    let open = |relay: String| {
        let base = gateway.base_url.clone();
        async move {
            let response = reqwest::get(format!("{base}/events?relays={relay}"))
                .await
                .unwrap();
            assert_eq!(response.status(), 200);
            response
        }
    };
    let before = open(relay.clone()).await;
    redis.restart().await;
    ready_again(&gateway.base_url).await;
    let after = open(relay.clone()).await;
    for (name, mut stream) in [("before", before), ("after", after)] {
        let mut text = String::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while !text.contains("event: image_generate") {
            let chunk = tokio::time::timeout_at(deadline, stream.chunk())
                .await
                .unwrap_or_else(|_| {
                    panic!("the stream opened {name} the restart heard nothing: {text}")
                })
                .unwrap()
                .expect("the stream stays open");
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
}
