//! One row for the tasks one submit made: their thumbnails, how far they
//! are, and the tasks themselves a click away.

use leptos::prelude::*;
use leptos_router::components::A;
use media_gen_api::{Request, TaskKey, TaskKind, TaskStatus};

use super::row_marks::RowMarks;
use super::task_row::{row_summary, thumbnail, TaskRow, SUMMARY_CHARS};
use super::Board;
use crate::address::detail_path;
use crate::kind_text;
use media_gen_ui::components::progress::status_class;
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::text::{count, shorten};

/// Which requests' rows are opened to show their tasks, by their first
/// task: kept across the redraws a task's change causes.
#[derive(Debug, Clone, Copy)]
pub struct Expanded(pub RwSignal<Vec<TaskKey>>);

/// What each task of a request is, in the singular and the plural.
fn noun(kind: TaskKind) -> (&'static str, &'static str) {
    match kind {
        TaskKind::ImageToVideo => ("video", "videos"),
        TaskKind::VideoTranslate => ("language", "languages"),
        TaskKind::ImageGenerate => ("image", "images"),
    }
}

/// The status the request's row shows: still running while one task is,
/// else failed when one failed, else succeeded.
pub fn request_status(records: &[TaskRecord]) -> TaskStatus {
    if let Some(active) = records.iter().find(|r| r.is_active()) {
        return active.status.clone();
    }
    if records.iter().any(TaskRecord::has_failed) {
        return TaskStatus::Failed;
    }
    TaskStatus::Succeeded
}

/// "2 of 3 done · 1 failed": how far the request is.
pub fn progress_text(records: &[TaskRecord]) -> String {
    let total = records.len();
    let done = records.iter().filter(|r| !r.is_active()).count();
    let failed = records.iter().filter(|r| r.has_failed()).count();
    let mut text = if done == total {
        format!("all {total} ended")
    } else {
        format!("{done} of {total} done")
    };
    if failed > 0 {
        text.push_str(&format!(" · {failed} failed"));
    }
    text
}

/// What the request asked, for its row: the prompt, or for translations
/// the video's name and the languages.
fn request_summary(records: &[TaskRecord]) -> Option<String> {
    let first = records.first()?;
    match first.request.as_ref()? {
        Request::VideoTranslate(request) => {
            let languages: Vec<&str> = records
                .iter()
                .map(|r| r.language().unwrap_or(&r.task_id))
                .collect();
            let what = request
                .name
                .clone()
                .filter(|name| !name.trim().is_empty())
                .unwrap_or_else(|| request.video_url.clone());
            Some(format!("{what} → {}", languages.join(", ")))
        }
        _ => row_summary(first),
    }
}

/// The row of a request of several tasks.
#[component]
pub fn RequestRow(
    /// Its tasks, in submit order.
    records: Vec<TaskRecord>,
    /// Now (ms), ticking.
    now: ReadSignal<f64>,
) -> impl IntoView {
    let expanded = expect_context::<Expanded>();
    let first = records[0].clone();
    let key = first.task_key();
    let (one, many) = noun(first.kind);
    let status = request_status(&records);
    let thumbs = records
        .iter()
        .filter_map(|r| thumbnail(r.task.as_ref()))
        .take(8)
        .map(|url| view! { <img class="task-row__thumb" src=url alt="" loading="lazy"/> })
        .collect_view();
    let asked = request_summary(&records);
    let name = super::task_row::link_name(first.kind, asked.as_deref(), &first.task_id);
    let summary = asked.map(|full| {
        let short = shorten(&full, SUMMARY_CHARS);
        let title = (short != full).then_some(full);
        view! { <p class="task-row__summary" title=title>{short}</p> }
    });
    let progress = progress_text(&records);
    // Heard of through the site's relay, as the task rows say it.
    let board = Board::expect();
    let running: Vec<TaskKey> = records
        .iter()
        .filter(|r| r.is_active())
        .map(TaskRecord::task_key)
        .collect();
    let live = move || {
        running
            .iter()
            .any(|task| board.is_relayed(task.kind, &task.id))
            .then(|| {
                view! {
                    <span class="task-row__live" aria-describedby="live-legend"
                        title="The site tells this page when the tasks end: they are not polled">
                        "Live"
                    </span>
                }
            })
    };
    let total = records.len();
    let open_key = key.clone();
    let is_open = move || expanded.0.with(|open| open.contains(&open_key));
    let toggle_key = key.clone();
    let on_toggle = move |ev: leptos::ev::Event| {
        let opened = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
        expanded.0.update(|open| {
            open.retain(|k| *k != toggle_key);
            if opened {
                open.push(toggle_key.clone());
            }
        });
    };
    let rows = records
        .into_iter()
        .map(|record| view! { <TaskRow record now in_request=true/> })
        .collect_view();
    view! {
        <li class="task-group" data-kind=first.kind.as_str() data-status=status.to_string()
            data-task-id=first.task_id.clone() data-tasks=total>
            <div class="task-group__thumbs">{thumbs}</div>
            <div class="task-row__body">
                <div class="task-row__head">
                    <RowMarks row=key.clone() name=name.clone()/>
                    <A href=crate::address::href(&detail_path(first.kind, &first.task_id)) attr:class="task-row__kind" attr:aria-label=name>{kind_text::title(first.kind)}</A>
                    <span class="task-group__count">{count(total, one, many)}</span>
                    {live}
                </div>
                {summary}
                <div class="task-row__progress">
                    <span class=status_class(&status) data-status=status.to_string()>{status.to_string()}</span>
                    <span class="elapsed">{progress}</span>
                </div>
                <div class="task-actions">
                    <A href=crate::address::href(&detail_path(first.kind, &first.task_id)) attr:class="secondary open"
                        attr:aria-label=format!("Open the {} of this request", many)>"Open"</A>
                </div>
                <details class="task-group__tasks" prop:open=is_open on:toggle=on_toggle>
                    <summary>{format!("Show the {} tasks", total)}</summary>
                    <ul class="task-list">{rows}</ul>
                </details>
            </div>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::ImageGenerateRequest;

    fn task(id: &str, status: TaskStatus) -> TaskRecord {
        let request = Request::ImageGenerate(ImageGenerateRequest {
            prompt: "p".into(),
            ..Default::default()
        });
        TaskRecord {
            status,
            ..TaskRecord::submitted(&request, id, 1.0)
        }
    }

    #[test]
    fn a_request_runs_while_one_task_does_and_fails_when_one_failed() {
        let running = [
            task("a", TaskStatus::Succeeded),
            task("b", TaskStatus::Generating),
        ];
        assert_eq!(request_status(&running), TaskStatus::Generating);
        assert_eq!(progress_text(&running), "1 of 2 done");
        let ended = [
            task("a", TaskStatus::Succeeded),
            task("b", TaskStatus::Failed),
            task("c", TaskStatus::Succeeded),
        ];
        assert_eq!(request_status(&ended), TaskStatus::Failed);
        assert_eq!(progress_text(&ended), "all 3 ended · 1 failed");
        assert_eq!(
            request_status(&[task("a", TaskStatus::Succeeded)]),
            TaskStatus::Succeeded
        );
    }
}
