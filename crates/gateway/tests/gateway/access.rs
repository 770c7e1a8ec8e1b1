//! `--access keys` over HTTP: no key, a wrong key and a revoked key are
//! refused with the contract's envelope (and guessing is throttled), a
//! right key reaches the service as the gateway's own token, budgets count
//! per person, each person has tasks a day, and `/capabilities` says who
//! is asking. The owner's commands are the binary's own.

use std::path::Path;

use futures_util::StreamExt as _;
use std::process::Command;
use std::time::Duration;

use media_gen_gateway::access::AccessMode;
use serde_json::{json, Value};

use crate::support::{refused_at_start, settings, start_gateway, start_service, Recorder, TOKEN};

/// `media-gen-gateway keys ...` on `dir`: standard output and error.
fn keys(dir: &Path, args: &[&str]) -> (String, String, bool) {
    let output = Command::new(env!("CARGO_BIN_EXE_media-gen-gateway"))
        .arg("keys")
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .env_remove("MEDIA_GEN_DATA_DIR")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.success(),
    )
}

/// A new key for `name` from the binary, as the owner makes one.
fn new_key(dir: &Path, name: &str, tasks_per_day: Option<u32>) -> String {
    let tasks = tasks_per_day.map(|n| n.to_string());
    let mut args = vec!["add", name];
    if let Some(tasks) = &tasks {
        args.extend(["--tasks-per-day", tasks]);
    }
    let (out, err, ok) = keys(dir, &args);
    assert!(ok, "{err}");
    assert!(err.contains("not shown again"), "{err}");
    let key = out.trim().to_owned();
    assert_eq!(out, format!("{key}\n"), "the key alone on standard output");
    key
}

/// A gateway in `keys` mode over `dir`, with `requests_per_minute`.
async fn keyed_gateway(dir: &Path, requests_per_minute: u32) -> (String, Recorder) {
    let (service, seen) = start_service().await;
    let mut settings = settings(Some(&service));
    settings.access = AccessMode::Keys;
    settings.data_dir = Some(dir.to_owned());
    settings.tasks_per_day = 50;
    settings.requests_per_minute = std::num::NonZeroU32::new(requests_per_minute).unwrap();
    (format!("http://{}", start_gateway(settings).await), seen)
}

async fn get(url: &str, key: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(url);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    request.send().await.unwrap()
}

async fn submit(base: &str, key: &str, count: u32) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("{base}/v1/image_generate"))
        .bearer_auth(key)
        .json(&json!({ "prompt": "A lighthouse", "generate_count": count }))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn without_a_right_key_nothing_reaches_the_service() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (base, seen) = keyed_gateway(dir.path(), 1_000).await;
    let languages = format!("{base}/v1/video_translate/target_languages");

    let none = get(&languages, None).await;
    assert_eq!(none.status(), 401);
    assert_eq!(
        none.headers()["www-authenticate"],
        "Bearer realm=\"media-gen\""
    );
    let body: Value = none.json().await.unwrap();
    assert_eq!(body["code"], 100002);
    assert!(
        body["msg"].as_str().unwrap().contains("access key"),
        "{body}"
    );

    let mut wrong = key.clone();
    wrong.replace_range(10..11, if &key[10..11] == "A" { "B" } else { "A" });
    let refused = get(&languages, Some(&wrong)).await;
    assert_eq!(refused.status(), 401);
    let body: Value = refused.json().await.unwrap();
    assert!(
        body["msg"].as_str().unwrap().contains("not valid"),
        "{body}"
    );
    // The service's own token is no key here either.
    assert_eq!(get(&languages, Some(TOKEN)).await.status(), 401);
    assert!(seen.seen().is_empty(), "nothing reached the service");

    // The right key: forwarded with the gateway's token, the key left behind.
    let answer = get(&languages, Some(&key)).await;
    assert_eq!(answer.status(), 200);
    let seen = seen.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].headers["authorization"], format!("Bearer {TOKEN}"));
    assert!(
        seen[0]
            .headers
            .values()
            .all(|value| !value.to_str().unwrap_or("").contains(&key[4..])),
        "the key never reaches the service"
    );
}

#[tokio::test]
async fn guessing_keys_is_refused_long_before_it_could_succeed() {
    let dir = tempfile::tempdir().unwrap();
    new_key(dir.path(), "ada", None);
    let (base, _) = keyed_gateway(dir.path(), 1_000).await;
    let languages = format!("{base}/v1/video_translate/target_languages");
    let started = tokio::time::Instant::now();
    let mut statuses = Vec::new();
    let mut first_refused = None;
    for guess in 0..40 {
        let key = format!("mgk_{:043}", guess);
        let answer = get(&languages, Some(&key)).await;
        statuses.push(answer.status().as_u16());
        if answer.status() == 429 && first_refused.is_none() {
            first_refused = Some(answer);
        }
    }
    let last = get(&languages, Some("mgk_guess")).await.status();
    // Ten wrong keys a minute: one more is let through for every six
    // seconds the guesses took (a loaded machine is slow to make 40).
    let refilled = (started.elapsed().as_secs() / 6) as usize;
    let unauthorized = statuses.iter().filter(|s| **s == 401).count();
    let throttled = statuses.iter().filter(|s| **s == 429).count();
    assert!(
        statuses[..10].iter().all(|s| *s == 401),
        "the first ten are judged: {statuses:?}"
    );
    assert!(
        (10..=10 + refilled).contains(&unauthorized),
        "ten wrong keys a minute ({refilled} refilled): {statuses:?}"
    );
    assert_eq!(throttled, 40 - unauthorized, "{statuses:?}");
    let refused = first_refused.expect("a guess was refused");
    assert!(refused.headers().contains_key("retry-after"));
    if refilled == 0 {
        assert_eq!(last, 429);
    }
}

#[tokio::test]
async fn a_revoked_key_stops_working_within_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (base, _) = keyed_gateway(dir.path(), 1_000).await;
    let languages = format!("{base}/v1/video_translate/target_languages");
    assert_eq!(get(&languages, Some(&key)).await.status(), 200);
    let (_, err, ok) = keys(dir.path(), &["revoke", "ada"]);
    assert!(ok && err.contains("revoked"), "{err}");
    let revoked = tokio::time::Instant::now();
    loop {
        if get(&languages, Some(&key)).await.status() == 401 {
            break;
        }
        assert!(
            revoked.elapsed() < Duration::from_secs(3),
            "still taken 3 s after the revoke"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A key given afterwards works at once (within the same second).
    let grace = new_key(dir.path(), "grace", None);
    let given = tokio::time::Instant::now();
    while get(&languages, Some(&grace)).await.status() != 200 {
        assert!(given.elapsed() < Duration::from_secs(3));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn each_person_has_budgets_and_tasks_of_the_day_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let ada = new_key(dir.path(), "ada", Some(3));
    let grace = new_key(dir.path(), "grace", None);
    let (base, _) = keyed_gateway(dir.path(), 6).await;

    // Tasks of the day: 2 + 1 fit ada's 3, the next one does not.
    assert_eq!(submit(&base, &ada, 2).await.status(), 200);
    assert_eq!(submit(&base, &ada, 1).await.status(), 200);
    let over = submit(&base, &ada, 1).await;
    assert_eq!(over.status(), 429);
    let wait: u64 = over.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(wait > 0 && wait <= 86_400, "until midnight UTC: {wait}");
    let body: Value = over.json().await.unwrap();
    assert!(
        body["msg"].as_str().unwrap().contains("3 tasks of today"),
        "{body}"
    );

    // What /capabilities says of each.
    let said = |key: Option<String>| {
        let url = format!("{base}/capabilities");
        async move {
            get(&url, key.as_deref())
                .await
                .json::<Value>()
                .await
                .unwrap()
        }
    };
    let anyone = said(None).await;
    assert_eq!(
        anyone["data"]["access"],
        json!({ "mode": "keys", "library": true })
    );
    let of_ada = said(Some(ada.clone())).await;
    assert_eq!(
        of_ada["data"]["access"]["person"],
        json!({ "name": "ada", "tasks_per_day": 3, "tasks_left_today": 0 })
    );
    let of_grace = said(Some(grace.clone())).await;
    assert_eq!(of_grace["data"]["access"]["person"]["tasks_left_today"], 50);

    // Requests per minute count per person: ada's three submits and three
    // reads use her six (capabilities is not counted); grace, from the
    // same address, still has hers.
    let languages = format!("{base}/v1/video_translate/target_languages");
    for _ in 0..3 {
        assert_eq!(get(&languages, Some(&ada)).await.status(), 200);
    }
    let ada_now = get(&languages, Some(&ada)).await;
    assert_eq!(
        ada_now.status(),
        429,
        "ada's six requests a minute are used"
    );
    let grace_now = get(&languages, Some(&grace)).await;
    assert_eq!(
        grace_now.status(),
        200,
        "grace, from the same address, has hers"
    );

    // The owner sees the use (written within a second).
    let started = tokio::time::Instant::now();
    loop {
        let (listed, _, ok) = keys(dir.path(), &["list"]);
        assert!(ok);
        if listed
            .lines()
            .any(|line| line.starts_with("ada") && line.contains("3 of 3"))
        {
            assert!(listed
                .lines()
                .any(|line| line.starts_with("grace") && line.contains("0 of 50")));
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(3), "{listed}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn keys_mode_without_a_data_dir_does_not_start() {
    let mut settings = settings(None);
    settings.access = AccessMode::Keys;
    let error = refused_at_start(settings).await;
    assert!(
        error.to_string().contains("--access keys needs --data-dir"),
        "{error}"
    );
}

#[tokio::test]
async fn an_open_gateway_says_nothing_of_access() {
    let (service, _) = start_service().await;
    let base = format!("http://{}", start_gateway(settings(Some(&service))).await);
    let said: Value = get(&format!("{base}/capabilities"), None)
        .await
        .json()
        .await
        .unwrap();
    assert!(said["data"].get("access").is_none(), "{said}");
}

/// `POST /session` with `key` and extra headers: the answer.
async fn sign_in(base: &str, key: &str, extra: &[(&str, &str)]) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(format!("{base}/session"))
        .json(&json!({ "key": key }));
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

/// The `name=value` of a `Set-Cookie`.
fn cookie_of(answer: &reqwest::Response) -> String {
    answer.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_page_signs_in_once_and_its_session_ends_with_sign_out_or_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", Some(7));
    let (base, seen) = keyed_gateway(dir.path(), 1_000).await;
    let same_site = [("sec-fetch-site", "same-origin")];

    let wrong = sign_in(&base, "mgk_wrong", &same_site).await;
    assert_eq!(wrong.status(), 401);
    assert!(!wrong.headers().contains_key("set-cookie"));

    let signed_in = sign_in(&base, &key, &same_site).await;
    assert_eq!(signed_in.status(), 200);
    let set = signed_in.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    let cookie = cookie_of(&signed_in);
    assert!(!cookie.contains(&key[4..]), "the cookie is not the key");
    let person: Value = signed_in.json().await.unwrap();
    assert_eq!(
        person["data"],
        json!({ "name": "ada", "tasks_per_day": 7, "tasks_left_today": 7 })
    );

    let with_cookie = |path: &str| {
        reqwest::Client::new()
            .get(format!("{base}{path}"))
            .header("cookie", cookie.clone())
            .send()
    };
    assert_eq!(
        with_cookie("/v1/video_translate/target_languages")
            .await
            .unwrap()
            .status(),
        200
    );
    let said: Value = with_cookie("/capabilities")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(said["data"]["access"]["person"]["name"], "ada");
    // The service saw the gateway's token, not the cookie.
    assert!(seen
        .seen()
        .iter()
        .all(|s| !s.headers.contains_key("cookie")));

    // Signing out ends it.
    let out = reqwest::Client::new()
        .delete(format!("{base}/session"))
        .header("cookie", cookie.clone())
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 200);
    assert!(out
        .headers()
        .get_all("set-cookie")
        .iter()
        .any(|v| v.to_str().unwrap().contains("Max-Age=0")));
    assert_eq!(
        with_cookie("/v1/video_translate/target_languages")
            .await
            .unwrap()
            .status(),
        401
    );

    // A new session ends when the key is revoked.
    let again = cookie_of(&sign_in(&base, &key, &same_site).await);
    let languages = || {
        reqwest::Client::new()
            .get(format!("{base}/v1/video_translate/target_languages"))
            .header("cookie", again.clone())
            .send()
    };
    assert_eq!(languages().await.unwrap().status(), 200);
    keys(dir.path(), &["revoke", "ada"]);
    let revoked = tokio::time::Instant::now();
    while languages().await.unwrap().status() != 401 {
        assert!(
            revoked.elapsed() < Duration::from_secs(3),
            "the session outlived its key"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn another_sites_page_can_neither_submit_nor_sign_in() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (base, seen) = keyed_gateway(dir.path(), 1_000).await;
    for site in [
        &[("sec-fetch-site", "cross-site")][..],
        &[("origin", "https://evil.example")][..],
    ] {
        let mut request = reqwest::Client::new()
            .post(format!("{base}/v1/image_generate"))
            .bearer_auth(&key)
            .json(&json!({ "prompt": "A lighthouse" }));
        for (name, value) in site {
            request = request.header(*name, *value);
        }
        let refused = request.send().await.unwrap();
        assert_eq!(refused.status(), 403, "{site:?}");
        let body: Value = refused.json().await.unwrap();
        assert!(
            body["msg"].as_str().unwrap().contains("another site"),
            "{body}"
        );
        assert_eq!(sign_in(&base, &key, site).await.status(), 403, "{site:?}");
    }
    assert!(seen.seen().is_empty(), "nothing reached the service");
}

/// A gateway in `proxy` mode believing `trusted` (CIDRs).
async fn proxied_gateway(trusted: &[&str]) -> String {
    let (service, _) = start_service().await;
    let mut settings = settings(Some(&service));
    settings.access = AccessMode::Proxy;
    settings.trusted_proxies = trusted.iter().map(|net| net.parse().unwrap()).collect();
    format!("http://{}", start_gateway(settings).await)
}

async fn as_user(url: &str, user: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(url);
    if let Some(user) = user {
        request = request.header("x-forwarded-user", user);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn behind_an_auth_proxy_its_user_is_the_person_and_nobody_else_can_say_so() {
    // The proxy (this test, on loopback) is trusted: its header names the person.
    let base = proxied_gateway(&["127.0.0.1/32"]).await;
    let languages = format!("{base}/v1/video_translate/target_languages");
    assert_eq!(as_user(&languages, Some("ada")).await.status(), 200);
    assert_eq!(as_user(&languages, None).await.status(), 401);
    assert_eq!(as_user(&languages, Some("not a name")).await.status(), 401);
    let said: Value = as_user(&format!("{base}/capabilities"), Some("ada"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(said["data"]["access"]["mode"], "proxy");
    assert_eq!(said["data"]["access"]["person"]["name"], "ada");

    // The same header from an address that is not the proxy buys nothing.
    let elsewhere = proxied_gateway(&["10.0.0.0/8"]).await;
    let forged = as_user(
        &format!("{elsewhere}/v1/video_translate/target_languages"),
        Some("ada"),
    )
    .await;
    assert_eq!(forged.status(), 401);
}

#[tokio::test]
async fn proxy_mode_without_a_trusted_proxy_does_not_start() {
    let mut settings = settings(None);
    settings.access = AccessMode::Proxy;
    let error = refused_at_start(settings).await;
    assert!(
        error
            .to_string()
            .contains("--access proxy needs --trusted-proxy"),
        "{error}"
    );
}

#[tokio::test]
async fn ten_thousand_guessed_keys_meet_429_from_an_address_and_from_a_64() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (service, _) = start_service().await;
    let mut settings = settings(Some(&service));
    settings.access = AccessMode::Keys;
    settings.data_dir = Some(dir.path().to_owned());
    // The test is the proxy in front: its X-Forwarded-For names each guesser.
    settings.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    let base = format!("http://{}", start_gateway(settings).await);
    let languages = format!("{base}/v1/video_translate/target_languages");
    let client = reqwest::Client::new();

    let started = tokio::time::Instant::now();
    let guesses = (0..10_000u32).map(|n| {
        // Half from one IPv4 address, half from addresses all over one /64.
        let from = if n % 2 == 0 {
            "198.51.100.7".to_owned()
        } else {
            format!("2001:db8:0:1:{:x}:{:x}::{:x}", n % 65_536, n / 7, n)
        };
        let request = client
            .get(&languages)
            .bearer_auth(format!("mgk_{n:043}"))
            .header("x-forwarded-for", from);
        async move { request.send().await.unwrap().status().as_u16() }
    });
    let mut statuses = Vec::new();
    let mut pending = futures_util::stream::iter(guesses).buffer_unordered(50);
    while let Some(status) = futures_util::StreamExt::next(&mut pending).await {
        statuses.push(status);
    }
    let took = started.elapsed();
    let unauthorized = statuses.iter().filter(|s| **s == 401).count();
    let throttled = statuses.iter().filter(|s| **s == 429).count();
    println!("10,000 guessed keys: {unauthorized} × 401, {throttled} × 429, in {took:.2?}");
    // Ten a minute each for the address and the /64; everything else 429.
    // (One more each per 6 s the guessing took, as the allowance refills.)
    let refilled = 2 * (took.as_secs() / 6) as usize;
    assert!(
        (20..=20 + refilled).contains(&unauthorized),
        "{unauthorized} guesses looked at in {took:.2?}"
    );
    assert_eq!(throttled, 10_000 - unauthorized);
    // The owner's person, elsewhere, is not held up by them.
    let right = client
        .get(&languages)
        .bearer_auth(&key)
        .header("x-forwarded-for", "203.0.113.5")
        .send()
        .await
        .unwrap();
    assert_eq!(right.status(), 200);
}

/// `POST /tokens` with `key`, as a host site's server sends it: the answer.
async fn page_token(base: &str, key: &str) -> Value {
    reqwest::Client::new()
        .post(format!("{base}/tokens"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test]
async fn another_site_allowed_by_name_calls_with_a_short_lived_page_token() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (service, seen) = start_service().await;
    let mut settings = settings(Some(&service));
    settings.access = AccessMode::Keys;
    settings.data_dir = Some(dir.path().to_owned());
    settings.allowed_origins = vec!["https://host.example".to_owned()];
    settings.token_lifetime = Duration::from_secs(2);
    let base = format!("http://{}", start_gateway(settings).await);
    let client = reqwest::Client::new();

    // The host's server trades its key for a page token.
    let given = page_token(&base, &key).await;
    let token = given["data"]["token"].as_str().unwrap().to_owned();
    assert!(
        token.starts_with("mgt_") && !token.contains(&key[4..]),
        "{given}"
    );
    assert!(given["data"]["expiresAt"].as_str().unwrap().ends_with('Z'));
    // A page token makes no other.
    let again = client
        .post(format!("{base}/tokens"))
        .bearer_auth(&token)
        .send();
    assert_eq!(again.await.unwrap().status(), 401);

    // The browser's preflight for the allowed site, and for another.
    let preflight = |origin: &'static str| {
        client
            .request(
                reqwest::Method::OPTIONS,
                format!("{base}/v1/image_generate"),
            )
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "authorization, content-type",
            )
            .send()
    };
    let allowed = preflight("https://host.example").await.unwrap();
    assert_eq!(
        allowed.headers()["access-control-allow-origin"],
        "https://host.example"
    );
    assert!(allowed.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .contains("authorization"));
    let other = preflight("https://evil.example").await.unwrap();
    assert!(!other.headers().contains_key("access-control-allow-origin"));

    // The allowed site's page submits with the token; its relay header readable.
    let submit = |origin: &'static str, token: &str| {
        client
            .post(format!("{base}/v1/image_generate"))
            .header("origin", origin)
            .header("sec-fetch-site", "cross-site")
            .bearer_auth(token)
            .json(&json!({ "prompt": "A lighthouse" }))
            .send()
    };
    let from_host = submit("https://host.example", &token).await.unwrap();
    assert_eq!(from_host.status(), 200);
    assert_eq!(
        from_host.headers()["access-control-allow-origin"],
        "https://host.example"
    );
    assert!(from_host.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .contains("media-gen-relay"));
    // Another site's page is refused, token or not.
    assert_eq!(
        submit("https://evil.example", &token)
            .await
            .unwrap()
            .status(),
        403
    );
    assert_eq!(
        seen.seen().len(),
        1,
        "only the allowed page's submit went on"
    );

    // The token ends by itself.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    assert_eq!(
        submit("https://host.example", &token)
            .await
            .unwrap()
            .status(),
        401
    );
}

#[tokio::test]
async fn another_sites_event_stream_names_a_page_token_in_its_address_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (service, _) = start_service().await;
    let mut settings = settings(Some(&service));
    settings.access = AccessMode::Keys;
    settings.data_dir = Some(dir.path().to_owned());
    settings.allowed_origins = vec!["https://host.example".to_owned()];
    settings.relay = Some(media_gen_gateway::relay::RelaySettings::new(
        "http://127.0.0.1:9".to_owned(),
        64,
    ));
    let base = format!("http://{}", start_gateway(settings).await);
    let client = reqwest::Client::new();
    let token = page_token(&base, &key).await["data"]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let stream = |token: String| {
        client
            .get(format!(
                "{base}/events?relays={}&token={token}",
                "a".repeat(32)
            ))
            .header("origin", "https://host.example")
            .send()
    };

    // The page token: the stream opens, readable by the allowed site.
    let open = stream(token.clone()).await.unwrap();
    assert_eq!(open.status(), 200);
    assert_eq!(open.headers()["content-type"], "text/event-stream");
    assert_eq!(
        open.headers()["access-control-allow-origin"],
        "https://host.example"
    );
    drop(open);
    // A key in the address is refused, named; a made-up token is no one.
    let with_key = stream(key.clone()).await.unwrap();
    assert_eq!(with_key.status(), 400);
    let said: Value = with_key.json().await.unwrap();
    assert!(
        said["msg"]
            .as_str()
            .unwrap()
            .contains("token: only a page token"),
        "{said}"
    );
    let made_up = format!("mgt_{}", "x".repeat(43));
    assert_eq!(stream(made_up).await.unwrap().status(), 401);
}

/// The address of a gateway's base URL, for the raw client.
fn address_of(base: &str) -> std::net::SocketAddr {
    base.trim_start_matches("http://").parse().unwrap()
}

/// `method path` with `headers` and no body, as a whole request.
async fn call(
    base: &str,
    method: reqwest::Method,
    path: &str,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut request = reqwest::Client::new().request(method, format!("{base}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn signing_in_and_out_and_page_tokens_spend_the_visitors_requests() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (base, _) = keyed_gateway(dir.path(), 3).await;
    let same_site = [("sec-fetch-site", "same-origin")];
    let bearer = format!("Bearer {key}");
    let with_key = [("authorization", bearer.as_str())];
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(sign_in(&base, &key, &same_site).await);
        statuses.push(call(&base, reqwest::Method::DELETE, "/session", &same_site).await);
        statuses.push(call(&base, reqwest::Method::POST, "/tokens", &with_key).await);
    }
    let codes: Vec<u16> = statuses.iter().map(|s| s.status().as_u16()).collect();
    assert_eq!(
        codes,
        [200, 200, 200, 429, 429, 429, 429, 429, 429],
        "three requests a minute"
    );
    assert!(statuses[3..]
        .iter()
        .all(|answer| answer.headers().contains_key("retry-after")));
    // Over budget, a sign-in is refused before its body is waited for.
    let answer = crate::support::raw(
        address_of(&base),
        "POST /session HTTP/1.1\r\nHost: gateway\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(answer.status, 429, "{}", answer.head);
}

#[tokio::test]
async fn a_sign_in_body_is_read_only_from_this_site_and_only_a_little() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (base, _) = keyed_gateway(dir.path(), 1_000).await;
    // Another site's sign-in is refused at once: its body (never sent
    // here) is not waited for.
    let refused = crate::support::raw(
        address_of(&base),
        "POST /session HTTP/1.1\r\nHost: gateway\r\nSec-Fetch-Site: cross-site\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.head);
    // A key is short: a body over 4 KiB is not read to the end.
    let large = sign_in(
        &base,
        &format!("{key}{}", " ".repeat(5_000)),
        &[("sec-fetch-site", "same-origin")],
    )
    .await;
    assert_eq!(large.status(), 413);
    assert_eq!(
        sign_in(&base, &key, &[("sec-fetch-site", "same-origin")])
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn an_origin_is_this_sites_only_with_the_same_scheme_host_and_port() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (base, seen) = keyed_gateway(dir.path(), 1_000).await;
    let port = address_of(&base).port();
    // Browsers without Sec-Fetch-Site: only the Origin says whose page it is.
    for origin in [
        "http://127.0.0.1:9999",
        "https://127.0.0.1",
        &format!("https://127.0.0.1:{port}"),
    ] {
        assert_eq!(
            sign_in(&base, &key, &[("origin", origin)]).await.status(),
            403,
            "{origin}"
        );
        let submit = reqwest::Client::new()
            .post(format!("{base}/v1/image_generate"))
            .bearer_auth(&key)
            .header("origin", origin)
            .json(&json!({ "prompt": "A lighthouse" }))
            .send()
            .await
            .unwrap();
        assert_eq!(submit.status(), 403, "{origin}");
    }
    assert!(seen.seen().is_empty(), "nothing reached the service");
    let own = format!("http://127.0.0.1:{port}");
    assert_eq!(
        sign_in(&base, &key, &[("origin", own.as_str())])
            .await
            .status(),
        200
    );
    // Behind the guide's nginx: `Host $host` (no port) and the scheme in
    // X-Forwarded-Proto.
    let behind_nginx = [
        ("origin", "https://media.example.com"),
        ("host", "media.example.com"),
        ("x-forwarded-proto", "https"),
    ];
    assert_eq!(sign_in(&base, &key, &behind_nginx).await.status(), 200);
    let other_port = [
        ("origin", "https://media.example.com:8443"),
        ("host", "media.example.com"),
        ("x-forwarded-proto", "https"),
    ];
    assert_eq!(sign_in(&base, &key, &other_port).await.status(), 403);
}

#[tokio::test]
async fn over_https_a_session_is_read_only_from_its_host_prefixed_cookie() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path(), "ada", None);
    let (base, _) = keyed_gateway(dir.path(), 1_000).await;
    let https = ("x-forwarded-proto", "https");
    let signed_in = sign_in(&base, &key, &[("sec-fetch-site", "same-origin"), https]).await;
    let cookie = cookie_of(&signed_in);
    let id = cookie.strip_prefix("__Host-media-gen-session=").unwrap();
    let languages = |cookie: String, proto: Option<(&'static str, &'static str)>| {
        let mut request = reqwest::Client::new()
            .get(format!("{base}/v1/video_translate/target_languages"))
            .header("cookie", cookie);
        if let Some((name, value)) = proto {
            request = request.header(name, value);
        }
        async move { request.send().await.unwrap().status().as_u16() }
    };
    // A plain cookie of the same id, as a sibling subdomain could plant one.
    assert_eq!(
        languages(format!("media-gen-session={id}"), Some(https)).await,
        401
    );
    assert_eq!(
        languages(format!("__Host-media-gen-session={id}"), None).await,
        401,
        "over http, only the plain name"
    );
    assert_eq!(languages(cookie.clone(), Some(https)).await, 200);
}

#[tokio::test]
async fn an_auth_proxys_header_sent_twice_or_as_a_list_is_refused_by_name() {
    let base = proxied_gateway(&["127.0.0.1/32"]).await;
    let languages = format!("{base}/v1/video_translate/target_languages");
    let twice = reqwest::Client::new()
        .get(&languages)
        .header("x-forwarded-user", "admin")
        .header("x-forwarded-user", "alice")
        .send()
        .await
        .unwrap();
    assert_eq!(twice.status(), 400);
    let said: Value = twice.json().await.unwrap();
    assert!(
        said["msg"].as_str().unwrap().contains("x-forwarded-user"),
        "{said}"
    );
    let listed = as_user(&languages, Some("admin, alice")).await;
    assert_eq!(listed.status(), 400);
    assert_eq!(as_user(&languages, Some("alice")).await.status(), 200);
}
