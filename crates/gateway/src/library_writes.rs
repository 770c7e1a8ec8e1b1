//! What a forwarded call writes in the person's library: a submit the
//! service took (before its answer reaches the page, so nothing is lost
//! when the page closes at once), and what a status read learnt of a
//! task; each told to the person's open pages ([`crate::library_news`]). A
//! failure to write is logged and counted, never the page's
//! problem: the service's answer still reaches it.

use media_gen_api::library::RequestId;
use media_gen_api::{AnyTask, Request, TaskKind};

use crate::library::items::Submitted;
use crate::library::now_ms;
use crate::Gateway;

/// Write down a submit of `person`'s the service took: `asked` as sent,
/// `request` as read, the tasks `task_ids` it made (none: nothing is
/// written). The id of the request written.
pub async fn write_submit(
    gateway: &Gateway,
    person: &str,
    kind: TaskKind,
    asked: &[u8],
    request: &Request,
    task_ids: &[String],
) -> Option<RequestId> {
    let library = gateway.library.as_ref()?;
    if task_ids.is_empty() {
        return None;
    }
    let submitted = Submitted {
        person,
        kind,
        body: asked,
        request,
        task_ids,
        now: now_ms(),
    };
    let id = library
        .record_submit(submitted)
        .await
        .inspect_err(|error| failed(error, "a submit"))
        .ok()?;
    // Told after the answer, not before: the submit waits for its rows,
    // never for the other pages' news (a Redis round trip each).
    let (gateway, person) = (gateway.clone(), person.to_owned());
    let created: Vec<AnyTask> = task_ids
        .iter()
        .map(|task_id| AnyTask::created(kind, task_id))
        .collect();
    tokio::spawn(async move {
        for task in created {
            crate::library_news::tell(&gateway, &person, task).await;
        }
    });
    Some(id)
}

/// `task` as last read, kept in the library when it holds it.
pub async fn learn_task(gateway: &Gateway, task: &AnyTask) {
    let Some(library) = &gateway.library else {
        return;
    };
    match library.learn(task, now_ms()).await {
        Ok(Some(person)) => crate::library_news::tell(gateway, &person, task.clone()).await,
        Ok(None) => {}
        Err(error) => failed(&error, "a task's status"),
    }
}

fn failed(error: &crate::library::database::DbError, what: &str) {
    tracing::error!(%error, "{what} could not be written in the library");
    metrics::counter!(crate::observe::LIBRARY_FAILURES).increment(1);
}
