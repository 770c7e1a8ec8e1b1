//! Sandbox submissions and status reads per second with 1, 8 and 64
//! concurrent clients on loopback, and its memory after 100,000 tasks and
//! after 500,000 (past the 100,000-task cap it must stay flat).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::report::Report;
use crate::sandbox::{post_json, Sandbox};
use crate::size::Size;

use crate::sandbox::DEMO_TOKEN as TOKEN;
/// How long each figure's load runs (a smoke run: a moment).
const WINDOW: Duration = Duration::from_secs(3);
/// Concurrent clients (a smoke run: a few, once).
const CONCURRENCY: [usize; 3] = [1, 8, 64];
/// Tasks the sandbox has made when its memory is read: at its cap and
/// well past it (a smoke run: a few hundred, the same steps).
const MEMORY_AT: [u64; 2] = [100_000, 500_000];

fn submit_body() -> Value {
    json!({"prompt": "benchmark", "image_quality": "1K", "image_ratio": "1:1"})
}

async fn submit(client: &reqwest::Client, base_url: &str, body: &Value) -> Result<Value, String> {
    post_json(client, &format!("{base_url}/v1/image_generate"), body).await
}

/// Requests per second that `clients` concurrent loops of `request` achieve in `window`.
async fn rate<F, Fut>(clients: usize, window: Duration, request: F) -> Result<f64, String>
where
    F: Fn(reqwest::Client) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = Result<(), String>> + Send,
{
    let done = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + window;
    let mut workers = Vec::new();
    for _ in 0..clients {
        let (request, done) = (request.clone(), Arc::clone(&done));
        let client = reqwest::Client::new();
        workers.push(tokio::spawn(async move {
            while Instant::now() < deadline {
                request(client.clone()).await?;
                done.fetch_add(1, Ordering::Relaxed);
            }
            Ok::<(), String>(())
        }));
    }
    for worker in workers {
        worker.await.map_err(|e| e.to_string())??;
    }
    Ok(done.load(Ordering::Relaxed) as f64 / window.as_secs_f64())
}

/// Run the throughput and memory benchmarks into `report`.
pub async fn measure(report: &mut Report, size: Size) -> Result<(), String> {
    let window = size.pick(WINDOW, Duration::from_millis(200));
    let concurrency = size.pick(&CONCURRENCY[..], &[4]);
    println!(
        "Sandbox throughput on loopback ({:.1} s per figure)",
        window.as_secs_f64()
    );
    let sandbox = Sandbox::start(&["--task-ms", "60000"]).await?;
    let base = sandbox.base_url.clone();
    let first = submit(&reqwest::Client::new(), &base, &submit_body()).await?;
    let id = first["data"]["task_ids"][0]
        .as_str()
        .ok_or("no task id")?
        .to_owned();

    for &clients in concurrency {
        let base = base.clone();
        let per_second = rate(clients, window, move |client| {
            let base = base.clone();
            async move { submit(&client, &base, &submit_body()).await.map(|_| ()) }
        })
        .await?;
        report.add(
            format!("sandbox submissions, {clients} clients"),
            per_second,
            "req/s",
        );
    }
    for &clients in concurrency {
        let url = format!("{base}/v1/image_generate/{id}");
        let per_second = rate(clients, window, move |client| {
            let url = url.clone();
            async move {
                let response = client
                    .get(&url)
                    .bearer_auth(TOKEN)
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                response
                    .bytes()
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
        })
        .await?;
        report.add(
            format!("sandbox status reads, {clients} clients"),
            per_second,
            "req/s",
        );
    }
    drop(sandbox);

    println!("Sandbox memory (cap 100,000 tasks)");
    let sandbox = Sandbox::start(&["--task-ms", "1"]).await?;
    report.add(
        "sandbox memory at start",
        sandbox.resident_mib().unwrap_or_default(),
        "MiB",
    );
    let body = json!({"prompt": "memory", "generate_count": 8});
    for target in size.pick(MEMORY_AT, [200, 400]) {
        submit_tasks(&sandbox.base_url, &body, target).await?;
        let label = format!("sandbox memory after {target} tasks");
        report.add(label, sandbox.resident_mib().unwrap_or_default(), "MiB");
    }
    Ok(())
}

/// Submit until the sandbox has created `target` tasks in all, with 16 clients.
async fn submit_tasks(base_url: &str, body: &Value, target: u64) -> Result<(), String> {
    let created =
        crate::sandbox::counter(&reqwest::Client::new(), base_url, "tasks_created").await?;
    let requests = target.saturating_sub(created).div_ceil(8);
    let next = Arc::new(AtomicU64::new(0));
    let mut workers = Vec::new();
    for _ in 0..16 {
        let (next, base, body) = (Arc::clone(&next), base_url.to_owned(), body.clone());
        workers.push(tokio::spawn(async move {
            let client = reqwest::Client::new();
            while next.fetch_add(1, Ordering::Relaxed) < requests {
                submit(&client, &base, &body).await?;
            }
            Ok::<(), String>(())
        }));
    }
    for worker in workers {
        worker.await.map_err(|e| e.to_string())??;
    }
    Ok(())
}
