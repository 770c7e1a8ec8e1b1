//! Any request, however malformed, gets an answer: no handler panics on
//! arbitrary paths, methods, headers or bodies. `cargo xtask fuzz` runs this
//! with many more cases for a fixed time (`MEDIA_GEN_FUZZ_CASES`).

use axum::body::Body;
use axum::http::{Method, Request};
use media_gen_sandbox::{router, Config, DEMO_TOKEN};
use proptest::prelude::*;
use tower::ServiceExt;

fn cases(default: u32) -> u32 {
    std::env::var("MEDIA_GEN_FUZZ_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default)
}

fn path() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("/v1/image_to_video".to_owned()),
        Just("/v1/video_translate".to_owned()),
        Just("/v1/image_generate".to_owned()),
        Just("/v1/video_translate/target_languages".to_owned()),
        "/v1/(image_to_video|video_translate|image_generate)/[a-z0-9%./-]{0,40}",
        "/sandbox/(inbox|media/image|media/video|media/translated|faults|stats|demo)(/[a-zA-Z0-9%:._-]{0,20}){0,3}",
        "/[a-zA-Z0-9%/._~-]{0,60}",
    ]
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        r#"\{("(prompt|model|duration|generate_count|target_languages|video_url|reference_images|image_url|callback_url|name|speaker_num|http_500|limit|latency_ms)":(0|-1|1e309|"[^"]{0,30}"|null|true|\[\]|\[1,"a",null\]|\{\}|-?[0-9]{1,25}),?){0,8}\}"#
            .prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn every_request_gets_an_answer(
        method in prop_oneof![Just(Method::GET), Just(Method::POST), Just(Method::PUT), Just(Method::DELETE)],
        path in path(),
        body in body(),
        json in any::<bool>(),
        token in prop_oneof![Just(format!("Bearer {DEMO_TOKEN}")), Just("Bearer x".to_owned()), Just(String::new()), "[ -~]{0,40}"],
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let status = runtime.block_on(async {
            let mut request = Request::builder().method(method).uri(&path);
            if json {
                request = request.header("content-type", "application/json");
            }
            if !token.is_empty() {
                request = request.header("authorization", &token);
            }
            let Ok(request) = request.body(Body::from(body)) else {
                return 400; // not a request a client could send at all
            };
            let response = router(&Config::for_tests()).oneshot(request).await.expect("infallible");
            response.status().as_u16()
        });
        // Faults are off, so a 500 would be the sandbox's own failure.
        prop_assert!((200..500).contains(&status), "{status} for {path}");
    }
}
