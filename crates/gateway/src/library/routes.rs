//! The page's calls on its person's library, under the site's base path:
//! `GET /library` (a page, filtered), `GET|PATCH|DELETE /library/{request}`
//! (one, renamed, removed), `POST /library/remove`, `/library/restore`
//! and `/library/import`. Each is let in as a `/v1` call is (a key or the
//! session cookie, the budgets); changes only from this site's pages or
//! programs. A person reaches only their own requests: another's id
//! answers 404, as a guessed one does.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use media_gen_api::library::{
    check_name, Import, LibraryQuery, Many, Removed, Rename, RequestId, IMPORT_MAX, MANY_MAX,
};
use serde::de::DeserializeOwned;

use super::{now_ms, Library};
use crate::access::Who;
use crate::refusal::Refusal;
use crate::Gateway;

/// The largest import's body (a thousand tasks with their requests).
const IMPORT_BODY_BYTES: usize = 8 * 1024 * 1024;

/// The library's routes.
pub fn routes() -> Router<Gateway> {
    Router::new()
        .route("/library", get(list))
        .route(
            "/library/{request}",
            get(one).patch(rename).delete(remove_one),
        )
        .route("/library/remove", post(remove_many))
        .route("/library/restore", post(restore))
        .route(
            "/library/import",
            post(import).layer(DefaultBodyLimit::max(IMPORT_BODY_BYTES)),
        )
}

/// The person a call is from and their library, or the refusal: no
/// library on this site (404), nobody signed in (401), over a budget.
async fn person(
    gateway: &Gateway,
    headers: &HeaderMap,
    peer: SocketAddr,
    changes: bool,
) -> Result<(Arc<str>, Arc<Library>), Refusal> {
    let library = gateway.library.clone().ok_or(Refusal::NotFound)?;
    if changes && !gateway.access.may_change(headers) {
        return Err(Refusal::CrossSite);
    }
    match gateway.admit(headers, peer.ip()).await?.0 {
        Who::Person(name) => Ok((name, library)),
        Who::Address(_) => Err(Refusal::NotFound),
    }
}

/// `data` in the service's envelope, as the gateway's other answers are.
fn answer(data: impl serde::Serialize) -> Response {
    Json(media_gen_api::Envelope::success(
        media_gen_api::envelope::MSG_OK,
        data,
    ))
    .into_response()
}

/// A failed call of the database: 503, said in the log.
fn unavailable(error: super::database::DbError) -> Refusal {
    tracing::error!(%error, "the library failed a call");
    metrics::counter!(crate::observe::LIBRARY_FAILURES).increment(1);
    Refusal::Unavailable
}

/// `body` read as `T`, or a 400 naming what is wrong.
fn read<T: DeserializeOwned>(body: &[u8]) -> Result<T, Refusal> {
    serde_json::from_slice(body).map_err(|error| Refusal::Invalid(format!("the body: {error}")))
}

/// The id in the path, or 404 (nothing else reaches the database).
fn id(text: &str) -> Result<RequestId, Refusal> {
    RequestId::parse(text).ok_or(Refusal::NotFound)
}

async fn list(
    State(gateway): State<Gateway>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, Refusal> {
    let (person, library) = person(&gateway, &headers, peer, false).await?;
    let pairs: Vec<(String, String)> =
        url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let query = LibraryQuery::from_pairs(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())))
        .map_err(Refusal::Invalid)?;
    let page = library.list(&person, &query).await.map_err(unavailable)?;
    Ok(answer(page))
}

async fn one(
    State(gateway): State<Gateway>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(request): Path<String>,
) -> Result<Response, Refusal> {
    let (person, library) = person(&gateway, &headers, peer, false).await?;
    let item = library
        .get(&person, &id(&request)?)
        .await
        .map_err(unavailable)?
        .ok_or(Refusal::NotFound)?;
    Ok(answer(item))
}

async fn rename(
    State(gateway): State<Gateway>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(request): Path<String>,
    body: Bytes,
) -> Result<Response, Refusal> {
    let (person, library) = person(&gateway, &headers, peer, true).await?;
    let id = id(&request)?;
    let rename: Rename = read(&body)?;
    let name = check_name(&rename.name).map_err(Refusal::Invalid)?;
    if !library
        .rename(&person, &id, &name)
        .await
        .map_err(unavailable)?
    {
        return Err(Refusal::NotFound);
    }
    let item = library.get(&person, &id).await.map_err(unavailable)?;
    Ok(answer(item))
}

async fn remove_one(
    State(gateway): State<Gateway>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(request): Path<String>,
) -> Result<Response, Refusal> {
    let (person, library) = person(&gateway, &headers, peer, true).await?;
    let removed = library
        .remove(&person, &[id(&request)?], now_ms())
        .await
        .map_err(unavailable)?;
    if removed.requests.is_empty() {
        return Err(Refusal::NotFound);
    }
    Ok(answer(removed))
}

/// The requests a `remove` or `restore` names, or a 400.
fn many(body: &[u8]) -> Result<Vec<RequestId>, Refusal> {
    let many: Many = read(body)?;
    if many.requests.is_empty() || many.requests.len() > MANY_MAX {
        return Err(Refusal::Invalid(format!(
            "requests: 1 to {MANY_MAX} request ids"
        )));
    }
    Ok(many.requests)
}

async fn remove_many(
    State(gateway): State<Gateway>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let (person, library) = person(&gateway, &headers, peer, true).await?;
    let removed = library
        .remove(&person, &many(&body)?, now_ms())
        .await
        .map_err(unavailable)?;
    Ok(answer(removed))
}

async fn restore(
    State(gateway): State<Gateway>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let (person, library) = person(&gateway, &headers, peer, true).await?;
    let asked = many(&body)?;
    let restored = library
        .restore(&person, &asked, now_ms())
        .await
        .map_err(unavailable)?;
    if restored.is_empty() {
        return Err(Refusal::Gone(
            "removed more than a minute ago, or not removed: nothing to restore".to_owned(),
        ));
    }
    Ok(answer(Removed {
        requests: restored,
        undo_until: 0,
    }))
}

async fn import(
    State(gateway): State<Gateway>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let (person, library) = person(&gateway, &headers, peer, true).await?;
    let import: Import = read(&body)?;
    if import.tasks.len() > IMPORT_MAX {
        return Err(Refusal::Invalid(format!(
            "tasks: at most {IMPORT_MAX} at once"
        )));
    }
    let imported = library
        .import(&person, &import.tasks, now_ms())
        .await
        .map_err(unavailable)?;
    Ok(answer(imported))
}
