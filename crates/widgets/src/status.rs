//! The task-status widget: follows one or more tasks with the app's poller
//! and shows each one's progress and result; sends `media-gen-status` on each
//! change, `media-gen-complete` at the end, `media-gen-error` when a task
//! cannot be read.

use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::Element;

use super::events::{dispatch, COMPLETE, ERROR, STATUS};
use super::mounted::Mounted;
use media_gen_client::{now_ms, FollowOptions, Poller, TaskUpdate};
use media_gen_js::bridge::{client_error_detail, task_json, to_js};
use media_gen_js::widget_options::{status_options, StatusOptions};
use media_gen_ui::components::{TaskProgress, TaskResult};
use media_gen_ui::hooks::use_now;
use media_gen_ui::store::record::TaskRecord;

/// Take in one read and tell the page.
fn apply(update: &TaskUpdate, tasks: RwSignal<Vec<TaskRecord>>, target: &Element) {
    let now = now_ms();
    tasks.update(|tasks| {
        if let Some(shown) = tasks
            .iter_mut()
            .find(|t| t.is(update.kind, &update.task_id))
        {
            shown.take_in(update, now);
        }
    });
    let kind = update.kind;
    match (&update.task, &update.error) {
        (Some(task), _) => {
            let detail = to_js(&serde_json::json!({
                "kind": kind, "taskId": update.task_id, "status": task.status(), "task": task_json(task),
            }));
            if update.changed {
                dispatch(target, STATUS, &detail);
            }
            if update.done {
                dispatch(target, COMPLETE, &detail);
            }
        }
        (None, Some(error)) if update.done => {
            let detail = serde_json::json!({
                "kind": kind, "taskId": update.task_id, "error": client_error_detail(error),
            });
            dispatch(target, ERROR, &to_js(&detail));
        }
        _ => {}
    }
}

/// One task's card.
fn card(task: TaskRecord, now: ReadSignal<f64>) -> impl IntoView {
    let result = task.task.clone().map(|task| view! { <TaskResult task/> });
    view! {
        <li class="widget-task" part="task" data-task-id=task.task_id.clone() data-status=task.status.to_string()>
            <div class="widget-task__head">
                <code>{task.task_id.clone()}</code>
                <TaskProgress status=task.status.clone() submitted_at=task.submitted_at updated_at=task.updated_at now/>
            </div>
            {task.error.map(|error| view! { <p class="notice" role="alert">{error}</p> })}
            {result}
        </li>
    }
}

/// Mount the status view for `options` in `element`; its poller starts at once.
pub fn mount(element: &Element, options: &JsValue) -> Result<Mounted, JsValue> {
    let StatusOptions {
        kind,
        task_ids: ids,
        connection,
        relay,
    } = status_options(options)?;
    let mut mounted = Mounted::new(element)?;
    let started = now_ms();
    let tasks = mounted.with(|| {
        RwSignal::new(
            ids.iter()
                .map(|id| TaskRecord::followed(kind, id, started))
                .collect::<Vec<_>>(),
        )
    });
    let target = element.clone();
    let poller = Poller::new(
        connection.client(),
        FollowOptions::default(),
        move |update| apply(update, tasks, &target),
    );
    for id in &ids {
        match &relay {
            Some(relay) => poller.watch_relayed(kind, id, started, relay),
            None => poller.watch(kind, id, started),
        }
    }
    if relay.is_some() {
        poller.use_default_relay();
    }
    mounted.poller = Some(poller);
    mounted.show(move || {
        let now = use_now(1_000);
        view! {
            <ul class="widget-tasks" aria-live="polite">
                <For
                    each=move || tasks.get()
                    key=|task| (task.task_id.clone(), task.status.to_string(), task.error.clone(), task.task.is_some())
                    children=move |task| card(task, now)
                />
            </ul>
        }
    });
    Ok(mounted)
}
