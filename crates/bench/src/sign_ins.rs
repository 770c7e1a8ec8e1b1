//! What signing in costs as sessions pile up: the release gateway in
//! `--access keys` mode, one key, 40,000 sign-ins over one kept-alive
//! connection, each a new session. Figures: the median sign-in over the
//! first thousand and over the last thousand, and the gateway's memory
//! before and after. Budget: the last thousand within 1.5× of the first
//! (a sign-in that visits every session grows with them: 0.41 → 6.25 ms).

use std::time::{Duration, Instant};

use crate::report::{median, Report};
use crate::sandbox::Server;
use crate::size::Size;

/// Sign-ins in all (a smoke run: a few dozen).
const SIGN_INS: usize = 40_000;
/// Sign-ins whose median makes each figure (a smoke run: ten).
const SAMPLE: usize = 1_000;
/// The last thousand's median may be at most this many times the first's.
const GROWTH_BUDGET: f64 = 1.5;

/// Sign in `count` times with `key` at `base`: each one's latency.
async fn sign_in(
    client: &reqwest::Client,
    base: &str,
    key: &str,
    count: usize,
) -> Result<Vec<Duration>, String> {
    let body = serde_json::json!({ "key": key }).to_string();
    let mut latencies = Vec::with_capacity(count);
    for _ in 0..count {
        let started = Instant::now();
        let answer = client
            .post(format!("{base}/session"))
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await
            .map_err(|error| error.to_string())?;
        let status = answer.status();
        answer.bytes().await.map_err(|error| error.to_string())?;
        if !status.is_success() {
            return Err(format!("sign-in: HTTP {status}"));
        }
        latencies.push(started.elapsed());
    }
    Ok(latencies)
}

fn microseconds(latencies: Vec<Duration>) -> f64 {
    median(latencies).as_secs_f64() * 1_000_000.0
}

/// Measure and add the figures to `report`.
pub async fn measure(report: &mut Report, size: Size) -> Result<(), String> {
    let (sign_ins, sample) = size.pick((SIGN_INS, SAMPLE), (30, 10));
    let dir = media_gen_e2e::test_folder("bench-sign-ins");
    let key = media_gen_gateway::access::key_file::KeyFile::new(dir.path())
        .add("ada", None, 0)
        .map_err(|error| error.to_string())?;
    let gateway = Server::keys_gateway(dir.path()).await?;
    let client = reqwest::Client::new();
    let memory_before = gateway.resident_mib();
    let first = sign_in(&client, &gateway.base_url, &key, sample).await?;
    sign_in(&client, &gateway.base_url, &key, sign_ins - 2 * sample).await?;
    let last = sign_in(&client, &gateway.base_url, &key, sample).await?;
    let (first, last) = (microseconds(first), microseconds(last));
    report.add("sign-in, the first 1,000 (median)", first, "µs");
    report.add_with_budget(
        "sign-in, the last 1,000 of 40,000 sessions (median)",
        last,
        "µs",
        first * GROWTH_BUDGET,
    );
    if let (Some(before), Some(after)) = (memory_before, gateway.resident_mib()) {
        report.add("gateway memory before 40,000 sign-ins", before, "MiB");
        report.add("gateway memory after 40,000 sign-ins", after, "MiB");
    }
    Ok(())
}
