//! `POST /session` (`{ "key": "mgk_…" }`: a session cookie for the page and
//! the person it names) and `DELETE /session` (the session ended, the
//! cookie taken back). Both only from this site's pages. These and
//! `POST /tokens` count against the visitor's request budget, by address
//! (there is no person yet), like every other call; a sign-in's body is
//! read only once the call is let in.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::Envelope;
use serde::Deserialize;

use super::same_site::from_this_site;
use super::sessions::cookie_of;
use super::Who;
use crate::admission::Admission;
use crate::client_address::visitor;
use crate::refusal::Refusal;

/// The largest sign-in body read (a key in JSON is under 100 bytes).
const MAX_SIGN_IN_BYTES: usize = 4 * 1024;

/// What a sign-in sends.
#[derive(Debug, Deserialize)]
struct SignIn {
    key: String,
}

/// The visitor at `peer` (behind a trusted proxy, the one it names), with
/// one request counted against their address's budget; the 429 otherwise.
async fn let_in(
    admission: &Admission,
    peer: IpAddr,
    headers: &HeaderMap,
) -> Result<IpAddr, Refusal> {
    let client = admission.client_address(peer, headers);
    admission
        .count_request(&Who::Address(visitor(client)))
        .await
        .map(|()| client)
}

/// `POST /session`.
pub async fn sign_in(
    State(admission): State<Arc<Admission>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
) -> Result<Response, Refusal> {
    let (parts, body) = request.into_parts();
    let headers = parts.headers;
    if !from_this_site(&headers) {
        return Err(Refusal::CrossSite);
    }
    if admission.access.mode() != super::AccessMode::Keys {
        return Err(Refusal::NotFound);
    }
    let client = let_in(&admission, peer.ip(), &headers).await?;
    let body = axum::body::to_bytes(body, MAX_SIGN_IN_BYTES)
        .await
        .map_err(|error| crate::refusal::body_refusal(&error, MAX_SIGN_IN_BYTES))?;
    let SignIn { key } = serde_json::from_slice::<SignIn>(&body)
        .map_err(|_| Refusal::Invalid("key: send { \"key\": \"mgk_…\" }".to_owned()))?;
    let signed_in = admission.access.sign_in(key.trim(), &headers, client).await;
    let result = if signed_in.is_ok() { "ok" } else { "refused" };
    metrics::counter!(crate::observe::SIGN_INS, "result" => result).increment(1);
    let (person, cookie) = signed_in?;
    let mut response =
        Json(Envelope::success(media_gen_api::envelope::MSG_OK, person)).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    Ok(response)
}

/// `DELETE /session`.
pub async fn sign_out(
    State(admission): State<Arc<Admission>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    if !from_this_site(&headers) {
        return Err(Refusal::CrossSite);
    }
    let_in(&admission, peer.ip(), &headers).await?;
    let mut response = Json(Envelope::success(media_gen_api::envelope::MSG_OK, ())).into_response();
    for cookie in admission.access.sessions().end(cookie_of(&headers)).await {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    Ok(response)
}

/// `POST /tokens` with `Authorization: Bearer <access key>`: a page token
/// for that person (`{ token, expiresAt }`), for a host site's server to
/// hand its page.
pub async fn page_token(
    State(admission): State<Arc<Admission>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Json<Envelope<impl serde::Serialize>>, Refusal> {
    if admission.access.mode() != super::AccessMode::Keys {
        return Err(Refusal::NotFound);
    }
    let client = let_in(&admission, peer.ip(), &headers).await?;
    let given = admission.access.page_token(&headers, client).await?;
    Ok(Json(Envelope::success(
        media_gen_api::envelope::MSG_OK,
        given,
    )))
}
