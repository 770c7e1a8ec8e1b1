//! What each person's library costs. The release gateway in `keys` mode,
//! its library in SQLite (under `--data-dir`) and in PostgreSQL (Debian's,
//! in a folder of its own): a person's library of 100,000 tasks, then
//! `GET /library?limit=50` over loopback, the first page and pages deep
//! in it, the starred and a collection's (400 requests far from the
//! newest) (budget: p99 ≤ 10 ms), and a search by a word of the prompt; then
//! submits a second through the gateway to the sandbox with the library
//! on and off (budget: on within 10 % of off).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::report::Report;
use crate::sandbox::Server;
use crate::size::Size;

/// Tasks in the person's library.
const TASKS: usize = 100_000;
/// Tasks added per import call (the gateway's most).
const PER_IMPORT: usize = 1_000;
/// Listings timed per figure.
const LISTINGS: usize = 1_000;
/// The p99 goal of a listing, milliseconds.
const LISTING_P99_MS: f64 = 10.0;
/// How long each submit figure runs.
const WINDOW: Duration = Duration::from_secs(5);
/// Clients submitting at once: as many connections as the gateway lets
/// one address hold, so the figure is what it forwards at its busiest
/// rather than how long one submit waits.
const CLIENTS: usize = 32;

/// How much of each a run takes: the constants above in full. A smoke
/// run's library is one import (enough that the oldest requests
/// `organise` picks and the newest are apart), listed a few times, and
/// its submits a moment's of two clients.
#[derive(Clone, Copy)]
struct Counts {
    tasks: usize,
    listings: usize,
    window: Duration,
    clients: usize,
}

impl Counts {
    fn of(size: Size) -> Counts {
        size.pick(
            Counts {
                tasks: TASKS,
                listings: LISTINGS,
                window: WINDOW,
                clients: CLIENTS,
            },
            Counts {
                tasks: PER_IMPORT,
                listings: 5,
                window: Duration::from_millis(200),
                clients: 2,
            },
        )
    }
}

/// The value at quantile `q` (0..=1) of `values`.
fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let index = ((values.len() as f64 - 1.0) * q).round() as usize;
    values[index.min(values.len() - 1)]
}

/// `media-gen-gateway keys add NAME` (release) on the library `at`.
fn new_key(at: &[&str], name: &str) -> Result<String, String> {
    let binary = crate::sandbox::binary("media-gen-gateway")?;
    let output = std::process::Command::new(binary)
        .args(["keys", "add", name])
        .args(at)
        .env_remove("MEDIA_GEN_DATA_DIR")
        .env_remove("MEDIA_GEN_LIBRARY")
        .output()
        .map_err(|error| error.to_string())?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// Fill `key`'s library at `base` with `tasks` tasks, as a browser
/// offers what it knows.
async fn fill(client: &reqwest::Client, base: &str, key: &str, tasks: usize) -> Result<(), String> {
    let words = ["fox", "owl", "harbour", "storm", "lighthouse", "meadow"];
    for batch in 0..tasks.div_ceil(PER_IMPORT) {
        let tasks: Vec<Value> = (0..PER_IMPORT)
            .map(|n| {
                let number = batch * PER_IMPORT + n;
                json!({
                    "kind": "image_generate",
                    "task_id": format!("bench-{number}"),
                    "submitted_at": 1_700_000_000_000_u64 + number as u64,
                    "request": { "prompt": format!("a {} number {number}", words[number % words.len()]) },
                    "status": "SUCCEEDED",
                    "task": { "task_type": "image_generate", "data": {
                        "task_id": format!("bench-{number}"), "status": "SUCCEEDED",
                        "image_url": format!("https://files.example/{number}.png") } },
                })
            })
            .collect();
        let answer = client
            .post(format!("{base}/library/import"))
            .bearer_auth(key)
            .json(&json!({ "tasks": tasks }))
            .send()
            .await
            .map_err(|error| error.to_string())?;
        if !answer.status().is_success() {
            return Err(format!("import: HTTP {}", answer.status()));
        }
    }
    Ok(())
}

/// Requests starred and collected, as a person organises a library that
/// has grown: 200 of the oldest and 200 from the middle (the filters'
/// worst case, far from the newest), all starred and put in one
/// collection; the collection's id.
async fn organise(client: &reqwest::Client, base: &str, key: &str) -> Result<String, String> {
    let call = |path: &str, body: Value| {
        client
            .post(format!("{base}{path}"))
            .bearer_auth(key)
            .json(&body)
            .send()
    };
    let page_at = |cursor: String| async move {
        client
            .get(format!("{base}/library?limit=100&cursor={cursor}"))
            .bearer_auth(key)
            .send()
            .await
            .map_err(|error| error.to_string())?
            .json::<Value>()
            .await
            .map_err(|error| error.to_string())
    };
    let mut requests: Vec<Value> = Vec::new();
    // A cursor past the requests made at or after `created` (an id sorts
    // after every real one).
    for created in [1_700_000_000_200_u64, 1_700_000_050_000] {
        let page = page_at(format!("{created}.zzzz")).await?;
        let next = page["data"]["next"].as_str().unwrap_or_default().to_owned();
        let more = page_at(next).await?;
        for item in page["data"]["items"]
            .as_array()
            .into_iter()
            .chain(more["data"]["items"].as_array())
            .flatten()
        {
            requests.push(item["request"].clone());
        }
    }
    let starred = call(
        "/library/star",
        json!({ "requests": requests, "starred": true }),
    )
    .await
    .map_err(|error| error.to_string())?;
    if !starred.status().is_success() {
        return Err(format!("star: HTTP {}", starred.status()));
    }
    let made: Value = call(
        "/library/collections",
        json!({ "name": "Bench", "requests": requests }),
    )
    .await
    .map_err(|error| error.to_string())?
    .json()
    .await
    .map_err(|error| error.to_string())?;
    if made["data"]["requests"].as_u64() != Some(requests.len() as u64) {
        return Err(format!("collection: {made}"));
    }
    made["data"]["id"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("collection: {made}"))
}

/// Milliseconds each of `count` listings of `queries` (in turn) took.
async fn listings(
    client: &reqwest::Client,
    base: &str,
    key: &str,
    queries: &[String],
    count: usize,
) -> Result<Vec<f64>, String> {
    let mut times = Vec::with_capacity(count);
    for n in 0..count {
        let query = &queries[n % queries.len()];
        let started = Instant::now();
        let answer = client
            .get(format!("{base}/library?{query}"))
            .bearer_auth(key)
            .send()
            .await
            .map_err(|error| error.to_string())?;
        let status = answer.status();
        let page: Value = answer.json().await.map_err(|error| error.to_string())?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        if !status.is_success() || page["data"]["items"].as_array().is_none_or(Vec::is_empty) {
            return Err(format!("listing {query}: HTTP {status}, no request listed"));
        }
    }
    Ok(times)
}

/// The listing figures of the library kept as `name` says, behind `gateway`.
async fn measure_listing(
    report: &mut Report,
    name: &str,
    gateway: &Server,
    key: &str,
    settled: impl std::future::Future<Output = Result<(), String>>,
    counts: Counts,
) -> Result<(), String> {
    let client = reqwest::Client::new();
    let started = Instant::now();
    fill(&client, &gateway.base_url, key, counts.tasks).await?;
    println!(
        "{name}: {} tasks added in {:.1} s",
        counts.tasks,
        started.elapsed().as_secs_f64()
    );
    settled.await?;
    // Cursors spread through the library, from a walk of its pages.
    let mut cursors = Vec::new();
    let mut cursor = String::new();
    for _ in 0..40 {
        let page: Value = client
            .get(format!(
                "{}/library?limit=100&cursor={cursor}",
                gateway.base_url
            ))
            .bearer_auth(key)
            .send()
            .await
            .map_err(|error| error.to_string())?
            .json()
            .await
            .map_err(|error| error.to_string())?;
        let Some(next) = page["data"]["next"].as_str() else {
            break;
        };
        cursor = next.to_owned();
        cursors.push(format!("limit=50&cursor={next}"));
    }
    let collection = organise(&client, &gateway.base_url, key).await?;
    for (label, queries) in [
        ("the first page", vec!["limit=50".to_owned()]),
        ("pages deeper in", cursors),
        (
            "a word of the prompt",
            vec!["limit=50&q=harbour".to_owned()],
        ),
        ("starred", vec!["limit=50&starred=true".to_owned()]),
        (
            "a collection",
            vec![format!("limit=50&collection={collection}")],
        ),
    ] {
        let mut times =
            listings(&client, &gateway.base_url, key, &queries, counts.listings).await?;
        let (p50, p99) = (quantile(&mut times, 0.5), quantile(&mut times, 0.99));
        report.add(format!("library in {name}, {label}: p50"), p50, "ms");
        if label == "a word of the prompt" {
            report.add(format!("library in {name}, {label}: p99"), p99, "ms");
        } else {
            report.add_with_budget(
                format!("library in {name}, {label}: p99"),
                p99,
                "ms",
                LISTING_P99_MS,
            );
        }
    }
    Ok(())
}

/// Submits a second that `counts.clients` clients make through `gateway`
/// in `counts.window`.
async fn submits_per_second(gateway: &Server, key: &str, counts: Counts) -> Result<f64, String> {
    let done = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + counts.window;
    let mut workers = Vec::new();
    for index in 0..counts.clients {
        let (done, url, key) = (
            Arc::clone(&done),
            format!("{}/v1/image_generate", gateway.base_url),
            key.to_owned(),
        );
        // From loopback addresses of their own, within the gateway's cap
        // per address: the listing's client keeps a connection from
        // 127.0.0.1 open too.
        let client = crate::loopback::client(index, crate::loopback::CLIENTS_PER_ADDRESS)?;
        workers.push(tokio::spawn(async move {
            let body =
                json!({ "prompt": "benchmark", "image_quality": "1K", "image_ratio": "1:1" });
            while Instant::now() < deadline {
                let answer = client
                    .post(&url)
                    .bearer_auth(&key)
                    .json(&body)
                    .send()
                    .await
                    .map_err(|error| error.to_string())?;
                if !answer.status().is_success() {
                    return Err(format!("submit: HTTP {}", answer.status()));
                }
                answer.bytes().await.map_err(|error| error.to_string())?;
                done.fetch_add(1, Ordering::Relaxed);
            }
            Ok::<(), String>(())
        }));
    }
    for worker in workers {
        worker.await.map_err(|e| e.to_string())??;
    }
    Ok(done.load(Ordering::Relaxed) as f64 / counts.window.as_secs_f64())
}

/// The release gateway in `keys` mode in front of `upstream`, with `more`.
async fn keyed_gateway(upstream: &str, more: &[&str]) -> Result<Server, String> {
    let mut args = vec![
        "--listen",
        "127.0.0.1:0",
        "--access",
        "keys",
        "--upstream",
        upstream,
        "--requests-per-minute",
        "4000000000",
        "--tasks-per-hour",
        "4000000000",
        "--tasks-per-day",
        "4000000000",
        "--worker-threads",
        "1",
    ];
    args.extend_from_slice(more);
    Server::launch(
        "media-gen-gateway",
        &args,
        &[("MEDIA_GEN_TOKEN", crate::sandbox::DEMO_TOKEN)],
    )
    .await
}

/// Measure and add the figures to `report`.
pub async fn measure(report: &mut Report, size: Size) -> Result<(), String> {
    let counts = Counts::of(size);
    let sandbox = Server::start(&["--task-ms", "60000"]).await?;
    let sqlite_dir = media_gen_e2e::test_folder("bench-library");
    let dir = sqlite_dir.path().to_string_lossy().into_owned();
    let key = new_key(&["--data-dir", &dir], "ada")?;
    let gateway = keyed_gateway(&sandbox.base_url, &["--data-dir", &dir]).await?;
    measure_listing(report, "SQLite", &gateway, &key, async { Ok(()) }, counts).await?;
    let with_library = submits_per_second(&gateway, &key, counts).await?;
    drop(gateway);
    // With the library off the keys are read from the key file.
    let off_dir = media_gen_e2e::test_folder("bench-library-off");
    let off_key = media_gen_gateway::access::key_file::KeyFile::new(off_dir.path())
        .add("ada", None, 0)
        .map_err(|error| error.to_string())?;
    let off_path = off_dir.path().to_string_lossy().into_owned();
    let without = keyed_gateway(
        &sandbox.base_url,
        &["--data-dir", &off_path, "--library", "off"],
    )
    .await?;
    let without_library = submits_per_second(&without, &off_key, counts).await?;
    drop(without);
    report.add(
        "submits through the gateway, library off",
        without_library,
        "req/s",
    );
    report.add(
        "submits through the gateway, library in SQLite",
        with_library,
        "req/s",
    );
    report.add_with_budget(
        "submits lost to the library in SQLite",
        (1.0 - with_library / without_library) * 100.0,
        "%",
        10.0,
    );

    let postgres = tokio::task::spawn_blocking(media_gen_launch::postgres::Postgres::start)
        .await
        .map_err(|error| error.to_string())?
        .map_err(|error| error.to_string())?;
    let url = postgres
        .database("bench")
        .map_err(|error| error.to_string())?;
    let key = new_key(&["--library", &url], "ada")?;
    let gateway = keyed_gateway(&sandbox.base_url, &["--library", &url]).await?;
    // Measured with the new rows' statistics read (ANALYZE, what the
    // server's autovacuum does on its own some time after a bulk write:
    // before it, the planner takes 100,000 rows for a few and sorts them
    // all, 40 ms a page).
    let analyzed = async {
        postgres
            .psql("bench", "ANALYZE")
            .map(drop)
            .map_err(|error| error.to_string())
    };
    measure_listing(report, "PostgreSQL", &gateway, &key, analyzed, counts).await?;
    let with_postgres = submits_per_second(&gateway, &key, counts).await?;
    report.add(
        "submits through the gateway, library in PostgreSQL",
        with_postgres,
        "req/s",
    );
    report.add_with_budget(
        "submits lost to the library in PostgreSQL",
        (1.0 - with_postgres / without_library) * 100.0,
        "%",
        10.0,
    );
    drop(gateway);
    drop(postgres);
    Ok(())
}
