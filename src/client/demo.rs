//! Finding the sandbox's demo token, so the app served by the sandbox works
//! with no set-up.

use gloo_net::http::Request;
use serde::Deserialize;

#[derive(Deserialize)]
struct DemoSettings {
    token: String,
}

/// The demo token of the sandbox at `base_url`, if `base_url` is a sandbox
/// that shares one (`GET /sandbox/demo`). Anything else (a real service, a
/// network failure, an unexpected body) yields `None`: the user then enters a
/// token in the settings.
pub async fn demo_token(base_url: &str) -> Option<String> {
    let url = format!("{}/sandbox/demo", base_url.trim_end_matches('/'));
    let response = Request::get(&url).send().await.ok()?;
    if !response.ok() {
        return None;
    }
    // Bytes, as every other answer is read: one JSON reader in the wasm.
    let body = response.binary().await.ok()?;
    let settings: DemoSettings = serde_json::from_slice(&body).ok()?;
    Some(settings.token).filter(|token| !token.is_empty())
}
