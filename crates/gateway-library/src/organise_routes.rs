//! The page's calls that organise its person's library
//! (`media_gen_api::organise`): stars, collections and settings saved by
//! name. Let in and refused as the library's other calls are
//! (`routes.rs`): a change only with `MayChange`, each call
//! `Admitted`, another person's collection 404 as a guessed one.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRef, Path};
use axum::response::Response;
use axum::routing::{delete, get, patch, post};
use axum::Router;
use media_gen_api::library::{Many, RequestId};
use media_gen_api::organise::{
    check_many, check_organise_name, CollectionId, NewCollection, Preset, Star,
};
use media_gen_api::TaskKind;

use super::calls::{answer, person, read, unavailable, KeptLibrary};
use super::now_ms;
use super::organise::Changed;
use crate::access::admission::{Admission, Admitted, MayChange};
use crate::refusal::Refusal;
use media_gen_gateway_base::offered::On;

/// The routes, on the library's state.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    KeptLibrary: FromRef<S>,
    Arc<Admission>: FromRef<S>,
{
    Router::new()
        .route("/library/star", post(star))
        .route(
            "/library/collections",
            get(collections).post(add_collection),
        )
        .route(
            "/library/collections/{collection}",
            patch(rename_collection).delete(remove_collection),
        )
        .route("/library/collections/{collection}/add", post(add_to))
        .route("/library/collections/{collection}/take-out", post(take_out))
        .route("/library/presets", get(presets).put(save_preset))
        .route("/library/presets/{kind}/{name}", delete(remove_preset))
}

/// The collection in the path, or 404.
fn collection_id(text: &str) -> Result<CollectionId, Refusal> {
    CollectionId::parse(text).ok_or(Refusal::NotFound)
}

/// What a change found, as an answer or a refusal.
fn changed<T: serde::Serialize>(changed: Changed<T>, what: &str) -> Result<Response, Refusal> {
    match changed {
        Changed::Done(data) => Ok(answer(data)),
        Changed::Unknown => Err(Refusal::NotFound),
        Changed::Full(bound) => Err(Refusal::Invalid(format!(
            "{what}: at most {bound}; remove one first"
        ))),
    }
}

async fn star(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    body: Bytes,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let star: Star = read(&body)?;
    check_many(&star.requests).map_err(Refusal::Invalid)?;
    let changed = library
        .star(&person, &star.requests, star.starred)
        .await
        .map_err(unavailable)?;
    library.organised(&person, changed.clone());
    Ok(answer(Many { requests: changed }))
}

async fn collections(
    On(library): On<KeptLibrary>,
    admitted: Admitted,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let all = library.collections(&person).await.map_err(unavailable)?;
    Ok(answer(all))
}

/// A new collection: `{ name, requests? }`.
#[derive(serde::Deserialize)]
struct AddCollection {
    #[serde(flatten)]
    named: NewCollection,
    #[serde(default)]
    requests: Vec<media_gen_api::library::RequestId>,
}

async fn add_collection(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    body: Bytes,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let asked: AddCollection = read(&body)?;
    let name = check_organise_name(&asked.named.name).map_err(Refusal::Invalid)?;
    if !asked.requests.is_empty() {
        check_many(&asked.requests).map_err(Refusal::Invalid)?;
    }
    let made = library
        .add_collection(&person, &name, &asked.requests, now_ms())
        .await
        .map_err(unavailable)?;
    changed(made, "collections")
}

async fn rename_collection(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    Path(collection): Path<String>,
    body: Bytes,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let id = collection_id(&collection)?;
    let asked: NewCollection = read(&body)?;
    let name = check_organise_name(&asked.name).map_err(Refusal::Invalid)?;
    let renamed = library
        .rename_collection(&person, &id, &name)
        .await
        .map_err(unavailable)?;
    changed(told(&library, &person, renamed), "collections")
}

async fn remove_collection(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    Path(collection): Path<String>,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let removed = library
        .remove_collection(&person, &collection_id(&collection)?)
        .await
        .map_err(unavailable)?;
    changed(told(&library, &person, removed), "collections")
}

/// A collection renamed or removed, its requests' pages told (they read
/// the collections again); nothing to answer but that it was done.
fn told(
    library: &Arc<crate::Library>,
    person: &str,
    changed: Changed<Vec<RequestId>>,
) -> Changed<()> {
    changed.map(|requests| library.organised(person, requests))
}

/// Put the body's requests in the collection, or take them out.
async fn collect(
    library: &Arc<crate::Library>,
    admitted: Admitted,
    collection: &str,
    body: &[u8],
    add: bool,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let id = collection_id(collection)?;
    let many: Many = read(body)?;
    check_many(&many.requests).map_err(Refusal::Invalid)?;
    let changed_requests = library
        .collect(&person, &id, &many.requests, add, now_ms())
        .await
        .map_err(unavailable)?;
    if let Changed::Done(requests) = &changed_requests {
        library.organised(&person, requests.clone());
    }
    changed(
        changed_requests.map(|requests| Many { requests }),
        "requests",
    )
}

async fn add_to(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    Path(collection): Path<String>,
    body: Bytes,
) -> Result<Response, Refusal> {
    collect(&library, admitted, &collection, &body, true).await
}

async fn take_out(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    Path(collection): Path<String>,
    body: Bytes,
) -> Result<Response, Refusal> {
    collect(&library, admitted, &collection, &body, false).await
}

async fn presets(On(library): On<KeptLibrary>, admitted: Admitted) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let all = library.presets(&person).await.map_err(unavailable)?;
    Ok(answer(all))
}

async fn save_preset(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    body: Bytes,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let mut preset: Preset = read(&body)?;
    preset.name = check_organise_name(&preset.name).map_err(Refusal::Invalid)?;
    preset.check().map_err(Refusal::Invalid)?;
    let now = now_ms();
    let saved = library
        .save_preset(&person, &preset, now)
        .await
        .map_err(unavailable)?;
    preset.updated = now;
    changed(saved.map(|()| preset), "presets")
}

async fn remove_preset(
    On(library): On<KeptLibrary>,
    _: MayChange,
    admitted: Admitted,
    Path((kind, name)): Path<(String, String)>,
) -> Result<Response, Refusal> {
    let person = person(admitted)?;
    let kind: TaskKind = kind.parse().map_err(|_| Refusal::NotFound)?;
    let removed = library
        .remove_preset(&person, kind, &name)
        .await
        .map_err(unavailable)?;
    changed(removed, "presets")
}
