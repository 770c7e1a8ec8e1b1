//! The relay's callbacks under attack, over real HTTP with the sandbox as
//! the service: a visitor holding a page's capability cannot call back, the
//! service's own callbacks cost at most one status read per task per
//! interval, counted at the sandbox, and racing callbacks announce each
//! task once through Redis.
use std::time::Duration;

use crate::common::{call_back_succeeded, redis_cli, status_reads, submit_images, succeeded};
use media_gen_e2e::{
    callback_url_of, start_relay_site, start_sandbox, Redis, RelayGateway, RelayOptions,
};
use serde_json::Value;

/// Callbacks each attack sends.
const CALLBACKS: usize = 200;

/// Senders at once.
const SENDERS: usize = 16;

/// POST "task `id` succeeded" to `url` `CALLBACKS` times, from `SENDERS`
/// senders at once; the statuses, sorted.
async fn flood(url: &str, id: &str) -> Vec<u16> {
    let mut senders = tokio::task::JoinSet::new();
    for _ in 0..SENDERS {
        let (url, id) = (url.to_owned(), id.to_owned());
        senders.spawn(async move {
            let mut statuses = Vec::new();
            for _ in 0..CALLBACKS / SENDERS {
                statuses.push(call_back_succeeded(&url, &id).await);
            }
            statuses
        });
    }
    let mut statuses: Vec<u16> = senders.join_all().await.into_iter().flatten().collect();
    statuses.sort_unstable();
    statuses
}

/// Submit `count` images through the gateway at `base`: the submission's
/// listening capability and its task ids.
async fn submit_relayed(base: &str, count: u32) -> (String, Vec<String>) {
    let (ids, relay) = submit_images(base, count, None).await;
    (relay.expect("a relayed submit"), ids)
}

#[tokio::test]
#[ignore = "part of the end-to-end suite: run through `cargo xtask test`"]
async fn callbacks_cannot_make_the_gateway_read_the_service_at_will() {
    // Tasks that run for the whole test.
    let site = start_relay_site(None, 600_000, Duration::from_secs(15)).await;
    let (capability, ids) = submit_relayed(&site.base_url, 1).await;
    let id = ids[0].clone();
    assert_eq!(status_reads(&site.sandbox_url).await, 0);

    // A visitor holds the page's capability (the media-gen-relay header):
    // calling back with it reaches no submission, and reads nothing.
    let visitor = flood(&format!("{}/callbacks/{capability}", site.base_url), &id).await;
    assert!(visitor.iter().all(|status| *status == 404), "{visitor:?}");
    assert_eq!(
        status_reads(&site.sandbox_url).await,
        0,
        "no read for a visitor's callbacks"
    );

    // The service's own address: its callbacks for a task still running are
    // read once, then told to come back later, unread.
    let service = callback_url_of(&site.sandbox_url, "image_generate", &id)
        .await
        .unwrap();
    assert!(!service.contains(&capability), "{service}");
    let started = tokio::time::Instant::now();
    let statuses = flood(&service, &id).await;
    assert!(statuses.iter().all(|status| *status == 503), "{statuses:?}");
    // The gateway's interval is 10 s: a loaded machine may take longer
    // than that over 200 callbacks, and earn the task one more read.
    let intervals = 1 + started.elapsed().as_secs() / 10;
    let reads = status_reads(&site.sandbox_url).await;
    assert!(
        (1..=intervals).contains(&reads),
        "one confirming read per task per interval, whatever the callbacks: \
         {reads} in {intervals} intervals"
    );
    let retry = reqwest::Client::new()
        .post(&service)
        .json(&succeeded(&id))
        .send()
        .await
        .unwrap();
    let after: u64 = retry.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=10).contains(&after), "Retry-After {after}");
}

/// A gateway announcing callbacks without reading (`--trust-callbacks`),
/// sharing a Redis, in front of a sandbox whose tasks do not end during a
/// test (only the test's callbacks count): the Redis, the sandbox's URL and
/// the gateway, ready.
async fn trusting_gateway_on_redis() -> (Redis, String, RelayGateway) {
    let redis = Redis::start().await;
    let sandbox = start_sandbox(600_000).await;
    let gateway = RelayGateway::start(RelayOptions {
        redis: Some(redis.url.clone()),
        trust_callbacks: true,
        ..RelayOptions::new(&sandbox)
    })
    .await;
    gateway.ready().await;
    (redis, sandbox, gateway)
}

#[tokio::test]
#[ignore = "needs Debian's redis-server: run through `cargo xtask test`"]
async fn racing_callbacks_announce_each_task_once_through_redis() {
    // Trusted callbacks: nothing slows them, so they race in earnest.
    let (_redis, sandbox, gateway) = trusting_gateway_on_redis().await;
    let base = &gateway.base_url;
    let mut announced = 0;
    for round in 0..5 {
        let (capability, ids) = submit_relayed(base, 2).await;
        let mut stream = reqwest::get(format!("{base}/events?relays={capability}"))
            .await
            .unwrap();
        // Both tasks called back by many senders at once.
        let mut senders = tokio::task::JoinSet::new();
        for id in &ids {
            let url = callback_url_of(&sandbox, "image_generate", id)
                .await
                .unwrap();
            for _ in 0..SENDERS {
                let (url, id) = (url.clone(), id.clone());
                senders.spawn(async move { call_back_succeeded(&url, &id).await });
            }
        }
        senders.join_all().await;
        // What the stream carried by now, and a moment more.
        let mut text = String::new();
        let deadline = tokio::time::Instant::now() + Duration::from_millis(800);
        while let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(deadline, stream.chunk()).await {
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
        let events = text.matches("event: image_generate").count();
        assert_eq!(events, 2, "round {round}: each task once:\n{text}");
        announced += events;
    }
    assert_eq!(announced, 10);
}

#[tokio::test]
#[ignore = "needs Debian's redis-server: run through `cargo xtask test`"]
async fn a_new_stream_reads_its_own_announcements_not_the_whole_log() {
    let (redis, sandbox, gateway) = trusting_gateway_on_redis().await;
    let base = &gateway.base_url;
    // Three submissions, every task announced.
    let mut capabilities = Vec::new();
    for _ in 0..3 {
        let (capability, ids) = submit_relayed(base, 2).await;
        capabilities.push(capability);
        for id in &ids {
            let id = id.as_str();
            let url = callback_url_of(&sandbox, "image_generate", id)
                .await
                .unwrap();
            assert_eq!(call_back_succeeded(&url, id).await, 200);
        }
    }
    // Every command Redis runs from now on, with its arguments.
    redis_cli(
        &redis.url,
        &["CONFIG", "SET", "slowlog-log-slower-than", "0"],
    )
    .await;
    redis_cli(&redis.url, &["CONFIG", "SET", "slowlog-max-len", "1000"]).await;
    redis_cli(&redis.url, &["SLOWLOG", "RESET"]).await;
    // A new stream (no Last-Event-ID) of the second submission: its two
    // tasks, announced before it opened, and nothing of the others.
    let mut stream = reqwest::get(format!("{base}/events?relays={}", capabilities[1]))
        .await
        .unwrap();
    let mut text = String::new();
    while text.matches("event: image_generate").count() < 2 {
        let chunk = tokio::time::timeout(Duration::from_secs(5), stream.chunk())
            .await
            .expect("its two tasks within 5 s")
            .unwrap()
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    let log = redis_cli(&redis.url, &["SLOWLOG", "GET", "1000"]).await;
    // The whole log would be read as `XRANGE media-gen:relay:events (0-0 +`.
    assert!(
        !log.lines().any(|line| line.trim() == "+"),
        "a new stream ranged over the whole log:\n{log}"
    );
    assert!(
        log.contains("XRANGE"),
        "its entries were read by id:\n{log}"
    );

    // A Last-Event-ID that is no event id is refused, naming it.
    let answer = reqwest::Client::new()
        .get(format!("{base}/events?relays={}", capabilities[1]))
        .header("Last-Event-ID", "yesterday")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 400);
    let body: Value = answer.json().await.unwrap();
    assert!(
        body["msg"].as_str().unwrap().starts_with("Last-Event-ID"),
        "{body}"
    );
}
