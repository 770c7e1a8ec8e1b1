//! What the board says after an action, with a link to the task it made.

use leptos::prelude::*;
use leptos_router::components::A;

use super::{Board, Notice};
use crate::address::detail_path;

/// `notice`'s words, then "open the new task" as a link while that task is
/// on the board (a removed task's link would lead nowhere).
#[component]
pub fn NoticeText(
    /// What to say.
    notice: Notice,
) -> impl IntoView {
    let board = Board::expect();
    let link = notice.task.map(|task| {
        let (kind, id) = (task.kind, task.id.clone());
        let href = detail_path(task.kind, &task.id);
        move || {
            board.find(kind, &id).map(|_| {
                view! { ": " <A href=crate::address::href(&href) attr:class="notice-link">"open the new task"</A> }
            })
        }
    });
    view! { {notice.text} {link} "." }
}
