//! The task board against the sandbox, in headless Chromium: tasks stored
//! the moment a submit returns, followed to the end, and resumed after a reload.

use crate::{mount, sandbox};
use leptos::prelude::*;
use media_gen::board::{provide_board, Board};
use media_gen::settings::provide_settings;
use media_gen::shell::announcer::provide_announcer;
use media_gen::shell::notifications::provide_notifier;
use media_gen_api::*;
use media_gen_client::Submitted;
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::store::tasks;
use mount::{elements, mount_app, wait_for};
use wasm_bindgen_test::*;

async fn submit_image() -> (Request, String) {
    let request = sandbox::image_request("board", 1);
    let ids = sandbox::submit(&request).await;
    (request, ids[0].clone())
}

fn stored(id: &str) -> Option<TaskRecord> {
    tasks::load()
        .unwrap()
        .0
        .into_iter()
        .find(|r| r.task_id == id)
}

#[wasm_bindgen_test]
async fn submitted_tasks_are_stored_at_once_and_followed_to_the_end() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let (request, id) = submit_image().await;
    let owner = Owner::new();
    let board: Board = owner.with(|| {
        let settings = provide_settings();
        provide_board(settings, provide_announcer(), provide_notifier())
    });
    board.add_submitted(
        &request,
        &Submitted {
            library: None,
            task_ids: vec![id.clone()],
            relay: None,
            answer: serde_json::json!({ "task_ids": [id.clone()] }),
        },
    );
    // Stored before anything else happened, with what was submitted.
    let record = stored(&id).expect("stored synchronously");
    assert_eq!(
        (record.status.clone(), record.request.clone()),
        (TaskStatus::Pending, Some(request))
    );

    wait_for("the task to end", || {
        stored(&id).is_some_and(|r| r.status == TaskStatus::Succeeded)
    })
    .await;
    let shown = board.records.get_untracked();
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0].status, TaskStatus::Succeeded);
    let Some(AnyTask::ImageGenerate(task)) = &shown[0].task else {
        panic!("the task object is kept: {:?}", shown[0].task);
    };
    assert!(task.image_url.contains(".png"));
    owner.cleanup();
}

#[wasm_bindgen_test]
async fn after_a_reload_the_board_shows_stored_tasks_and_polling_resumes() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let (request, id) = submit_image().await;
    // What a previous page left behind: the task, stored as submitted.
    sandbox::store_submitted(&request, std::slice::from_ref(&id), js_sys::Date::now());

    let app = mount_app().await;
    let row = || elements(&app.host, &format!("li[data-task-id='{id}']"));
    wait_for("the stored task on the board", || row().len() == 1).await;
    wait_for("polling to resume and see the end", || {
        row()
            .first()
            .and_then(|li| li.get_attribute("data-status"))
            .as_deref()
            == Some("SUCCEEDED")
    })
    .await;
    assert_eq!(
        stored(&id).unwrap().status,
        TaskStatus::Succeeded,
        "the new status is stored too"
    );
}

#[wasm_bindgen_test]
async fn an_unknown_task_is_shown_with_its_error_and_not_followed() {
    sandbox::connect_the_app();
    let record = TaskRecord::followed(TaskKind::ImageToVideo, "i2v-gone", js_sys::Date::now());
    tasks::save(&record).unwrap();
    let app = mount_app().await;
    let row = || elements(&app.host, "li[data-task-id='i2v-gone']");
    wait_for("the error on the board", || {
        row()
            .first()
            .and_then(|li| li.get_attribute("data-status"))
            .as_deref()
            == Some("UNKNOWN")
    })
    .await;
    let text = row()[0].text_content().unwrap_or_default();
    assert!(text.contains("HTTP 404"), "{text}");
    assert!(!stored("i2v-gone").unwrap().is_active());
}

#[wasm_bindgen_test]
async fn removing_a_task_forgets_it() {
    sandbox::connect_the_app();
    let (request, id) = submit_image().await;
    let owner = Owner::new();
    let board =
        owner.with(|| provide_board(provide_settings(), provide_announcer(), provide_notifier()));
    board.add_submitted(
        &request,
        &Submitted {
            library: None,
            task_ids: vec![id.clone()],
            relay: None,
            answer: serde_json::json!({ "task_ids": [id.clone()] }),
        },
    );
    board.remove(TaskKind::ImageGenerate, &id);
    assert!(stored(&id).is_none());
    assert!(board.records.get_untracked().is_empty());
    owner.cleanup();
}
