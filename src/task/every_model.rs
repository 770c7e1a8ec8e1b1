//! "Try it on every model" under the image-to-video form: the request as
//! it stands, carried to each model with the nearest settings it allows
//! (`media_gen_api::every_model`), what changed said model by model, the
//! cost of all of them, then one task each and the first two compared.

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::cost::cost_of;
use media_gen_api::every_model::{for_every_model, ForModel};
use media_gen_api::{Request, TaskKey, TaskKind};

use crate::address::{compare_path, use_app_navigate};
use crate::board::Board;
use crate::shell::access::Access;

/// Each model's version of the form's request: valid for its model
/// whenever the form's is (the contract's property), so none is checked
/// again here.
fn versions(request: &Request) -> Vec<ForModel> {
    match request {
        Request::ImageToVideo(asked) => for_every_model(asked),
        _ => Vec::new(),
    }
}

/// The panel; `current` is the form's request when it has no errors.
#[component]
pub fn EveryModel(current: RwSignal<Option<Request>>) -> impl IntoView {
    let (board, access) = (Board::expect(), Access::expect());
    let navigate = use_app_navigate();
    let open = RwSignal::new(false);
    let sending = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);
    let planned = move || current.with(|request| request.as_ref().map(versions));
    let tasks = move || {
        planned().map_or(0, |fit| {
            fit.iter()
                .map(|made| Request::ImageToVideo(made.request.clone()).tasks_created())
                .sum::<u64>()
        })
    };
    let cost = move || cost_of(tasks(), access.allowance());
    let send = move || {
        let Some(fit) = planned() else { return };
        if fit.is_empty() || sending.get_untracked() || cost().refused.is_some() {
            return;
        }
        sending.set(true);
        problem.set(None);
        let navigate = navigate.clone();
        spawn_local(async move {
            let mut made: Vec<TaskKey> = Vec::new();
            for version in fit {
                let request = Request::ImageToVideo(version.request);
                match board.submit(&request).await {
                    Ok(submitted) => made.extend(
                        submitted
                            .task_ids
                            .first()
                            .map(|id| TaskKey::new(TaskKind::ImageToVideo, id.as_str())),
                    ),
                    Err(error) => {
                        problem.try_set(Some(format!(
                            "Model {} was not sent: {error}",
                            version.model
                        )));
                    }
                }
            }
            sending.try_set(false);
            if let [a, b, ..] = &made[..] {
                navigate(&compare_path(a, b), Default::default());
            } else if !made.is_empty() {
                navigate("/", Default::default());
            }
        });
    };
    view! {
        <section class="every-model" aria-labelledby="every-model-title">
            <h2 id="every-model-title">"Every model at once"</h2>
            <button type="button" class="secondary" id="every-model" aria-expanded=move || open.get().to_string()
                prop:disabled=move || current.with(Option::is_none)
                on:click=move |_| open.update(|open| *open = !*open)>
                "Try it on every model"
            </button>
            {move || (!current.with(Option::is_some)).then(|| view! {
                <p class="hint">"Fill in the form without problems first."</p>
            })}
            {move || open.get().then(|| {
                let fit = planned().unwrap_or_default();
                let count = fit.len();
                let lines = fit.into_iter().map(|made| view! { <li>{made.summary()}</li> }).collect_view();
                view! {
                    <ul id="every-model-plan">{lines}</ul>
                    <button type="button" class="primary" id="every-model-submit"
                        prop:disabled=move || sending.get() || cost().refused.is_some() || count == 0
                        on:click={let send = send.clone(); move |_| send()}>
                        {format!("Submit on {count} models")}
                    </button>
                    <span class="hint" id="every-model-cost">{move || cost().said}</span>
                    {move || cost().refused.map(|why| view! { <p class="notice" role="alert">{why}</p> })}
                }
            })}
            {move || problem.get().map(|why| view! { <p class="notice" role="alert">{why}</p> })}
        </section>
    }
}
