//! The frame every form shares: the `<form>` with Ctrl/Cmd+Enter, the
//! request preview, the submit button and the failure notice.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::{Problems, Request};
use wasm_bindgen::JsCast;

use super::host::FormHost;
use crate::components::curl_copy::absolute_url;
use crate::components::{marks, problems_id, CurlCopy, Touched};

/// The request as the service will receive it: method, path and JSON body.
fn preview(request: &Request) -> String {
    let body = serde_json::to_string_pretty(&request.to_json()).unwrap_or_default();
    format!("POST {}\n\n{body}", request.kind().submit_path())
}

/// "Fix 2 problems to submit", or nothing when the request is valid.
fn blocking_text(problems: &Problems) -> Option<String> {
    match problems.errors().count() {
        0 => None,
        1 => Some("Fix 1 problem to submit".to_owned()),
        n => Some(format!("Fix {n} problems to submit")),
    }
}

/// Move focus to the control of the first field with an error: the one
/// whose `aria-describedby` names that field's problems.
fn focus_first_error(form: &web_sys::HtmlFormElement, problems: &Problems) {
    let Some(problem) = problems.errors().next() else {
        return;
    };
    let field = problem.field.split('[').next().unwrap_or_default();
    let selector = format!("[aria-describedby~=\"{}\"]", problems_id(field));
    if let Some(control) = form
        .query_selector(&selector)
        .ok()
        .flatten()
        .and_then(|control| control.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = control.focus();
    }
}

/// A task form around `children` (the fields). Submit is disabled while the
/// request has errors or a submit is out; Ctrl+Enter (⌘+Enter) submits from
/// any field; the request that will be sent is shown on demand. A field's
/// problems show once it was left or changed, and all of them once a submit
/// was tried or "Show problems" pressed (focus then goes to the first).
#[component]
pub fn FormShell(
    /// The page or widget hosting the form: sends the request; the base
    /// URL and token for "copy as cURL".
    host: FormHost,
    /// The request the fields make.
    #[prop(into)]
    request: Signal<Request>,
    /// Its problems, as the user types.
    problems: Memo<Problems>,
    /// The submit button's text: "Generate", "Translate".
    action: &'static str,
    /// Whether the form starts filled in ("edit and re-run"): its problems
    /// show at once.
    #[prop(optional)]
    prefilled: bool,
    /// More requests sent with this one, one after another (one task per
    /// start frame when several were given).
    #[prop(default = None)]
    also: Option<Signal<Vec<Request>>>,
    /// The fields.
    children: Children,
) -> impl IntoView {
    // Before the fields are made: their file controls count themselves here.
    #[cfg(feature = "uploads")]
    let under_way = {
        let counted = super::file_target::FormUploads::provide(host.client.clone()).under_way;
        move || counted.get()
    };
    #[cfg(not(feature = "uploads"))]
    // No uploads: a constant, so the waiting branches below compile away.
    let under_way = || 0usize;
    let FormHost {
        submit,
        base_url,
        token,
        on_change,
        ..
    } = host;
    if let Some(on_change) = on_change {
        // On the first run too: a page learns the form's state as it opens
        // (and after a reset, which opens it again), so a button it keeps
        // in step starts right.
        Effect::new(move |_| {
            let request = request.get();
            problems.with(|problems| on_change(&request, problems));
        });
    }
    // Before the fields are made: their problem lists read it.
    let touched = Touched::provide(prefilled);
    let form_ref = NodeRef::<leptos::html::Form>::new();
    let show_problems = move || {
        touched.show_all();
        if let Some(form) = form_ref.get_untracked() {
            problems.with_untracked(|problems| focus_first_error(&form, problems));
        }
    };
    let curl_url = Signal::derive(move || {
        absolute_url(&base_url.get(), &request.with(|r| r.kind().submit_path()))
    });
    let curl_body = Signal::derive(move || {
        serde_json::to_string(&request.with(Request::to_json)).unwrap_or_default()
    });
    let submitting = RwSignal::new(false);
    let failure = RwSignal::new(None::<String>);
    let handler = StoredValue::new_local(submit);
    #[cfg(feature = "uploads")]
    let extra_tasks = move || also.map(|also| also.with(Vec::len)).unwrap_or(0);
    #[cfg(not(feature = "uploads"))]
    let extra_tasks = {
        let _ = also;
        || 0usize
    };
    let blocked =
        move || submitting.get() || under_way() > 0 || problems.with(Problems::has_errors);

    let send = move || {
        // Not while a file is still on its way: its field has no address yet.
        if submitting.get_untracked() || untrack(under_way) > 0 {
            return;
        }
        if problems.with_untracked(Problems::has_errors) {
            show_problems();
            return;
        }
        submitting.set(true);
        failure.set(None);
        // With uploads, one request after another (one task per start
        // frame), each on the board as it is made; the first refusal stops
        // the rest and is shown. Without, only ever the one.
        #[cfg(feature = "uploads")]
        let sent: futures::future::LocalBoxFuture<'static, Result<(), String>> = {
            let submit = handler.get_value();
            let mut all = vec![request.get_untracked()];
            all.extend(also.map(|also| also.get_untracked()).unwrap_or_default());
            Box::pin(async move {
                for request in all {
                    submit(request).await?;
                }
                Ok(())
            })
        };
        #[cfg(not(feature = "uploads"))]
        let sent = handler.with_value(|submit| submit(request.get_untracked()));
        spawn_local(async move {
            let result = sent.await;
            // On success the host usually navigates away and this form is gone.
            if let Err(message) = result {
                failure.try_set(Some(message));
            }
            submitting.try_set(false);
        });
    };
    // The first form on the page is ready for input now: a Performance mark
    // the load benchmark reads (navigation start → interactive form).
    Effect::new(|_| marks::mark_once(marks::FORM_INTERACTIVE));
    let send_on_key = move |ev: KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            send();
        }
    };

    view! {
        <form
            class="task-form"
            part="form"
            novalidate
            node_ref=form_ref
            on:focusout=move |ev| touched.touch(&ev)
            on:change=move |ev| touched.touch(&ev)
            on:submit=move |ev| {
                ev.prevent_default();
                send();
            }
            on:keydown=send_on_key
        >
            {children()}
            <details class="request-preview">
                <summary>"Show the request"</summary>
                <pre id="request-json"><code>{move || request.with(preview)}</code></pre>
            </details>
            <p class="request-copy">
                <CurlCopy method="POST" url=curl_url body=curl_body token detail="of this request".to_owned()/>
            </p>
            <div class="actions">
                <button id="submit" part="submit" type="submit" disabled=blocked>
                    {move || match (submitting.get(), under_way()) {
                        (true, _) => "Submitting…".to_owned(),
                        (false, 0) => match extra_tasks() {
                            0 => action.to_owned(),
                            more => format!("{action} ({} tasks)", more + 1),
                        },
                        (false, 1) => format!("{action} (waiting for 1 upload)"),
                        (false, n) => format!("{action} (waiting for {n} uploads)"),
                    }}
                </button>
                <span class="hint" id="submit-state">
                    {move || match problems.with(blocking_text).filter(|_| under_way() == 0) {
                        Some(text) => view! { {text} }.into_any(),
                        // A field still waiting for its file is not a problem to fix.
                        None if under_way() > 0 => view! { "Ready once the file is in" }.into_any(),
                        // Said only where there is a keyboard to press it on.
                        None => view! { <span class="keyboard-only">"Ctrl+Enter or ⌘+Enter"</span> }.into_any(),
                    }}
                </span>
                <button type="button" class="link-button" id="show-problems"
                    hidden=move || {
                        under_way() > 0 || !(touched.holds_back() && problems.with(Problems::has_errors))
                    }
                    on:click=move |_| show_problems()>
                    "Show problems"
                </button>
            </div>
            {move || failure.get().map(|message| view! { <p class="notice" id="submit-failure" role="alert">{message}</p> })}
        </form>
    }
}
