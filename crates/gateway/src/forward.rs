//! `/v1`: exactly the documented calls go to the service, with the
//! gateway's token; everything else is refused here and never reaches it.
//!
//! Only what the call needs travels: the method, the documented path (the
//! task id percent-encoded as one segment), `Content-Type` and the body of
//! a submit, and the token. The browser's `Authorization`, cookies and other
//! headers stay behind. The service's answer comes back as JSON with
//! `Retry-After` when it sent one; redirects are not followed, and an
//! answer that is not JSON becomes a 502 that names nothing of the service.

use std::time::Instant;

use axum::body::{to_bytes, Body};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method};
use axum::response::Response;
use media_gen_api::library::RequestId;
use media_gen_api::{Endpoint, TaskKey};

use crate::access;
use crate::access::admission::Admitted;
use crate::observe::UPSTREAM_SECONDS;
use crate::refusal::{body_refusal, Refusal};
use crate::relay::RELAY_HEADER;
use crate::upstream::{Answer, CallError};
use crate::Gateway;

/// The largest request body taken (the service's own limit).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// The largest answer taken from the service.
pub const MAX_ANSWER_BYTES: usize = 8 * 1024 * 1024;

/// Any request under `/v1`: let in ([`endpoint_of`], then the budgets of
/// [`Gateway::admit`] and, for a submit, [`counted`]), forwarded
/// ([`forwarded`]), then what its answer leads to ([`after_submit`],
/// [`after_read`]). The submit's body is read once, and so is the
/// service's answer.
pub async fn handle(
    State(gateway): State<Gateway>,
    Documented(endpoint): Documented,
    admitted: Admitted,
    request: Request,
) -> Result<Response, Refusal> {
    let (parts, body) = request.into_parts();
    let who = &admitted.who;
    let upstream = gateway.upstream.as_ref().ok_or(Refusal::NoUpstream)?;
    let asked = to_bytes(body, MAX_BODY_BYTES)
        .await
        .map_err(|error| body_refusal(&error, MAX_BODY_BYTES))?;
    let submitted = counted(&gateway, &admitted, &endpoint, &asked).await?;
    // A submit the relay takes goes out with the relay's callback address.
    let relayed = match (&endpoint, &gateway.relay) {
        (Endpoint::Submit(kind), Some(relay)) => relay.take_submit(*kind, &asked, who).await,
        _ => None,
    };
    let sent = relayed
        .as_ref()
        .map_or_else(|| asked.clone(), |(_, relayed_body)| relayed_body.clone());
    let content_type = parts.headers.get(header::CONTENT_TYPE).cloned();
    let answer = forwarded(&gateway, upstream, &endpoint, sent, content_type).await;
    let capability = relayed.map(|(capability, _)| capability);
    let answered = match answer {
        Ok(answer) => answer,
        Err(error) => {
            // No answer: the relay closes what it opened for the submit.
            if let (Some(capability), Some(relay)) = (&capability, &gateway.relay) {
                relay.submit_answered(capability, Vec::new()).await;
            }
            return Err(unusable(
                &endpoint,
                match error {
                    CallError::Timeout => Refusal::GatewayTimeout,
                    CallError::Failed => Refusal::BadGateway,
                },
            ));
        }
    };
    let (answered, written) = match (&endpoint, submitted) {
        (Endpoint::Submit(kind), Some(request)) => {
            let done = SubmitAnswered {
                kind: *kind,
                asked: &asked,
                request: &request,
                capability: capability.as_ref(),
            };
            after_submit(&gateway, who, done, answered).await
        }
        (Endpoint::Status(kind, task_id), _) => (
            after_read(
                &gateway,
                who,
                &TaskKey::new(*kind, task_id.as_str()),
                answered,
            )
            .await,
            None,
        ),
        _ => (answered, None),
    };
    let mut response = passed_on(answered).map_err(|refusal| unusable(&endpoint, refusal))?;
    let headers = response.headers_mut();
    if let Some(id) = written.and_then(|id| HeaderValue::from_str(id.as_str()).ok()) {
        headers.insert(media_gen_api::library::LIBRARY_HEADER, id);
    }
    if let Some(value) =
        capability.and_then(|capability| HeaderValue::from_str(capability.as_str()).ok())
    {
        headers.insert(RELAY_HEADER, value);
    }
    Ok(response)
}

/// The documented call a request asks for: taken before the call is let
/// in, so an undocumented path is a 404 that counts against no budget.
pub struct Documented(pub Endpoint);

impl FromRequestParts<Gateway> for Documented {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, gateway: &Gateway) -> Result<Self, Refusal> {
        endpoint_of(gateway, parts).map(Documented)
    }
}

/// The documented call `parts` asks for, or the refusal: an absolute-form
/// target, an undocumented path (404), a submit from another site's page
/// (403).
fn endpoint_of(gateway: &Gateway, parts: &Parts) -> Result<Endpoint, Refusal> {
    // An absolute-form target (`GET http://host/v1/… HTTP/1.1`) is not how
    // browsers ask; its path is not trusted to be the one meant.
    if parts.uri.scheme().is_some() || parts.uri.authority().is_some() {
        return Err(Refusal::NotFound);
    }
    let endpoint =
        Endpoint::parse(parts.method.as_str(), parts.uri.path()).map_err(|_| Refusal::NotFound)?;
    if matches!(endpoint, Endpoint::Submit(_))
        && !gateway.admission.access.may_change(&parts.headers)
    {
        return Err(Refusal::CrossSite);
    }
    Ok(endpoint)
}

/// A submit's body, read once, with its tasks counted against `who`'s
/// budgets (`None` for any other call). A body the contract cannot read
/// is refused here: the gateway could not count its tasks, and a service
/// that took it anyway could make more than were counted.
async fn counted(
    gateway: &Gateway,
    admitted: &Admitted,
    endpoint: &Endpoint,
    asked: &[u8],
) -> Result<Option<media_gen_api::Request>, Refusal> {
    let Endpoint::Submit(kind) = endpoint else {
        return Ok(None);
    };
    let request = media_gen_api::Request::read_submit(*kind, asked).map_err(Refusal::Body)?;
    let tasks = request.tasks_created();
    if let access::Who::Person(name) = &admitted.who {
        // The person, never the key.
        tracing::info!(person = %name, kind = kind.as_str(), tasks, "submit");
    }
    gateway.admission.count_submit(admitted, tasks).await?;
    Ok(Some(request))
}

/// The call sent to the service: only the documented method, path, body
/// and `Content-Type`, with the gateway's token; timed by route.
async fn forwarded(
    gateway: &Gateway,
    upstream: &crate::config::Upstream,
    endpoint: &Endpoint,
    sent: axum::body::Bytes,
    content_type: Option<HeaderValue>,
) -> Result<Answer, CallError> {
    let url = format!("{}{}", upstream.base, endpoint.path());
    let (method, body) = match endpoint {
        Endpoint::Submit(_) => (Method::POST, Some((sent, content_type))),
        _ => (Method::GET, None),
    };
    let started = Instant::now();
    let answer = gateway
        .http
        .call(
            method,
            &url,
            &upstream.authorization,
            body,
            gateway.upstream_timeout,
            MAX_ANSWER_BYTES,
        )
        .await;
    metrics::histogram!(UPSTREAM_SECONDS, "route" => endpoint.route())
        .record(started.elapsed().as_secs_f64());
    answer
}

/// A submit the service answered: what was asked, as sent and as read,
/// and the relay's capability for it, if it relays.
struct SubmitAnswered<'a> {
    kind: media_gen_api::TaskKind,
    asked: &'a [u8],
    request: &'a media_gen_api::Request,
    capability: Option<&'a crate::relay::capability::Capability>,
}

/// What a submit's answer leads to, its task ids read once: the relay
/// follows them, the uploads it names are held by them, and the person's
/// library writes the request down before the answer goes back (its id).
async fn after_submit(
    gateway: &Gateway,
    who: &access::Who,
    submit: SubmitAnswered<'_>,
    answer: Answer,
) -> (Answer, Option<RequestId>) {
    let created =
        crate::relay::submit::created_ids(submit.kind, answer.status.as_u16(), &answer.body);
    if let (Some(capability), Some(relay)) = (submit.capability, &gateway.relay) {
        relay.submit_answered(capability, created.clone()).await;
    }
    if let Some(uploads) = &gateway.uploads {
        uploads.hold(submit.request, &created).await;
    }
    let written = match who {
        access::Who::Person(person) => {
            crate::library_writes::write_submit(
                gateway,
                person,
                submit.kind,
                submit.asked,
                submit.request,
                &created,
            )
            .await
        }
        access::Who::Address(_) => None,
    };
    (answer, written)
}

/// What a status read's answer leads to ([`crate::task_news`]): its bytes
/// read once, into JSON the task is decoded from; where its results are
/// kept, and why any is not, added to `data` (the service's own fields
/// passed on as they came).
async fn after_read(
    gateway: &Gateway,
    who: &access::Who,
    task: &TaskKey,
    mut answer: Answer,
) -> Answer {
    // Nothing to learn (no uploads held or results kept, no library of
    // the reader's): the answer passes on unread.
    let person = matches!(who, access::Who::Person(_));
    if gateway.uploads.is_none() && !(person && gateway.library.is_some()) {
        return answer;
    }
    let status = answer.status.as_u16();
    let Ok(mut json) = serde_json::from_slice::<serde_json::Value>(&answer.body) else {
        return answer;
    };
    let Ok(mut read) = media_gen_api::decode::decode_task_in(task.kind, status, &json) else {
        return answer;
    };
    crate::task_news::learnt(
        gateway,
        &mut read,
        crate::task_news::Heard::Read { reader: who },
    )
    .await;
    if crate::kept::add_to_json(&read, &mut json) {
        if let Ok(body) = serde_json::to_vec(&json) {
            answer.body = body.into();
        }
    }
    answer
}

/// `refusal` for an answer of the service's that could not be passed on,
/// said in the log.
fn unusable(endpoint: &Endpoint, refusal: Refusal) -> Refusal {
    tracing::warn!(
        route = endpoint.route(),
        ?refusal,
        "the service's answer was not usable"
    );
    refusal
}

/// The service's answer as the browser gets it, or why it cannot be passed on.
fn passed_on(answer: Answer) -> Result<Response, Refusal> {
    if answer.status.is_redirection() || answer.status.is_informational() {
        return Err(Refusal::BadGateway);
    }
    if serde_json::from_slice::<serde::de::IgnoredAny>(&answer.body).is_err() {
        return Err(Refusal::BadGateway);
    }
    let mut response = Response::new(Body::from(answer.body));
    *response.status_mut() = answer.status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if let Some(retry_after) = answer.headers.get(header::RETRY_AFTER) {
        headers.insert(header::RETRY_AFTER, retry_after.clone());
    }
    Ok(response)
}
