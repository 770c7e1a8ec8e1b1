//! The owner's calls: `POST /shares` (a new link for requests of theirs,
//! or some of their tasks), `GET /shares` (their links, with when each
//! ends and how often it was opened) and `DELETE /shares/{token}` (one
//! taken back). Each is let in as a library call is: a person, the
//! budgets, a change only from this site's pages or programs. A request
//! that is not the person's is unknown to them (404), as a guessed one.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::Path;
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::share::{is_share_token, NewShare, Share};
use media_gen_api::{Envelope, TaskKey};
use media_gen_gateway_access::admission::{Admitted, MayChange};
use media_gen_gateway_access::Who;
use media_gen_gateway_base::offered::On;
use media_gen_gateway_base::refusal::Refusal;
pub(crate) use media_gen_gateway_library::routes::unavailable;
use media_gen_gateway_library::shares::{NewLink, SharedTask};

use media_gen_gateway_library::now_ms;

use crate::SharingState;

/// The person a call let in is from; an address (open mode) has no links.
fn person(admitted: Admitted) -> Result<Arc<str>, Refusal> {
    match admitted.who {
        Who::Person(name) => Ok(name),
        Who::Address(_) => Err(Refusal::NotFound),
    }
}

fn answer(data: impl serde::Serialize) -> Response {
    Json(Envelope::success(media_gen_api::envelope::MSG_OK, data)).into_response()
}

/// `POST /shares`.
pub async fn create(
    On(sharing): On<SharingState>,
    _: MayChange,
    admitted: Admitted,
    body: Bytes,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let asked: NewShare = serde_json::from_slice(&body)
        .map_err(|error| Refusal::Invalid(format!("the body: {error}")))?;
    asked.check().map_err(Refusal::Invalid)?;
    let mut tasks = Vec::new();
    for request in &asked.requests {
        let item = sharing
            .library
            .get(&person, request)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| {
                Refusal::Invalid(format!(
                    "requests: {} is not a request in your library",
                    request.as_str()
                ))
            })?;
        tasks.extend(
            item.tasks
                .iter()
                .filter(|task| asked.tasks.is_empty() || asked.tasks.contains(&task.task_id))
                .map(|task| SharedTask {
                    task: TaskKey::new(item.kind, task.task_id.as_str()),
                    request: item.request.clone(),
                }),
        );
    }
    if let Some(missing) = asked
        .tasks
        .iter()
        .find(|wanted| !tasks.iter().any(|shared| &shared.task.id == *wanted))
    {
        return Err(Refusal::Invalid(format!(
            "tasks: {missing} is not a task of the shared requests"
        )));
    }
    let token = media_gen_gateway_base::ids::random_id().ok_or(Refusal::Unavailable)?;
    let now = now_ms();
    let ends = asked.life.millis().map(|life| now.saturating_add(life));
    let link = NewLink {
        token: &token,
        person: &person,
        ends,
        asked: asked.asked,
        team: asked.team,
        tasks: &tasks,
    };
    sharing
        .library
        .add_share(&link, now)
        .await
        .map_err(unavailable)?;
    let mut requests = Vec::new();
    for shared in &tasks {
        if !requests.contains(&shared.request) {
            requests.push(shared.request.clone());
        }
    }
    let made = Share {
        path: format!("{}{token}", media_gen_api::share::SHARED_PATH),
        token,
        created: now,
        ends,
        views: 0,
        asked: asked.asked,
        team: asked.team,
        requests,
        tasks: u32::try_from(tasks.len()).unwrap_or(u32::MAX),
    };
    let mut response = answer(made);
    *response.status_mut() = axum::http::StatusCode::CREATED;
    Ok(response)
}

/// `GET /shares`.
pub async fn list(On(sharing): On<SharingState>, admitted: Admitted) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let shares = sharing
        .library
        .shares_of(&person)
        .await
        .map_err(unavailable)?;
    Ok(answer(shares))
}

/// `DELETE /shares/{token}`.
pub async fn take_back(
    On(sharing): On<SharingState>,
    _: MayChange,
    admitted: Admitted,
    Path(token): Path<String>,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    if !is_share_token(&token) {
        return Err(Refusal::NotFound);
    }
    let taken = sharing
        .library
        .take_back_share(&person, &token, now_ms())
        .await
        .map_err(unavailable)?;
    if !taken {
        return Err(Refusal::NotFound);
    }
    Ok(answer(()))
}
