//! What a person can do with a task on the board or its page: open it,
//! re-run it, edit and re-run it, remove it.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;

use crate::board::{Board, Notice, NoticeText};
use crate::kind_text;
use crate::shell::announcer::Announcer;
use media_gen_api::TaskKey;
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::text::count;

/// How long "Re-run" stays disabled after its answer (ms).
const RERUN_PAUSE_MS: u32 = 1_500;

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
    // What the last re-run made, said beside the button on the task page
    // (the board says it above its list).
    let made = RwSignal::new(None::<Notice>);
    let stored = StoredValue::new(record);
    let rerun = move |ev: leptos::ev::MouseEvent| {
        // One click, one (paid) task: the second click of a double click,
        // or any click while one is out or just answered, does nothing.
        if rerunning.get_untracked() || ev.detail() > 1 {
            return;
        }
        rerunning.set(true);
        made.set(None);
        let record = stored.get_value();
        spawn_local(async move {
            // The submit itself is a chunk, shared with the forms'
            // pages: fetched the first time a person re-runs from the board.
            let rerun = match crate::chunks::drawn!(crate::chunks::rerun(board, record.clone())) {
                Ok(rerun) => rerun.await,
                Err(_) => {
                    Err("the page could not fetch what submits: reload it and try again".to_owned())
                }
            };
            let notice = match rerun {
                Ok(ids) => Notice {
                    text: format!(
                        "Submitted {} again as {}",
                        kind_text::title(record.kind),
                        count(ids.len(), "new task", "new tasks")
                    ),
                    task: ids.first().map(|id| TaskKey::new(record.kind, id.clone())),
                },
                Err(error) => Notice {
                    text: format!("Re-run failed: {error}"),
                    task: None,
                },
            };
            announcer.say(notice.text.clone());
            board.notice.set(Some(notice.clone()));
            made.try_set(Some(notice));
            // A moment more before it takes clicks again: a local service
            // answers between the two clicks of a double click.
            gloo_timers::future::TimeoutFuture::new(RERUN_PAUSE_MS).await;
            rerunning.try_set(false);
        });
    };
    let remove = {
        let id = id.clone();
        move |_| {
            board.remove(kind, &id);
            announcer.say(format!(
                "Removed task {id}. Undo is offered for a few seconds."
            ));
            if let Some(on_removed) = on_removed {
                on_removed.run(());
            }
        }
    };
    let label = |what: &str| format!("{what} task {}", stored.with_value(|r| r.task_id.clone()));
    view! {
        <div class="task-actions">
            {open.then(|| view! {
                <A href=crate::address::href(&crate::address::detail_path(kind, &id)) attr:class="secondary open" attr:aria-label=label("Open")>"Open"</A>
            })}
            {known.then(|| view! {
                <button type="button" class="secondary rerun" aria-label=label("Re-run")
                    disabled=move || rerunning.get() on:click=rerun>
                    {move || match (rerunning.get(), made.with(Option::is_some)) {
                        (false, _) => "Re-run",
                        (true, false) => "Re-running…",
                        (true, true) => "Submitted",
                    }}
                </button>
                <A href=crate::address::href(&crate::address::edit_path(kind, &id)) attr:class="secondary edit" attr:aria-label=label("Edit and re-run")>"Edit and re-run"</A>
            })}
            <button type="button" class="secondary remove" aria-label=label("Remove") on:click=remove>"Remove"</button>
        </div>
        {(!open).then(|| view! {
            <p class="hint rerun-made" role="status">
                {move || made.get().map(|notice| view! { <NoticeText notice/> })}
            </p>
        })}
    }
}
