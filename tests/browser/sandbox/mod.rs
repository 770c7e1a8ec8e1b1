//! The sandbox `cargo xtask test` starts for the browser tests, and helpers
//! to steer it.
#![allow(dead_code)]

use gloo_net::http::Request;
use media_gen_client::{Auth, Client, ClientOptions};
use serde_json::Value;

/// The demo token the sandbox accepts.
pub const TOKEN: &str = "demo-token";

/// The sandbox's address, handed over at compile time by `cargo xtask test`.
pub fn url() -> &'static str {
    // Not `env!`: the tests must still compile (for linting) without a sandbox.
    match option_env!("MEDIA_GEN_SANDBOX_URL") {
        Some(url) => url,
        None => panic!(
            "MEDIA_GEN_SANDBOX_URL is not set: run the browser tests through `cargo xtask test`"
        ),
    }
}

/// Options for the sandbox with the demo token and the default policy.
pub fn options() -> ClientOptions {
    ClientOptions::new(url(), Auth::Token(TOKEN.to_owned()))
}

/// A client of the sandbox with [`options`].
pub fn client() -> Client {
    Client::new(options())
}

/// Replace the sandbox's fault settings (`{}` clears them).
pub async fn set_faults(faults: Value) {
    let response = Request::put(&format!("{}/sandbox/faults", url()))
        .header("Authorization", &format!("Bearer {TOKEN}"))
        .json(&faults)
        .expect("a JSON body")
        .send()
        .await
        .expect("the sandbox answers");
    assert_eq!(response.status(), 200, "setting faults {faults}");
}

/// The sandbox's counters (`v1_requests`, `status_reads`, `tasks_created`, `tasks_held`).
pub async fn stats() -> Value {
    let response = Request::get(&format!("{}/sandbox/stats", url()))
        .send()
        .await
        .expect("the sandbox answers");
    let body: Value = response.json().await.expect("JSON");
    body["data"].clone()
}

/// One counter as a number.
pub async fn counter(name: &str) -> u64 {
    stats().await[name].as_u64().unwrap_or_default()
}

/// Milliseconds since the epoch.
pub fn now() -> f64 {
    js_sys::Date::now()
}

/// Leave browser storage as a user connected to the sandbox would: base URL
/// and token for this tab, no stored tasks.
pub fn connect_the_app() {
    let window = web_sys::window().expect("a window");
    let device = window.local_storage().ok().flatten().expect("localStorage");
    device.clear().expect("clear localStorage");
    let session = window
        .session_storage()
        .ok()
        .flatten()
        .expect("sessionStorage");
    session.clear().expect("clear sessionStorage");
    session
        .set_item("media-gen.base-url", url())
        .expect("store the base URL");
    session
        .set_item("media-gen.token", TOKEN)
        .expect("store the token");
}

/// Translate the sandbox's sample video into French with captions (named
/// "talk"), straight on the sandbox; the id of the one task.
pub async fn translate_talk() -> String {
    let request = media_gen_api::VideoTranslateRequest {
        target_languages: vec!["French".into()],
        video_url: format!("{}/sandbox/media/video/landscape.mp4", url()),
        enable_caption: Some(true),
        name: Some("talk".into()),
        ..Default::default()
    };
    let refs = client()
        .submit_video_translate(&request, None)
        .await
        .expect("the sandbox takes the translation");
    refs[0].task_id.clone()
}

/// `count` images of `prompt` at 1K (the sandbox's quickest).
pub fn image_request(prompt: &str, count: i64) -> media_gen_api::Request {
    media_gen_api::Request::ImageGenerate(media_gen_api::ImageGenerateRequest {
        prompt: prompt.into(),
        image_quality: Some(media_gen_api::ImageQuality::K1),
        generate_count: Some(count),
        ..Default::default()
    })
}

/// Submit `request` straight to the sandbox (as another tool would); the
/// ids of the tasks it made.
pub async fn submit(request: &media_gen_api::Request) -> Vec<String> {
    client()
        .submit_request(request, None)
        .await
        .expect("the sandbox takes the request")
}

/// Put the tasks `ids` of `request` in the app's storage, as the app does
/// when a submit returns, submitted at `at`.
pub fn store_submitted(request: &media_gen_api::Request, ids: &[String], at: f64) {
    for id in ids {
        let record = media_gen_ui::store::record::TaskRecord::submitted(request, id, at);
        media_gen_ui::store::tasks::save(&record).expect("stored");
    }
}

/// Images generated straight on the sandbox and put in the app's storage as
/// its submit does; their ids.
pub async fn images_on_the_board(prompt: &str, count: i64) -> Vec<String> {
    let request = image_request(prompt, count);
    let ids = submit(&request).await;
    store_submitted(&request, &ids, now());
    ids
}

/// Make the page read as hidden (or in view again) as a browser does when
/// the tab goes to the background: `document.hidden` and
/// `document.visibilityState` both change, then `visibilitychange` fires.
pub fn set_page_hidden(hidden: bool) {
    let document = web_sys::window().unwrap().document().unwrap();
    for (property, value) in [
        ("hidden", wasm_bindgen::JsValue::TRUE),
        ("visibilityState", "hidden".into()),
    ] {
        if hidden {
            let descriptor = js_sys::Object::new();
            js_sys::Reflect::set(&descriptor, &"value".into(), &value).unwrap();
            js_sys::Reflect::set(
                &descriptor,
                &"configurable".into(),
                &wasm_bindgen::JsValue::TRUE,
            )
            .unwrap();
            js_sys::Object::define_property(&document, &property.into(), &descriptor);
        } else {
            js_sys::Reflect::delete_property(&document, &property.into()).unwrap();
        }
    }
    let event = web_sys::Event::new("visibilitychange").unwrap();
    document.dispatch_event(&event).unwrap();
}
