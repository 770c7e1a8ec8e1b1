//! The page that submits a task of one kind, empty, filled in from a task
//! on the board (`?from={task_id}`: "edit and re-run"), or started from
//! another task's result (`?image_url=…&source={kind}:{id}`: "Make a video
//! of it").

use leptos::prelude::*;
use leptos_router::components::A;
use media_gen_api::{Request, StartedFrom, TaskKind};

use super::form_host::app_form_host;
use crate::board::Board;
use crate::kind_text;
use media_gen_ui::forms::FormHost;

/// How a page draws its kind's form: for a host, filled in from a request.
pub type DrawForm = fn(FormHost, Option<Request>) -> AnyView;

/// The request of the board's task `task_id` of `kind`, when it is known.
fn stored_request(kind: TaskKind, task_id: &str) -> Option<Request> {
    Board::expect().find(kind, task_id)?.request
}

/// The submit page for `kind`.
#[component]
pub fn NewTask(
    /// Which kind of task this page submits.
    kind: TaskKind,
    /// The board's task to start from (`?from={task_id}`), if any.
    from: Option<String>,
    /// Another task's result to start from, if any (and no `from`).
    next: Option<StartedFrom>,
    /// The kind's form (one kind's only: each page is a chunk of its own
    /// in a split build).
    form: DrawForm,
) -> impl IntoView {
    // "Use these settings" (`?settings={task_id}`): the task's settings,
    // not its media.
    let settings_of = leptos_router::hooks::use_query_map()
        .with_untracked(|query| query.get("settings"))
        .filter(|_| from.is_none());
    let settings = settings_of.as_deref().and_then(|id| {
        let body = stored_request(kind, id)?.to_json();
        let preset = media_gen_api::organise::Preset::from_request(kind, "", &body);
        super::read_request(kind, &preset.apply_to(&serde_json::json!({}))).ok()
    });
    let settings_notice = settings_of.map(|id| match &settings {
        Some(_) => format!("The settings of task {id}: choose the media and submit."),
        None => format!("Task {id} is not on the board with its parameters; starting empty."),
    });
    let stored = from.as_deref().and_then(|id| stored_request(kind, id));
    let notice = match (&from, &stored) {
        (Some(id), Some(_)) => Some(format!(
            "Filled in from task {id}: change what you like and submit."
        )),
        (Some(id), None) => Some(format!(
            "Task {id} is not on the board with its parameters; starting empty."
        )),
        (None, _) => settings_notice,
    };
    let next = next.filter(|_| from.is_none());
    let initial = stored
        .or(settings)
        .or_else(|| next.as_ref().map(StartedFrom::request));
    let came_from = next.map(|next| {
        let href = crate::address::href(&crate::address::detail_path(
            next.source.kind,
            &next.source.id,
        ));
        let what = next.what();
        view! {
            <p class="hint" id="filled-from">
                "From task "<A href=href>{next.source.id}</A>", "{what}
                ": fill in the rest and submit."
            </p>
        }
    });
    // The form's request as it stands, when it has no problems: what a
    // submit would cost, and for image-to-video "every model"; and as it
    // stands at all, for "Save these settings".
    let current = RwSignal::new(None::<Request>);
    let draft = RwSignal::new(None::<Request>);
    let host = move || {
        let mut host = app_form_host();
        host.on_change = Some(std::rc::Rc::new(move |request: &Request, problems| {
            let valid = (!problems.has_errors()).then(|| request.clone());
            current.try_set(valid);
            draft.try_set(Some(request.clone()));
        }));
        host
    };
    let access = crate::shell::access::Access::expect();
    let cost = move || {
        current.with(|request| {
            request.as_ref().map(|request| {
                media_gen_api::cost::cost_of(request.tasks_created(), access.allowance())
            })
        })
    };
    let cost_line = move || {
        cost().map(|cost| {
            view! {
                <p class="hint" id="submit-cost">{cost.said}</p>
                {cost.refused.map(|why| view! { <p class="notice" role="alert" id="submit-refused">{why}</p> })}
            }
        })
    };
    let every_model = (kind == TaskKind::ImageToVideo)
        .then(|| view! { <super::every_model::EveryModel current/> });
    // Saved settings laid over the form draw it anew, filled in with them.
    let filled = RwSignal::new(initial);
    let apply = Callback::new(move |request: Request| filled.set(Some(request)));
    let form = move || form(host(), filled.get());
    let saved = view! { <super::presets::SavedSettings kind draft apply/> };
    let batch = crate::address::href(&format!("/batch?kind={}", kind.as_str().replace('_', "-")));
    view! {
        <section class="new-task" data-kind=kind.as_str() aria-labelledby="new-task-title">
            <h1 id="new-task-title">{kind_text::title(kind)}</h1>
            <p class="lead">{kind_text::summary(kind)}" "<A href=batch attr:id="to-batch">"Many at once? Make a batch."</A></p>
            {notice.map(|text| view! { <p class="hint" id="filled-from">{text}</p> })}
            {came_from}
            {form}
            {cost_line}
            {every_model}
            {saved}
        </section>
    }
}
