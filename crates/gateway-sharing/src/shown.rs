//! What a link shows now: the link read (404 for a token never made,
//! 410 for one taken back or past its end), let in (a team link only for
//! someone signed in; any other counted against the visitor's budget),
//! and each task with its kept copies. A result file with no kept copy is
//! counted, never linked: the page says how many are left out.

use std::collections::HashMap;
use std::net::IpAddr;

use axum::http::HeaderMap;
use media_gen_api::kept::{result_files, MediaField};
use media_gen_api::library::{LibraryItem, RequestId};
use media_gen_api::share::is_share_token;
use media_gen_api::{AnyTask, Request, TaskKey, TaskKind};
use media_gen_gateway_access::admission::Admission;
use media_gen_gateway_access::Who;
use media_gen_gateway_base::client_address::visitor;
use media_gen_gateway_base::clock::now_seconds;
use media_gen_gateway_base::refusal::Refusal;
use media_gen_gateway_library::shares::SharedLink;
use media_gen_gateway_uploads::record::Upload;
use media_gen_gateway_uploads::FileId;

use crate::owner::unavailable;
use media_gen_gateway_library::now_ms;

use crate::Sharing;

/// One kept file a page shows.
#[derive(Debug, Clone)]
pub struct File {
    /// Which of the task's results it is.
    pub field: MediaField,
    /// The copy's id in the store (never shown).
    pub id: FileId,
    /// What the store knows of it.
    pub record: Upload,
}

/// One task a page shows.
#[derive(Debug, Clone)]
pub struct ShownTask {
    /// Its place in the link (the files' addresses name it).
    pub index: usize,
    /// The task.
    pub key: TaskKey,
    /// The task as last read, when it was.
    pub task: Option<AnyTask>,
    /// Its kept files.
    pub files: Vec<File>,
    /// Its result files with no kept copy: not shared.
    pub left_out: usize,
}

/// One request a page shows, with its tasks.
#[derive(Debug, Clone)]
pub struct ShownRequest {
    /// Its kind.
    pub kind: TaskKind,
    /// What was asked, when the link shows it and it reads.
    pub asked: Option<Request>,
    /// The request's body as sent, when the link shows what was asked.
    pub body: Option<serde_json::Value>,
    /// Its tasks in the link.
    pub tasks: Vec<ShownTask>,
}

/// The link `token`, whether or not it may be opened; the refusal when
/// there is none (404) or it is gone (410).
pub async fn link(sharing: &Sharing, token: &str) -> Result<SharedLink, Refusal> {
    if !is_share_token(token) {
        return Err(Refusal::NotFound);
    }
    let link = sharing
        .library
        .shared(token)
        .await
        .map_err(unavailable)?
        .ok_or(Refusal::NotFound)?;
    if !link.live_at(now_ms()) {
        return Err(Refusal::Gone(
            "This link was taken back or has ended".to_owned(),
        ));
    }
    Ok(link)
}

/// Let a visitor at `peer` in to `link`: a team link only for a person
/// signed in to the site (401 otherwise); one request counted against the
/// visitor's budget either way (by person, or by address).
pub async fn let_in(
    admission: &Admission,
    link: &SharedLink,
    headers: &HeaderMap,
    peer: IpAddr,
) -> Result<(), Refusal> {
    let client = admission.client_address(peer, headers);
    if link.team {
        let who = admission.access.who(headers, peer, client).await?;
        if !matches!(who, Who::Person(_)) {
            return Err(Refusal::SignInNeeded);
        }
        return admission.count_request(&who).await;
    }
    admission
        .count_request(&Who::Address(visitor(client)))
        .await
}

/// The kept copy of `field` of `key`, when there is one complete and live.
async fn kept_file(sharing: &Sharing, key: &TaskKey, field: MediaField) -> Option<File> {
    let id = sharing.kept.settings.ids.id(key, field);
    let record = sharing.kept.uploads.store.get(&id).await.ok()??;
    let usable = record
        .kept
        .as_ref()
        .is_some_and(|kept| kept.not_kept.is_none())
        && record.complete
        && !record.expired_at(now_seconds());
    usable.then_some(File { field, id, record })
}

/// Task `index` of `link` and its kept files, from `item` (its request as
/// the library holds it).
async fn task_of(sharing: &Sharing, index: usize, key: &TaskKey, item: &LibraryItem) -> ShownTask {
    let task = item
        .tasks
        .iter()
        .find(|task| task.task_id == key.id)
        .and_then(|task| task.task.clone())
        .and_then(|json| serde_json::from_value::<AnyTask>(json).ok());
    let mut files = Vec::new();
    let mut left_out = 0;
    if let Some(task) = &task {
        for (field, _) in result_files(task) {
            match kept_file(sharing, key, field).await {
                Some(file) => files.push(file),
                None => left_out += 1,
            }
        }
    }
    ShownTask {
        index,
        key: key.clone(),
        task,
        files,
        left_out,
    }
}

/// What `link` shows now, request by request.
pub async fn shown(sharing: &Sharing, link: &SharedLink) -> Result<Vec<ShownRequest>, Refusal> {
    let mut items: HashMap<RequestId, Option<LibraryItem>> = HashMap::new();
    let mut requests: Vec<(RequestId, ShownRequest)> = Vec::new();
    for (index, shared) in link.tasks.iter().enumerate() {
        if !items.contains_key(&shared.request) {
            let item = sharing
                .library
                .get(&link.person, &shared.request)
                .await
                .map_err(unavailable)?;
            items.insert(shared.request.clone(), item);
        }
        // A request the person removed since is no longer shown.
        let Some(Some(item)) = items.get(&shared.request) else {
            continue;
        };
        let task = task_of(sharing, index, &shared.task, item).await;
        match requests.last_mut() {
            Some((request, shown)) if *request == shared.request => shown.tasks.push(task),
            _ => requests.push((
                shared.request.clone(),
                ShownRequest {
                    kind: item.kind,
                    asked: link
                        .asked
                        .then(|| Request::from_json(item.kind, item.body.clone()).ok())
                        .flatten(),
                    body: link.asked.then(|| item.body.clone()),
                    tasks: vec![task],
                },
            )),
        }
    }
    Ok(requests.into_iter().map(|(_, shown)| shown).collect())
}

/// The kept file `field` of task `index` of `link`; 404 when there is
/// none.
pub async fn file(
    sharing: &Sharing,
    link: &SharedLink,
    index: usize,
    field: MediaField,
) -> Result<File, Refusal> {
    let shared = link.tasks.get(index).ok_or(Refusal::NotFound)?;
    // Still in the person's library: a request removed is no longer shared.
    sharing
        .library
        .get(&link.person, &shared.request)
        .await
        .map_err(unavailable)?
        .ok_or(Refusal::NotFound)?;
    kept_file(sharing, &shared.task, field)
        .await
        .ok_or(Refusal::NotFound)
}
