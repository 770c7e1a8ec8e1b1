//! Completion callbacks, sent: the model says which fall due when
//! ([`media_gen_api::service::ServiceModel::take_due_callbacks`]); one loop
//! per sandbox sleeps until the next, POSTs each (retried when the receiver
//! fails), and wakes early when a new task may fall due sooner. Only to
//! loopback addresses by default: the model refuses others at submit.

use std::sync::atomic::Ordering;
use std::time::Duration;

use media_gen_api::envelope::MSG_OK;
use media_gen_api::Callback;

use crate::error::{ApiError, Refusal};
use crate::state::AppState;

/// Attempts per callback: the first and two retries.
pub const ATTEMPTS: u32 = 3;

/// The longest `Retry-After` a callback's receiver is obeyed for.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// The wait a receiver asked for in `Retry-After` (whole seconds), at most
/// [`MAX_RETRY_AFTER`].
fn asked_wait(response: &reqwest::Response) -> Option<Duration> {
    let seconds: u64 = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(seconds).min(MAX_RETRY_AFTER))
}

/// POST `callback` to `url` until a 2xx answer, at most [`ATTEMPTS`] times,
/// waiting `first_wait`, then twice that, between attempts, or as long as
/// the receiver's `Retry-After` asks when that is longer. Returns whether
/// the receiver took it.
pub async fn deliver(
    client: &reqwest::Client,
    url: &str,
    callback: &Callback,
    first_wait: Duration,
) -> bool {
    let mut wait = first_wait;
    for attempt in 1..=ATTEMPTS {
        let mut asked = None;
        match client.post(url).json(callback).send().await {
            Ok(response) if response.status().is_success() => return true,
            Ok(response) => {
                asked = asked_wait(&response);
                tracing::info!(url, attempt, status = %response.status(), "callback refused")
            }
            Err(error) => tracing::info!(url, attempt, %error, "callback failed"),
        }
        if attempt < ATTEMPTS {
            tokio::time::sleep(wait.max(asked.unwrap_or_default())).await;
            wait *= 2;
        }
    }
    false
}

/// A task with a callback was made: the sending loop is started if it is
/// not running, and woken to look again at when the next falls due.
pub fn send_when_due(app: &AppState) {
    app.callbacks_wake.notify_one();
    if !app.callbacks_running.swap(true, Ordering::SeqCst) {
        tokio::spawn(send_loop(app.clone()));
    }
}

/// Sleep until the next callback falls due (or a new task wakes it), send
/// every one due, each in a task of its own; for as long as the sandbox runs.
async fn send_loop(app: AppState) {
    let first_wait = Duration::from_millis(app.config.callback_retry_ms);
    loop {
        let next = app.with_model(|model| model.next_callback_at());
        let woken = app.callbacks_wake.notified();
        match next {
            Some(at) => {
                tokio::select! {
                    () = tokio::time::sleep_until(app.clock.instant_of(at).into()) => {}
                    () = woken => {}
                }
            }
            None => woken.await,
        }
        let now = app.clock.now();
        for due in app.with_model(|model| model.take_due_callbacks(now)) {
            let client = app.http.clone();
            tokio::spawn(async move {
                deliver(&client, &due.url, &due.body, first_wait).await;
            });
        }
    }
}

/// `GET /sandbox/tasks/{kind}/{task_id}/callback_url` (bearer token): the
/// callback address a task was submitted with, or `null`, so a test can
/// call back as the service does (a relaying gateway's address holds a
/// secret only the service is given).
pub async fn callback_url_of(
    axum::extract::State(app): axum::extract::State<AppState>,
    axum::extract::Path((kind, task_id)): axum::extract::Path<(String, String)>,
) -> Result<axum::Json<media_gen_api::Envelope<Option<String>>>, crate::error::ApiError> {
    let kind: media_gen_api::TaskKind = kind
        .parse()
        .map_err(|_| ApiError(Refusal::NotFound(format!("kind: no task kind `{kind}`"))))?;
    let task = app.task(kind, &task_id)?;
    Ok(axum::Json(media_gen_api::Envelope::success(
        MSG_OK,
        task.callback_url,
    )))
}
