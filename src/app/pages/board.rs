//! The task board: every submitted task and its state.

use leptos::prelude::*;
use leptos_router::components::A;
use media_gen_api::{TaskKind, TaskStatus};

use crate::app::board::Board;
use crate::app::kind_text;
use crate::store::record::TaskRecord;

fn status_class(status: &TaskStatus) -> &'static str {
    match status {
        TaskStatus::Succeeded => "status status--succeeded",
        TaskStatus::Failed => "status status--failed",
        TaskStatus::Generating => "status status--generating",
        TaskStatus::Pending | TaskStatus::Other(_) => "status status--waiting",
    }
}

fn row(record: TaskRecord) -> impl IntoView {
    let status = record
        .error
        .as_ref()
        .map_or_else(|| record.status.to_string(), |_| "UNKNOWN".to_owned());
    let class = status_class(&record.status);
    let label = status.clone();
    view! {
        <li class="task-row" data-task-id=record.task_id.clone() data-status=status>
            <span class="task-row__kind">{kind_text::title(record.kind)}</span>
            <code class="task-row__id">{record.task_id.clone()}</code>
            <span class=class>{label}</span>
            {record.error.map(|error| view! { <p class="task-row__error">{error}</p> })}
        </li>
    }
}

/// The task board: the stored tasks, newest first, or the three kinds to start with.
#[component]
pub fn Board() -> impl IntoView {
    let board = Board::expect();
    let has_tasks = move || !board.records.with(Vec::is_empty);
    view! {
        <section class="board" aria-labelledby="board-title">
            <h1 id="board-title">"Tasks"</h1>
            {move || board.storage_problem.get().map(|problem| view! { <p class="notice" role="alert">{problem}</p> })}
            <Show
                when=has_tasks
                fallback=|| view! {
                    <p class="board__empty">"No tasks yet. Start one:"</p>
                    <ul class="kind-cards">
                        {TaskKind::ALL
                            .iter()
                            .copied()
                            .map(|kind| {
                                view! {
                                    <li class="kind-card">
                                        <A href=kind_text::form_path(kind)>
                                            <strong>{kind_text::title(kind)}</strong>
                                            <span>{kind_text::summary(kind)}</span>
                                        </A>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                }
            >
                <ul class="task-list" aria-live="polite">
                    {move || board.records.get().into_iter().rev().map(row).collect_view()}
                </ul>
            </Show>
        </section>
    }
}
