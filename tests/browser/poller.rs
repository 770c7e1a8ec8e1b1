//! The polling engine against the sandbox, in headless Chromium.

use crate::sandbox;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::rc::Rc;
use std::time::Duration;

use media_gen_api::poll::PollSchedule;
use media_gen_api::*;
use media_gen_client::{FollowOptions, Poller, TaskUpdate, WhileHidden};
use serde_json::json;
use wasm_bindgen_test::*;

/// The default schedule scaled down to the test sandbox's 300 ms tasks.
fn fast(max_in_flight: usize) -> FollowOptions {
    FollowOptions {
        schedule: PollSchedule {
            first: Duration::from_millis(50),
            factor: 1.5,
            cap: Duration::from_millis(300),
            floor: Duration::from_millis(50),
        },
        max_in_flight,
        while_hidden: WhileHidden::Continue,
    }
}

type Updates = Rc<RefCell<Vec<TaskUpdate>>>;

fn poller(options: FollowOptions) -> (Poller, Updates) {
    let updates: Updates = Rc::default();
    let sink = Rc::clone(&updates);
    let poller = Poller::new(sandbox::client(), options, move |update| {
        sink.borrow_mut().push(update.clone())
    });
    (poller, updates)
}

async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

/// Wait (up to `seconds`) until `n` tasks have had their last update.
async fn wait_done(updates: &Updates, n: usize, seconds: u32) -> Vec<TaskUpdate> {
    for _ in 0..seconds * 20 {
        let done: Vec<TaskUpdate> = updates
            .borrow()
            .iter()
            .filter(|u| u.done)
            .cloned()
            .collect();
        if done.len() >= n {
            return done;
        }
        sleep(50).await;
    }
    panic!(
        "only {} of {n} tasks ended",
        updates.borrow().iter().filter(|u| u.done).count()
    );
}

async fn submit_images(count: i64, prompt: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut left = count;
    while left > 0 {
        let request = ImageGenerateRequest {
            prompt: prompt.into(),
            generate_count: Some(left.min(8)),
            image_quality: Some(ImageQuality::K1),
            ..Default::default()
        };
        ids.extend(
            sandbox::client()
                .submit_image_generate(&request, None)
                .await
                .unwrap()
                .task_ids,
        );
        left -= 8;
    }
    ids
}

#[wasm_bindgen_test]
async fn follows_tasks_until_they_end() {
    sandbox::set_faults(json!({})).await;
    // Elapsed from just before the submit, as the board counts it: the
    // sandbox's shortest task (240 ms) has run by the end, however late
    // a busy machine hands the answer back.
    let submitted = sandbox::now();
    let ids = submit_images(3, "poll me").await;
    let (poller, updates) = poller(fast(4));
    for id in &ids {
        poller.watch(TaskKind::ImageGenerate, id, submitted);
    }
    let done = wait_done(&updates, 3, 10).await;
    let ended: HashSet<_> = done.iter().map(|u| u.task_id.clone()).collect();
    assert_eq!(ended, ids.iter().cloned().collect());
    for update in &done {
        let task = update.task.as_ref().unwrap();
        assert_eq!(task.status(), &TaskStatus::Succeeded);
        assert!(
            update.elapsed >= Duration::from_millis(200),
            "{:?}",
            update.elapsed
        );
    }
    assert!(
        updates.borrow().iter().any(|u| !u.done),
        "progress was reported before the end"
    );
    assert_eq!(poller.watching(), 0);
    assert!(
        poller.estimate(TaskKind::ImageGenerate).is_some(),
        "it learnt how long image tasks take"
    );
}

#[wasm_bindgen_test]
async fn a_failed_task_ends_with_its_message() {
    sandbox::set_faults(json!({})).await;
    let ids = submit_images(1, "[fail]").await;
    let (poller, updates) = poller(fast(4));
    poller.watch(TaskKind::ImageGenerate, &ids[0], sandbox::now());
    let done = wait_done(&updates, 1, 10).await;
    let AnyTask::ImageGenerate(task) = done[0].task.clone().unwrap() else {
        panic!("wrong kind");
    };
    assert_eq!(task.status, TaskStatus::Failed);
    assert!(task.error_message.contains("[fail]"));
}

#[wasm_bindgen_test]
async fn an_unknown_task_ends_with_an_error() {
    let (poller, updates) = poller(fast(4));
    poller.watch(TaskKind::ImageToVideo, "i2v-unknown", sandbox::now());
    let done = wait_done(&updates, 1, 5).await;
    assert_eq!(done[0].error.as_ref().unwrap().status(), Some(404));
}

#[wasm_bindgen_test]
async fn a_hundred_tasks_never_exceed_the_cap() {
    // Slow reads a little so they overlap.
    sandbox::set_faults(json!({"latency_ms": 20})).await;
    let ids = submit_images(100, "many").await;
    assert_eq!(ids.len(), 100);
    let (poller, updates) = poller(fast(4));
    let before = sandbox::counter("status_reads").await;
    for id in &ids {
        poller.watch(TaskKind::ImageGenerate, id, sandbox::now());
    }
    wait_done(&updates, 100, 30).await;
    sandbox::set_faults(json!({})).await;
    assert_eq!(
        poller.peak_in_flight(),
        4,
        "the cap was reached and never passed"
    );
    let reads = sandbox::counter("status_reads").await - before;
    assert!(reads >= 100, "{reads} reads");
}

#[wasm_bindgen_test]
async fn pauses_while_hidden_when_asked_and_reads_at_once_when_visible() {
    sandbox::set_faults(json!({})).await;
    let ids = submit_images(1, "hidden").await;
    sandbox::set_page_hidden(true);
    let (poller, updates) = poller(FollowOptions {
        while_hidden: WhileHidden::Pause,
        ..fast(4)
    });
    let before = sandbox::counter("status_reads").await;
    poller.watch(TaskKind::ImageGenerate, &ids[0], sandbox::now());
    sleep(800).await;
    assert_eq!(
        sandbox::counter("status_reads").await,
        before,
        "no reads while hidden"
    );
    assert!(updates.borrow().is_empty());

    let shown = sandbox::now();
    sandbox::set_page_hidden(false);
    let done = wait_done(&updates, 1, 5).await;
    let waited = sandbox::now() - shown;
    assert!(waited < 300.0, "read {waited} ms after becoming visible");
    assert_eq!(
        done[0].task.as_ref().unwrap().status(),
        &TaskStatus::Succeeded
    );
}

#[wasm_bindgen_test]
async fn reads_on_while_hidden_by_default() {
    sandbox::set_faults(json!({})).await;
    let ids = submit_images(1, "hidden, read on").await;
    sandbox::set_page_hidden(true);
    let (poller, updates) = poller(fast(4));
    poller.watch(TaskKind::ImageGenerate, &ids[0], sandbox::now());
    // The task ends while the page is hidden, and the poller sees it.
    let done = wait_done(&updates, 1, 5).await;
    sandbox::set_page_hidden(false);
    assert_eq!(
        done[0].task.as_ref().unwrap().status(),
        &TaskStatus::Succeeded
    );
}

#[wasm_bindgen_test]
async fn stop_ends_all_reading() {
    sandbox::set_faults(json!({})).await;
    let ids = submit_images(4, "stop").await;
    let (poller, _updates) = poller(fast(4));
    for id in &ids {
        poller.watch(TaskKind::ImageGenerate, id, sandbox::now());
    }
    sleep(120).await;
    poller.stop();
    sleep(50).await;
    let after_stop = sandbox::counter("status_reads").await;
    sleep(1000).await;
    assert_eq!(
        sandbox::counter("status_reads").await,
        after_stop,
        "nothing reads after stop"
    );
    drop(poller);
}

#[wasm_bindgen_test]
async fn dropping_the_poller_stops_it() {
    sandbox::set_faults(json!({})).await;
    let ids = submit_images(2, "drop").await;
    {
        let (poller, _updates) = poller(fast(4));
        for id in &ids {
            poller.watch(TaskKind::ImageGenerate, id, sandbox::now());
        }
        sleep(60).await;
    }
    sleep(50).await;
    let after_drop = sandbox::counter("status_reads").await;
    sleep(800).await;
    assert_eq!(sandbox::counter("status_reads").await, after_drop);
}

#[wasm_bindgen_test]
async fn resumes_tasks_submitted_before_a_reload() {
    sandbox::set_faults(json!({})).await;
    let ids = submit_images(1, "resume").await;
    sleep(500).await;
    let (poller, updates) = poller(fast(4));
    let submitted_earlier = sandbox::now() - 500.0;
    poller.watch(TaskKind::ImageGenerate, &ids[0], submitted_earlier);
    let started = sandbox::now();
    let done = wait_done(&updates, 1, 5).await;
    assert!(sandbox::now() - started < 400.0, "read soon after resuming");
    assert!(
        done[0].elapsed >= Duration::from_millis(500),
        "elapsed counts from the submit"
    );
}

#[wasm_bindgen_test]
async fn relayed_tasks_wait_for_the_relay_then_fall_back_to_reads_when_its_stream_fails() {
    sandbox::set_faults(json!({})).await;
    let ids = submit_images(2, "relayed").await;
    let (poller, updates) = poller(fast(4));
    let heard: Rc<RefCell<Vec<bool>>> = Rc::default();
    let sink = Rc::clone(&heard);
    poller.on_stream(move |open| sink.borrow_mut().push(open));
    let capability = "0123456789abcdef0123456789abcdef";
    for id in &ids {
        poller.watch_relayed(TaskKind::ImageGenerate, id, sandbox::now(), capability);
    }
    // Until the poller knows whether there is a relay, it reads none of them.
    let before = sandbox::counter("status_reads").await;
    sleep(600).await;
    assert_eq!(
        sandbox::counter("status_reads").await,
        before,
        "no read yet"
    );
    assert!(updates.borrow().is_empty());
    // A relay whose stream the browser gives up on (the sandbox has no
    // event stream: this path answers JSON, and is counted as a /v1
    // request): the tasks are read after all, and end; meanwhile the
    // stream is tried again.
    let (requests, reads) = (
        sandbox::counter("v1_requests").await,
        sandbox::counter("status_reads").await,
    );
    poller.use_relay(Some(relay::RelayInfo {
        events: "/v1/video_translate/target_languages".into(),
    }));
    assert!(poller.is_relayed(TaskKind::ImageGenerate, &ids[0]));
    let done = wait_done(&updates, 2, 10).await;
    assert!(done
        .iter()
        .all(|u| u.task.as_ref().unwrap().status().is_terminal()));
    assert!(!poller.is_relayed(TaskKind::ImageGenerate, &ids[0]));
    let new_reads = sandbox::counter("status_reads").await - reads;
    assert!(new_reads > 0);
    let streams = sandbox::counter("v1_requests").await - requests - new_reads;
    assert!(
        streams >= 2,
        "the given-up stream was opened again before the tasks ended ({streams} tries)"
    );
    let heard = heard.borrow();
    assert!(
        !heard.is_empty() && heard.iter().all(|open| !open),
        "heard the stream given up, never open: {heard:?}"
    );
}

#[wasm_bindgen_test]
async fn without_a_relay_relayed_tasks_are_read_as_any_other() {
    sandbox::set_faults(json!({})).await;
    let ids = submit_images(1, "no relay").await;
    let (poller, updates) = poller(fast(4));
    poller.watch_relayed(
        TaskKind::ImageGenerate,
        &ids[0],
        sandbox::now(),
        "0123456789abcdef0123456789abcdef",
    );
    poller.use_relay(None);
    assert!(!poller.is_relayed(TaskKind::ImageGenerate, &ids[0]));
    let done = wait_done(&updates, 1, 10).await;
    assert_eq!(done[0].task_id, ids[0]);
}

#[wasm_bindgen_test]
async fn a_listener_may_watch_and_unwatch_from_inside_an_update() {
    sandbox::set_faults(json!({})).await;
    let ids = submit_images(2, "watch from a listener").await;
    let updates: Updates = Rc::default();
    let holder: Rc<RefCell<Option<Poller>>> = Rc::default();
    let (sink, inner, second) = (Rc::clone(&updates), Rc::clone(&holder), ids[1].clone());
    let acted = Cell::new(false);
    let poller = Poller::new(sandbox::client(), fast(4), move |update| {
        sink.borrow_mut().push(update.clone());
        // The first word of the first task, once: follow the second from
        // here, and stop and start following the first again. (Only once:
        // the two run for different times, and the second may end first.)
        if let Some(poller) = inner.borrow().as_ref() {
            if !update.done && !acted.replace(true) {
                poller.watch(TaskKind::ImageGenerate, &second, sandbox::now());
                poller.unwatch(TaskKind::ImageGenerate, &update.task_id);
                poller.watch(TaskKind::ImageGenerate, &update.task_id, sandbox::now());
            }
        }
    });
    poller.watch(TaskKind::ImageGenerate, &ids[0], sandbox::now());
    *holder.borrow_mut() = Some(poller);
    let done = wait_done(&updates, 2, 10).await;
    let ended: HashSet<_> = done.iter().map(|u| u.task_id.clone()).collect();
    assert_eq!(ended, ids.iter().cloned().collect());
    holder.borrow_mut().take();
}
