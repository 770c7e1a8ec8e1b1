//! Two gateways in `keys` mode on one Redis (`--redis`), as behind a
//! balancer: a key the owner adds with `keys add --redis` works on both; a
//! session made on one is a session on the other; a person's tasks of the
//! day spent on one are spent on both; a page token given by one works on
//! the other; signing out on one ends the session on both; `keys revoke`
//! ends key, session and token on both within seconds; `keys list` shows
//! the day's use counted on both. And in a browser, through nginx
//! balancing the two: one sign-in holds while either gateway alone
//! answers, the day's count is the same on both, and a revoke brings the
//! sign-in page back.

use std::time::{Duration, Instant};

use media_gen_e2e::{
    dist_dir, start_gateway, start_sandbox, Browser, Redis, RelayOptions, STORED_TASKS,
};
use media_gen_gateway::access::AccessMode;
use media_gen_gateway::keys_cli::{run, KeysAction, KeysAt};
use serde_json::{json, Value};

use crate::common::{page_token, person_says, redis_cli};

/// How a call is made: with a session cookie, or `Authorization: Bearer`.
#[derive(Clone, Copy)]
enum As<'a> {
    Cookie(&'a str),
    Bearer(&'a str),
}

/// `GET {base}/capabilities` as `who`: the person it names, if any.
async fn person(base: &str, who: As<'_>) -> Option<Value> {
    let said: Value = with(
        reqwest::Client::new().get(format!("{base}/capabilities")),
        who,
    )
    .send()
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    said["data"]["access"].get("person").cloned()
}

fn with(request: reqwest::RequestBuilder, who: As<'_>) -> reqwest::RequestBuilder {
    match who {
        As::Cookie(cookie) => request
            .header("cookie", cookie)
            .header("sec-fetch-site", "same-origin"),
        As::Bearer(token) => request.bearer_auth(token),
    }
}

/// A submit of `count` images at `base` as `who`: its status.
async fn submit(base: &str, who: As<'_>, count: u32) -> u16 {
    let request = reqwest::Client::new()
        .post(format!("{base}/v1/image_generate"))
        .json(&json!({ "prompt": "shared", "image_quality": "1K", "generate_count": count }));
    with(request, who).send().await.unwrap().status().as_u16()
}

/// A status read at `base` as `who`: its status (404 from the sandbox is
/// a call that got through).
async fn read(base: &str, who: As<'_>) -> u16 {
    let request = reqwest::Client::new().get(format!("{base}/v1/image_generate/no-such-task"));
    with(request, who).send().await.unwrap().status().as_u16()
}

/// Wait up to 5 s for `base` to answer a read as `who` with `status`;
/// how long it took.
async fn until_read_is(base: &str, who: As<'_>, status: u16) -> Duration {
    let start = Instant::now();
    loop {
        let now = read(base, who).await;
        if now == status {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{base} still answers {now}, not {status}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `keys …` on the Redis at `url`.
async fn keys(url: &str, action: KeysAction) -> String {
    run(&action, &KeysAt::redis(url.to_owned()), 50)
        .await
        .unwrap()
}

#[tokio::test]
#[ignore = "needs redis-server: run through `cargo xtask test`"]
async fn two_gateways_on_one_redis_share_keys_sessions_tokens_and_the_days_tasks() {
    let redis = Redis::start().await;
    let sandbox = start_sandbox(100).await;
    let keyed = |settings: &mut media_gen_gateway::Settings| {
        settings.access = AccessMode::Keys;
        settings.redis = Some(redis.url.clone());
    };
    let (a, b) = (
        start_gateway(&sandbox, None, keyed).await,
        start_gateway(&sandbox, None, keyed).await,
    );
    let key = keys(
        &redis.url,
        KeysAction::Add {
            name: "ada".to_owned(),
            tasks_per_day: Some(3),
        },
    )
    .await;
    let key = key.trim();
    // Added with the gateways running: both know it within a second or so.
    for base in [&a, &b] {
        let took = until_read_is(base, As::Bearer(key), 404).await;
        println!("a key added in redis works at {base} after {took:.2?}");
    }

    // A session made on A is a session on B.
    let signed_in = reqwest::Client::new()
        .post(format!("{a}/session"))
        .header("sec-fetch-site", "same-origin")
        .json(&json!({ "key": key }))
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), 200);
    let cookie = signed_in.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let session = As::Cookie(&cookie);
    let on_b = person(&b, session).await.expect("the session known at B");
    assert_eq!(on_b["name"], "ada");
    assert_eq!(on_b["tasks_left_today"], 3);

    // The day's tasks: two spent on A leave one on B.
    assert_eq!(submit(&a, session, 2).await, 200);
    assert_eq!(
        person(&b, session).await.unwrap()["tasks_left_today"],
        1,
        "B sees what A spent"
    );
    assert_eq!(submit(&b, As::Bearer(key), 2).await, 429, "2 + 2 > 3");
    assert_eq!(submit(&b, As::Bearer(key), 1).await, 200);
    assert_eq!(person(&a, session).await.unwrap()["tasks_left_today"], 0);
    assert_eq!(
        submit(&a, session, 1).await,
        429,
        "the day is spent on A too"
    );

    // `keys list` shows the use both counted; the last call arrives with
    // the gateways' next second of upkeep.
    let listed = keys(&redis.url, KeysAction::List).await;
    assert!(
        listed.contains("ada") && listed.contains("3 of 3"),
        "{listed}"
    );
    let start = Instant::now();
    let mut listed = listed;
    while listed.contains("never") && start.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        listed = keys(&redis.url, KeysAction::List).await;
    }
    assert!(
        !listed.contains("never"),
        "ada's last call is kept: {listed}"
    );

    // A page token from B works on A.
    let token = page_token(&b, key).await;
    assert_eq!(
        read(&a, As::Bearer(&token)).await,
        404,
        "the token works at A"
    );

    // Signing out on A ends the session on B.
    let signed_out = reqwest::Client::new()
        .delete(format!("{a}/session"))
        .header("cookie", &cookie)
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(signed_out.status(), 200);
    assert_eq!(read(&b, session).await, 401, "signed out on A, out on B");

    // Revoked: key, a new session and the token end on both.
    let again = reqwest::Client::new()
        .post(format!("{b}/session"))
        .header("sec-fetch-site", "same-origin")
        .json(&json!({ "key": key }))
        .send()
        .await
        .unwrap();
    let cookie = again.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(read(&a, As::Cookie(&cookie)).await, 404);
    keys(
        &redis.url,
        KeysAction::Revoke {
            name: "ada".to_owned(),
            forget: false,
        },
    )
    .await;
    for base in [&a, &b] {
        let took = until_read_is(base, As::Bearer(key), 401).await;
        println!("a key revoked in redis is refused at {base} after {took:.2?}");
        assert_eq!(read(base, As::Cookie(&cookie)).await, 401);
        assert_eq!(read(base, As::Bearer(&token)).await, 401);
    }
}

#[tokio::test]
async fn the_keys_commands_name_a_redis_that_does_not_answer() {
    let port = media_gen_e2e::unused_port();
    let error = run(
        &KeysAction::List,
        &KeysAt::redis(format!("redis://127.0.0.1:{port}/")),
        50,
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(
        error.starts_with(&format!(
            "the redis at redis://127.0.0.1:{port}/ does not answer"
        )),
        "{error}"
    );
}

#[tokio::test]
#[ignore = "needs nginx, redis-server, the release build and ChromeDriver: run through `cargo xtask test`"]
async fn signed_in_behind_nginx_and_two_gateways_one_session_and_one_day_on_either() {
    let redis = Redis::start().await;
    let sandbox = start_sandbox(300).await;
    let (_nginx, site, mut a, mut b) = super::behind_nginx::two_gateways(|site| RelayOptions {
        static_dir: Some(dist_dir()),
        redis: Some(redis.url.clone()),
        public_url: Some(site.to_owned()),
        access: AccessMode::Keys,
        ..RelayOptions::new(&sandbox)
    })
    .await;
    let key = keys(
        &redis.url,
        KeysAction::Add {
            name: "ada".to_owned(),
            tasks_per_day: Some(4),
        },
    )
    .await;
    until_read_is(&a.base_url, As::Bearer(key.trim()), 404).await;
    until_read_is(&b.base_url, As::Bearer(key.trim()), 404).await;

    // Signed in through nginx; two tasks made.
    let browser = Browser::start().await;
    browser.open(&format!("{site}/new/image-generate")).await;
    browser.wait_for_text("main h1", "Sign in").await;
    browser.watch_for_errors().await;
    browser
        .type_into("#access-key", &format!("{}\u{E007}", key.trim()))
        .await;
    browser.wait_for_text("main h1", "Image generation").await;
    person_says(&browser, "4 of 4 tasks left today").await;
    browser.type_into("#prompt", "Two gateways, one day").await;
    browser.type_into("#count", "2").await;
    browser.submit_and_wait("SUCCEEDED").await;
    person_says(&browser, "2 of 4 tasks left today").await;

    // Either gateway alone: the same session, the same day.
    for (stopped, running) in [(&mut a, "B alone"), (&mut b, "A alone")] {
        stopped.stop().await;
        browser.reload().await;
        browser.wait_for_text("main h1", "Tasks").await;
        person_says(&browser, "ada").await;
        person_says(&browser, "2 of 4 tasks left today").await;
        println!("{running}: still signed in, 2 of 4 left");
        stopped.restart().await;
    }

    // Revoked in Redis: the page's next call is refused and the sign-in
    // page comes back, its tasks kept.
    browser.watch_for_errors().await;
    keys(
        &redis.url,
        KeysAction::Revoke {
            name: "ada".to_owned(),
            forget: false,
        },
    )
    .await;
    until_read_is(&a.base_url, As::Bearer(key.trim()), 401).await;
    until_read_is(&b.base_url, As::Bearer(key.trim()), 401).await;
    browser
        .click("#main-nav a[href='/new/image-generate']")
        .await;
    browser.wait_for_text("main h1", "Image generation").await;
    browser.type_into("#prompt", "After the revoke").await;
    browser.click("#submit").await;
    browser.wait_for_text("main h1", "Sign in").await;
    assert_eq!(browser.eval(STORED_TASKS).await, 2, "no stored task lost");
    browser.assert_still_working("a key revoked in redis").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs redis-server: run through `cargo xtask test`"]
async fn forgetting_a_person_in_redis_removes_their_use_and_a_running_gateway_keeps_it_so() {
    let redis = Redis::start().await;
    let sandbox = start_sandbox(100).await;
    let gateway = start_gateway(&sandbox, None, |settings| {
        settings.access = AccessMode::Keys;
        settings.redis = Some(redis.url.clone());
    })
    .await;
    let add = |name: &str| KeysAction::Add {
        name: name.to_owned(),
        tasks_per_day: None,
    };
    let ada = keys(&redis.url, add("ada")).await.trim().to_owned();
    let grace = keys(&redis.url, add("grace")).await.trim().to_owned();
    until_read_is(&gateway, As::Bearer(&ada), 404).await;
    assert_eq!(submit(&gateway, As::Bearer(&ada), 1).await, 200);
    read(&gateway, As::Bearer(&grace)).await;
    // Each person's use is kept in Redis every second.
    let last_used = |name: &'static str| {
        let url = redis.url.clone();
        async move { redis_cli(&url, &["HGET", "media-gen:last-used", name]).await }
    };
    let start = Instant::now();
    while last_used("ada").await.trim().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "ada's use never kept"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    keys(
        &redis.url,
        KeysAction::Revoke {
            name: "ada".to_owned(),
            forget: true,
        },
    )
    .await;
    assert!(
        last_used("ada").await.trim().is_empty(),
        "her last call is gone"
    );
    let marks = redis_cli(&redis.url, &["ZRANGE", "media-gen:forgotten", "0", "-1"]).await;
    assert_eq!(marks.lines().count(), 1, "{marks}");
    assert!(
        !marks.contains("ada"),
        "the mark does not name her: {marks}"
    );
    // The running gateway goes on, grace calling it; ada's use is never
    // written back, and her key is refused.
    for _ in 0..6 {
        read(&gateway, As::Bearer(&grace)).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert!(last_used("ada").await.trim().is_empty(), "not written back");
    assert!(
        !last_used("grace").await.trim().is_empty(),
        "grace's use is kept"
    );
    let day = redis_cli(&redis.url, &["KEYS", "media-gen:tasks:*"]).await;
    for key in day.lines() {
        let tasks = redis_cli(&redis.url, &["HGET", key.trim(), "ada"]).await;
        assert!(
            tasks.trim().is_empty(),
            "ada's tasks of the day in {key}: {tasks}"
        );
    }
    assert_eq!(read(&gateway, As::Bearer(&ada)).await, 401);
    drop(redis);
}
