//! A finished upload served at its own address (the tus `Location`, with
//! or without a `/{name}` after it), for the service to fetch: its type as
//! its first bytes said, `Range` requests (video fetchers use them), and
//! headers that keep a browser from running it as a page of this site
//! (`nosniff`, a sandboxing content security policy, a download name).

use crate::FileId;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

use super::record::Upload;
use super::refusal::UploadRefusal;
use super::Uploads;
use crate::TakenUploads;

/// `GET`/`HEAD /uploads/{id}`.
pub async fn file(
    State(state): State<TakenUploads>,
    Path(id): Path<String>,
    request: Request,
) -> Result<Response, UploadRefusal> {
    serve(&state, &id, request).await
}

/// `GET`/`HEAD /uploads/{id}/{name}` (the name is the client's; the file
/// is the upload's whatever it says).
pub async fn named(
    State(state): State<TakenUploads>,
    Path((id, _name)): Path<(String, String)>,
    request: Request,
) -> Result<Response, UploadRefusal> {
    serve(&state, &id, request).await
}

async fn serve(
    state: &TakenUploads,
    id: &str,
    request: Request,
) -> Result<Response, UploadRefusal> {
    let uploads = state.0.as_deref().ok_or(UploadRefusal::Off)?;
    let id = &Uploads::known(id)?;
    let upload = uploads.live(id).await?;
    let media = upload
        .media
        .filter(|_| upload.complete)
        .ok_or(UploadRefusal::Incomplete)?;
    let mime = media
        .mime()
        .parse::<mime::Mime>()
        .map_err(|_| UploadRefusal::Storage)?;
    Ok(stored_file(uploads, id, &upload, &mime, request).await)
}

/// Answer `request` (`GET` or `HEAD`, perhaps with `Range`) with the stored
/// file `id` whose record is `record`, as `mime`: for an upload and a kept
/// result alike. Its id is its `ETag` (a stored file never changes); a
/// sandboxing policy and a download name keep a browser from running it as
/// a page of this site (`nosniff` is every answer's); asked again each time
/// (a 304 while it lives), so a browser that kept a copy still learns when
/// it is gone; and a page of another site may show it (an `<img>` of the
/// widgets on a site of their own).
pub async fn stored_file(
    uploads: &Uploads,
    id: &FileId,
    record: &Upload,
    mime: &mime::Mime,
    request: Request,
) -> Response {
    let mut response = match uploads.store.bytes.serve(id, record, mime, request).await {
        Ok(response) => response,
        Err(_) => return UploadRefusal::Storage.into_response(),
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("sandbox; default-src 'none'"),
    );
    if let Ok(disposition) = HeaderValue::from_str(&format!("inline; filename=\"{}\"", record.name))
    {
        headers.insert(header::CONTENT_DISPOSITION, disposition);
    }
    if let Ok(tag) = HeaderValue::from_str(&format!("\"{id}\"")) {
        headers.insert(header::ETAG, tag);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::HeaderName::from_static("cross-origin-resource-policy"),
        HeaderValue::from_static("cross-origin"),
    );
    response
}
