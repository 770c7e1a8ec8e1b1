//! `/v1`: exactly the documented calls go to the service, with the
//! gateway's token; everything else is refused here and never reaches it.
//!
//! Only what the call needs travels: the method, the documented path (the
//! task id percent-encoded as one segment), `Content-Type` and the body of
//! a submit, and the token. The browser's `Authorization`, cookies and other
//! headers stay behind. The service's answer comes back as JSON with
//! `Retry-After` when it sent one; redirects are not followed, and an
//! answer that is not JSON becomes a 502 that names nothing of the service.

use std::net::SocketAddr;
use std::time::Instant;

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, Method};
use axum::response::{IntoResponse, Response};
use http_body_util::LengthLimitError;
use media_gen_api::Endpoint;

use crate::access;
use crate::observe::UPSTREAM_SECONDS;
use crate::refusal::Refusal;
use crate::relay::RELAY_HEADER;
use crate::upstream::{Answer, CallError};
use crate::Gateway;

/// The largest request body taken (the service's own limit).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// The largest answer taken from the service.
pub const MAX_ANSWER_BYTES: usize = 8 * 1024 * 1024;

/// Why reading a body of at most `limit` bytes failed: too large, or not
/// in time.
pub fn body_refusal(error: &axum::Error, limit: usize) -> Refusal {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(error) = source {
        if error.is::<LengthLimitError>() {
            return Refusal::BodyTooLarge(limit);
        }
        source = error.source();
    }
    Refusal::BodyTimeout
}

/// Any request under `/v1`.
pub async fn handle(
    State(gateway): State<Gateway>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    // An absolute-form target (`GET http://host/v1/… HTTP/1.1`) is not how
    // browsers ask; its path is not trusted to be the one meant.
    if parts.uri.scheme().is_some() || parts.uri.authority().is_some() {
        return Refusal::NotFound.into_response();
    }
    let Ok(endpoint) = Endpoint::parse(parts.method.as_str(), parts.uri.path()) else {
        return Refusal::NotFound.into_response();
    };
    if matches!(endpoint, Endpoint::Submit(_)) && !gateway.access.may_change(&parts.headers) {
        return Refusal::CrossSite.into_response();
    }
    let who = match gateway.admit(&parts.headers, peer.ip()).await {
        Ok((who, _)) => who,
        Err(refusal) => return refusal.into_response(),
    };
    let Some(upstream) = &gateway.upstream else {
        return Refusal::NoUpstream.into_response();
    };
    let body = match to_bytes(body, MAX_BODY_BYTES).await {
        Ok(body) => body,
        Err(error) => return body_refusal(&error, MAX_BODY_BYTES).into_response(),
    };
    let mut submitted = None;
    if let Endpoint::Submit(kind) = endpoint {
        // A body the contract cannot read is refused here: the gateway
        // could not count its tasks, and a service that took it anyway
        // could make more than were counted.
        let request = match media_gen_api::Request::read_submit(kind, &body) {
            Ok(request) => request,
            Err(problem) => return Refusal::Body(problem).into_response(),
        };
        let tasks = request.tasks_created();
        submitted = Some(request);
        if let access::Who::Person(name) = &who {
            // The person, never the key.
            tracing::info!(person = %name, kind = kind.as_str(), tasks, "submit");
        }
        if let Err(refusal) = gateway.count_submit(&who, tasks).await {
            return refusal.into_response();
        }
    }
    // A submit the relay takes goes out with the relay's callback address.
    let relayed = match (&endpoint, &gateway.relay) {
        (Endpoint::Submit(kind), Some(relay)) => relay.take_submit(*kind, &body).await,
        _ => None,
    };
    let asked = body.clone();
    let body = match &relayed {
        Some((_, relayed_body)) => relayed_body.clone(),
        None => body,
    };

    let url = format!("{}{}", upstream.base, endpoint.path());
    let (method, body) = match endpoint {
        Endpoint::Submit(_) => {
            let content_type = parts.headers.get(header::CONTENT_TYPE).cloned();
            (Method::POST, Some((body, content_type)))
        }
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
    if let (Some((capability, _)), Some(relay), Endpoint::Submit(kind)) =
        (&relayed, &gateway.relay, &endpoint)
    {
        let (status, body) = match &answer {
            Ok(answer) => (answer.status.as_u16(), &answer.body[..]),
            Err(_) => (502, &b""[..]),
        };
        relay.submit_answered(capability, *kind, status, body).await;
    }
    let read_status = match (&answer, &gateway.uploads) {
        (Ok(answer), Some(uploads)) => keep_uploads(uploads, &endpoint, &asked, answer).await,
        _ => None,
    };
    // A read that finds the task succeeded keeps its results, and says
    // where they are kept (the status read once, for both).
    let succeeded = read_status == Some(media_gen_api::TaskStatus::Succeeded);
    let answer = match (answer, &endpoint) {
        (Ok(mut answer), Endpoint::Status(kind, _)) if succeeded => {
            let status = answer.status.as_u16();
            let body = std::mem::take(&mut answer.body);
            answer.body = crate::kept::add_to_read(&gateway, *kind, status, body, &who).await;
            Ok(answer)
        }
        (answer, _) => answer,
    };
    let written = match (&answer, &who) {
        (Ok(answer), access::Who::Person(person)) => {
            crate::library::record::write_down(
                &gateway,
                person,
                &endpoint,
                &asked,
                submitted.as_ref(),
                answer,
            )
            .await
        }
        _ => None,
    };
    let answer = match answer {
        Ok(answer) => passed_on(answer).map(|mut response| {
            if let Some(id) = written.and_then(|id| HeaderValue::from_str(id.as_str()).ok()) {
                response
                    .headers_mut()
                    .insert(media_gen_api::library::LIBRARY_HEADER, id);
            }
            if let Some((capability, _)) = &relayed {
                if let Ok(value) = HeaderValue::from_str(capability) {
                    response.headers_mut().insert(RELAY_HEADER, value);
                }
            }
            response
        }),
        Err(CallError::Timeout) => Err(Refusal::GatewayTimeout),
        Err(CallError::Failed) => Err(Refusal::BadGateway),
    };
    match answer {
        Ok(response) => response,
        Err(refusal) => {
            tracing::warn!(
                route = endpoint.route(),
                ?refusal,
                "the service's answer was not usable"
            );
            refusal.into_response()
        }
    }
}

/// Uploads a submit names are held by the tasks it made; a status read
/// that shows a task ended lets its uploads go. A status read's status, as
/// it was read.
async fn keep_uploads(
    uploads: &crate::uploads::Uploads,
    endpoint: &Endpoint,
    asked: &[u8],
    answer: &Answer,
) -> Option<media_gen_api::TaskStatus> {
    let status = answer.status.as_u16();
    match endpoint {
        Endpoint::Submit(kind) => {
            let created = crate::relay::submit::created_ids(*kind, status, &answer.body);
            uploads.hold(*kind, asked, &created).await;
            None
        }
        Endpoint::Status(kind, task_id) => {
            // The status alone: most reads find the task running.
            let status = media_gen_api::decode::decode_status(status, &answer.body[..]).ok()?;
            uploads.seen(*kind, task_id, &status).await;
            Some(status)
        }
        Endpoint::TargetLanguages => None,
    }
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
