//! One task's page, `/tasks/{kind}/{id}`: shareable, and the way to follow a
//! task submitted elsewhere (looked up by id, then kept on the board).

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use media_gen_api::{AnyTask, ImageGenerateTask, TaskKind, TaskStatus};
use wasm_bindgen::JsValue;

use crate::board::requests::same_request;
use crate::board::Board;
use crate::kind_text;
use crate::settings::Settings;
use crate::task::asked::WhatWasAsked;
use crate::task::downloads::{file_safe, has_results, DownloadAll};
use crate::task::next_jobs::NextJobs;
use crate::task::share::SharePanel;
use crate::task::subtitle_files::SubtitleFiles;
use crate::task::TaskActions;
use media_gen_ui::components::curl_copy::absolute_url;
use media_gen_ui::components::task_result::not_kept_notes;
use media_gen_ui::components::{CopyButton, CurlCopy, ImageGallery, TaskProgress, TaskResult};
use media_gen_ui::hooks::use_now;
use media_gen_ui::store::record::TaskRecord;

/// A time as the reader's locale writes it.
pub(crate) fn local_time(ms: f64) -> String {
    js_sys::Date::new(&JsValue::from_f64(ms))
        .to_locale_string("default", &JsValue::UNDEFINED)
        .into()
}

/// The finished images submitted together with `record` (one submit makes a
/// task per image): the gallery of that request.
fn batch_images(board: Board, record: &TaskRecord) -> Vec<ImageGenerateTask> {
    board.records.with(|records| {
        records
            .iter()
            .filter(|r| same_request(r, record))
            .filter_map(|r| match &r.task {
                Some(AnyTask::ImageGenerate(task)) if task.status == TaskStatus::Succeeded => {
                    Some(task.clone())
                }
                _ => None,
            })
            .collect()
    })
}

/// The translations submitted together with `record` (one per language),
/// but for `record` itself: (their page, their language).
fn sibling_translations(board: Board, record: &TaskRecord) -> Vec<(String, String)> {
    board.records.with(|records| {
        records
            .iter()
            .filter(|r| same_request(r, record) && r.task_id != record.task_id)
            .map(|r| {
                let language = r.language().unwrap_or(&r.task_id).to_owned();
                (crate::address::detail_path(r.kind, &r.task_id), language)
            })
            .collect()
    })
}

/// The page of a task on the board.
#[component]
fn Known(record: TaskRecord) -> impl IntoView {
    let board = Board::expect();
    let now = use_now(1_000);
    let navigate = crate::address::use_app_navigate();
    let result = match &record.task {
        Some(AnyTask::ImageGenerate(_)) if record.status == TaskStatus::Succeeded => {
            let images = batch_images(board, &record);
            let title = (images.len() > 1).then(
                || view! { <h2>{format!("The {} images of this request", images.len())}</h2> },
            );
            let notes = record.task.as_ref().and_then(not_kept_notes);
            // The full view offers the image it shows to the next job.
            let actions = Callback::new(|image: ImageGenerateTask| {
                view! { <NextJobs task=AnyTask::ImageGenerate(image)/> }.into_any()
            });
            Some(view! { {title}<ImageGallery images actions/>{notes} }.into_any())
        }
        Some(task) => Some(view! { <TaskResult task=task.clone()/> }.into_any()),
        None => None,
    };
    let parameters = record
        .request
        .as_ref()
        .map(|request| serde_json::to_string_pretty(&request.to_json()).unwrap_or_default());
    let next_jobs = record.task.clone().map(|task| view! { <NextJobs task/> });
    // A finished task whose read came before its copies were whole: read
    // once more on a site that keeps results, so the page shows the copies.
    let awaits = record
        .task
        .as_ref()
        .is_some_and(media_gen_api::kept::awaits_copies);
    if awaits {
        let access = crate::shell::access::Access::expect();
        let (kind, id) = (record.kind, record.task_id.clone());
        let client = Settings::expect().client();
        let asked = StoredValue::new(false);
        Effect::new(move |_| {
            if !access.keeps_results() || asked.get_value() {
                return;
            }
            asked.set_value(true);
            let (client, id) = (client.clone(), id.clone());
            spawn_local(async move {
                if let Ok(task) = client.task(kind, &id, None).await {
                    board.reread(&task);
                }
            });
        });
    }
    // The task whose result this one was made from, when it is on the board.
    let made_from = record.request.as_ref().and_then(|request| {
        let source = board.records.with_untracked(|records| {
            media_gen_api::made_from(request, records.iter().filter_map(|r| r.task.as_ref()))
        })?;
        let href = crate::address::href(&crate::address::detail_path(source.kind, &source.id));
        Some(view! { <p class="hint" id="made-from">"Made from the result of task "<A href=href>{source.id}</A></p> })
    });
    let asked = record
        .request
        .clone()
        .map(|request| view! { <WhatWasAsked request/> });
    let siblings = (record.kind == TaskKind::VideoTranslate)
        .then(|| sibling_translations(board, &record))
        .filter(|links| !links.is_empty())
        .map(|links| {
            let links = links
                .into_iter()
                .map(|(href, language)| view! { <li><A href=crate::address::href(&href)>{language}</A></li> })
                .collect_view();
            view! {
                <nav class="siblings" aria-labelledby="siblings-title">
                    <h2 id="siblings-title">"The other languages of this request"</h2>
                    <ul>{links}</ul>
                </nav>
            }
        });
    let settings = Settings::expect();
    // Everything this task's submit made (one task per image or language).
    let this = StoredValue::new(record.clone());
    // Those with results, which "Download all" saves.
    let saved =
        move |r: &TaskRecord| this.with_value(|this| same_request(r, this)) && has_results(r);
    let batch_records = Signal::derive(move || {
        board.records.with(|records| {
            records
                .iter()
                .filter(|r| saved(r))
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let batch_tasks = Signal::derive(move || {
        board
            .records
            .with(|records| records.iter().filter(|r| saved(r)).count())
    });
    let archive = format!("{}-{}.zip", record.kind, file_safe(&record.task_id));
    // Shared from the request the person's library holds.
    let share = record.library.clone().map(|request| {
        let tasks = board.records.with_untracked(|records| {
            records
                .iter()
                .filter(|r| this.with_value(|this| same_request(r, this)))
                .count()
        });
        view! { <SharePanel requests=vec![request] task=Some(record.task_id.clone()) tasks/> }
    });
    let resubmit = record.request.as_ref().map(|request| {
        let url = Signal::derive(move || {
            absolute_url(&settings.base_url.get(), &record.kind.submit_path())
        });
        let body = request.to_json().to_string();
        view! {
            <CurlCopy method="POST" url body=Signal::stored(body) token=settings.curl_token()
                detail="of the submit".to_owned()/>
        }
    });
    // Its settings, not its media, in a new form.
    let use_settings = record.request.is_some().then(|| {
        let href = crate::address::href(&crate::address::settings_path(record.kind, &record.task_id));
        view! {
            <p><A href=href attr:class="secondary" attr:id="use-settings">"Use these settings"</A></p>
        }
    });
    view! {
        <div class="task-detail__status">
            <TaskProgress status=record.status.clone() submitted_at=record.submitted_at updated_at=record.updated_at now/>
        </div>
        {record.error.clone().map(|error| view! { <p class="notice" role="alert">{error}</p> })}
        <dl class="facts">
            // A task opened by link was submitted elsewhere, at a time not known here.
            <dt>{if record.submitted_here() { "Submitted" } else { "First seen" }}</dt>
            <dd>{local_time(record.submitted_at)}</dd>
            <dt>"Last change"</dt><dd>{local_time(record.updated_at)}</dd>
        </dl>
        <div class="task-detail__body">
            <div class="task-detail__result">{made_from}{result}{next_jobs}{siblings}</div>
            {asked}
        </div>
        <p class="task-detail__downloads"><DownloadAll records=batch_records tasks=batch_tasks label="Download all" archive/></p>
        {record.task.clone().map(|task| view! { <SubtitleFiles task/> })}
        {share}
        {parameters.map(|json| view! {
            <details class="request-preview">
                <summary>"Submitted parameters"</summary>
                <pre><code>{json}</code></pre>
                <p class="request-copy">{resubmit}</p>
            </details>
        })}
        {use_settings}
        <TaskActions record on_removed=move |()| navigate("/", Default::default())/>
    }
}

/// Read a task that is not on the board; put it there when found.
#[component]
fn OffBoardTask(kind: TaskKind, task_id: String) -> impl IntoView {
    let (board, settings) = (Board::expect(), Settings::expect());
    let failure = RwSignal::new(None::<String>);
    let client = settings.client();
    let id = task_id.clone();
    spawn_local(async move {
        match client.task(kind, &id, None).await {
            Ok(task) => board.follow(&task),
            Err(error) => {
                failure.try_set(Some(format!("Task {id} could not be read: {error}")));
            }
        }
    });
    view! {
        {move || match failure.get() {
            None => view! { <p class="hint" id="lookup-state">"Looking the task up…"</p> }.into_any(),
            Some(message) => view! { <p class="notice" id="lookup-state" role="alert">{message}</p> }.into_any(),
        }}
    }
}

/// A known kind's task: its id with the copy buttons, then the task as the
/// board has it, or looked up once when the board does not.
fn task_body(board: Board, kind: TaskKind, id: String) -> AnyView {
    // The board's record of the task, followed as it changes.
    let record = Memo::new({
        let id = id.clone();
        move |_| board.find(kind, &id)
    });
    let settings = Settings::expect();
    let link = format!(
        "{}{}",
        crate::address::site_url(),
        crate::address::detail_path(kind, &id)
    );
    let status_url = {
        let path = kind.status_path(&id);
        Signal::derive(move || absolute_url(&settings.base_url.get(), &path))
    };
    view! {
        <p class="task-detail__id">
            <code id="task-id">{id.clone()}</code>
            <CopyButton text=id.clone() detail=format!("of task {id}")/>
            <CopyButton text=link detail=format!("to task {id}") idle="Copy link"/>
            <CurlCopy method="GET" url=status_url token=settings.curl_token()
                detail=format!("of the status read of task {id}")/>
        </p>
        <Show when=move || record.with(Option::is_some) fallback={
            // Looked up once: a task removed from here is not fetched back.
            let id = id.clone();
            let looked_up = StoredValue::new(false);
            move || {
                if looked_up.get_value() {
                    view! { <p class="hint" id="lookup-state">"This task is not on the board."</p> }.into_any()
                } else {
                    looked_up.set_value(true);
                    view! { <OffBoardTask kind task_id=id.clone()/> }.into_any()
                }
            }
        }>
            {move || record.get().map(|record| view! { <Known record/> })}
        </Show>
    }
    .into_any()
}

/// `/tasks/{kind}/{id}`.
#[component]
pub fn TaskPage(
    /// The kind's path segment, as in the address (may name no kind).
    kind: String,
    /// The task id.
    id: String,
) -> impl IntoView {
    let board = Board::expect();
    let parsed = kind.parse::<TaskKind>().ok();
    let title = parsed.map_or("Task", kind_text::title);
    let body = match parsed {
        None => view! {
            <p class="notice" role="alert">{format!("There is no task kind called {kind:?}.")}</p>
        }
        .into_any(),
        Some(kind) => task_body(board, kind, id),
    };
    view! {
        <section class="task-detail" aria-labelledby="task-title">
            <h1 id="task-title">{title}</h1>
            {body}
        </section>
    }
}
