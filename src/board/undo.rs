//! "Undo" after a removal: a toast for a few seconds, on any page.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;

use super::Board;
use crate::shell::announcer::Announcer;

/// How long "Undo" is offered.
pub const UNDO_MS: u32 = 8_000;

/// The toast that offers to put the task removed last back, for
/// [`UNDO_MS`] after each removal.
#[component]
pub fn UndoRemove() -> impl IntoView {
    let board = Board::expect();
    let announcer = Announcer::expect();
    // The effect keeps the timer as its value: the next removal drops it,
    // which cancels it, and starts its own.
    Effect::new(move |_: Option<Option<Timeout>>| {
        board.removed.with(Option::is_some).then(|| {
            Timeout::new(UNDO_MS, move || {
                board.removed.try_set(None);
            })
        })
    });
    let undo = move |_| match board.undo_remove().as_slice() {
        [] => {}
        [task] => announcer.say(format!("Task {} is back", task.id)),
        tasks => announcer.say(format!("{} tasks are back", tasks.len())),
    };
    move || {
        board.removed.with(|removed| {
            removed.as_ref().map(|removed| {
                let said = match removed.records.as_slice() {
                    [(record, _)] => format!("Removed task {}.", record.task_id),
                    records => format!("Removed {} tasks.", records.len()),
                };
                view! {
                    <div class="toast" id="undo-toast" role="status">
                        <span>{said}</span>
                        <button type="button" class="secondary" id="undo-remove" on:click=undo>"Undo"</button>
                    </div>
                }
            })
        })
    }
}
