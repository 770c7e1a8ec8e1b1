//! The page's calls on its person's library, under the site's base path:
//! `GET /library` (a page, filtered), `GET|PATCH|DELETE /library/{request}`
//! (one, renamed, removed), `POST /library/remove`, `/library/restore`
//! and `/library/import` (and what organises it: `organise_routes.rs`).
//! Each is let in as a `/v1` call is (a key or the
//! session cookie, the budgets); changes only from this site's pages or
//! programs. A person reaches only their own requests: another's id
//! answers 404, as a guessed one does.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRef, Path, RawQuery};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use media_gen_api::library::{
    check_name, Import, LibraryQuery, Many, Removed, Rename, RequestId, IMPORT_MAX, MANY_MAX,
};

use super::calls::{answer, person, read};
pub use super::calls::{unavailable, KeptLibrary};
use super::now_ms;
use crate::access::admission::{Admission, Admitted, MayChange};
use crate::refusal::Refusal;
use media_gen_gateway_base::offered::On;

/// The largest import's body (a thousand tasks with their requests).
const IMPORT_BODY_BYTES: usize = 8 * 1024 * 1024;

/// The library's routes, on a state that holds the library and lets
/// calls in.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    KeptLibrary: FromRef<S>,
    Arc<Admission>: FromRef<S>,
{
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
        .merge(super::organise_routes::routes())
}

/// The id in the path, or 404 (nothing else reaches the database).
fn id(text: &str) -> Result<RequestId, Refusal> {
    RequestId::parse(text).ok_or(Refusal::NotFound)
}

async fn list(
    On(library): On<KeptLibrary>,
    admitted: Admitted,
    RawQuery(query): RawQuery,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
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
    On(library): On<KeptLibrary>,
    admitted: Admitted,
    Path(request): Path<String>,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let item = library
        .get(&person, &id(&request)?)
        .await
        .map_err(unavailable)?
        .ok_or(Refusal::NotFound)?;
    Ok(answer(item))
}

async fn rename(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    Path(request): Path<String>,
    body: Bytes,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
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
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    Path(request): Path<String>,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
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
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    body: Bytes,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let removed = library
        .remove(&person, &many(&body)?, now_ms())
        .await
        .map_err(unavailable)?;
    Ok(answer(removed))
}

async fn restore(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    body: Bytes,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
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
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    body: Bytes,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
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
