//! Nothing lost under faults: a batch of submissions of every kind through
//! the board while the sandbox fails 30% of requests (5xx, 429 with
//! Retry-After, dropped connections, latency).

use crate::sandbox;
use leptos::prelude::*;
use media_gen::board::provide_board;
use media_gen::settings::provide_settings;
use media_gen::shell::announcer::provide_announcer;
use media_gen::shell::notifications::provide_notifier;
use media_gen_api::*;
use media_gen_ui::store::tasks;
use wasm_bindgen_test::*;

/// Submissions per kind.
const BATCH: usize = 20;

fn request(kind: TaskKind, i: usize) -> Request {
    match kind {
        TaskKind::ImageToVideo => Request::ImageToVideo(ImageToVideoRequest {
            model: Some(Model::S),
            prompt: format!("batch {i}"),
            aspect_resolution: Some(Resolution::P720),
            duration: Some(4),
            image_url: Some("https://example.com/a.png".into()),
            ..Default::default()
        }),
        TaskKind::VideoTranslate => Request::VideoTranslate(VideoTranslateRequest {
            target_languages: vec!["French".into()],
            video_url: "https://example.com/talk.mp4".into(),
            ..Default::default()
        }),
        TaskKind::ImageGenerate => Request::ImageGenerate(ImageGenerateRequest {
            prompt: format!("batch {i}"),
            image_quality: Some(ImageQuality::K1),
            ..Default::default()
        }),
    }
}

#[wasm_bindgen_test]
async fn under_faults_every_returned_task_is_kept_followed_and_never_duplicated() {
    sandbox::connect_the_app();
    sandbox::set_faults(serde_json::json!({
        "http_500": 0.08, "http_503": 0.06, "http_429": 0.06, "retry_after_secs": 1,
        "drop_connection": 0.05, "malformed_body": 0.05, "latency_ms": 30,
    }))
    .await;
    let created_before = sandbox::counter("tasks_created").await;
    let owner = Owner::new();
    let board =
        owner.with(|| provide_board(provide_settings(), provide_announcer(), provide_notifier()));

    let (mut returned, mut failures) = (Vec::new(), Vec::new());
    for kind in TaskKind::ALL.iter().copied() {
        for i in 0..BATCH {
            match board.submit(&request(kind, i)).await {
                Ok(submitted) => returned.extend(submitted.task_ids),
                Err(error) => failures.push(error),
            }
        }
    }
    let submissions = BATCH * TaskKind::ALL.len();
    assert_eq!(returned.len() + failures.len(), submissions);
    assert!(
        !failures.is_empty(),
        "30% faults made some submissions fail"
    );
    for error in &failures {
        let message = error.to_string();
        assert!(!message.is_empty(), "every failure says what happened");
        assert!(
            !error.retryable() || error.status().is_some() || error.kind() != "business",
            "{message}"
        );
    }

    // Every returned id is on the board and stored, at once.
    let on_board: Vec<String> = board
        .records
        .get_untracked()
        .into_iter()
        .map(|r| r.task_id)
        .collect();
    assert_eq!(on_board.len(), returned.len());
    assert!(returned.iter().all(|id| on_board.contains(id)));
    let (stored, _) = tasks::load().unwrap();
    assert_eq!(stored.len(), returned.len());

    // Every one reaches its end, with faults still on.
    let mut waited = 0;
    while board
        .records
        .with_untracked(|r| r.iter().any(|r| r.is_active()))
    {
        assert!(waited < 600, "tasks still running after 60 s");
        gloo_timers::future::TimeoutFuture::new(100).await;
        waited += 1;
    }
    let ended_ok = board.records.with_untracked(|records| {
        records
            .iter()
            .all(|r| r.status == TaskStatus::Succeeded && r.error.is_none())
    });
    let odd: Vec<String> = board.records.with_untracked(|records| {
        records
            .iter()
            .filter(|r| r.status != TaskStatus::Succeeded || r.error.is_some())
            .map(|r| format!("{} {} {:?}", r.task_id, r.status, r.error))
            .collect()
    });
    assert!(ended_ok, "each task reached SUCCEEDED: {odd:?}");

    // No retry made a task twice: each submission made at most one task,
    // and those beyond the board's are from failures after the work.
    sandbox::set_faults(serde_json::json!({})).await;
    let created = (sandbox::counter("tasks_created").await - created_before) as usize;
    assert!(
        created <= submissions,
        "{created} tasks for {submissions} submissions"
    );
    assert!(created >= returned.len());
    assert!(created - returned.len() <= failures.len());
    owner.cleanup();
}
