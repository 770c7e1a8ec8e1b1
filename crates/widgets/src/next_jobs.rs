//! A finished task's results offered to the next job from the status
//! widget: "Make a video of it" and "Use as reference" on an image,
//! "Translate it" on a video (the contract's `NextJob` decides which).
//! A button sends `media-gen-use`; the page routes it where it wants, for
//! example to a submit widget (`handle.use(event.detail)`).

use leptos::prelude::*;
use media_gen_api::{AnyTask, NextJob};
use media_gen_js::bridge::to_js;
use web_sys::Element;

use super::events::{dispatch, USE};

/// `media-gen-use`'s detail for `job` started from `url` of `task`: the
/// job's kind, the field it fills, the URL, the request the form starts
/// from, and the task it came from.
fn detail(job: NextJob, url: &str, task: &AnyTask) -> serde_json::Value {
    serde_json::json!({
        "kind": job.kind(),
        "field": job.parameter(),
        "url": url,
        "request": job.request(url).to_json(),
        "source": { "kind": task.kind(), "taskId": task.task_id() },
    })
}

/// The buttons for `task`'s results, sending `media-gen-use` from `target`;
/// nothing until it succeeded.
pub fn buttons(task: &AnyTask, target: &Element) -> Option<impl IntoView> {
    let buttons: Vec<_> = NextJob::offered(task)
        .into_iter()
        .map(|(job, url)| {
            let detail = detail(job, url, task);
            let target = target.clone();
            let send = move |_| dispatch(&target, USE, &to_js(&detail));
            view! { <button type="button" part="use" class="secondary" on:click=send>{job.label()}</button> }
        })
        .collect();
    (!buttons.is_empty())
        .then(|| view! { <div class="widget-next-jobs" role="group" aria-label="Use this result">{buttons}</div> })
}
