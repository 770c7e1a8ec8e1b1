//! The page that submits a task of one kind.

use leptos::prelude::*;
use media_gen_api::TaskKind;

use crate::app::kind_text;

/// The submit page for `kind`.
#[component]
pub fn NewTask(
    /// Which kind of task this page submits.
    kind: TaskKind,
) -> impl IntoView {
    view! {
        <section class="new-task" data-kind=kind.as_str() aria-labelledby="new-task-title">
            <h1 id="new-task-title">{kind_text::title(kind)}</h1>
            <p class="lead">{kind_text::summary(kind)}</p>
            {(kind == TaskKind::ImageGenerate).then(|| view! { <super::ImageGenerateForm/> })}
        </section>
    }
}
