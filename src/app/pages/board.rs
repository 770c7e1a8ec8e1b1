//! The task board: every submitted task and its state.

use leptos::prelude::*;
use leptos_router::components::A;
use media_gen_api::TaskKind;

use crate::app::kind_text;

/// The task board. Until a task is submitted it offers the three kinds.
#[component]
pub fn Board() -> impl IntoView {
    view! {
        <section class="board" aria-labelledby="board-title">
            <h1 id="board-title">"Tasks"</h1>
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
        </section>
    }
}
