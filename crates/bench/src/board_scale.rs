//! Board scale in headless Chromium, on a sandbox whose tasks run for an hour
//! (so active tasks stay active and every read answers at once):
//! - first render of a board of 1,000 stored tasks, 200 of them active
//!   (navigation start to the app's `media-gen:board-rendered` mark, median
//!   of several fresh loads; the board draws 100 rows and offers the rest),
//!   and the time to draw the other 900;
//! - one status change arriving from another tab (a `storage` event): time
//!   until its row shows it, and how many elements were redrawn, next to the
//!   number of elements on the board;
//! - the JS heap while polling 100 active tasks for ten minutes (garbage
//!   collected before each sample), which must not keep growing.

use std::time::{Duration, Instant};

use media_gen_api::{AnyTask, TaskKind};
use media_gen_e2e::Browser;
use serde_json::{json, Value};

use crate::load::time_until;
use crate::report::{median, Report};
use crate::size::Size;
use crate::staged::StagedApp;

/// Tasks stored on the board.
const STORED: usize = 1000;
/// Of which still running.
const ACTIVE: usize = 200;
/// Tasks polled during the heap soak.
const SOAK_TASKS: usize = 100;
/// Fresh loads of the board.
const LOADS: usize = 5;
/// Rows the board draws before "Show more" (`app/pages/board.rs`).
const PAGE: usize = 100;
/// Status changes measured.
const CHANGES: usize = 10;
/// Soak length, unless `MEDIA_GEN_BENCH_SOAK_MINUTES` says otherwise.
const SOAK_MINUTES: u64 = 10;

/// How many of each a run takes: the constants above in full; in a smoke
/// run a board just over one page (so "Show more" draws the rest), a few
/// of its tasks active, one load, one change and no soak (its page is
/// still opened).
struct Counts {
    stored: usize,
    active: usize,
    soak_tasks: usize,
    loads: usize,
    changes: usize,
    soak_minutes: u64,
}

impl Counts {
    fn of(size: Size) -> Counts {
        let minutes = std::env::var("MEDIA_GEN_BENCH_SOAK_MINUTES")
            .ok()
            .and_then(|m| m.parse().ok())
            .unwrap_or(SOAK_MINUTES);
        match size {
            Size::Full => Counts {
                stored: STORED,
                active: ACTIVE,
                soak_tasks: SOAK_TASKS,
                loads: LOADS,
                changes: CHANGES,
                soak_minutes: minutes,
            },
            Size::Smoke => Counts {
                stored: PAGE + 10,
                active: 4,
                soak_tasks: 2,
                loads: 1,
                changes: 1,
                soak_minutes: 0,
            },
        }
    }
}
use crate::sandbox::post_json;
/// The storage key prefix of task records (`src/store/record.rs`).
const KEY_PREFIX: &str = "media-gen.task:";
/// The mark the board sets after its first draw (`components/marks.rs`).
const BOARD_MARK: &str = "media-gen:board-rendered";

/// One stored record: its storage key and JSON.
struct Stored {
    key: String,
    json: Value,
}

/// A record as the app stores it; `task` is checked against the contract's type.
fn record(kind: TaskKind, id: &str, status: &str, task: Option<Value>, at: f64) -> Stored {
    if let Some(task) = &task {
        let parsed = serde_json::from_value::<AnyTask>(task.clone());
        assert!(parsed.is_ok(), "a task the contract cannot read: {task}");
    }
    Stored {
        key: format!("{KEY_PREFIX}{kind}:{id}"),
        json: json!({
            "kind": kind.as_str(),
            "task_id": id,
            "submitted_at": at,
            "request": {"prompt": format!("board scale {id}")},
            "status": status,
            "updated_at": at,
            "task": task,
            "error": null,
        }),
    }
}

/// A finished task of one of the three kinds (one in ten failed).
fn finished(index: usize, base: &str, at: f64) -> Stored {
    let kind = TaskKind::ALL[index % 3];
    let id = format!("finished-{index}");
    let failed = index % 10 == 9;
    let status = if failed { "FAILED" } else { "SUCCEEDED" };
    let error = if failed { "content policy" } else { "" };
    let media = |file: &str| {
        if failed {
            String::new()
        } else {
            format!("{base}/sandbox/media/{file}")
        }
    };
    let data = match kind {
        TaskKind::ImageToVideo => json!({
            "task_id": id, "status": status, "video_url": media("video/a.mp4"),
            "thumbnail_url": media("image/standard/16:9/thumbnail.png"), "error_message": error,
        }),
        TaskKind::VideoTranslate => json!({
            "task_id": id, "name": format!("clip-{index}"), "language": "fr", "status": status,
            "video_url": media("translated/fr/a.mp4"), "caption_url": media("translated/fr/a.ass"),
            "error_message": error,
        }),
        TaskKind::ImageGenerate => json!({
            "task_id": id, "status": status, "image_url": media("image/standard/a.png"),
            "error_message": error,
        }),
    };
    let task = json!({"task_type": kind.as_str(), "data": data});
    record(kind, &id, status, Some(task), at)
}

/// Submit image generations on the sandbox until there are `count` task ids.
async fn submit_tasks(
    client: &reqwest::Client,
    base: &str,
    count: usize,
) -> Result<Vec<String>, String> {
    let mut ids = Vec::with_capacity(count);
    while ids.len() < count {
        let batch = (count - ids.len()).min(8);
        let answer = post_json(
            client,
            &format!("{base}/v1/image_generate"),
            &json!({"prompt": "board scale", "generate_count": batch}),
        )
        .await?;
        let new = answer["data"]["task_ids"]
            .as_array()
            .ok_or_else(|| format!("no task ids in {answer}"))?;
        ids.extend(new.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    Ok(ids)
}

/// Active records (as just submitted, from `at`) for these ids, each
/// submitted a millisecond after the one before: the board draws the tasks
/// of one kind submitted at one instant as one request's row
/// (`src/board/requests.rs`), and these are a row each.
fn active(ids: &[String], at: f64) -> Vec<Stored> {
    ids.iter()
        .enumerate()
        .map(|(index, id)| {
            let at = at + index as f64;
            record(TaskKind::ImageGenerate, id, "PENDING", None, at)
        })
        .collect()
}

/// Replace the page origin's storage with `records`.
async fn store(browser: &Browser, records: &[Stored]) {
    let pairs: Vec<(&str, String)> = records
        .iter()
        .map(|r| (r.key.as_str(), r.json.to_string()))
        .collect();
    let pairs = serde_json::to_string(&pairs).unwrap_or_default();
    browser
        .run_async(&format!(
            "localStorage.clear(); for (const [k, v] of {pairs}) localStorage.setItem(k, v);"
        ))
        .await;
}

/// Apply one record change as another tab's write would arrive (a `storage`
/// event), and measure in the page: milliseconds until the row shows the new
/// status, and the elements added and removed under the board meanwhile.
const CHANGE_SCRIPT: &str = r#"
const [key, value, id] = ARGS;
const list = document.querySelector('.task-list');
let elements = 0;
const count = (nodes) => { for (const n of nodes) if (n.nodeType === 1) elements += 1 + n.querySelectorAll('*').length; };
let shownAt = null;
const row = () => document.querySelector(`.task-row[data-task-id="${id}"]`);
const observer = new MutationObserver((records) => {
  for (const r of records) { count(r.addedNodes); count(r.removedNodes); }
  if (shownAt === null && row()?.dataset.status === 'SUCCEEDED') shownAt = performance.now();
});
observer.observe(list, { childList: true, subtree: true });
const start = performance.now();
window.dispatchEvent(new StorageEvent('storage', { key, newValue: value, storageArea: localStorage }));
await new Promise((resolve) => setTimeout(resolve, 250));
observer.disconnect();
return { ms: shownAt === null ? null : shownAt - start, elements,
         board: list.querySelectorAll('*').length };
"#;

/// Force a collection and read the JS heap in MiB.
async fn heap_mib(browser: &Browser) -> Option<f64> {
    let used = browser
        .eval("(window.gc && window.gc(), performance.memory ? performance.memory.usedJSHeapSize : null)")
        .await;
    used.as_f64().map(|bytes| bytes / (1024.0 * 1024.0))
}

fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Measure the release build in `dist`.
pub async fn measure(
    report: &mut Report,
    dist: &std::path::Path,
    size: Size,
) -> Result<(), String> {
    let Counts {
        stored,
        active: active_count,
        soak_tasks,
        loads,
        changes,
        soak_minutes: minutes,
    } = Counts::of(size);
    println!(
        "Board scale in headless Chromium ({stored} stored tasks, {active_count} active; \
         heap while polling {soak_tasks} tasks for {minutes} min)"
    );
    let staged = StagedApp::start(
        dist,
        "board",
        &["--task-ms", "3600000", "--task-spread", "0"],
    )
    .await?;
    let base = staged.sandbox.base_url.clone();
    let client = reqwest::Client::new();
    let browser = Browser::start_own().await;

    // A board of finished tasks and tasks still running, oldest first.
    let ids = submit_tasks(&client, &base, active_count).await?;
    let start = now_ms() - 3_600_000.0;
    let mut records: Vec<Stored> = (0..stored - active_count)
        .map(|i| finished(i, &base, start + i as f64 * 1000.0))
        .collect();
    records.extend(active(&ids, now_ms()));

    let mut first = Vec::new();
    for load in 0..loads {
        browser.open(&staged.url("/empty.html")).await;
        store(&browser, &records).await;
        let script = format!("performance.getEntriesByName('{BOARD_MARK}')[0]?.startTime ?? null");
        first.push(time_until(&browser, &staged.url(&format!("/?fresh={load}")), &script).await?);
        let rows = browser
            .eval("document.querySelectorAll('.task-row').length")
            .await;
        let counts = browser
            .eval("document.querySelector('#board-counts')?.textContent")
            .await;
        let total = format!("{stored} tasks, ");
        if rows.as_u64() != Some(PAGE as u64)
            || !counts
                .as_str()
                .is_some_and(|counts| counts.starts_with(&total))
        {
            return Err(format!("the board shows {rows} rows and says {counts}"));
        }
        let notes = browser
            .eval("[...document.querySelectorAll('.task-row[data-status=UNKNOWN] .task-row__note')].map(n => n.textContent)")
            .await;
        if notes.as_array().is_some_and(|notes| !notes.is_empty()) {
            println!("    tasks no longer followed: {notes}");
        }
    }
    report.add(
        format!("board: first render, {stored} tasks ({active_count} active), {PAGE} drawn"),
        median(first),
        "ms",
    );
    // The rest of the board, a page per "Show more".
    let all = browser
        .run_async(&format!(
            "const start = performance.now();
             while (document.querySelectorAll('.task-row').length < {stored}) {{
               document.querySelector('#show-more').click();
               await new Promise((r) => setTimeout(r, 0));
             }}
             return performance.now() - start;"
        ))
        .await;
    report.add(
        format!(
            "board: drawing the other {} tasks (Show more)",
            stored - PAGE
        ),
        all.as_f64().unwrap_or(f64::NAN),
        "ms",
    );

    // Let the first round of reads land before changing anything.
    let reads_before = staged.sandbox.counter(&client, "status_reads").await?;
    let settle = Instant::now();
    while staged.sandbox.counter(&client, "status_reads").await?
        < reads_before + active_count as u64 / 2
        && settle.elapsed() < Duration::from_secs(20)
    {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;

    let (mut times, mut redrawn, mut on_board) = (Vec::new(), Vec::new(), 0.0);
    // The newest tasks: on the first page.
    for id in ids.iter().rev().take(changes) {
        let task = json!({"task_type": "image_generate", "data": {
            "task_id": id, "status": "SUCCEEDED",
            "image_url": format!("{base}/sandbox/media/image/standard/a.png"), "error_message": "",
        }});
        let changed = record(
            TaskKind::ImageGenerate,
            id,
            "SUCCEEDED",
            Some(task),
            now_ms(),
        );
        let args = json!([changed.key, changed.json.to_string(), id]);
        let script = CHANGE_SCRIPT.replace("ARGS", &args.to_string());
        let result = browser.run_async(&script).await;
        let ms = result["ms"]
            .as_f64()
            .ok_or_else(|| format!("the row of {id} never showed the change: {result}"))?;
        times.push(ms);
        redrawn.push(result["elements"].as_f64().unwrap_or_default());
        on_board = result["board"].as_f64().unwrap_or_default();
    }
    report.add("board: one status change shown", median(times), "ms");
    report.add_with_budget(
        "board: elements redrawn for one status change",
        median(redrawn),
        "elems",
        // One row, removed and drawn again: a few dozen elements, never the board.
        on_board / 20.0,
    );
    report.add("board: elements on the board", on_board, "elems");

    // The soak: 100 tasks polled for `minutes`, the heap sampled each minute.
    let soak_ids = submit_tasks(&client, &base, soak_tasks).await?;
    browser.open(&staged.url("/empty.html")).await;
    store(&browser, &active(&soak_ids, now_ms())).await;
    browser.open(&staged.url("/?soak")).await;
    let reads_start = staged.sandbox.counter(&client, "status_reads").await?;
    let mut samples = Vec::new();
    for minute in 1..=minutes {
        tokio::time::sleep(Duration::from_secs(60)).await;
        let Some(mib) = heap_mib(&browser).await else {
            break;
        };
        println!("    minute {minute}: {mib:.2} MiB");
        samples.push(mib);
    }
    let reads = staged.sandbox.counter(&client, "status_reads").await? - reads_start;
    browser.close().await;
    if let (Some(first), Some(last)) = (samples.first(), samples.last()) {
        report.add("board soak: JS heap after 1 min", *first, "MiB");
        report.add(
            format!("board soak: JS heap after {minutes} min"),
            *last,
            "MiB",
        );
    }
    // The first minute settles (the previous page's heap is still being
    // freed); growth counts from the second, so it needs a soak of two or more.
    if let (Some(base), Some(last)) = (samples.get(1), samples.last()) {
        report.add_with_budget(
            "board soak: heap growth from minute 2 to the end",
            last - base,
            "MiB",
            1.0,
        );
    }
    report.add(
        "board soak: status reads per task per minute",
        reads as f64 / soak_tasks as f64 / minutes.max(1) as f64,
        "reads",
    );
    Ok(())
}
