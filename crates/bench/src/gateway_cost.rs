//! What the gateway costs, measured in one run against the same sandbox:
//! status reads per second and their 99th-percentile latency with 1, 8 and
//! 64 concurrent clients, straight to the sandbox, through Debian's nginx
//! proxying the same call (adding the token as the gateway does), and
//! through the gateway; and the gateway's memory before and after the
//! 64-client load. Budget: the gateway's p99 within 1.2× of nginx's. Both
//! get one worker (thread, process): the machine's other core runs the load.
//!
//! The three targets take turns in short rounds, and each one's figures
//! pool its rounds: a burst of other work on this shared machine then falls
//! on all three alike instead of on whichever ran at that moment. Each
//! target's clients connect in a first round that is not counted and keep
//! their connections: the figures are the steady cost of a read.

use std::time::{Duration, Instant};

use media_gen_e2e::Nginx;

use crate::loopback;
use crate::report::Report;
use crate::sandbox::{post_json, Server, DEMO_TOKEN};
use crate::size::Size;

/// How long each figure's load runs in all: [`ROUNDS`] turns of [`ROUND`].
const WINDOW: Duration = Duration::from_secs(3);
/// Turns each target takes per figure.
const ROUNDS: u32 = 6;
/// One turn.
const ROUND: Duration = WINDOW.checked_div(ROUNDS).expect("rounds > 0");
/// Concurrent clients.
const CONCURRENCY: [usize; 3] = [1, 8, 64];
/// A smoke run: one round of a tenth of a second per target, of a few
/// clients.
const SMOKE_ROUND: Duration = Duration::from_millis(100);
const SMOKE_CONCURRENCY: [usize; 1] = [4];
/// The gateway's p99 may be at most this many times nginx's.
const P99_BUDGET: f64 = 1.2;

/// The latency of every read each of `clients` makes of `url` for one
/// round of `length`. The clients keep their connections from round to
/// round, so every round measures reads, not connecting.
async fn round(
    url: &str,
    clients: &[reqwest::Client],
    length: Duration,
) -> Result<Vec<Duration>, String> {
    let deadline = Instant::now() + length;
    let mut workers = Vec::new();
    for client in clients {
        let url = url.to_owned();
        let client = client.clone();
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let started = Instant::now();
                let response = client
                    .get(&url)
                    .bearer_auth(DEMO_TOKEN)
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let status = response.status();
                response.bytes().await.map_err(|e| e.to_string())?;
                if !status.is_success() {
                    return Err(format!("{url}: HTTP {status}"));
                }
                latencies.push(started.elapsed());
            }
            Ok::<Vec<Duration>, String>(latencies)
        }));
    }
    let mut all = Vec::new();
    for worker in workers {
        all.extend(worker.await.map_err(|e| e.to_string())??);
    }
    if all.is_empty() {
        return Err(format!("{url}: no request finished"));
    }
    Ok(all)
}

/// Reads per second and p99 latency (ms) of the pooled rounds'
/// `latencies`, which took `window` in all.
fn figures(mut latencies: Vec<Duration>, window: Duration) -> (f64, f64) {
    latencies.sort();
    let p99 = latencies[(latencies.len() * 99).div_ceil(100) - 1];
    (
        latencies.len() as f64 / window.as_secs_f64(),
        p99.as_secs_f64() * 1_000.0,
    )
}

/// nginx proxying everything to the sandbox with the token, keeping
/// connections to it open, as the gateway does.
fn nginx_block(sandbox: &str, port: u16) -> String {
    format!(
        "  upstream sandbox {{ server {sandbox}; keepalive 64; }}\n  \
         server {{\n    listen 127.0.0.1:{port};\n    location / {{\n      \
         proxy_pass http://sandbox;\n      proxy_http_version 1.1;\n      \
         proxy_set_header Connection \"\";\n      \
         proxy_set_header Authorization \"Bearer {DEMO_TOKEN}\";\n    }}\n  }}"
    )
}

/// Run the gateway-cost benchmark into `report`.
pub async fn measure(report: &mut Report, size: Size) -> Result<(), String> {
    let (round_length, rounds) = size.pick((ROUND, ROUNDS), (SMOKE_ROUND, 1));
    let window = round_length * rounds;
    let concurrency = size.pick(&CONCURRENCY[..], &SMOKE_CONCURRENCY[..]);
    println!(
        "Gateway cost: status reads on loopback, direct / nginx / gateway ({:.1} s per figure)",
        window.as_secs_f64()
    );
    let sandbox = Server::start(&["--task-ms", "600000"]).await?;
    let client = reqwest::Client::new();
    let submitted = post_json(
        &client,
        &format!("{}/v1/image_generate", sandbox.base_url),
        &serde_json::json!({"prompt": "benchmark"}),
    )
    .await?;
    let id = submitted["data"]["task_ids"][0]
        .as_str()
        .ok_or("no task id")?
        .to_owned();
    let gateway = Server::gateway(&sandbox.base_url).await?;
    let upstream = sandbox.base_url.trim_start_matches("http://").to_owned();
    let nginx = Nginx::start(|port| nginx_block(&upstream, port)).await;
    let path = format!("/v1/image_generate/{id}");
    let targets = [
        ("direct", sandbox.base_url.clone()),
        ("nginx", format!("http://{}", nginx.address)),
        ("gateway", gateway.base_url.clone()),
    ];
    let memory_before = gateway.resident_mib();
    for &clients in concurrency {
        // Each target its own clients, connected by a first round not
        // counted. They come from loopback addresses of their own, no more
        // to one than the gateway lets one address hold by default
        // (`loopback.rs`): 64 clients are many visitors, and the gateway is
        // measured as deployed.
        let mut connected = Vec::new();
        for (_, base) in &targets {
            let own = (0..clients)
                .map(|index| loopback::client(index, loopback::CLIENTS_PER_ADDRESS))
                .collect::<Result<Vec<_>, _>>()?;
            round(&format!("{base}{path}"), &own, round_length).await?;
            connected.push(own);
        }
        let mut pooled = vec![Vec::new(); targets.len()];
        for _ in 0..rounds {
            for (((_, base), own), latencies) in targets.iter().zip(&connected).zip(&mut pooled) {
                latencies.extend(round(&format!("{base}{path}"), own, round_length).await?);
            }
        }
        let mut nginx_p99 = None;
        for ((name, _), latencies) in targets.iter().zip(pooled) {
            let (per_second, p99) = figures(latencies, window);
            report.add(
                format!("status reads/s, {clients} clients: {name}"),
                per_second.round(),
                "req/s",
            );
            match *name {
                "nginx" => {
                    nginx_p99 = Some(p99);
                    report.add(format!("p99, {clients} clients: nginx"), p99, "ms");
                }
                "gateway" => {
                    let budget = nginx_p99.map_or(f64::INFINITY, |nginx| nginx * P99_BUDGET);
                    report.add_with_budget(
                        format!("p99, {clients} clients: gateway"),
                        p99,
                        "ms",
                        budget,
                    );
                }
                _ => report.add(format!("p99, {clients} clients: {name}"), p99, "ms"),
            }
        }
    }
    if let (Some(before), Some(after)) = (memory_before, gateway.resident_mib()) {
        report.add("gateway memory before the load", before, "MiB");
        // Flat: what the load left behind stays small (buffers, a few pools).
        report.add_with_budget(
            "gateway memory after the 64-client load",
            after,
            "MiB",
            before + 16.0,
        );
    }
    Ok(())
}
