//! The task-status widget: follows one or more tasks with the app's poller
//! and shows each one's progress and result; sends `media-gen-status` on each
//! change, `media-gen-complete` at the end, `media-gen-error` when a task
//! cannot be read; a finished task's results offer the next job
//! (`media-gen-use`).

use leptos::prelude::*;
use media_gen_api::{AnyTask, TaskKind};
use media_gen_client::now_ms;
use media_gen_client::value_reader::Parsed;
use wasm_bindgen::prelude::*;
use web_sys::Element;

use super::events::{dispatch, COMPLETE, ERROR, STATUS};
use super::mounted::Mounted;
use super::page_client::PageClient;
use media_gen_js::bridge::message_of;
use media_gen_js::object::{property, set_property};
use media_gen_js::widget_options::{status_options, StatusOptions};
use media_gen_ui::components::{TaskProgress, TaskResult};
use media_gen_ui::hooks::use_now;
use media_gen_ui::store::record::TaskRecord;

/// Take in one of `watch`'s updates (`{ kind, taskId, task?, error?,
/// changed, done }`) and tell the page.
fn apply(kind: TaskKind, update: &JsValue, tasks: RwSignal<Vec<TaskRecord>>, target: &Element) {
    let Some(task_id) = property(update, "taskId").as_string() else {
        return;
    };
    let (changed, done) = (
        property(update, "changed").is_truthy(),
        property(update, "done").is_truthy(),
    );
    let task_js = property(update, "task");
    let task = (!task_js.is_undefined())
        .then(|| AnyTask::from_body(kind, &Parsed(&task_js)).ok())
        .flatten();
    let error = property(update, "error");
    let final_error = (done && !error.is_undefined()).then(|| message_of(&error));
    let now = now_ms();
    tasks.update(|tasks| {
        if let Some(shown) = tasks.iter_mut().find(|t| t.is(kind, &task_id)) {
            shown.apply(task.as_ref(), final_error, now);
        }
    });
    let detail = js_sys::Object::new();
    let put = |name: &str, value: &JsValue| set_property(&detail, name, value);
    put("kind", &JsValue::from_str(kind.as_str()));
    put("taskId", &JsValue::from_str(&task_id));
    match &task {
        Some(read) => {
            put("status", &JsValue::from_str(read.status().as_str()));
            put("task", &task_js);
            if changed {
                dispatch(target, STATUS, &detail);
            }
            if done {
                dispatch(target, COMPLETE, &detail);
            }
        }
        None if done && !error.is_undefined() => {
            put("error", &error);
            dispatch(target, ERROR, &detail);
        }
        None => {}
    }
}

/// One task's card.
fn card(task: TaskRecord, now: ReadSignal<f64>, target: &Element) -> impl IntoView {
    let next = task
        .task
        .as_ref()
        .and_then(|read| super::next_jobs::buttons(read, target));
    let result = task.task.clone().map(|task| view! { <TaskResult task/> });
    view! {
        <li class="widget-task" part="task" data-task-id=task.task_id.clone() data-status=task.status.to_string()>
            <div class="widget-task__head">
                <code>{task.task_id.clone()}</code>
                <TaskProgress status=task.status.clone() submitted_at=task.submitted_at updated_at=task.updated_at now/>
            </div>
            {task.error.map(|error| view! { <p class="notice" role="alert">{error}</p> })}
            {result}
            {next}
        </li>
    }
}

/// Mount the status view for `options` in `element`: the tasks are
/// followed at once by the client `make_client` (the entry's
/// `createClient`) makes.
pub fn mount(
    element: &Element,
    options: &JsValue,
    make_client: &js_sys::Function,
) -> Result<Mounted, JsValue> {
    let StatusOptions {
        kind,
        task_ids: ids,
        connection: _,
        relay,
    } = status_options(options)?;
    let client = PageClient::make(make_client, options)?;
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
    let on_update = Closure::<dyn Fn(JsValue)>::new(move |update: JsValue| {
        apply(kind, &update, tasks, &target);
    });
    for id in &ids {
        let watch = client.watch(
            kind.as_str(),
            id,
            on_update.as_ref().unchecked_ref(),
            relay.as_deref(),
        )?;
        mounted.watches.push(watch);
    }
    mounted.on_update = Some(on_update);
    let shown_in = element.clone();
    mounted.show(move || cards(tasks, shown_in));
    Ok(mounted)
}

/// The cards of `tasks`, each offering its results to the next job from
/// `target` (the widget's element).
fn cards(tasks: RwSignal<Vec<TaskRecord>>, target: Element) -> impl IntoView {
    let now = use_now(1_000);
    view! {
        <ul class="widget-tasks" aria-live="polite">
            <For
                each=move || tasks.get()
                key=|task| (task.task_id.clone(), task.status.to_string(), task.error.clone(), task.task.is_some())
                children=move |task| card(task, now, &target)
            />
        </ul>
    }
}
