//! One task's row on the board: its link named by what was asked, its
//! progress or result, its note and its actions; and the small pieces a
//! request's row of several tasks shares with it.

use leptos::prelude::*;
use leptos_router::components::A;
use media_gen_api::kept::{MediaField, ResultFiles};
use media_gen_api::{AnyTask, Request, TaskKind, TaskStatus};

use crate::board::compare::{media_of, Picks};
use crate::board::row_marks::RowMarks;
use crate::board::Board;
use crate::kind_text;
use crate::task::next_jobs::NextJobs;
use crate::task::TaskActions;
use media_gen_ui::components::safe_url::safe_url;
use media_gen_ui::components::{CopyButton, TaskProgress};
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::text::shorten;

/// A small picture of the result, when there is one.
pub(super) fn thumbnail(task: Option<&AnyTask>) -> Option<String> {
    match task? {
        task @ (AnyTask::ImageToVideo(_) | AnyTask::ImageGenerate(_))
            if *task.status() == TaskStatus::Succeeded =>
        {
            safe_url(task.shown(MediaField::ThumbnailUrl))
        }
        _ => None,
    }
}

/// The most characters of a row's summary.
pub(super) const SUMMARY_CHARS: usize = 90;

/// What tells a task apart before its result shows, in full: the prompt,
/// or for a translation its name (as the service reports it, else as asked)
/// or else its video's address.
pub(super) fn row_summary(record: &TaskRecord) -> Option<String> {
    let written = |text: &str| (!text.trim().is_empty()).then(|| text.to_owned());
    let asked = || match record.request.as_ref()? {
        Request::ImageToVideo(request) => written(&request.prompt),
        Request::ImageGenerate(request) => written(&request.prompt),
        Request::VideoTranslate(request) => request
            .name
            .as_deref()
            .and_then(written)
            .or_else(|| written(&request.video_url)),
    };
    match &record.task {
        Some(AnyTask::VideoTranslate(task)) if !task.name.is_empty() => Some(task.name.clone()),
        _ => asked(),
    }
}

/// The most characters of what was asked in a row's link name.
const LINK_NAME_CHARS: usize = 60;

/// What a screen reader reads for a row's link to its task: the kind it
/// shows, then what was asked (shortened), else the task's id, so a list of
/// rows is not the same name over and over.
pub(super) fn link_name(kind: TaskKind, asked: Option<&str>, task_id: &str) -> String {
    match asked {
        Some(asked) => format!(
            "{}: {}",
            kind_text::title(kind),
            shorten(asked, LINK_NAME_CHARS)
        ),
        None => format!("{}, task {task_id}", kind_text::title(kind)),
    }
}

/// What a row says under its summary: the failure, or why it is no longer followed.
fn row_note(record: &TaskRecord) -> Option<String> {
    if let Some(error) = &record.error {
        return Some(error.clone());
    }
    match &record.task {
        Some(task) if *task.status() == TaskStatus::Failed => Some(task.error_message().to_owned()),
        _ => None,
    }
    .filter(|note| !note.is_empty())
}

/// One task on the board.
#[component]
pub(super) fn TaskRow(
    record: TaskRecord,
    now: ReadSignal<f64>,
    /// One of a request's tasks, inside the request's row.
    #[prop(optional)]
    in_request: bool,
) -> impl IntoView {
    let board = Board::expect();
    let status = if record.error.is_some() {
        "UNKNOWN".to_owned()
    } else {
        record.status.to_string()
    };
    let failed = record.has_failed();
    let detail = crate::address::detail_path(record.kind, &record.task_id);
    let thumb = thumbnail(record.task.as_ref());
    let asked = row_summary(&record);
    let name = link_name(record.kind, asked.as_deref(), &record.task_id);
    let summary = asked.map(|full| {
        let short = shorten(&full, SUMMARY_CHARS);
        // The whole text on hover, when it was cut.
        let title = (short != full).then_some(full);
        view! { <p class="task-row__summary" title=title>{short}</p> }
    });
    // Only where it is a row of its own: a request's tasks share the
    // request's marks.
    let marks =
        (!in_request).then(|| view! { <RowMarks row=record.task_key() name=name.clone()/> });
    let note = row_note(&record);
    let usual = board.usual_duration(record.kind);
    // Heard of through the site's relay, not read: said on the row (once
    // the site is known to relay).
    let (kind, id, active) = (record.kind, record.task_id.clone(), record.is_active());
    let live = move || {
        (active && board.is_relayed(kind, &id)).then(|| {
            view! {
                <span class="task-row__live" aria-describedby="live-legend"
                    title="The site tells this page when the task ends: it is not polled">
                    "Live"
                </span>
            }
        })
    };
    let compare = media_of(&record).is_some().then(|| {
        let picks = expect_context::<Picks>();
        let (kind, id) = (record.kind, record.task_id.clone());
        let checked_id = id.clone();
        view! {
            <label class="compare-pick">
                <input type="checkbox" class="compare-pick__box"
                    prop:checked=move || picks.has(kind, &checked_id)
                    on:change=move |ev| picks.toggle(kind, &id, event_target_checked(&ev))/>
                "Compare"
            </label>
        }
    });
    view! {
        <li class="task-row" data-task-id=record.task_id.clone() data-kind=record.kind.as_str() data-status=status>
            {thumb.map(|url| view! { <img class="task-row__thumb" src=url alt="" loading="lazy"/> })}
            <div class="task-row__body">
                <div class="task-row__head">
                    {marks}
                    <A href=crate::address::href(&detail) attr:class="task-row__kind" attr:aria-label=name>{kind_text::title(record.kind)}</A>
                    <code class="task-row__id">{record.task_id.clone()}</code>
                    <CopyButton text=record.task_id.clone() detail=format!("of task {}", record.task_id)/>
                    {live}
                </div>
                {summary}
                <div class="task-row__progress">
                    {match usual {
                        Some(usual) => view! { <TaskProgress status=record.status.clone() submitted_at=record.submitted_at updated_at=record.updated_at now usual/> }.into_any(),
                        None => view! { <TaskProgress status=record.status.clone() submitted_at=record.submitted_at updated_at=record.updated_at now/> }.into_any(),
                    }}
                </div>
                {note.map(|note| view! { <p class="task-row__note" class:task-row__note--failed=failed>{note}</p> })}
                <TaskActions record=record.clone() open=true/>
                {record.task.clone().map(|task| view! { <NextJobs task named=true/> })}
                {compare}
            </div>
        </li>
    }
}
