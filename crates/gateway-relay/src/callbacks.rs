//! `POST /callbacks/{capability}`: the service's completion callback for a
//! relayed submission.
//!
//! The path names the submission's callback secret, which only the service
//! was given; the page's listening capability there names nothing. Unknown
//! and used-up secrets get 404. The body, at most
//! [`MAX_CALLBACK_BYTES`], must read as the contract's `Callback`, of the
//! submission's kind and one of its tasks; anything else is refused with
//! the error envelope. The interface document gives callbacks no
//! signature, so by default the task is read once from the service and the
//! read, not the callback, is announced; a read that fails answers 502 so
//! the service tries the callback again. A task is read at most once per
//! interval, within a budget of reads per second ([`super::confirm`]): a
//! callback in between, or one whose read says the task has not ended, is
//! answered 503 with `Retry-After`. A task is announced once however many
//! callbacks name it.

use std::time::Instant;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::envelope::MSG_OK;
use media_gen_api::{Callback, ErrorEnvelope, SUCCESS_CODE};

use super::capability::CallbackSecret;
use super::submissions::Arrival;
use crate::redis_link::StoreError;
use crate::refusal::Refusal;
use crate::RelayState;

/// The largest callback body taken.
pub const MAX_CALLBACK_BYTES: usize = 64 * 1024;

/// Callbacks received, by outcome (`announced`, `duplicate`, `refused`, ...).
pub const CALLBACKS: &str = "gateway_relay_callbacks_total";

/// A callback, announced or acknowledged.
pub async fn receive(
    State(state): State<RelayState>,
    Path(secret): Path<String>,
    body: Body,
) -> Response {
    let outcome = take(&state, &secret, body).await;
    let label = match &outcome {
        Ok(Taken::Announced) => "announced",
        Ok(Taken::Duplicate) => "duplicate",
        Err(Refusal::RetryLater(_)) => "retry_later",
        Err(_) => "refused",
    };
    metrics::counter!(CALLBACKS, "outcome" => label).increment(1);
    match outcome {
        Ok(_) => Json(ErrorEnvelope::new(SUCCESS_CODE, MSG_OK)).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// What became of a callback that was taken.
enum Taken {
    Announced,
    Duplicate,
}

async fn take(state: &RelayState, secret: &str, body: Body) -> Result<Taken, Refusal> {
    let relay = state.relay.as_ref().ok_or(Refusal::NotFound)?;
    let store = relay.store();
    let unavailable = |error: StoreError| {
        tracing::warn!(%error, "the relay's store did not answer");
        Refusal::Unavailable
    };
    let secret = CallbackSecret::parse(secret).ok_or(Refusal::NotFound)?;
    // The submission is kept under the listening capability the page was
    // given; the address only the service knows names it through the
    // secret. A page's capability here names no submission.
    let capability = &secret.listening();
    let Some((_, submitter)) = store.opened(capability).await.map_err(unavailable)? else {
        return Err(Refusal::NotFound);
    };
    let body: Bytes = to_bytes(body, MAX_CALLBACK_BYTES)
        .await
        .map_err(|error| crate::refusal::body_refusal(&error, MAX_CALLBACK_BYTES))?;
    let invalid = |rule: String| Refusal::Invalid(format!("callback body: {rule}"));
    let callback: Callback =
        serde_json::from_slice(&body).map_err(|error| invalid(error.to_string()))?;
    let kind = callback.task.kind();
    let task_id = callback.task.task_id().to_owned();
    match store
        .arrival(capability, kind, &task_id)
        .await
        .map_err(unavailable)?
    {
        Arrival::Unknown => return Err(Refusal::NotFound),
        Arrival::Foreign => {
            return Err(invalid(format!(
                "task {task_id} of {kind} is not one of this submission's"
            )))
        }
        Arrival::Duplicate => return Ok(Taken::Duplicate),
        Arrival::New => {}
    }
    let mut task = if relay.settings().trust_callbacks {
        callback.task
    } else {
        // One read per task per interval, within the reads' own budget:
        // callbacks cannot make the gateway read the service at will.
        relay
            .confirmations()
            .may_read(capability.as_str(), &task_id, Instant::now())
            .map_err(Refusal::RetryLater)?;
        state.news.read(kind, &task_id).await?
    };
    if !task.status().is_terminal() {
        // Answered so the service tries again, after the interval: should
        // its reads lag its callbacks, the task is still heard of.
        tracing::warn!(%kind, "a callback for a task the service says has not ended");
        return Err(Refusal::RetryLater(relay.confirmations().interval()));
    }
    // The event carries where its results are kept, as a read does.
    state.news.ended(&mut task, submitter.as_ref()).await;
    if store
        .announce(capability, task)
        .await
        .map_err(unavailable)?
    {
        Ok(Taken::Announced)
    } else {
        Ok(Taken::Duplicate)
    }
}
