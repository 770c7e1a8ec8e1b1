//! Exactly the documented calls reach the service, with the gateway's
//! token and nothing of the browser's; everything else is refused at the
//! gateway, and the service's answers come back as JSON.
use crate::support::{gateway, raw, raw_get, settings, start_gateway, start_service, TOKEN};

#[tokio::test]
async fn the_seven_calls_reach_the_service_with_the_gateways_token_only() {
    let (address, recorder) = gateway().await;
    let http = reqwest::Client::new();
    let calls = [
        ("POST", "/v1/image_to_video"),
        ("POST", "/v1/video_translate"),
        ("POST", "/v1/image_generate"),
        ("GET", "/v1/image_to_video/i2v-1"),
        ("GET", "/v1/video_translate/vt-1"),
        ("GET", "/v1/image_generate/ig%20one%3F"),
        ("GET", "/v1/video_translate/target_languages"),
    ];
    for (method, path) in calls {
        let request = http
            .request(
                method.parse().unwrap(),
                format!("http://{address}{path}?debug=1"),
            )
            .header("authorization", "Bearer the-visitors-own")
            .header("cookie", "session=abc")
            .header("x-custom", "nope");
        let request = if method == "POST" {
            request
                .header("content-type", "application/json")
                .body(r#"{"prompt":"p"}"#)
        } else {
            request
        };
        let answer = request.send().await.unwrap();
        assert_eq!(answer.status(), 200, "{method} {path}");
        assert_eq!(answer.headers()["content-type"], "application/json");
        assert_eq!(answer.headers()["x-content-type-options"], "nosniff");
        assert!(answer.headers().contains_key("x-request-id"));
    }
    let seen = recorder.seen();
    let targets: Vec<(String, String)> = seen
        .iter()
        .map(|s| (s.method.clone(), s.target.clone()))
        .collect();
    let expected: Vec<(String, String)> = calls
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    assert_eq!(targets, expected, "documented paths only, no query");
    for seen in &seen {
        assert_eq!(seen.headers["authorization"], format!("Bearer {TOKEN}"));
        assert!(!seen.headers.contains_key("cookie"));
        assert!(!seen.headers.contains_key("x-custom"));
        if seen.method == "POST" {
            assert_eq!(seen.headers["content-type"], "application/json");
            assert_eq!(seen.body, br#"{"prompt":"p"}"#);
        }
    }
}

#[tokio::test]
async fn nothing_else_reaches_the_service() {
    let (address, recorder) = gateway().await;
    let refused = [
        ("GET", "/v1/%2e%2e/sandbox/faults"),
        ("GET", "/v1/%2e%2e/%2e%2e/tenant-b/admin/keys"),
        ("GET", "/v1/../sandbox/faults"),
        ("GET", "/v1/image_to_video/.."),
        ("GET", "/v1/image_to_video/%2E%2e"),
        ("GET", "/v1/image_to_video/a%2fb"),
        ("GET", "/v1/image_to_video/a\\b"),
        ("GET", "/v1/image_to_video/a%5Cb"),
        ("GET", "/v1/image_to_video/"),
        ("GET", "/v1//image_to_video"),
        ("GET", "/v1/image_to_video/a/b"),
        ("GET", "/v1/image-to-video/x"),
        ("GET", "/v1"),
        ("GET", "/v1/"),
        ("GET", "http://evil.example/v1/image_to_video/x"),
        (
            "GET",
            "http://127.0.0.1/v1/video_translate/target_languages",
        ),
        ("DELETE", "/v1/image_to_video/i2v-1"),
        ("PATCH", "/v1/image_to_video/i2v-1"),
        ("PUT", "/v1/image_generate"),
        ("GET", "/v1/image_generate"),
        ("POST", "/v1/image_generate/x"),
        ("OPTIONS", "/v1/image_generate"),
        ("HEAD", "/v1/image_generate/x"),
        ("GET", "/sandbox/faults"),
        ("GET", "/admin"),
    ];
    for (method, target) in refused {
        let answer = raw_get(address, method, target).await;
        assert_eq!(answer.status, 404, "{method} {target}: {answer:?}");
        if method != "HEAD" {
            let envelope: serde_json::Value = serde_json::from_str(&answer.body)
                .unwrap_or_else(|_| panic!("{method} {target}: {answer:?}"));
            assert_eq!(envelope["code"], 100004, "{method} {target}");
        }
    }
    assert!(recorder.seen().is_empty(), "{:?}", recorder.seen());
}

#[tokio::test]
async fn a_path_prefix_on_the_upstream_is_kept() {
    let (service, recorder) = start_service().await;
    let address = start_gateway(settings(Some(&format!("{service}/api/")))).await;
    let answer = raw_get(address, "GET", "/v1/image_generate/ig-1").await;
    assert_eq!(answer.status, 200);
    assert_eq!(recorder.seen()[0].target, "/api/v1/image_generate/ig-1");
}

#[tokio::test]
async fn unusable_answers_become_the_error_envelope_and_name_nothing_upstream() {
    let (address, recorder) = gateway().await;
    for id in ["redirect", "html"] {
        let answer = raw_get(address, "GET", &format!("/v1/image_generate/{id}")).await;
        assert_eq!(answer.status, 502, "{id}: {answer:?}");
        let head = answer.head.to_ascii_lowercase();
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(head.contains("x-content-type-options: nosniff"), "{head}");
        assert!(!head.contains("location:"), "{head}");
        assert!(!answer.body.contains("script") && !answer.body.contains("elsewhere"));
        assert!(!answer.body.contains("127.0.0.1"), "{}", answer.body);
    }
    // The redirect was not followed: the service saw each call once.
    let targets: Vec<String> = recorder.seen().into_iter().map(|s| s.target).collect();
    assert_eq!(
        targets,
        ["/v1/image_generate/redirect", "/v1/image_generate/html"]
    );

    // JSON sent as text/html goes back as JSON, with nosniff.
    let answer = raw_get(address, "GET", "/v1/image_generate/html-json").await;
    assert_eq!(answer.status, 200);
    assert!(answer
        .head
        .to_ascii_lowercase()
        .contains("content-type: application/json"));

    // The service's own refusals pass through, Retry-After included.
    let answer = raw_get(address, "GET", "/v1/image_generate/busy").await;
    assert_eq!(answer.status, 429);
    assert!(answer.head.to_ascii_lowercase().contains("retry-after: 7"));

    // Too slow: 504.
    let answer = raw_get(address, "GET", "/v1/image_generate/slow").await;
    assert_eq!(answer.status, 504, "{answer:?}");
    assert!(!answer.head.contains(TOKEN) && !answer.body.contains(TOKEN));
}

#[tokio::test]
async fn a_service_that_is_down_is_a_502() {
    // A port with nothing listening.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let address = start_gateway(settings(Some(&url))).await;
    let answer = raw_get(address, "GET", "/v1/image_generate/ig-1").await;
    assert_eq!(answer.status, 502);
    let envelope: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(envelope["code"], 100010);
    assert!(!answer.body.contains(&url), "{}", answer.body);
}

#[tokio::test]
async fn without_an_upstream_calls_are_unavailable() {
    let address = start_gateway(settings(None)).await;
    let answer = raw_get(address, "GET", "/v1/image_generate/ig-1").await;
    assert_eq!(answer.status, 503);
    let answer = raw(
        address,
        "GET /v1/%2e%2e/x HTTP/1.1\r\nHost: g\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(answer.status, 404);
}

#[tokio::test]
async fn a_submit_the_contract_cannot_read_never_reaches_the_service() {
    let (address, recorder) = gateway().await;
    let http = reqwest::Client::new();
    let unreadable = [
        (
            "/v1/image_generate",
            "not json",
            100003,
            "The body is not a JSON object",
        ),
        (
            "/v1/image_generate",
            "",
            100003,
            "The body is not valid JSON",
        ),
        (
            "/v1/image_generate",
            r#"{"prompt": "p", "generate_count": "8"}"#,
            100001,
            "generate_count: ",
        ),
        (
            "/v1/video_translate",
            r#"{"video_url": "https://x.test/a.mp4", "target_languages": "en,fr"}"#,
            100001,
            "target_languages: ",
        ),
        (
            "/v1/image_to_video",
            r#"{"prompt": "p"} trailing"#,
            100003,
            "The body is not valid JSON",
        ),
    ];
    for (path, body, code, says) in unreadable {
        let answer = http
            .post(format!("http://{address}{path}"))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 400, "{path} {body}");
        let envelope: serde_json::Value = answer.json().await.unwrap();
        assert_eq!(envelope["code"], code, "{envelope}");
        let msg = envelope["msg"].as_str().unwrap();
        assert!(msg.starts_with(says), "{msg}");
    }
    assert!(recorder.seen().is_empty(), "nothing was forwarded");
}
