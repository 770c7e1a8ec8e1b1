//! What a person can do with a task on the board or its page: open it,
//! re-run it, edit and re-run it, remove it.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;

use crate::board::Board;
use crate::kind_text;
use crate::shell::announcer::Announcer;
use media_gen_ui::store::record::TaskRecord;

/// The actions for `record`. Re-run and edit need the submitted parameters,
/// which a task looked up by id does not have. `on_removed` runs after a
/// remove (the task page goes back to the board).
#[component]
pub fn TaskActions(
    /// The task.
    record: TaskRecord,
    /// Show "Open" (on the board, not on the task's own page).
    #[prop(optional)]
    open: bool,
    /// After the task was removed.
    #[prop(optional, into)]
    on_removed: Option<Callback<()>>,
) -> impl IntoView {
    let board = Board::expect();
    let announcer = Announcer::expect();
    let (kind, id) = (record.kind, record.task_id.clone());
    let known = record.submitted_here();
    let rerunning = RwSignal::new(false);
    let stored = StoredValue::new(record);
    let rerun = move |_| {
        rerunning.set(true);
        spawn_local(async move {
            let record = stored.get_value();
            let said = match board.rerun(&record).await {
                Ok(ids) => format!(
                    "Re-ran {}: {}",
                    kind_text::title(record.kind),
                    ids.join(", ")
                ),
                Err(error) => format!("Re-run failed: {error}"),
            };
            announcer.say(said.clone());
            board.notice.set(Some(said));
            rerunning.try_set(false);
        });
    };
    let remove = {
        let id = id.clone();
        move |_| {
            board.remove(kind, &id);
            announcer.say(format!("Removed task {id}"));
            if let Some(on_removed) = on_removed {
                on_removed.run(());
            }
        }
    };
    let label = |what: &str| format!("{what} task {}", stored.with_value(|r| r.task_id.clone()));
    view! {
        <div class="task-actions">
            {open.then(|| view! {
                <A href=crate::routes::detail_path(kind, &id) attr:class="secondary open" attr:aria-label=label("Open")>"Open"</A>
            })}
            {known.then(|| view! {
                <button type="button" class="secondary rerun" aria-label=label("Re-run")
                    disabled=move || rerunning.get() on:click=rerun>
                    {move || if rerunning.get() { "Re-running…" } else { "Re-run" }}
                </button>
                <A href=crate::routes::edit_path(kind, &id) attr:class="secondary edit" attr:aria-label=label("Edit and re-run")>"Edit and re-run"</A>
            })}
            <button type="button" class="secondary remove" aria-label=label("Remove") on:click=remove>"Remove"</button>
        </div>
    }
}
