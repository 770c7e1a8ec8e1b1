//! Status reads per task and detection delay of the polling schedule, next to
//! a fixed 500 ms poll, for tasks of 10 s, 60 s and 300 s, on the sandbox.
//!
//! Time is scaled down by [`SCALE`]: the sandbox's tasks and every wait of
//! the schedules are 50 times shorter, and the delays are scaled back up for
//! the report.

use std::time::{Duration, Instant};

use media_gen_api::poll::PollSchedule;
use serde_json::{json, Value};

use crate::report::{median, Report};
use crate::sandbox::Sandbox;
use crate::size::Size;

/// How much shorter everything runs than it reports.
const SCALE: u32 = 50;
/// Tasks polled per strategy and length (the median is reported; a smoke
/// run: one, of the shortest length only).
const TASKS: usize = 5;
/// The task lengths compared, in seconds (before scaling).
const LENGTHS: [u64; 3] = [10, 60, 300];
use crate::sandbox::DEMO_TOKEN as TOKEN;

#[derive(Clone, Copy)]
enum Strategy {
    /// Every 500 ms, as the popular JavaScript clients do.
    Fixed,
    /// The schedule before any task of the kind has ended.
    Cold,
    /// The schedule once it knows the kind's typical length.
    Warm,
}

impl Strategy {
    fn label(self) -> &'static str {
        match self {
            Strategy::Fixed => "fixed 500 ms poll",
            Strategy::Cold => "our schedule, length unknown",
            Strategy::Warm => "our schedule, length learnt",
        }
    }

    fn next_delay(self, reads: u32, elapsed: Duration, length: Duration) -> Duration {
        let schedule = PollSchedule::default();
        match self {
            // A grid: every 500 ms since submit, however long each read took.
            Strategy::Fixed => (Duration::from_millis(500) * (reads + 1)).saturating_sub(elapsed),
            Strategy::Cold => schedule.next_delay(reads, elapsed, None),
            Strategy::Warm => schedule.next_delay(reads, elapsed, Some(length)),
        }
    }
}

/// Submit one task and poll it with `strategy`; return (reads, detection delay), unscaled.
async fn run_one(
    client: &reqwest::Client,
    base: &str,
    strategy: Strategy,
    length: Duration,
) -> Result<(u32, Duration), String> {
    let sent = Instant::now();
    let response = client
        .post(format!("{base}/v1/image_generate"))
        .bearer_auth(TOKEN)
        .json(&json!({"prompt": "polling"}))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let body: Value = response.json().await.map_err(|e| e.to_string())?;
    let submitted = sent + (Instant::now() - sent) / 2;
    let id = body["data"]["task_ids"][0]
        .as_str()
        .ok_or("no task id")?
        .to_owned();
    let mut reads = 0;
    loop {
        let elapsed = (Instant::now() - submitted) * SCALE;
        let wait = strategy.next_delay(reads, elapsed, length) / SCALE;
        tokio::time::sleep(wait).await;
        let response = client
            .get(format!("{base}/v1/image_generate/{id}"))
            .bearer_auth(TOKEN)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let task: Value = response.json().await.map_err(|e| e.to_string())?;
        reads += 1;
        let status = task["data"]["status"].as_str().unwrap_or_default();
        if status == "SUCCEEDED" || status == "FAILED" {
            let seen = (Instant::now() - submitted) * SCALE;
            return Ok((reads, seen.saturating_sub(length)));
        }
    }
}

/// Run the polling comparison into `report`.
pub async fn measure(report: &mut Report, size: Size) -> Result<(), String> {
    let tasks = size.pick(TASKS, 1);
    println!("Polling cost (sandbox time scaled down {SCALE}x, median of {tasks} tasks)");
    for &seconds in size.pick(&LENGTHS[..], &LENGTHS[..1]) {
        let length = Duration::from_secs(seconds);
        let task_ms = (length / SCALE).as_millis().to_string();
        let sandbox = Sandbox::start(&["--task-ms", &task_ms, "--task-spread", "0"]).await?;
        let client = reqwest::Client::new();
        let mut fixed_reads = 0;
        for strategy in [Strategy::Fixed, Strategy::Cold, Strategy::Warm] {
            let runs = (0..tasks).map(|_| run_one(&client, &sandbox.base_url, strategy, length));
            let results = futures::future::try_join_all(runs).await?;
            let reads = median(results.iter().map(|(reads, _)| *reads).collect());
            let delay = median(
                results
                    .iter()
                    .map(|(_, delay)| delay.as_secs_f64())
                    .collect(),
            );
            let name = format!("{seconds} s task, {}", strategy.label());
            report.add(format!("{name}: reads"), f64::from(reads), "reads");
            report.add(format!("{name}: detection delay"), delay, "s");
            if let Strategy::Fixed = strategy {
                fixed_reads = reads;
                continue;
            }
            // Goals: a tenth of the fixed poll's reads; the end seen within
            // 15 s and within a fifth of the task's length.
            let max_delay = 15f64.min(length.as_secs_f64() / 5.0);
            let met = reads * 10 <= fixed_reads && delay <= max_delay;
            let verdict = if met { "met" } else { "NOT met" };
            println!(
                "    goal (<= {} reads, <= {max_delay:.1} s): {verdict}",
                fixed_reads / 10
            );
        }
    }
    Ok(())
}
