//! The callback relay next to polling: status reads per task and the delay
//! from a task's end to the event that announces it, for tasks of 10 s,
//! 60 s and 300 s, through a gateway started with `--public-url` in front
//! of the sandbox (which calls it back).
//!
//! The tasks run [`SCALE`] times shorter than they report, as in
//! `polling.rs`; the delays are not scaled: the callback, the gateway's
//! confirming read and the stream take the time they take.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use futures::StreamExt;
use media_gen_api::relay::{RelayInfo, RELAY_HEADER};
use serde_json::{json, Value};

use crate::loopback;
use crate::report::{median, Report};
use crate::sandbox::{get_json, Sandbox, Server};
use crate::size::Size;

/// How much shorter the tasks run than they report.
const SCALE: u32 = 50;
/// Tasks per length (the median is reported; a smoke run: one, of the
/// shortest length only).
const TASKS: usize = 5;
/// The task lengths compared, in seconds (before scaling).
const LENGTHS: [u64; 3] = [10, 60, 300];

/// Submit `tasks` tasks of `length` through `gateway`; each task's id,
/// capability and end (submit time plus its scaled length).
async fn submit(
    client: &reqwest::Client,
    gateway: &str,
    length: Duration,
    tasks: usize,
) -> Result<Vec<(String, String, Instant)>, String> {
    let mut submitted = Vec::new();
    for _ in 0..tasks {
        let sent = Instant::now();
        let (capability, ids) = submit_relayed(client, gateway, 1).await?;
        let id = ids.into_iter().next().ok_or("no task id")?;
        let ends = sent + (Instant::now() - sent) / 2 + length / SCALE;
        submitted.push((id, capability, ends));
    }
    Ok(submitted)
}

/// Submit `count` images through the relaying `gateway`: the submission's
/// capability and its task ids.
async fn submit_relayed(
    client: &reqwest::Client,
    gateway: &str,
    count: u32,
) -> Result<(String, Vec<String>), String> {
    let answer = client
        .post(format!("{gateway}/v1/image_generate"))
        .json(&json!({ "prompt": "relayed", "image_quality": "1K", "generate_count": count }))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let capability = answer
        .headers()
        .get(RELAY_HEADER)
        .and_then(|value| value.to_str().ok())
        .ok_or("the gateway did not relay the submit")?
        .to_owned();
    let body: Value = answer.json().await.map_err(|e| e.to_string())?;
    let ids = body["data"]["task_ids"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|id| id.as_str().map(str::to_owned))
        .collect();
    Ok((capability, ids))
}

/// Where the sandbox at `sandbox` calls task `task_id` (an image) back.
async fn callback_address(
    client: &reqwest::Client,
    sandbox: &str,
    task_id: &str,
) -> Result<String, String> {
    let url = format!("{sandbox}/sandbox/tasks/image_generate/{task_id}/callback_url");
    let answer = get_json(client, &url).await?;
    answer["data"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("no callback address for {task_id}: {answer}"))
}

/// Listen on one stream for every capability until `expected` tasks have
/// been announced; when each arrived, by task id.
async fn listen(
    client: &reqwest::Client,
    gateway: &str,
    capabilities: &[&str],
    expected: usize,
    within: Duration,
) -> Result<HashMap<String, Instant>, String> {
    let url = format!(
        "{gateway}{}",
        RelayInfo::default().stream_path(capabilities.iter().copied(), None)
    );
    let mut stream = client.get(url).send().await.map_err(|e| e.to_string())?;
    let deadline = tokio::time::Instant::now() + within;
    // What came after the last whole event, kept for the next chunk.
    let mut rest = String::new();
    let mut arrived = HashMap::new();
    while arrived.len() < expected {
        let chunk = tokio::time::timeout_at(deadline, stream.chunk())
            .await
            .map_err(|_| "not every task was announced in time")?
            .map_err(|e| e.to_string())?
            .ok_or("the stream ended")?;
        rest.push_str(&String::from_utf8_lossy(&chunk));
        let Some(end) = rest.rfind("\n\n") else {
            continue;
        };
        let now = Instant::now();
        for line in rest[..end]
            .lines()
            .filter_map(|line| line.strip_prefix("data: "))
        {
            if let Some(id) = serde_json::from_str::<Value>(line)
                .ok()
                .and_then(|task| task["task_id"].as_str().map(str::to_owned))
            {
                arrived.entry(id).or_insert(now);
            }
        }
        rest.drain(..end + 2);
    }
    Ok(arrived)
}

/// Event streams held open at once to measure the gateway's memory per
/// stream (a bounded count, scaled to [`PER_STREAMS`] for the report; a
/// smoke run: a few addresses' worth, past what one address may hold).
const STREAMS: usize = 4_000;
/// The report's unit of open streams.
const PER_STREAMS: usize = 10_000;

/// Open `count` idle event streams on `gateway` (its address without the
/// scheme) and keep them until dropped. They come from many loopback
/// addresses, each holding as many as the gateway lets one visitor hold
/// by default (see `loopback.rs`): thousands of streams are thousands of
/// visitors' pages, and the gateway is measured as deployed.
async fn open_streams(address: &str, count: usize) -> Result<Vec<tokio::net::TcpStream>, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!(
        "GET {} HTTP/1.1\r\nHost: {address}\r\n\r\n",
        RelayInfo::default().stream_path(["0".repeat(32).as_str()], None)
    );
    let to: std::net::SocketAddr = address
        .parse()
        .map_err(|_| format!("{address}: no address"))?;
    // Each address within both of the gateway's caps on one visitor.
    let per_address = loopback::STREAMS_PER_VISITOR.min(loopback::CONNECTIONS_PER_ADDRESS);
    let mut streams = Vec::with_capacity(count);
    for index in 0..count {
        let from = loopback::source(index, per_address);
        let failed = |e: std::io::Error| format!("stream {index} (from {from}): {e}");
        let mut stream = loopback::connect(to, index, per_address)
            .await
            .map_err(failed)?;
        stream.write_all(request.as_bytes()).await.map_err(failed)?;
        let mut head = [0u8; 512];
        let read = stream.read(&mut head).await.map_err(failed)?;
        if !head[..read].starts_with(b"HTTP/1.1 200") {
            return Err(format!(
                "stream {} refused: {}",
                streams.len(),
                String::from_utf8_lossy(&head[..read])
            ));
        }
        streams.push(stream);
    }
    Ok(streams)
}

/// The gateway's resident memory for `PER_STREAMS` open streams, measured
/// with `count` held.
async fn stream_memory(report: &mut Report, count: usize) -> Result<(), String> {
    let sandbox = Sandbox::start(&[]).await?;
    let gateway = Server::relaying_gateway(&sandbox.base_url).await?;
    let address = gateway.base_url.trim_start_matches("http://").to_owned();
    let before = gateway
        .resident_mib()
        .ok_or("the gateway's memory is unknown")?;
    let streams = open_streams(&address, count).await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = gateway
        .resident_mib()
        .ok_or("the gateway's memory is unknown")?;
    drop(streams);
    let per = (after - before) / count as f64 * PER_STREAMS as f64;
    report.add(
        format!("gateway memory per {PER_STREAMS} open event streams ({count} held)"),
        per,
        "MiB",
    );
    Ok(())
}

/// Callbacks taken by one gateway and heard on another's stream through
/// Redis (a bounded count: tasks made by [`SUBMITS`] submits of 8; a smoke
/// run: two).
const SUBMITS: usize = 125;

/// Callbacks per second that one gateway takes and another's stream hears,
/// the two sharing one Redis (`--trust-callbacks`: the relay's own cost,
/// no confirming reads), of the tasks `submits` submits make.
async fn through_redis(report: &mut Report, submits: usize) -> Result<(), String> {
    let redis = media_gen_e2e::Redis::start().await;
    // Tasks that do not end during the run: only the bench's callbacks count.
    let sandbox = Sandbox::start(&["--task-ms", "600000"]).await?;
    let flags = ["--redis", redis.url.as_str(), "--trust-callbacks"];
    let taker = Server::relaying_gateway_with(&sandbox.base_url, &flags).await?;
    let listener = Server::relaying_gateway_with(&sandbox.base_url, &flags).await?;
    let client = reqwest::Client::new();
    let mut tasks = Vec::new();
    let mut capabilities = Vec::new();
    for _ in 0..submits {
        let (capability, ids) = submit_relayed(&client, &taker.base_url, 8).await?;
        // The service's callback address holds a secret the page's
        // capability does not give away: asked of the sandbox, per submit.
        let first = ids.first().ok_or("a submit made no task")?;
        let address = callback_address(&client, &sandbox.base_url, first).await?;
        tasks.extend(ids.into_iter().map(|id| (address.clone(), id)));
        capabilities.push(capability);
    }
    let capabilities: Vec<&str> = capabilities.iter().map(String::as_str).collect();
    let started = Instant::now();
    let hearing = listen(
        &client,
        &listener.base_url,
        &capabilities,
        tasks.len(),
        Duration::from_secs(60),
    );
    let posting = async {
        let calls = tasks.iter().map(|(address, id)| {
            client
                .post(address)
                .json(
                    &json!({ "code": 0, "msg": "ok", "task_type": "image_generate",
                               "data": { "task_id": id, "status": "SUCCEEDED" } }),
                )
                .send()
        });
        futures::stream::iter(calls)
            .buffer_unordered(8)
            .collect::<Vec<_>>()
            .await
    };
    let (heard, _) = tokio::join!(hearing, posting);
    let heard = heard?;
    let seconds = started.elapsed().as_secs_f64();
    if heard.len() < tasks.len() {
        return Err(format!(
            "{} of {} callbacks heard",
            heard.len(),
            tasks.len()
        ));
    }
    report.add(
        format!(
            "callbacks per second through Redis, two gateways ({} callbacks)",
            tasks.len()
        ),
        tasks.len() as f64 / seconds,
        "/s",
    );
    Ok(())
}

/// Run the relay's comparison into `report`.
pub async fn measure(report: &mut Report, size: Size) -> Result<(), String> {
    let tasks = size.pick(TASKS, 1);
    println!("The relay (sandbox tasks scaled down {SCALE}x, delays as measured, median of {tasks} tasks)");
    let client = reqwest::Client::new();
    for &seconds in size.pick(&LENGTHS[..], &LENGTHS[..1]) {
        let length = Duration::from_secs(seconds);
        let task_ms = (length / SCALE).as_millis().to_string();
        let sandbox = Sandbox::start(&["--task-ms", &task_ms, "--task-spread", "0"]).await?;
        let gateway = Server::relaying_gateway(&sandbox.base_url).await?;
        let reads_before = sandbox.counter(&client, "status_reads").await?;
        let submitted = submit(&client, &gateway.base_url, length, tasks).await?;
        let capabilities: Vec<&str> = submitted.iter().map(|(_, c, _)| c.as_str()).collect();
        let arrived = listen(
            &client,
            &gateway.base_url,
            &capabilities,
            capabilities.len(),
            length / SCALE + Duration::from_secs(30),
        )
        .await?;
        let reads = sandbox.counter(&client, "status_reads").await? - reads_before;
        let delays: Vec<f64> = submitted
            .iter()
            .filter_map(|(id, _, ends)| {
                arrived
                    .get(id)
                    .map(|at| at.saturating_duration_since(*ends))
            })
            .map(|delay| delay.as_secs_f64())
            .collect();
        let name = format!("{seconds} s task, relay");
        let per_task = reads as f64 / tasks as f64;
        let delay = median(delays);
        report.add(format!("{name}: reads"), per_task, "reads");
        report.add(
            format!("{name}: delay from the task's end to the event"),
            delay * 1000.0,
            "ms",
        );
        let met = per_task <= 1.0 && delay <= 1.0;
        println!(
            "    goal (<= 1 read, <= 1 s): {}",
            if met { "met" } else { "NOT met" }
        );
    }
    // Smoke: five addresses' worth, so the spreading is exercised too.
    let streams = size.pick(STREAMS, 5 * loopback::STREAMS_PER_VISITOR);
    stream_memory(report, streams).await?;
    through_redis(report, size.pick(SUBMITS, 2)).await
}
