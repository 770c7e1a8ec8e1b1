//! The jobs a finished task's results start, on its page: "Make a video of
//! it" and "Use as reference" on an image, "Translate it" on a video. Each
//! opens the job's form with the result in its field (the contract's
//! `NextJob` decides which), and the form links back here.

use leptos::prelude::*;
use leptos_router::components::A;
use media_gen_api::{AnyTask, NextJob, StartedFrom, TaskKey};

/// Links to the jobs `task`'s results start; nothing until it succeeded.
#[component]
pub fn NextJobs(
    /// The task whose results are offered.
    task: AnyTask,
    /// Whether each link names the task to a screen reader too ("Make a
    /// video of it from task i2is-1"): on the board, where many rows offer
    /// the same jobs.
    #[prop(optional)]
    named: bool,
) -> impl IntoView {
    let source = TaskKey::new(task.kind(), task.task_id().to_owned());
    let links: Vec<_> = NextJob::offered(&task)
        .into_iter()
        .map(|(job, url)| {
            let started = StartedFrom {
                job,
                url: url.to_owned(),
                source: source.clone(),
            };
            let href = crate::address::href(&crate::address::next_job_path(&started));
            let name = named.then(|| format!("{} from task {}", job.label(), source.id));
            view! { <A href=href attr:class="secondary next-job" attr:aria-label=name>{job.label()}</A> }
        })
        .collect();
    (!links.is_empty()).then(|| {
        view! { <nav class="next-jobs" aria-label="Use this result">{links}</nav> }
    })
}
