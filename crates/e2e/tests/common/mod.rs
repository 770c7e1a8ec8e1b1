//! What the relay's end-to-end tests count: the status reads the sandbox
//! answered, and those a page sent.
#![allow(dead_code)]
// Test-only code: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

use media_gen_e2e::Browser;
use serde_json::Value;

/// Status reads the sandbox at `sandbox_url` has answered.
pub async fn status_reads(sandbox_url: &str) -> u64 {
    let stats: Value = reqwest::get(format!("{sandbox_url}/sandbox/stats"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    stats["data"]["status_reads"].as_u64().unwrap()
}

/// Image generation status reads the page in `browser` has sent since it loaded.
pub async fn page_status_reads(browser: &Browser) -> Value {
    browser
        .eval(
            "performance.getEntriesByType('resource')
               .filter((entry) => /\\/v1\\/image_generate\\/./.test(new URL(entry.name).pathname)).length",
        )
        .await
}

/// The page in `browser` sent no status read, and the sandbox at
/// `sandbox_url` answered `confirmations` (the gateway's, one per task).
pub async fn heard_not_read(browser: &Browser, sandbox_url: &str, confirmations: u64) {
    assert_eq!(
        page_status_reads(browser).await,
        0,
        "heard of, not read: no status read from the page"
    );
    assert_eq!(
        status_reads(sandbox_url).await,
        confirmations,
        "the service read once per task: the gateway's confirmations"
    );
}
